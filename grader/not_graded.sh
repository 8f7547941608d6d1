# not_graded.sh — a "could not grade" results.json written from sh, sourced by
# ./grade (before its report tool is built) and by the Gradescope autograder's
# run_autograder (before ./grade runs, or when it died without one). Its shape
# is the report's own (grader/output.c, --problem): the same keys, in the same
# order, so every reader (Gradescope, the gradebook) reads every outcome one
# way; tests/tools/gradescope.c pins that they agree.

# TEXT as the contents of a JSON string: quotes and backslashes escaped,
# control characters as spaces, bytes that are not UTF-8 dropped (file names
# are the student's).
not_graded_text() {
    printf '%s' "$1" | { iconv -c -f UTF-8 -t UTF-8 2>/dev/null || LC_ALL=C tr -c '\011\012\015\040-\176' '?'; } |
        LC_ALL=C tr '\000-\037' ' ' | sed 's/\\/\\\\/g; s/"/\\"/g'
}

# PATH LAB KIT_VERSION MODE REASON [MAX]: written whole (a temporary name, then
# renamed). MODE: "" on a GPU, "cpu", or the autograder's mode; MAX: the
# lab's maximum where the caller knows it, else 0.
not_graded_json() {
    nj_reason=$(not_graded_text "$5")
    nj_version=$(not_graded_text "$3")
    {
        printf '{\n  "score": 0,\n  "max_score": %s,\n  "execution_time": 0,\n' "${6:-0}"
        printf '  "output": "Could not grade: %s\\n\\nkit: tilelab %s\\n",\n' "$nj_reason" "$nj_version"
        printf '  "output_format": "text",\n  "visibility": "visible",\n  "stdout_visibility": "hidden",\n'
        printf '  "tests": [\n    {\n      "name": "could not grade",\n      "score": 0,\n      "max_score": 0,\n'
        printf '      "status": "failed",\n      "output": "%s\\n",\n      "visibility": "visible"\n    }\n  ],\n' "$nj_reason"
        printf '  "extra_data": {\n    "lab": "%s",\n    "source": "",\n    "seed": "",\n    "gpu": "",\n' "$(not_graded_text "$2")"
        [ -z "$4" ] || printf '    "mode": "%s",\n' "$(not_graded_text "$4")"
        printf '    "kit_version": "%s",\n    "command": "",\n    "graded": false,\n    "flags": "not-graded"\n  }\n}\n' "$nj_version"
    } >"$1.tmp.$$" && mv -f "$1.tmp.$$" "$1"
}

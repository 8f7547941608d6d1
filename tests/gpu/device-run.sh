#!/bin/sh
# device-run.sh — the whole GPU suite in one bounded run on a machine with a GPU (no network
# needed: Criterion comes from a .deps/ made with make deps-carry, README), for a lead who has
# one call of a few minutes on it. Run from the kit's root:
#
#   OUT=/some/folder sh tests/gpu/device-run.sh
#
# It builds the kit and the suite (make -jCORES), then grades the table's rows
# (tests/gpu/fixtures.c) with the GPU suite, TILELAB_GPU_JOBS (default 8) at once on the GPU:
# first every lab's solution and skeleton and the attacks, then the rest. The suite stops at
# TILELAB_SUITE_S seconds (default 300), the whole run before TILELAB_RUN_S (default 540)
# (TILELAB_ROWS=lab5/,fair/lab1/: only those rows):
# a row not finished by then is said to be so, never counted as passed. In OUT, at most
# six files: summary.txt (every row: PASS, FAIL and why, UNFINISHED, NOT-RUN or SKIPPED, with
# its seconds, exit and score; the counts and the times last), suite.log (the suite's own
# output; suite.log.gz when long), build.log, probe.txt (the GPU), slowest.txt (the five slowest rows) and
# rows-logs.tar.gz (the logs of every row that did not pass). Exit 0 when every row graded
# passed and none was left unfinished or not run; 1 otherwise; 2 when nothing could be graded.
set -u
started=$(date +%s)
out=${OUT:-build/device-run}
suite_s=${TILELAB_SUITE_S:-300} run_s=${TILELAB_RUN_S:-540} jobs=${TILELAB_GPU_JOBS:-8}
runs=build/tests/gpu-runs
mkdir -p "$out" && out=$(cd "$out" && pwd) || { echo "device-run: cannot make $out" >&2; exit 2; }
elapsed() { echo $(( $(date +%s) - started )); }
left() { echo $(( run_s - $(elapsed) )); }
say() { echo "device-run: $*"; echo "$*" >>"$out/summary.txt"; }
: >"$out/summary.txt"
[ -r Makefile ] && [ -d tests/gpu ] || { say "run me from the kit's root (the instructor kit)"; exit 2; }

# ---- build: the kit (judges, workers, probe) once, so the parallel grades build only their files
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 4)
build_s=$(( $(left) - suite_s - 30 )); [ "$build_s" -le 240 ] || build_s=240
if ! MAKEFLAGS= MAKELEVEL= timeout -k 5 "$build_s" make --no-print-directory -j"$cores" kit build/tests/gpu build/tests/rows \
        >"$out/build.log" 2>&1; then
    say "the build failed or passed ${build_s} s (exit $?): see build.log"; tail -n 20 "$out/build.log"; exit 2
fi
probe=$(ls -d build/sm_*/kit/probe 2>/dev/null | head -n 1)
{ nvidia-smi -L 2>&1; "${TILELAB_PROBE:-$probe}" 2>&1; } >"$out/probe.txt"
probe=${TILELAB_PROBE:-$probe}   # TILELAB_PROBE: a stand-in probe (a test of this script without a GPU)
"$probe" >/dev/null 2>&1 || { say "no usable GPU: $(tail -n 1 "$out/probe.txt") (probe.txt)"; exit 2; }
build_done=$(elapsed)
say "built in ${build_done} s with make -j$cores"

# ---- the suite, in two passes that share its time: the rows that matter most first
build/tests/rows >"$out/rows.tmp" || { say "the table does not load: $(build/tests/rows 2>&1 | head -n 1)"; exit 2; }
# TILELAB_ROWS: only the rows named, or starting with, one of its comma-separated items (as
# TILELAB_FIXTURE names them): a check of the rows a change touches, within one call.
if [ -n "${TILELAB_ROWS:-}" ]; then
    awk -F '\t' -v want="$TILELAB_ROWS" 'BEGIN { n = split(want, w, ",") }
        { for (i = 1; i <= n; i++) if (w[i] != "" && index($1, w[i]) == 1) { print; next } }' \
        "$out/rows.tmp" >"$out/rows.want.tmp" && mv "$out/rows.want.tmp" "$out/rows.tmp"
    say "rows: only those named by TILELAB_ROWS ($(wc -l <"$out/rows.tmp") of the table)"
fi
first=$(awk -F '\t' '$1 ~ /\/(solution|skeleton)$/ || $1 ~ /^attacks\// { printf "%s%s", n++ ? "," : "", $1 }' "$out/rows.tmp")
rest=$(awk -F '\t' '!($1 ~ /\/(solution|skeleton)$/ || $1 ~ /^attacks\//) { printf "%s%s", n++ ? "," : "", $1 }' "$out/rows.tmp")
rm -rf "$runs"
suite_end=$(( $(date +%s) + suite_s ))
: >"$out/suite.log"
for rows in "$first" "$rest"; do
    budget=$(( suite_end - $(date +%s) )); [ "$budget" -le "$(( $(left) - 20 ))" ] || budget=$(( $(left) - 20 ))
    [ "$budget" -gt 5 ] || break
    echo "== $(echo "$rows" | tr ',' '\n' | wc -l) rows, $budget s left, -j$jobs" >>"$out/suite.log"
    MAKEFLAGS= MAKELEVEL= TILELAB_PROBE="$probe" TILELAB_FIXTURE="$rows" timeout -k 10 "$budget" \
        build/tests/gpu -j"$jobs" --verbose >>"$out/suite.log" 2>&1
    echo "== exit $?" >>"$out/suite.log"
done
suite_took=$(( $(elapsed) - build_done ))
# A long log (every failing row prints its report) comes back compressed.
[ "$(wc -c <"$out/suite.log")" -lt 4000000 ] || gzip -f "$out/suite.log"

# ---- every row, from its verdict file (tests/gpu/grading.c) and its results.json
: >"$out/failed.tmp"
while IFS="$(printf '\t')" read -r name run why; do
    v=$runs/$run.verdict
    # expect-repeat rows grade into RUN-1, RUN-2, ...: the seconds of all of them
    seconds=$(cat "$runs/$run/results.json" "$runs/$run"-[0-9]/results.json 2>/dev/null |
              sed -n 's/.*"execution_time": *\([0-9.]*\).*/\1/p' | awk '{ s += $1; n++ } END { if (n) printf "%.0f", s }')
    if [ -n "$why" ]; then result=SKIPPED detail=$why
    elif [ ! -e "$v" ]; then result=NOT-RUN detail="the suite's time ran out before it started"
    elif grep -q 'FAIL' "$v"; then result=FAIL detail=$(grep 'FAIL' "$v" | sed 's/.*FAIL: //' | head -n 1)
    elif grep -qx done "$v"; then result=PASS detail=
    else result=UNFINISHED detail="stopped by an assertion (suite.log says why) or by the time limit"
    fi
    grades=$(grep '^exit ' "$v" 2>/dev/null | sed 's/ FAIL:.*//' | paste -sd ';' -)
    printf '%-10s %6s s  %-52s %-24s %s\n' "$result" "${seconds:--}" "$name" "${grades:--}" "$detail"
    case $result in FAIL|UNFINISHED) echo "$run" >>"$out/failed.tmp" ;; esac
done <"$out/rows.tmp" >"$out/table.tmp"
sort -s -k1,1 "$out/table.tmp" >>"$out/summary.txt"
count() { grep -c "^$1 " "$out/table.tmp"; }
say "$(wc -l <"$out/rows.tmp") rows: $(count PASS) passed, $(count FAIL) failed, $(count UNFINISHED) unfinished, $(count NOT-RUN) not run, $(count SKIPPED) skipped"
say "suite ${suite_took} s (limit ${suite_s} s, -j$jobs), whole run $(elapsed) s (limit ${run_s} s)"
awk '$1 != "SKIPPED" && $2 != "-"' "$out/table.tmp" | sort -k2,2 -g -r | head -n 5 >"$out/slowest.txt"
# The logs of every row that did not pass, and what the suite kept of it (its programs left out).
if [ -s "$out/failed.tmp" ]; then
    (cd "$runs" && while read -r run; do ls -d "$run.log" "$run.verdict" "$run" 2>/dev/null; done <"$out/failed.tmp" |
        tar -czf "$out/rows-logs.tar.gz" --exclude='*.so' --exclude='*.o' --exclude=worker -T - 2>/dev/null)
fi
bad=$(( $(count FAIL) + $(count UNFINISHED) + $(count NOT-RUN) ))
rm -f "$out"/*.tmp
[ "$bad" -eq 0 ]

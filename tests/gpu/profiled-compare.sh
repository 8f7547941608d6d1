#!/bin/sh
# profiled-compare.sh — the measurement behind the rubrics' profiled_time_low and
# profiled_time_high (issue 45, "the profiled process still distinguishable"). Run once on
# the GPU the thresholds are for (an H200), from the repository root:
#
#   sh tests/gpu/profiled-compare.sh            # summary on stdout and in $OUT (else build/)
#
# It grades, through ./grade itself, each lab's reference and the attacks that run other code
# under the profiler, and reads back what the report set side by side: ncu's own GPU time of
# the launch it counted at the timed shape (gpu__time_duration, the request's kernels summed)
# and the measurement's median per launch of the same request (lab 7: B dense and block
# density 1/4). One line per comparison: the grade, what was compared, counted ms, timed ms,
# their ratio, and the score. The whole run is bounded at 240 s (PROFILED_COMPARE_S=N for
# another bound): a grade that would end past it (by a rough estimate) is left out and said so,
# and one still running at the bound is stopped. The kit is built by the first grade: on a
# fresh machine build it first (./grade lab3 --file solutions/lab3-padding/transpose.cu once),
# or give a larger bound (PROFILED_COMPARE_S=560 for every grade below in one 10-minute call).
#
# Setting the margin: the references' ratios (every lab, every seed) give the honest band,
# LO..HI; set profiled_time_low a margin below LO and profiled_time_high a margin above HI
# (say 5 % of the ratio each side, more if the references spread), in labs 3, 6 and 7's
# lab.rubric, and write the measured ratios beside them. The attacks' ratios say what that
# band catches: one whose ratio lies inside it has two paths of about the same time, which a
# time cannot tell apart (the limit the instructors' guide states).
set -u
budget=${PROFILED_COMPARE_S:-240}
out=${OUT:-build}/profiled-compare
mkdir -p "$out" || exit 2
summary=$out/summary.txt
began=$(date +%s)
: >"$summary"
say() { printf '%s\n' "$*" | tee -a "$summary"; }

# NAME LAB FILE-OR-PATCH SEED ESTIMATE_S: one graded run; a patch is applied to the lab's solution.
grade_one() {
    name=$1 lab=$2 src=$3 seed=$4 estimate=$5
    now=$(date +%s)
    if [ $((now - began + estimate)) -gt "$budget" ]; then
        say "$name: left out (would end past the ${budget} s budget)"
        return
    fi
    dir=$out/$name
    rm -rf "$dir" && mkdir -p "$dir"
    file=$src
    case $src in *.patch)
        solution=$(ls solutions/"$lab"-*/*.cu | head -n1)
        file=$dir/$(basename "$solution")
        patch -s -o "$file" "$solution" <"$src" >"$dir/patch.log" 2>&1 || { say "$name: the patch does not apply (see $dir/patch.log)"; return; }
    esac
    left=$((budget - (now - began)))
    timeout --foreground "$left" ./grade "$lab" --file "$file" --seed "$seed" --out "$dir/run" >"$dir/grade.log" 2>&1
    status=$?
    score=$(sed -n 's/^Score: //p' "$dir/grade.log" | tail -n1)
    # The report's lines: "...(WHAT: X ms counted (ncu) vs Y ms timed, Rx)" when within the band,
    # "...: X ms counted vs Y ms timed (WHAT, Rx; ..." when not.
    found=$(grep -o -e '[A-Za-z0-9/ ]*: [0-9.e+-]* ms counted (ncu) vs [0-9.e+-]* ms timed, [0-9.]*x' \
                    -e '[0-9.e+-]* ms counted vs [0-9.e+-]* ms timed ([A-Za-z0-9/ ]*, [0-9.]*x' "$dir/grade.log" | sort -u)
    if [ -z "$found" ]; then
        say "$name: no comparison in the report (exit $status, score ${score:-none}; see $dir/grade.log)"
        return
    fi
    printf '%s\n' "$found" | awk -v name="$name" -v score="${score:-none}" '
        / ms counted \(ncu\) vs / {   # WHAT: X ms counted (ncu) vs Y ms timed, Rx
            what = $0; sub(/:.*/, "", what); sub(/^ */, "", what)
            n = split($0, w, " "); for (i = 1; i <= n; i++) { if (w[i] == "counted") x = w[i - 2]; if (w[i] == "timed,") y = w[i - 2] }
        }
        / ms counted vs / {           # X ms counted vs Y ms timed (WHAT, Rx
            n = split($0, w, " "); x = w[1]; y = w[5]
            what = $0; sub(/^[^(]*\(/, "", what); sub(/,[^,]*$/, "", what)
        }
        { printf "%-44s %-18s counted %10.4f ms  timed %10.4f ms  ratio %.3f  score %s\n", name, what, x, y, x / y, score }
    ' | tee -a "$summary"
}

say "profiled-compare: ncu's time of the counted launch over the measurement's, per launch ($(date -u '+%Y-%m-%d %H:%M UTC'))"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/GPU: /' | tee -a "$summary"
# Each lab's reference and the attack first; second seeds for the transposes while time is left.
grade_one lab6-reference-seed1 lab6 solutions/lab6-register-transpose/transpose.cu 20261121 45
grade_one lab6-attack-profiled_seen lab6 tests/submissions/attacks/lab6/profiled_seen_in_start_environment.patch 20261121 45
grade_one lab3-reference-seed1 lab3 solutions/lab3-padding/transpose.cu 20261121 45
grade_one lab7-reference lab7 solutions/lab7-sparse-matmul/matmul.cu 20261121 150
grade_one lab7-attack-profiled_seen lab7 tests/submissions/attacks/lab7/profiled_seen_in_start_environment.patch 20261121 150
grade_one lab6-reference-seed2 lab6 solutions/lab6-register-transpose/transpose.cu 7 45
grade_one lab3-reference-seed2 lab3 solutions/lab3-padding/transpose.cu 7 45
say "elapsed $(( $(date +%s) - began )) s; summary in $summary"

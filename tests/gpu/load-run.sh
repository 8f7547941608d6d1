#!/bin/sh
# load-run.sh — issue 41's measurements on a GPU machine (an H200): load never changes a grade,
# and how fast a class grades. Not part of make test: it needs a GPU and minutes.
#
#   tests/gpu/load-run.sh together   16 grades of lab 3's reference and 8 of lab 7's, started at
#                                    once: each must score 100
#   tests/gpu/load-run.sh alone      lab 3's reference and fair fixtures (tests/submissions/fair/lab3),
#                                    each graded alone (--batch -j 1): alone.csv
#   tests/gpu/load-run.sh class      alone (skipped when LOAD_ALONE_CSV names an earlier run's
#                                    alone.csv), then a class of LOAD_CLASS_FILES (200) copies of those
#                                    files graded with --batch -j LOAD_JOBS (default: the batch's):
#                                    every score must equal its file's alone
#   tests/gpu/load-run.sh all        together, then class
#
# Bounded: everything stops at LOAD_BUDGET_S (500) seconds from the start, and what finished is
# reported (a class cut short says how many of its files were graded, and its rate). The grades'
# folders go to build/load-run/; $OUT (default build/load-run/out) gets summary.txt (also
# printed), together.csv, alone.csv, class.csv, the batches' logs and the folder of every grade
# that did not score as it should. Exit 0 when every check held, 1 when one did not, 2 when it
# could not run (no GPU, a build failed).
set -u
cd "$(dirname "$0")/../.." || exit 2
phase=${1:-all}
case $phase in together|alone|class|all) ;; *) echo "usage: tests/gpu/load-run.sh [together|alone|class|all]" >&2; exit 2 ;; esac
out=build/load-run report=${OUT:-build/load-run/out}
rm -rf "$out/together" "$out/distinct" "$out/alone-class" "$out/alone" "$out/class" "$out/batch" "$out/class.map"
mkdir -p "$out" "$report" && out=$(cd "$out" && pwd) && report=$(cd "$report" && pwd) || exit 2
budget=${LOAD_BUDGET_S:-500} class_files=${LOAD_CLASS_FILES:-200} seed=20261121
started=$(date +%s)
summary=$report/summary.txt
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
left() { echo $((budget - ($(date +%s) - started))); }
failed=0
kept() { mkdir -p "$report/failed" && cp -R "$1" "$report/failed/" 2>/dev/null; [ ! -e "$1.log" ] || cp "$1.log" "$report/failed/"; }
unset TILELAB_GPU_LOCK   # the machine's lock, as every grade here takes it
export NO_COLOR=1 TILELAB_CPU_FALLBACK=0

gpu_names=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | sort | uniq -c | sed 's/^ *//' | paste -sd, -)
say "load-run $phase on ${gpu_names:-no nvidia-smi}, $(getconf _NPROCESSORS_ONLN) cores, kit $(git describe --always --dirty 2>/dev/null || cat VERSION)"

# ---- the grader built once, outside every timing: the tools, both labs' harness and references
build_started=$(date +%s)
for lab in lab3 lab7; do
    src=$(set -- solutions/"$lab"-*/*.cu; echo "$1")
    timeout "$(left)" make -s --no-print-directory build/tools/report build/tools/plan build/tools/rubric build/tools/inspect \
        build/tools/gradebook >"$out/build.log" 2>&1 &&
    timeout "$(left)" make -s --no-print-directory -f mk/submission.mk LAB=$lab SRC="$src" -j"$(getconf _NPROCESSORS_ONLN)" \
        harness grader >>"$out/build.log" 2>&1 || { cp "$out/build.log" "$report/"; say "could not build the grader for $lab: see build.log"; exit 2; }
done
kit=$(make -s --no-print-directory -f mk/submission.mk LAB=lab3 SRC=solutions/lab3-padding/transpose.cu print-dirs | cut -d' ' -f2)
"$kit/probe" >"$out/probe.log" 2>&1 || { say "no usable GPU: $(cat "$out/probe.log")"; exit 2; }
say "built in $(($(date +%s) - build_started)) s: $(cat "$out/probe.log")"

# score/max of a results.json ("" when there is none)
score_of() { [ -s "$1" ] && build/tools/gradebook --line "$1" | cut -d' ' -f1; }
retries_in() { retries=$(grep -c 'timed out with the GPU shared' "$1" 2>/dev/null); echo "${retries:-0}"; }

together() {
    say ""
    say "== together: 16 grades of lab 3's reference and 8 of lab 7's, started at once"
    rm -rf "$out/together" && mkdir -p "$out/together"
    t0=$(date +%s) limit=$(left)
    for i in $(seq 1 16); do
        timeout -k 10 "$limit" ./grade lab3 --file solutions/lab3-padding/transpose.cu --seed $seed \
            --out "$out/together/lab3-$i" >"$out/together/lab3-$i.log" 2>&1 &
    done
    for i in $(seq 1 8); do
        timeout -k 10 "$limit" ./grade lab7 --file solutions/lab7-sparse-matmul/matmul.cu --seed $seed \
            --out "$out/together/lab7-$i" >"$out/together/lab7-$i.log" 2>&1 &
    done
    wait
    echo "grade,score,retried_alone" >"$report/together.csv"
    bad=0 retried=0
    for run in "$out"/together/lab3-* "$out"/together/lab7-*; do
        [ -d "$run" ] || continue
        score=$(score_of "$run/results.json") r=$(retries_in "$run/results.json")
        retried=$((retried + r))
        echo "${run##*/},${score:-none},$r" >>"$report/together.csv"
        [ "$score" = 100/100 ] || { bad=$((bad + 1)); kept "$run"; say "  ${run##*/}: ${score:-no results} (see failed/${run##*/})"; }
    done
    say "  $((24 - bad)) of 24 scored 100/100 in $(($(date +%s) - t0)) s; runs retried alone: $retried (together.csv)"
    [ $bad = 0 ] || failed=1
}

distinct_files() {   # the distinct files: the reference, each fair .cu, each fair .patch applied to the reference
    mkdir -p "$out/distinct" || exit 2
    # The distinct files: the reference, each fair .cu, each fair .patch applied to the reference.
    cp solutions/lab3-padding/transpose.cu "$out/distinct/reference.cu"
    for f in tests/submissions/fair/lab3/*; do
        name=${f##*/}
        case $name in
        *.cu) cp "$f" "$out/distinct/$name" ;;
        *.patch) patch -s -o "$out/distinct/${name%.patch}.cu" solutions/lab3-padding/transpose.cu <"$f" ||
                     { say "  $f does not apply"; failed=1; } ;;
        esac
    done
    distinct=$(ls "$out"/distinct/*.cu | wc -l | tr -d ' ')
}

alone() {
    say ""
    say "== alone: lab 3's reference and fair fixtures, graded one at a time"
    mkdir -p "$out/alone-class"
    for f in "$out"/distinct/*.cu; do n=${f##*/}; mkdir -p "$out/alone-class/${n%.cu}" && cp "$f" "$out/alone-class/${n%.cu}/lab3.cu"; done
    t0=$(date +%s)
    timeout -k 10 "$(left)" ./grade --batch "$out/alone-class" --lab lab3 -j 1 --seed $seed --out "$out/alone" >"$out/alone.log" 2>&1
    cp "$out/alone.log" "$report/"
    echo "file,score_alone" >"$report/alone.csv"
    for f in "$out"/distinct/*.cu; do n=${f##*/}; n=${n%.cu}; echo "$n,$(score_of "$out/alone/$n/lab3/results.json")" >>"$report/alone.csv"; done
    graded=$(grep -c ',[0-9.]*/' "$report/alone.csv")
    say "  $graded of $distinct distinct files graded one at a time in $(($(date +%s) - t0)) s (alone.csv)"
    [ "$graded" = "$distinct" ] || { say "  cut short at LOAD_BUDGET_S=$budget"; failed=1; }
}

class() {
    if [ -n "${LOAD_ALONE_CSV:-}" ]; then
        cp "$LOAD_ALONE_CSV" "$report/alone.csv" || exit 2
        say "the files' scores alone: $LOAD_ALONE_CSV"
    else
        alone
    fi
    say ""
    say "== class: $class_files copies of them, graded with --batch${LOAD_JOBS:+ -j $LOAD_JOBS}"
    mkdir -p "$out/class" || exit 2    # The class: student-NNN's lab3.cu is a copy of distinct file NNN mod their count.
    i=0
    for n in $(seq 1 "$class_files"); do
        set -- "$out"/distinct/*.cu; shift $((i % distinct)); f=$1; i=$((i + 1))
        student=$(printf 'student-%03d' "$n")
        mkdir -p "$out/class/$student" && cp "$f" "$out/class/$student/lab3.cu" && echo "$student ${f##*/}" >>"$out/class.map"
    done
    t0=$(date +%s)
    [ "$(left)" -gt 10 ] || { say "  no time left for the class (LOAD_BUDGET_S=$budget)"; failed=1; return; }
    timeout -k 10 "$(left)" ./grade --batch "$out/class" --lab lab3 ${LOAD_JOBS:+-j "$LOAD_JOBS"} --seed $seed --out "$out/batch" \
        >"$out/batch.log" 2>&1
    wall=$(($(date +%s) - t0))
    cp "$out/batch.log" "$report/"
    echo "student,file,score,score_alone,retried_alone" >"$report/class.csv"
    graded=0 mismatches=0 retried=0
    while read -r student file; do
        score=$(score_of "$out/batch/$student/lab3/results.json")
        alone=$(grep "^${file%.cu}," "$report/alone.csv" | cut -d, -f2)
        r=$(retries_in "$out/batch/$student/lab3/results.json")
        echo "$student,${file%.cu},${score:-none},${alone:-none},$r" >>"$report/class.csv"
        [ -n "$score" ] || continue
        graded=$((graded + 1)) retried=$((retried + r))
        [ "$score" = "$alone" ] || { mismatches=$((mismatches + 1)); kept "$out/batch/$student"; say "  $student (${file%.cu}): $score, alone $alone"; }
    done <"$out/class.map"
    jobs=$(sed -n 's/^batch: grading \([0-9]*\) at a time.*/\1/p' "$out/batch.log" | head -n1)
    say "  $graded of $class_files graded in $wall s, ${jobs:-1} at a time: $(awk "BEGIN { printf \"%.1f\", $graded * 60 / ($wall > 0 ? $wall : 1) }") files/minute"
    say "  mismatches against the files graded alone: $mismatches; grades with a run retried alone: $retried (class.csv)"
    [ "$graded" = "$class_files" ] || { say "  cut short at LOAD_BUDGET_S=$budget: $((class_files - graded)) not graded"; failed=1; }
    [ $mismatches = 0 ] || failed=1
}

case $phase in together) together ;; alone) distinct_files; alone ;; class) distinct_files; class ;; all) together; distinct_files; class ;; esac
say ""
say "total $(($(date +%s) - started)) s; $([ $failed = 0 ] && echo 'every check held' || echo 'a check failed (above)')"
exit $failed

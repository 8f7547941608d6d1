# grade_cpu.sh — the rest of ./grade in CPU mode (issue 16): sourced by
# grade after the build and the inspection, with cpu=requested (--cpu) or
# cpu=no-gpu (the probe found no usable GPU); it ends the grade.
#
# The same file, built for the CPU (cpu/cpu.mk), runs the same hidden tests
# (build/cpu/tests-KIND: grader/hidden.c and the tests' own sources, each
# case one run of build/cpu/cpu-check; shapes capped, cpu/cpu_cases.h).
# CPU mode's findings stand in for the sanitizers (a race: racecheck; a
# barrier: synccheck; out of bounds: memcheck) and its computed counters for
# ncu's, in the files grader/report.c reads from them. Nothing is timed: the
# report says "not measured: no GPU" and leaves those points out.

case $cpu in
no-gpu) step "$(head -n1 "$out/probe.log" | sed 's/ Run this on .*//; s/\.$//'): grading in CPU mode instead (as ./grade --cpu does)" ;;
*) step "grading in CPU mode (--cpu): no GPU used" ;;
esac
rm -f "$out/device.json"   # no GPU described: none was used
# Every temporary file of CPU mode's checks (cpu-check's folders, the cases'
# files) in one folder of this grade's, which grade removes at every exit,
# Ctrl-C and a batch's time limit included (its EXIT trap).
grade_tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilelab-grade.XXXXXX" 2>/dev/null) && TMPDIR=$grade_tmp && export TMPDIR || grade_tmp=

# The CPU kit once for every grade (its own lock), then the file for the CPU.
if ! locked build/tools make -s --no-print-directory build/tools/ptx-structure >"$out/build.log" 2>&1 ||
   ! locked build/cpu $submission cpu-kit >>"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    report --problem "not your file's fault: CPU mode's runtime does not build here (see $out/build.log; it needs x86-64 Linux and g++)."
    exit 2
fi
bounded "$bin" $submission cpu-grade >"$out/build.log" 2>&1
cpu_build=$?
[ $cpu_build = 0 ] || over_limits $cpu_build "$out/build.log" "building $src for CPU mode"
if [ $cpu_build != 0 ]; then
    # nvcc compiled the file, so this is CPU mode's limit, not the student's error.
    report --problem "your file compiles with nvcc but not for CPU mode, which runs only what the labs use: $(grep -a -m1 -e 'not supported in CPU mode' -e 'error' "$out/build.log" | cut -c1-300) (see $out/build.log). Grade it on a GPU."
    exit 2
fi
set -- $($submission print-cpu)
cpu_worker=$1
cpu_check=build/cpu/cpu-check
units=$(rubric_get units)

# ---- the checks (sanitizers' stand-ins) and the counters, beside the tests ----
# As on a GPU: the counted shape is drawn from the seed (rubric counters_range).
counters_shape=$(build/tools/rubric counters-shape "$rubric" "$seed")
# A lab of units (5, 7) gets its checks per unit and no counters case: lab 7's
# counters are ncu's branch counters, which CPU mode does not compute (the
# report leaves their points out of the maximum).
[ -z "$units" ] || counters_shape=
cpu_check_run() {   # LOG ARGS...: cpu-check on the student's CPU worker
    log=$1; shift
    # --timeout 60 per case: the counters case (lab 4: 512^3, every access grouped
    # into warp requests) takes 5 s alone on 2 cores, and shares them with the tests.
    # --foreground: in the grade's process group, so stopping the grade (Ctrl-C, a batch's limit) stops it too.
    timeout --foreground 600 "$cpu_check" --worker "$cpu_worker" --kind "$kind" --lab "$lab" --source "$src" --seed "$seed" --timeout 60 \
        --sanitizer-logs "$out" "$@" >"$out/$log" 2>&1
}
if [ -n "$units" ]; then
    step "checking each kernel for races, barriers and bounds (CPU mode)"
    ( for unit in $units; do
          # --json: each kernel's findings, typed, for the report page (grader/report_page.c).
          case $(unit_shape "$unit") in
          *x*) cpu_check_run "cpu-check-$unit.log" --json "$out/cpu-check-$unit.json" --unit "$unit" --mnk "$(unit_shape "$unit")" ;;
          *) cpu_check_run "cpu-check-$unit.log" --json "$out/cpu-check-$unit.json" --unit "$unit" --n "$(unit_shape "$unit")" ;;
          esac
      done ) &
else
    sanitizer_shape=$(rubric_get sanitizer_shape)
    step "checking for races, barriers and bounds on ${sanitizer_shape:-the quick check's shapes}${counters_shape:+; counters on $counters_shape} (CPU mode)"
    set --
    shape_option=--shape
    [ "$kind" != matmul ] || shape_option=--mnk   # MxKxN
    for shape in $sanitizer_shape; do set -- "$@" $shape_option "$shape"; done
    if [ -n "$counters_shape" ]; then set -- "$@" --counters "$counters_shape" --ncu-csv "$out/counters.csv"
    else set -- "$@" --no-counters; fi
    ( cpu_check_run cpu-check.log --json "$out/cpu-check.json" "$@"; echo $? >"$out/cpu-check.status" ) &
fi

# ---- test ----------------------------------------------------------------------
step "running the hidden tests in CPU mode (seed $seed)"
set --
for suite in $(rubric_get hidden_suites); do set -- "$@" --suite "$suite"; done
# One test process per core: each case's worker runs its blocks on every core too.
jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
[ "$jobs" -le 4 ] || jobs=4
TILELAB_PROGRESS=1 TILELAB_KERNEL_TIMEOUT_S=$(rubric_get kernel_timeout_s) TILELAB_WORKER="$cpu_worker" TILELAB_LAB=$lab \
    TILELAB_SEED="$seed" "build/cpu/tests-$kind" -q -j"$jobs" "$@" --json="$out/tests.json" \
    --timeout "$(rubric_get test_timeout_s)" 2>"$out/tests.log"
mark "hidden tests done"
wait
mark "checks and counters done"
# A file that uses what CPU mode does not run is not graded here: a GPU must.
unsupported=$(grep -a -o -h -m1 'not supported in CPU mode: [^"(]*' "$out/tests.json" "$out"/cpu-check*.log 2>/dev/null | head -n1 | cut -d: -f2- | sed 's/^ *//; s/ *$//')
[ -z "$unsupported" ] ||
    cannot_grade "your file uses what CPU mode does not run ($unsupported); grade it on a GPU (README: No GPU? CPU mode)."

# The counters: lost when the student's launch failed at their shape, as on a GPU.
counters= counters_failed=
if [ -n "$counters_shape" ]; then
    line=$(grep -a -m1 "^$counters_shape (counters) " "$out/cpu-check.log")
    case $(printf '%s' "${line#*(counters)}" | awk '{ print $1 }') in
    ok) counters=$out/counters.csv ;;
    '') counters_failed="CPU mode's check did not reach it (exit $(cat "$out/cpu-check.status" 2>/dev/null)); see cpu-check.log" ;;
    *) counters_failed="$(printf '%s' "${line#*(counters) }" | sed 's/^ *//' | cut -c1-300) (see it with build/$lab --cpu --shape $counters_shape)" ;;
    esac
fi

# ---- structure: judged on every kernel in the file (no ncu to list those that ran) --
structure= structure_note= double_buffered=
if [ -n "$(rubric_get require)" ]; then
    build/tools/ptx-structure --ptx "$bin/student.ptx" >"$out/structure.log" 2>&1
    structure=$(sed -n 's/^counts: //p' "$out/structure.log")
    structure_note="judged on every kernel in the file: CPU mode has no ncu to say which kernels your launch ran"
fi
dbuf_unit=$(rubric_get double_buffered_unit)
if [ -n "$dbuf_unit" ]; then
    build/tools/ptx-structure --ptx "$bin/student.ptx" --double-buffered >"$out/double-buffered.log" 2>&1
    double_buffered=$(sed -n 's/^double-buffered: //p' "$out/double-buffered.log")
    double_buffered="${double_buffered:-unverified: the PTX could not be read (see $out/double-buffered.log)}${double_buffered:+ (judged on every kernel in the file: CPU mode has no ncu)}"
fi

# ---- score and report --------------------------------------------------------
capped=$(sed -n 's/^CPU mode: \(.*\) capped to \([^ ]*\) .*/\1 as \2/p' "$out/tests.log" | sort -u | paste -sd, - | sed 's/,/, /g')
note="Nothing was timed. Every case ran on the CPU, one fiber per CUDA thread, in thread order and again shuffled; \
a case larger than about 2100x2100 elements (a matmul: 2^25 multiply-adds) ran with each side halved until it fits\
${capped:+ (this run: $capped)}. The sanitizer items are CPU mode's own checks (race: racecheck; barrier: synccheck; \
out of bounds: memcheck)${counters_shape:+, and the counters are computed by the hardware's rules, not read by ncu}."
mark "report"
report --cpu-mode "$note" --tests "$out/tests.json" --tests-log "$out/tests.log" --measure-status 0 \
    ${structure:+--structure "$structure" --structure-note "$structure_note"} \
    ${double_buffered:+--double-buffered "$double_buffered"} --sanitizers "$out" \
    ${counters:+--counters "$counters"} ${counters_failed:+--counters-failed "$counters_failed"} \
    ${counters_shape:+--counters-shape "$counters_shape"}
status=$?
if [ -n "$run" ]; then echo "results: $final_json (this run's logs: $out)"; else echo "results: $json"; fi
exit $status

# grade_cpu.sh — the rest of ./grade in CPU mode (issue 16): sourced by
# grade after the build and the inspection, with cpu=requested (--cpu) or
# cpu=no-gpu (the probe found no usable GPU); it ends the grade.
#
# The same file, built for the CPU (cpu/cpu.mk), runs the same hidden tests
# (build/cpu/tests-KIND: grader/hidden.c and the tests' own sources, each
# case one run of build/cpu/cpu-check; shapes capped, cpu/cpu_cases.h).
# CPU mode's findings stand in for the sanitizers (a race: racecheck; a
# barrier: synccheck; out of bounds: memcheck) and its computed counters for
# ncu's. What runs is the plan's (cpu_checks, cpu_title: build/tools/plan);
# the verdicts are the report's (--run). Nothing is timed: the report says
# "not measured: no GPU" and leaves those points out.

case $cpu in
no-gpu) step "$(head -n1 "$out/probe.log" | sed 's/ Run this on .*//; s/\.$//'): grading in CPU mode instead (as ./grade --cpu does)" ;;
*) step "grading in CPU mode (--cpu): no GPU used" ;;
esac
rm_any "$out/device.json"   # no GPU described: none was used
# Every temporary file of CPU mode's checks in one folder of this grade's,
# which grade removes at every exit, Ctrl-C and a batch's time limit included.
grade_tmp=$(mktemp -d "${TMPDIR:-/tmp}/tilelab-grade.XXXXXX" 2>/dev/null) && TMPDIR=$grade_tmp && export TMPDIR || grade_tmp=

# The CPU kit once for every grade (its own lock), then the file for the CPU.
if ! locked build/cpu $submission -j"$build_jobs" cpu-kit >"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    report --problem "not your file's fault: CPU mode's runtime does not build here (see $out/build.log; it needs x86-64 Linux and g++)."
    exit 2
fi
# nvcc compiled the file: a failure here is CPU mode's limit, not the student's error (the report says so).
bounded "$bin" $submission cpu-grade >"$out/build.log" 2>&1 || failed cpu $?

# ---- the checks (sanitizers' stand-ins) and the counters, beside the tests ----
cpu_check() {   # LOG ARGS...: cpu-check on the student's CPU worker; LOG's .status beside it
    log=$1; shift
    # --foreground: in the grade's process group, so stopping the grade (Ctrl-C, a batch's limit) stops it too.
    timeout --foreground "$cpu_check_timeout_s" build/cpu/cpu-check --worker "$cpu_worker" --kind "$kind" --lab "$lab" --source "$src" \
        --seed "$seed" --timeout "$cpu_case_timeout_s" \
        --sanitizer-logs "$out" "$@" >"$out/$log" 2>&1
    echo $? >"$out/${log%.log}.status"
}
step "$cpu_title"
( each "$cpu_checks" cpu_check ) &

# ---- test ----------------------------------------------------------------------
step "running the hidden tests in CPU mode (seed $seed)"
eval "set -- $test_args"
TILELAB_PROGRESS=1 TILELAB_KERNEL_TIMEOUT_S=$kernel_timeout_s TILELAB_WORKER="$cpu_worker" TILELAB_LAB=$lab \
    TILELAB_SEED="$seed" TILELAB_CPU_CASES=${cases_reduced:+reduced} "build/cpu/tests-$kind" -q -j"$cpu_jobs" "$@" --json="$out/tests.json" \
    --timeout "$cpu_test_timeout_s" 2>"$out/tests.log"
echo $? >"$out/tests.status"
mark "hidden tests done"
wait
mark "checks and counters done"

# ---- score and report: the report reads the run folder; exit 3 is a file CPU mode cannot run, said ----
mark "report"
report --run "$out"
status=$?
[ $status != 3 ] || exit 2
if [ -n "$run" ]; then echo "results: $final_json (this run's logs: $out)"; else echo "results: $json"; fi
exit $status

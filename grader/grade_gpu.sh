# grade_gpu.sh — the rest of ./grade on a GPU: sourced by grade once the file is built and
# inspected and the probe found a usable GPU; it ends the grade. What runs is the plan's
# (build/tools/plan: the sanitizers and their shapes, the counts, the hidden suites, the
# measurements and their workers); this file runs it: the GPU's locks, the tools around the
# worker (compute-sanitizer, ncu), the tests and the timing. The verdicts are the report's (--run).
locked "$bin" $submission -j"$build_jobs" grader >"$out/build.log" 2>&1 || failed grader $?
step "GPU: $(cat "$out/probe.log")"
# The student's own file of an earlier lab (rubric baseline), built while the tests run: lab 3 is timed against lab 2.
if [ -n "$baseline_src" ]; then
    base_dir=$($submission BASELINE="$baseline_src" print-dirs | cut -d' ' -f4)
    ( locked "$base_dir" $submission BASELINE="$baseline_src" baseline >"$out/baseline.log" 2>&1
      echo $? >"$out/baseline.status" ) &
fi
# The file runs only in its worker (kit/remote.h), which the kit's judges start, feed, check and end.
# The seed reaches the judge alone (it makes itself undumpable; `timeout` stays dumpable);
# --foreground: Ctrl-C reaches the judge, which ends its workers.
judge() {   # [timeout SECONDS] PROGRAM ARGS...: a judge with the student's worker (or $judge_worker)
    judge_timeout=
    if [ "$1" = timeout ]; then judge_timeout="timeout --foreground $2"; shift 2; fi
    $judge_timeout env TILELAB_WORKER="${judge_worker:-$bin/worker}" TILELAB_WORKER_LOG="${TILELAB_WORKER_LOG:-$out_abs/worker.log}" \
        TILELAB_SEED="$seed" "$@"
}

# ---- one GPU, several grades: tests, sanitizers and counters share it, a measurement has it alone;
# a turnstile keeps new grades from starting tests while one waits. ncu profiles one process at a time.
lock_file=${TILELAB_GPU_LOCK:-/tmp/tilelab-gpu.lock}
for f in "$lock_file" "$lock_file.turnstile" "$lock_file.ncu"; do
    [ -e "$f" ] || (umask 0; : >>"$f") 2>/dev/null   # writable by every user: one lock per machine
done
gpu_lock() { :; }; gpu_unlock() { :; }; ncu_lock() { :; }; ncu_unlock() { :; }
if command -v flock >/dev/null 2>&1 && [ -r "$lock_file" ] && [ -r "$lock_file.turnstile" ] && [ -r "$lock_file.ncu" ]; then
    exec 7<"$lock_file.ncu" 8<"$lock_file" 9<"$lock_file.turnstile"
    ncu_lock() { flock -x 7; }
    ncu_unlock() { flock -u 7; }
    gpu_lock() {   # shared | exclusive
        flock -n -x 9 || { echo "  waiting for another grade to finish measuring on this GPU"; flock -x 9; }
        if [ "$1" = shared ]; then flock -s 8; flock -u 9
        else flock -n -x 8 || { echo "  waiting for other grades to finish their tests on this GPU"; flock -x 8; }; fi
        mark "GPU lock ($1) held"
    }
    gpu_unlock() { flock -u 8; flock -u 9; }
fi

# ncu and compute-sanitizer take their log's path in TILELAB_WORKER_WRAP, one word a line, and
# expand % in it: a run folder whose name holds a newline, a % or any other byte outside a tame
# few is reached through a link of a tame name (in a folder grade removes at every exit).
tool_out=$out_abs
case $out_abs in *[!A-Za-z0-9_./+@,=:-]*)
    { grade_tmp=$(mktemp -d /tmp/tilelab-grade.XXXXXX) && ln -s "$out_abs" "$grade_tmp/out" && tool_out=$grade_tmp/out; } ||
        cannot_grade "not your file's fault: cannot link the run folder for ncu and compute-sanitizer in /tmp" ;;
esac

# ---- sanitize and count beside the hidden tests (neither times anything) --------
gpu_lock shared
# Tensor-pipe instructions count as arithmetic (skipping's evidence, per-kernel weights, and the
# FP32 labs' refusal of tensor-core work). Which such metrics exist depends on the GPU and ncu:
# ncu lists them; each sub-pipe, never the parent, which also counts the HFMA2.MMA that ptxas
# emits in plain FP32 code (grader/counters.h sums the sub-pipes less that one).
tensor_metrics=
if [ -n "$ncu" ] && [ -n "$count_tensor" ] && { [ -n "$counts" ] || [ -n "$dbuf_args" ]; }; then
    tensor_metrics=$(timeout 60 "$ncu" --query-metrics 2>/dev/null | awk '
        $1 ~ /^smsp__inst_executed_pipe_tensor_op_[a-z0-9_]+$/ { subs = subs "," $1 ".sum" }
        END { print subs }')
fi
counter_metrics=$counter_metrics$tensor_metrics
# A counted worker may write files (ncu's injected library writes its own), but only beneath /tmp,
# /var/tmp, /dev and its own folder (kit/sandbox.c's Landlock fence). So every file of a counted run
# (ncu's CSV, its log, the worker's, the status) is written in a folder of this grade's beneath the
# kit's build/ (else $XDG_RUNTIME_DIR), out of that fence's reach, and moved into the run folder
# (which may lie in /tmp) only once every counted process is gone: no counted worker, of this grade
# or another, can forge or change counts. Where neither lies outside the fence (or has a path tame
# enough for ncu) the run folder serves, as before: the fence alone protects there.
counts_private=   # grade removes it at every exit
for base in "$PWD/build" "${XDG_RUNTIME_DIR:-}"; do
    case $base in ''|/tmp/*|/var/tmp/*|/dev/*|*[!A-Za-z0-9_./+@,=:-]*) continue ;; esac
    counts_private=$(mktemp -d "$base/tilelab-counts.XXXXXX" 2>/dev/null) && break
    counts_private=
done
counts_dir=${counts_private:-$tool_out}
ncu_run() {   # NAME METRICS WORKER CHECK-ARGS...: ncu around a worker (default the student's); NAME.csv, NAME.log
    # Only here may the worker write files (kit/sandbox.c): ncu's injected library writes its own.
    name=$1 metrics=$2 judge_worker=$3; shift 3
    TILELAB_WORKER_WRAP=$(printf '%s\n' "$ncu" --clock-control none --profile-from-start off --csv \
        --log-file "$counts_dir/$name.csv" --metrics "$metrics") \
    TILELAB_WORKER_ALLOW_FILES=1 TILELAB_KERNEL_TIMEOUT_S=$tool_kernel_timeout_s TILELAB_WORKER_LOG="$counts_dir/$name.worker.log" \
        judge timeout "$ncu_timeout_s" "$kit/judge/check-$kind" "$@" --no-time >"$counts_dir/$name.log" 2>&1
    set -- $?; judge_worker=; return $1
}
count() {   # NAME CHECK-ARGS...: the student's launch at a plan's shape; NAME.status
    name=$1; shift
    ncu_run "$name" "$counter_metrics" "" "$@"
    set -- $? "$@"
    # One more try when ncu could not set the kernel up (seen on an H100 beside other grades'
    # tests); counters count work, so a second run reads the same numbers.
    if [ $1 != 0 ] && [ ! -e "$counts_dir/$name.first-try.csv" ] &&
       grep -q -e "Failed to prepare kernel for profiling" -e "Unknown Error on device" "$counts_dir/$name.csv" 2>/dev/null; then
        cp "$counts_dir/$name.csv" "$counts_dir/$name.first-try.csv"; shift; count "$name" "$@"; return
    fi
    echo $1 >"$counts_dir/$name.status"
}
# The plan's counts, then (lab 7) the kit's contrast kernel counted the same way, for no points.
# Those at the timed shape wait for the GPU to be this grade's alone (beside the measurement, below):
# ncu's time of the launch it counts there is set beside the measurement's (score.c), since a
# kernel can tell a profiler is in its process and could run other code there.
counts_shared=$(printf '%s\n' "$counts" | grep -v -e --timed-shape) || :
counts_timed=$(printf '%s\n' "$counts" | grep -e --timed-shape) || :
[ -z "$counts" ] || ( ncu_lock; each "$counts_shared" count
    [ -z "$contrast_args" ] || eval "ncu_run contrast \"\$counter_metrics\" \"\$contrast_worker\" $contrast_args"
    ncu_unlock ) &
sanitize() {   # TOOL LOG-NAME CHECK-ARGS...: the sanitizer around the worker, in a checked run
    tool=$1 log=$2; shift 2
    TILELAB_WORKER_WRAP=$(printf '%s\n' "$sanitizer" --tool "$tool" --error-exitcode 86 --report-api-errors no \
        --log-file "$tool_out/$log.log") TILELAB_KERNEL_TIMEOUT_S=$tool_kernel_timeout_s TILELAB_WORKER_LOG="$out_abs/$log.worker.log" \
        judge timeout "$sanitizer_timeout_s" "$kit/judge/check-$kind" "$@" --no-time >"$out/$log.check.log" 2>&1
    echo $? >"$out/$log.status"
}
sanitize_unit() {   # UNIT CHECK-ARGS...: one kernel alone, two at a time per tool (six runs share the GPU)
    unit=$1; shift
    sanitize "$tool" "$tool-$unit" "$@" &
    running=$((running + 1))
    [ $running -lt 2 ] || { wait; running=0; }
}
sanitize_units() {   # TOOL: every kernel in one run; each on its own only when that run was not clean
    tool=$1
    eval "sanitize \"\$tool\" \"\$tool-all\" $all_units_args"
    read -r all_status <"$out/$tool-all.status"
    if [ "$all_status" = 0 ]; then
        for unit in $units; do cp "$out/$tool-all.log" "$out/$tool-$unit.log" && echo 0 >"$out/$tool-$unit.status"; done
        return
    fi
    running=0; each "$unit_runs" sanitize_unit; wait   # which kernel? a finding names it, a hang costs only its runs
}
if [ -n "$sanitizer" ]; then   # they run even when tests fail: a race is the best diagnosis of a wrong result
    step "$sanitize_title"
    # The double-buffered unit's kernels, named by ncu: its structure is judged on what it ran.
    [ -z "$dbuf_args" ] || ( ncu_lock
        eval "ncu_run \"kernels-\$dbuf_unit\" launch__shared_mem_per_block_dynamic,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum\$tensor_metrics '' $dbuf_args"; ncu_unlock ) &
    for tool in $tools; do
        if [ -n "$units" ]; then sanitize_units "$tool" & else eval "sanitize \"\$tool\" \"\$tool\" $sanitize_args" & fi
    done
fi

# ---- test ------------------------------------------------------------------
step "running the hidden tests (seed $seed)"
eval "set -- $test_args"
TILELAB_PROGRESS=1 TILELAB_KERNEL_TIMEOUT_S=$kernel_timeout_s judge "$kit/judge/tests-$kind" -q -j"$test_jobs" "$@" \
    --json="$out/tests.json" --timeout "$test_timeout_s" 2>"$out/tests.log"
tests_status=$?; echo $tests_status >"$out/tests.status"
mark "hidden tests done"
wait   # the sanitizers, counters and the baseline's build finish before anything is timed
mark "sanitizers and counters done"

# ---- a run that timed out with the GPU shared (other grades' tests beside it, ncu or a sanitizer
# around it) runs again with the GPU held alone before it costs anything: only a kernel that times
# out alone loses the points. retried-alone.txt says which ran again and how, for the report.
timed_out() {   # DIR NAME: NAME's run ended at a deadline (its .status 124, or its check said so)
    timed_status=; read -r timed_status 2>/dev/null <"$1/$2.status"
    [ "$timed_status" = 124 ] || grep -qs "timed out" "$1/$2.log" "$1/$2.check.log"
}
alone() {   # take the GPU alone, once (others' tests end first; none start meanwhile)
    [ -z "${held_alone:-}" ] || return 0
    gpu_unlock; gpu_lock exclusive; held_alone=1
    step "running again with the GPU alone what timed out beside other grades or under a tool"
}
retried() {   # WHAT DIR NAME: NAME ran again alone; one line for the report
    if timed_out "$2" "$3"; then set -- "$1" "timed out again alone: it counts"; else set -- "$1" "finished alone"; fi
    echo "$1: timed out with the GPU shared; $2" >>"$out/retried-alone.txt"
}
retry_count() {   # NAME CHECK-ARGS...: one of the plan's counts beside the tests (its files still in counts_dir)
    timed_out "$counts_dir" "$1" || return 0
    alone; ncu_lock; count "$@"; ncu_unlock; retried "counters under ncu ($1)" "$counts_dir" "$1"
}
retry_sanitize() {   # TOOL LOG CHECK-ARGS...
    timed_out "$out" "$2" || return 0
    alone; sanitize "$@"; retried "$1 ($2)" "$out" "$2"
}
retry_sanitize_unit() { retry_unit=$1; shift; retry_sanitize "$tool" "$tool-$retry_unit" "$@"; }
if grep -qs "timed out: " "$out/tests.json"; then   # only the tests that timed out run again
    alone
    mv -f "$out/tests.json" "$out/tests.shared.json"
    eval "set -- $test_args"
    TILELAB_PROGRESS=1 TILELAB_KERNEL_TIMEOUT_S=$kernel_timeout_s judge "$kit/judge/tests-$kind" -q -j"$test_jobs" "$@" \
        --json="$out/tests.json" --timeout "$test_timeout_s" --retry-timed-out "$out/tests.shared.json" 2>>"$out/tests.log"
    tests_status=$?; echo $tests_status >"$out/tests.status"
    if grep -qs "timed out: " "$out/tests.json"; then retry_said="timed out again alone: it counts"; else retry_said="finished alone"; fi
    echo "hidden tests ($(grep -o "timed out: " "$out/tests.shared.json" | wc -l | tr -d ' ') of them): timed out with the GPU shared; $retry_said" >>"$out/retried-alone.txt"
    mark "timed-out tests retried alone"
fi
# The tools' points count only when every test passed (labs of several kernels: per kernel):
# where one failed, alone or not, running the tools again could change no score. (The counts at
# the timed shape run alone anyway, below.)
if [ "$tests_status" = 0 ] || [ -n "$units" ]; then
    [ -z "$counts_shared" ] || each "$counts_shared" retry_count
    if [ -n "$sanitizer" ]; then
        for tool in $tools; do
            if [ -n "$units" ]; then each "$unit_runs" retry_sanitize_unit
            else eval "retry_sanitize \"\$tool\" \"\$tool\" $sanitize_args"; fi
        done
    fi
fi
gpu_unlock

# ---- measure (every test passed, or a lab of several kernels: each passed its quick check) --
baseline_worker=
if [ -n "$baseline_src" ]; then
    read -r baseline_status 2>/dev/null <"$out/baseline.status"
    if [ "${baseline_status:-}" = 0 ]; then baseline_worker=$base_dir/baseline-worker
    else baseline_skipped="$baseline_src does not compile (see $out/baseline.log)"; fi
fi
measure() {   # FILE JUDGE ARGS...: the first one's exit status in measure.status
    measure_json=$1 measure_judge=$2; shift 2
    judge timeout "$measure_timeout_s" "$measure_judge" --json "$out/$measure_json" "$@" ${baseline_worker:+--baseline-worker "$baseline_worker" --baseline-source "$baseline_src"} \
        ${baseline_skipped:+--baseline-skipped "$baseline_skipped"} 2>>"$out/tests.log"
    set -- $?; [ -e "$out/measure.status" ] || echo $1 >"$out/measure.status"
}
measuring=
if [ $tests_status -eq 0 ] || [ -n "$units" ]; then measuring=1; fi
[ -z "$measuring$counts_timed" ] || gpu_lock exclusive
if [ -n "$measuring" ]; then
    step "$measure_title"
    each "$measure_runs" measure
fi
if [ -n "$counts_timed" ]; then
    step "counting at the timed shape (ncu; the counted launch's own time is set beside the measurement's)"
    ncu_lock; each "$counts_timed" count; ncu_unlock
fi
gpu_unlock
mark "measured"
# Every counted process is gone: the counts join the run folder, where the report reads them.
if [ -n "$counts_private" ]; then
    for f in "$counts_private"/*; do [ ! -e "$f" ] || mv -f "$f" "$out/"; done
    rm -rf "$counts_private"; counts_private=
fi

# ---- score and report: build/tools/report reads the run folder ------------------
mark "report"
report --run "$out"
status=$?
if [ -n "$run" ]; then echo "results: $final_json (this run's logs: $out)"; else echo "results: $json"; fi
exit $status

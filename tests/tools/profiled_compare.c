/*
 * The profiled process still distinguishable (issue 45): a kernel can always
 * tell that ncu is in its process, so the counts' points are paid only when
 * the launch ncu counted at the timed shape took the time the measurement
 * took for the same request (grader/score.c, profiled_time_differs). No GPU:
 * ./grade's GPU path runs on the mock GPU kit (tests/fixtures/mock-gpu/),
 * whose ncu writes tests/fixtures/profiled/'s counts (lab 3's padded tile,
 * no bank conflicts, with ncu's time of the launch) and whose measurement
 * writes tests/fixtures/profiled/measure.json (1.4317 ms per launch).
 * Each test works in build/tests/profiled/<test>/.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORK "build/tests/profiled"

/* ./grade lab3 (the reference) on the mock GPU kit, ncu's count at the timed
 * shape from tests/fixtures/profiled/<timed_csv>; the report in WORK/name/grade.log. */
static const char *grade_lab3(const char *name, const char *timed_csv)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "w=" WORK "/%s && rm -rf \"$w\" && mkdir -p \"$w/ncu\" && f=tests/fixtures/profiled && "
             "cp \"$f/counters.csv\" \"$w/ncu/\" && cp \"$f/%s\" \"$w/ncu/counters-timed.csv\" && "
             "MOCK_TESTS_JSON=$PWD/$f/tests-lab3.json MOCK_MEASURE_JSON=$PWD/$f/measure.json MOCK_NCU_DIR=$PWD/$w/ncu "
             "MOCK_REAL_MAKE=$(command -v make) MOCK_BUILD=$PWD/$w/build MOCK_LOG=$PWD/$w/mock.log "
             "PATH=$PWD/tests/fixtures/mock-gpu/bin:$PATH NO_COLOR=1 "
             "./grade lab3 --file solutions/lab3-padding/transpose.cu --seed 7 --out \"$w/out\" > \"$w/grade.log\" 2>&1",
             name, timed_csv);
    tool_sh(cmd);
    static char path[256];
    snprintf(path, sizeof path, WORK "/%s/grade.log", name);
    return tool_read(path, NULL);
}

/* The counted launch took half the measured time (0.49x): other code ran
 * under the profiler. The bank-conflict points are not paid, and the report
 * names the cause with both times; the speed item keeps its points. */
Test(profiled, a_kernel_faster_when_counted_loses_the_counted_points, .timeout = 600)
{
    const char *log = grade_lab3("other", "counters-timed-other.csv");
    cr_assert(strstr(log, "bank conflicts: near zero (ncu)"), "the grade did not reach its report:\n%s", log);
    cr_expect(strstr(log, "FAIL  bank conflicts: near zero (ncu)                  0.00/10.00"), "%s", log);
    cr_expect(strstr(log, "your kernel ran differently under the profiler: 0.7021 ms counted vs 1.432 ms timed "
                          "(the timed shape, 0.49x"), "the cause, with both times, not named:\n%s", log);
    cr_expect(!strstr(log, "bank conflicts per shared request (loads and stores together); the points need"),
              "no conflicts: the report must not blame them:\n%s", log);
    cr_expect(strstr(log, "PASS  performance: bandwidth as a fraction of copy    20.00/20.00"), "%s", log);
    cr_expect(strstr(log, "Score: 90.00/100"), "%s", log);
}

/* The counted launch took what the measurement took (0.98x): the points are
 * paid, and the report shows both times. The count at the timed shape is taken
 * after the measurement, when the GPU is this grade's alone (its time is not
 * another grade's load). */
Test(profiled, a_kernel_that_runs_the_same_code_keeps_them, .timeout = 600)
{
    const char *log = grade_lab3("same", "counters-timed-same.csv");
    cr_assert(strstr(log, "bank conflicts: near zero (ncu)"), "the grade did not reach its report:\n%s", log);
    cr_expect(strstr(log, "PASS  bank conflicts: near zero (ncu)                 10.00/10.00"), "%s", log);
    cr_expect(strstr(log, "the counted launch's own time beside the measurement's (the timed shape: 1.403 ms "
                          "counted (ncu) vs 1.432 ms timed, 0.98x): the same code."), "%s", log);
    cr_expect(strstr(log, "Score: 100.00/100"), "%s", log);
    char *seen = strdup(tool_read(WORK "/same/mock.log", NULL));
    const char *measured = strstr(seen, "judge measure-transpose");
    const char *timed_count = strstr(seen, "/counters-timed.csv\n");
    const char *count = strstr(seen, "/counters.csv\n");
    cr_expect(measured && timed_count && count, "the measurement and both counts should have run:\n%s", seen);
    cr_expect(count < measured && measured < timed_count,
              "the count at the timed shape must follow the measurement (the GPU exclusive), the other precede it:\n%s",
              seen);
    free(seen);
}

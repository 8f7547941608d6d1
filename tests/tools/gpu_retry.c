/*
 * A GPU grade runs again, with the GPU held alone, what timed out while it was shared (issue
 * 41): ncu's counts, the sanitizers' runs and the hidden tests that timed out. Only a kernel
 * that times out alone loses the points, and the report says what ran again. No GPU: lab 3's
 * GPU steps (grader/grade_gpu.sh) on the mock kit, tests/fixtures/gpu-retry/, whose stand-ins
 * time out while a shared lock on the grade's GPU lock can still be taken. Each test grades in
 * its own folder, build/tests/gpu-retry/<test>.<pid>, with a GPU lock of its own.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include "json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    int status;
    tl_json *results;
    char dir[128];
    char log[8192];   /* what the stand-ins did, a line each */
    char said[65536]; /* what the grade printed */
} mock_grade;

static mock_grade grade_mock(const char *name, const char *env)
{
    mock_grade g;
    memset(&g, 0, sizeof g);
    snprintf(g.dir, sizeof g.dir, "build/tests/gpu-retry/%s.%ld", name, (long)getpid());
    char cmd[1024], err[256], path[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s && NO_COLOR=1 TILELAB_GPU_LOCK=$PWD/%s/gpu.lock MOCK_LOG=$PWD/%s/mock.log %s "
             "sh tests/fixtures/gpu-retry/grade-gpu lab3 %s/grade > %s/grade.txt 2>&1", g.dir, g.dir, g.dir, g.dir, env, g.dir, g.dir);
    cr_assert_eq(tool_sh("make -s --no-print-directory build/tools/plan build/tools/report > /dev/null"), 0);
    g.status = tool_sh(cmd);
    snprintf(path, sizeof path, "%s/grade/results.json", g.dir);
    g.results = tl_json_parse_file(path, err, sizeof err);
    snprintf(path, sizeof path, "%s/mock.log", g.dir);
    snprintf(g.log, sizeof g.log, "%s", tool_read(path, NULL));
    snprintf(path, sizeof path, "%s/grade.txt", g.dir);
    snprintf(g.said, sizeof g.said, "%s", tool_read(path, NULL));
    cr_assert(g.results, "no results.json (%s):\n%s", err, g.said);
    return g;
}

static double test_score(const mock_grade *g, const char *prefix)
{
    for (const tl_json *t = tl_json_get(g->results, "tests")->child; t; t = t->next)
        if (!strncmp(tl_json_string(t, "name", ""), prefix, strlen(prefix)))
            return tl_json_number(t, "score", -1);
    cr_assert_fail("no test named %s...", prefix);
    return -1;
}

static void done(mock_grade *g)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", g->dir);
    tool_sh(cmd);
    tl_json_free(g->results);
}

Test(gpu_retry, what_timed_out_with_the_gpu_shared_runs_again_alone_and_scores_as_if_it_had_not)
{
    mock_grade quiet = grade_mock("quiet", "");
    cr_expect(!tl_json_get(tl_json_get(quiet.results, "extra_data"), "retried_alone"), "nothing ran again:\n%s", quiet.said);
    cr_expect(!strstr(quiet.log, "check alone") && !strstr(quiet.log, "tests alone") && strstr(quiet.log, "measure alone"),
              "only the measurement (and the count at its shape) has the GPU alone:\n%s", quiet.log);
    mock_grade busy = grade_mock("busy", "MOCK_TIMES_OUT='ncu sanitizer tests'");
    cr_expect_eq(tl_json_number(busy.results, "score", -1), tl_json_number(quiet.results, "score", -2),
                 "timed out beside other grades: %g; alone all along: %g\n%s", tl_json_number(busy.results, "score", -1),
                 tl_json_number(quiet.results, "score", -2), busy.said);
    cr_expect_eq(test_score(&busy, "bank conflicts"), 10, "%s", busy.said);
    cr_expect_eq(test_score(&busy, "memcheck"), 5, "%s", busy.said);
    cr_expect(strstr(busy.log, "ncu shared: timed out") && strstr(busy.log, "ncu alone: counted") &&
              strstr(busy.log, "memcheck alone: clean") && strstr(busy.log, "tests alone (retry): passed"), "%s", busy.log);
    const tl_json *again = tl_json_get(tl_json_get(busy.results, "extra_data"), "retried_alone");
    /* The count at the timed shape runs with the GPU alone anyway, beside the measurement. */
    cr_assert(again && tl_json_length(again) == 5, "retried_alone: the tests, the count beside them, 3 sanitizers:\n%s",
              busy.said);
    for (const tl_json *a = again->child; a; a = a->next)
        cr_expect(strstr(a->string, "timed out with the GPU shared; finished alone"), "%s", a->string);
    cr_expect(strstr(tl_json_string(busy.results, "output", ""), "Ran again with the GPU alone:\nhidden tests (1 of them): timed out with the GPU shared; finished alone\ncounters under ncu (counters)"),
              "%s", tl_json_string(busy.results, "output", ""));
    cr_expect(strstr(busy.said, "again hidden tests (1 of them): timed out with the GPU shared; finished alone"), "%s", busy.said);
    done(&quiet);
    done(&busy);
}

Test(gpu_retry, a_kernel_that_times_out_alone_too_loses_the_points)
{
    mock_grade g = grade_mock("hangs", "MOCK_TIMES_OUT=ncu MOCK_ALONE_TOO=1");
    cr_expect_eq(test_score(&g, "bank conflicts"), 0, "%s", g.said);
    cr_expect_eq(test_score(&g, "memcheck"), 5, "%s", g.said);
    const tl_json *again = tl_json_get(tl_json_get(g.results, "extra_data"), "retried_alone");
    cr_assert(again && tl_json_length(again) == 1, "retried_alone: the count beside the tests\n%s", g.said);
    for (const tl_json *a = again->child; a; a = a->next)
        cr_expect(strstr(a->string, "timed out again alone: it counts"), "%s", a->string);
    cr_expect_eq(g.status, 1, "exit %d", g.status);
    done(&g);
}

/* A test that still times out alone withholds the tools' points whatever they say: they are not run again. */
Test(gpu_retry, where_a_test_times_out_alone_the_tools_are_not_run_again)
{
    mock_grade g = grade_mock("tests-hang", "MOCK_TIMES_OUT='ncu sanitizer tests' MOCK_ALONE_TOO=1");
    cr_expect_eq(test_score(&g, "1x1"), 0, "%s", g.said);
    /* ncu alone once: the count at the timed shape, which runs alone anyway. */
    const char *ncu_alone = strstr(g.log, "ncu alone");
    cr_expect(strstr(g.log, "tests alone (retry): one timed out") && !strstr(g.log, "check alone") &&
              (!ncu_alone || !strstr(ncu_alone + 1, "ncu alone")), "only the tests ran again:\n%s", g.log);
    const tl_json *again = tl_json_get(tl_json_get(g.results, "extra_data"), "retried_alone");
    cr_assert(again && tl_json_length(again) == 1, "retried_alone: the tests\n%s", g.said);
    cr_expect(strstr(again->child->string, "hidden tests (1 of them): timed out with the GPU shared; timed out again alone"), "%s",
              again->child->string);
    done(&g);
}

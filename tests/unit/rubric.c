/* Rubric files and threshold -> points. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rubric.h"

/* The last file write_rubric made: removed by the next call and when the
 * test's process ends (each test is a process of its own), passed or not. */
static char rubric_path[64];
static void remove_rubric(void)
{
    if (rubric_path[0])
        unlink(rubric_path);
    rubric_path[0] = '\0';
}

static const char *write_rubric(const char *text)
{
    static int registered;
    if (!registered)
        registered = atexit(remove_rubric) == 0;
    remove_rubric();
    char *path = rubric_path;
    strcpy(path, "/tmp/tilelab-rubric-XXXXXX");
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

#define NO_TESTS "id lab9   # comment\ntitle  Two words here \nkind transpose\n" \
                 "correctness_points 72\nperformance_points 28\nkernel_timeout_s 5\ntest_timeout_s 10\n" \
                 "measure_timeout_s 60\n\n# calibrated...\nperf_low 0.05\nperf_high 0.25\n"
#define GOOD NO_TESTS "tests transpose 72 1x1 2x3 random_1\n"

Test(rubric, loads_every_field)
{
    tl_rubric r;
    char err[256] = "";
    const char *path = write_rubric(GOOD);
    cr_assert_eq(tl_rubric_load(path, &r, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(r.id, "lab9");
    cr_assert_str_eq(r.title, "Two words here");
    cr_assert_eq(r.correctness_points, 72);
    cr_assert_eq(r.perf_high, 0.25);
    unlink(path);
}

Test(rubric, shipped_rubrics_load)
{
    tl_rubric r;
    char err[256] = "";
    cr_assert_eq(tl_rubric_load("labs/lab1-naive-transpose/lab.rubric", &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.correctness_points + r.performance_points, 100);
}

Test(rubric, errors_name_file_line_and_key)
{
    tl_rubric r;
    char err[256];
    const char *path = write_rubric("id lab9\nbogus 3\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, ":2: unknown key 'bogus'"), "%s", err);
    path = write_rubric("id lab9\nperf_low abc\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "not a number"), "%s", err);
    path = write_rubric("id lab9\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "missing key 'title'"), "%s", err);
    path = write_rubric(GOOD "perf_low 0.5\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "below"), "%s", err);
    path = write_rubric(GOOD "vector_points 10\n");   /* lab 6: 128-bit points need the counters and a floor */
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "vector_points need counters_shape and vector_max_requests"), "%s", err);
    path = write_rubric(GOOD "library cublas_geam\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "library and library_title go together"), "%s", err);
    cr_assert_neq(tl_rubric_load("/nonexistent.rubric", &r, err, sizeof err), 0);
}

Test(rubric, performance_points_are_linear_and_clamped)
{
    tl_rubric r = {.performance_points = 30, .perf_low = 0.10, .perf_high = 0.40};
    cr_assert_eq(tl_rubric_perf_points(&r, 0.0), 0);
    cr_assert_eq(tl_rubric_perf_points(&r, 0.10), 0);
    cr_assert_float_eq(tl_rubric_perf_points(&r, 0.25), 15, 1e-9);
    cr_assert_eq(tl_rubric_perf_points(&r, 0.40), 30);
    cr_assert_eq(tl_rubric_perf_points(&r, 3.0), 30);
    cr_assert_eq(tl_rubric_perf_points(&r, 0.0 / 0.0), 0, "a NaN measurement earns nothing");
}

/* A lab of several kernels: one `unit` line each, their points adding up to correctness_points. */
#define UNITS "id lab9\ntitle Units\nkind supersteps\ncorrectness_points 30\nperformance_points 0\n" \
              "kernel_timeout_s 5\ntest_timeout_s 10\nmeasure_timeout_s 60\nperf_low 0.1\nperf_high 0.2\n"

Test(rubric, units_are_read_in_order)
{
    tl_rubric r;
    char err[256] = "";
    const char *path = write_rubric(UNITS "unit  one  1  10  clean  1000   clinic: the first (a bug)\n"
                                          "unit  two  2  20  -      67x45x33  part two\n"
                                          "tests one 10 n_1 n_2\ntests two 20 1x1x1\n");
    cr_assert_eq(tl_rubric_load(path, &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.nunits, 2);
    cr_assert_str_eq(r.units[0].name, "one");
    cr_assert(r.units[0].gated && !r.units[1].gated);
    cr_assert_eq(r.units[1].part, 2);
    cr_assert_str_eq(r.units[1].sanitizer_shape, "67x45x33");
    cr_assert_str_eq(r.units[0].title, "clinic: the first (a bug)");
    cr_assert(tl_rubric_find_unit(&r, "two") == &r.units[1] && !tl_rubric_find_unit(&r, "three"));
    unlink(path);
}

Test(rubric, unit_errors_are_named)
{
    tl_rubric r;
    char err[256];
    const char *path = write_rubric(UNITS "unit one 1 10 maybe 1000 title\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, ":11: a unit line is: unit NAME PART POINTS clean|- SANITIZER_SHAPE TITLE"), "%s", err);
    path = write_rubric(UNITS "unit one 1 10 clean 1000 title\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "add up to 10, not correctness_points 30"), "%s", err);
    path = write_rubric(UNITS "unit one 1 30 - 1000 title\ntests one 30 n_1\nspeedup_points 5\nspeedup_low 0.9\n"
                              "speedup_high 1\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "speedup_points need a baseline"), "%s", err);
    unlink(path);
}

Test(rubric, lab5_rubric_adds_up_to_100)
{
    tl_rubric r;
    char err[256] = "";
    cr_assert_eq(tl_rubric_load("labs/lab5-supersteps/lab.rubric", &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(tl_rubric_max_points(&r), 100);
    cr_assert_eq(r.nunits, 5);
}

/* Each hidden test's points are the rubric's: `tests SUITE POINTS NAME...`, the line's points shared equally. */
Test(rubric, tests_lines_give_each_named_test_its_share)
{
    tl_rubric r;
    char err[256] = "";
    const char *path = write_rubric(NO_TESTS "tests transpose 48 1x1 2x3 random_1\ntests  transpose  24  twice_123x457\n");
    cr_assert_eq(tl_rubric_load(path, &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.ntest_groups, 2);
    cr_assert_eq(tl_rubric_test_points(&r, "transpose", "s06_2x3"), 16, "named without its prefix s06_");
    cr_assert_eq(tl_rubric_test_points(&r, "transpose", "s12_twice_123x457"), 24);
    cr_assert_eq(tl_rubric_test_points(&r, "transpose", "s07_31x33"), -1, "a test no line names has no points");
    cr_assert_eq(tl_rubric_test_points(&r, "vector", "s06_2x3"), -1, "another suite's test of the same name");
    unlink(path);
}

Test(rubric, tests_lines_that_do_not_add_up_are_refused)
{
    tl_rubric r;
    char err[256];
    const char *path = write_rubric(NO_TESTS "tests transpose 70 1x1 2x3\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "the tests lines add up to 70 points, not correctness_points 72"), "%s", err);
    path = write_rubric(NO_TESTS);
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "no tests lines"), "%s", err);
    path = write_rubric(UNITS "unit one 1 10 clean 1000 a\nunit two 2 20 - 67 b\ntests one 10 n_1\ntests two 15 N_1\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "the tests lines of unit two add up to 15 points, not its 20"), "%s", err);
    unlink(path);
}

Test(rubric, tests_lines_name_each_test_once_and_only_the_labs_suites)
{
    tl_rubric r;
    char err[256];
    const char *path = write_rubric(NO_TESTS "tests transpose 36 1x1 2x3\ntests transpose 36 2x3\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, ":14: hidden test 2x3 of suite transpose is named twice"), "%s", err);
    path = write_rubric(NO_TESTS "tests vector 72 3x5\n");   /* kind transpose, no hidden_suites: its one suite */
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "suite 'vector', which is not one of this lab's suites"), "%s", err);
    path = write_rubric(NO_TESTS "hidden_suites transpose vector\ntests transpose 40 1x1\ntests vector 32 3x5 4x4\n");
    cr_assert_eq(tl_rubric_load(path, &r, err, sizeof err), 0, "%s", err);
    path = write_rubric(NO_TESTS "tests transpose 72\n");
    cr_assert_neq(tl_rubric_load(path, &r, err, sizeof err), 0);
    cr_assert(strstr(err, "a tests line is: tests SUITE POINTS NAME..."), "%s", err);
    unlink(path);
}

Test(rubric, every_shipped_rubric_loads)
{
    glob_t g;
    cr_assert_eq(glob("labs/*/lab.rubric", 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        tl_rubric r;
        char err[256] = "";
        cr_assert_eq(tl_rubric_load(g.gl_pathv[i], &r, err, sizeof err), 0, "%s", err);
        cr_assert(r.ntest_groups > 0, "%s names its hidden tests", g.gl_pathv[i]);
    }
    globfree(&g);
}

/* The GPUs the thresholds were checked on: `calibrated GPU | SETUP | MEASURED`, repeatable. */
Test(rubric, calibrated_lines_are_read_in_order)
{
    tl_rubric r;
    char err[256] = "";
    const char *path = write_rubric(GOOD "calibrated  GPU A | sm_90, 2026-11-24 |  the reference 0.2 of copy  \n"
                                         "calibrated GPU B|sm_80|0.1; lab 1's 0.05   # a comment\n");
    cr_assert_eq(tl_rubric_load(path, &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.ncalibrations, 2);
    cr_assert_str_eq(r.calibrations[0].gpu, "GPU A");
    cr_assert_str_eq(r.calibrations[0].setup, "sm_90, 2026-11-24");
    cr_assert_str_eq(r.calibrations[0].measured, "the reference 0.2 of copy");
    cr_assert_str_eq(r.calibrations[1].measured, "0.1; lab 1's 0.05");
    unlink(path);
}

Test(rubric, a_calibrated_line_needs_three_fields)
{
    tl_rubric r;
    char err[256];
    const char *bad[] = {"calibrated GPU A | sm_90\n", "calibrated GPU A | | 0.2\n", "calibrated a | b | c | d\n",
                         "calibrated\n"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, GOOD "%s", bad[i]);
        const char *path = write_rubric(text);
        cr_expect_neq(tl_rubric_load(path, &r, err, sizeof err), 0, "accepted: %s", bad[i]);
        cr_expect(strstr(err, ":14: a calibrated line is"), "%s: %s", bad[i], err);
        unlink(path);
    }
}

Test(rubric, shipped_rubrics_name_their_calibration_gpus)
{
    glob_t g;
    cr_assert_eq(glob("labs/*/lab.rubric", 0, NULL, &g), 0);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        tl_rubric r;
        char err[256] = "";
        cr_assert_eq(tl_rubric_load(g.gl_pathv[i], &r, err, sizeof err), 0, "%s", err);
        cr_expect_geq(r.ncalibrations, 1, "%s has no calibrated line: its handout names no GPU", g.gl_pathv[i]);
    }
    globfree(&g);
}

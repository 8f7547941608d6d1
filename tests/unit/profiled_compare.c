/* Issue 45, the profiled process still distinguishable, through build/tools/report: the
 * launches ncu counted at the timed shape carry ncu's own time of them (gpu__time_duration),
 * and beside the measurement's time of the same request they decide whether the counts'
 * points are paid (grader/score.c, profiled_time_differs). Lab 7: the reference's counts
 * (tests/fixtures/lab7/, an H100 capture) with a time added (tests/fixtures/profiled/, in
 * ncu's msecond and usecond units). The whole grade on the mock GPU kit, lab 3:
 * tests/tools/profiled_compare.c. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "json.h"

#define OUT "build/tests/profiled-compare-out"
#define LAB7 "--tests tests/fixtures/lab7/tests.json --measure tests/fixtures/lab7/measure.json "            \
             "--measure-part tests/fixtures/lab7/measure-sparse.json --counters-shape 1024x1024x1024 "      \
             "--counters tests/fixtures/lab7/counters.csv --counters-timed tests/fixtures/lab7/counters-timed.csv " \
             "--ffma-dense tests/fixtures/profiled/lab7-ffma-dense.csv "

static tl_json *report(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p " OUT " && rm -f " OUT "/results.json && "
             "NO_COLOR=1 build/tools/report --rubric labs/lab7-sparse-matmul/lab.rubric --source lab.cu --seed 7 "
             "--results " OUT "/results.json --history " OUT "/history.csv %s > " OUT "/stdout.txt 2>&1", args);
    int status = system(cmd);
    cr_assert(WIFEXITED(status), "report did not exit normally");
    char err[256] = "";
    tl_json *results = tl_json_parse_file(OUT "/results.json", err, sizeof err);
    cr_assert(results, "results.json: %s", err);
    return results;
}

static const char *output_of(const tl_json *results, const char *prefix, double *score)
{
    for (const tl_json *t = tl_json_get(results, "tests")->child; t; t = t->next)
        if (!strncmp(tl_json_string(t, "name", ""), prefix, strlen(prefix))) {
            *score = tl_json_number(t, "score", -1);
            return tl_json_string(t, "output", "");
        }
    cr_assert_fail("no test named %s...", prefix);
    return "";
}

/* At block density 1/4 the counted launch took 0.64x the measured one (a uniform skip
 * when counted, a diverging one when timed): neither part 3's points nor the speedup's. */
Test(profiled_compare, lab7_a_launch_faster_when_counted_earns_neither_skip_item)
{
    tl_json *r = report(LAB7 "--ffma-quarter tests/fixtures/profiled/lab7-ffma-quarter-other.csv");
    double score;
    const char *out = output_of(r, "warp-uniform skips", &score);
    cr_expect_eq(score, 0, "%s", out);
    cr_expect(strstr(out, "divergent 0 = 0.00 %"), "the counts themselves are clean: %s", out);
    cr_expect(strstr(out, "your kernel ran differently under the profiler: 1.606 ms counted vs 2.51 ms timed "
                          "(block density 1/4, 0.64x"), "%s", out);
    out = output_of(r, "speed: skipping zeros", &score);
    cr_expect_eq(score, 0, "%s", out);
    cr_expect(strstr(out, "no speedup points: the FMA counts are no evidence of the code that was timed. your kernel "
                          "ran differently under the profiler"), "%s", out);
    tl_json_free(r);
}

/* The same counts with times that match (0.98x at both densities): every point kept, the
 * times shown. */
Test(profiled_compare, lab7_the_same_code_counted_and_timed_keeps_them)
{
    tl_json *r = report(LAB7 "--ffma-quarter tests/fixtures/profiled/lab7-ffma-quarter-same.csv");
    double score;
    const char *out = output_of(r, "warp-uniform skips", &score);
    cr_expect_eq(score, 10, "%s", out);
    cr_expect(strstr(out, "(B dense: 4.21 ms counted (ncu) vs 4.305 ms timed, 0.98x; block density 1/4: 2.455 ms "
                          "counted (ncu) vs 2.51 ms timed, 0.98x): the same code"), "%s", out);
    out = output_of(r, "speed: skipping zeros", &score);
    cr_expect_eq(score, 10, "%s", out);
    tl_json_free(r);
}

/* Counts without ncu's time (an older capture, CPU mode's counts): nothing to compare,
 * nothing lost. */
Test(profiled_compare, lab7_counts_without_a_time_are_judged_as_before)
{
    tl_json *r = report("--tests tests/fixtures/lab7/tests.json --measure tests/fixtures/lab7/measure.json "
                        "--measure-part tests/fixtures/lab7/measure-sparse.json --counters-shape 1024x1024x1024 "
                        "--counters tests/fixtures/lab7/counters.csv --counters-timed tests/fixtures/lab7/counters-timed.csv "
                        "--ffma-dense tests/fixtures/lab7/ffma-dense.csv --ffma-quarter tests/fixtures/lab7/ffma-quarter.csv");
    double score;
    const char *out = output_of(r, "warp-uniform skips", &score);
    cr_expect_eq(score, 10, "%s", out);
    cr_expect(!strstr(out, "profiler") && !strstr(out, "ms counted"), "%s", out);
    tl_json_free(r);
}

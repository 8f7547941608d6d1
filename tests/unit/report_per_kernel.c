/* Issue 45 through build/tools/report: the per-kernel verdicts and the tensor-pipe
 * counts reach the report (lab 3's conflicts, lab 7's divergence and skipping). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "json.h"

#define OUT "build/tests/report-per-kernel-out"
#define DIR "tests/fixtures/per_kernel/"

static int report(const char *rubric, const char *args, tl_json **results)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p " OUT " && rm -f " OUT "/results.json && "
             "NO_COLOR=1 build/tools/report --rubric %s --source lab.cu --seed 7 "
             "--results " OUT "/results.json --history " OUT "/history.csv %s > " OUT "/stdout.txt 2>&1",
             rubric, args);
    int status = system(cmd);
    cr_assert(WIFEXITED(status), "report did not exit normally");
    char err[256] = "";
    *results = tl_json_parse_file(OUT "/results.json", err, sizeof err);
    cr_assert(*results, "results.json: %s", err);
    return WEXITSTATUS(status);
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

Test(report_per_kernel, lab3_a_diluting_kernel_does_not_earn_the_conflict_points)
{
    tl_json *r;
    report("tests/fixtures/lab3.rubric", "--tests tests/fixtures/tests-all-pass.json --sanitizers "
           "tests/fixtures/sanitizers-clean --counters " DIR "diluted-conflicts.csv --counters-shape 1024x1024", &r);
    double score;
    const char *out = output_of(r, "bank conflicts", &score);
    cr_expect_eq(score, 0, "%s", out);
    cr_expect(strstr(out, "judged per kernel, weighted by the global bytes each moves: transpose_tiled (100 % of "
                     "the global bytes)"), "%s", out);
    cr_expect(strstr(out, "pad it to [32][33]"), "%s", out);
    tl_json_free(r);
}

#define LAB7 "--tests tests/fixtures/lab7/tests.json --measure tests/fixtures/lab7/measure.json " \
             "--measure-part tests/fixtures/lab7/measure-sparse.json --counters-shape 1024x1024x1024 "

Test(report_per_kernel, lab7_a_kernel_of_branches_without_arithmetic_does_not_dilute_divergence)
{
    tl_json *r;
    report("labs/lab7-sparse-matmul/lab.rubric", LAB7 "--counters " DIR "diluted-branches.csv --counters-timed "
           DIR "diluted-branches.csv --ffma-dense tests/fixtures/lab7/ffma-dense.csv --ffma-quarter "
           "tests/fixtures/lab7/ffma-quarter.csv", &r);
    double score;
    const char *out = output_of(r, "warp-uniform skips", &score);
    cr_expect_eq(score, 0, "%s", out);
    cr_expect(strstr(out, "= 20.00 %") && strstr(out, "sparse_tall (100 % of the arithmetic)"), "%s", out);
    tl_json_free(r);
}

Test(report_per_kernel, lab7_products_moved_to_the_tensor_pipes_are_no_evidence_of_skipping)
{
    tl_json *r;
    report("labs/lab7-sparse-matmul/lab.rubric", LAB7 "--counters tests/fixtures/lab7/counters.csv --ffma-dense "
           DIR "ffma-dense-fp32.csv --ffma-quarter " DIR "ffma-quarter-tensor.csv", &r);
    double score;
    const char *out = output_of(r, "speed: skipping zeros", &score);
    cr_expect_eq(score, 0, "the FP32 FMAs alone read 0.000 of B dense's: %s", out);
    cr_expect(strstr(out, "6.488e+07 at block density 1/4") && strstr(out, "work on the tensor cores"), "%s", out);
    tl_json_free(r);
    /* The reference's own counts (no tensor metric in them) keep the points. */
    report("labs/lab7-sparse-matmul/lab.rubric", LAB7 "--counters tests/fixtures/lab7/counters.csv --ffma-dense "
           "tests/fixtures/lab7/ffma-dense.csv --ffma-quarter tests/fixtures/lab7/ffma-quarter.csv", &r);
    out = output_of(r, "speed: skipping zeros", &score);
    cr_expect_gt(score, 0, "%s", out);
    tl_json_free(r);
}

Test(report_per_kernel, lab7_products_as_multiplies_and_adds_are_no_evidence_of_skipping)
{
    tl_json *r;
    report("labs/lab7-sparse-matmul/lab.rubric", LAB7 "--counters tests/fixtures/lab7/counters.csv --ffma-dense "
           DIR "ffma-dense-fp32.csv --ffma-quarter " DIR "ffma-quarter-mul-add.csv", &r);
    double score;
    const char *out = output_of(r, "speed: skipping zeros", &score);
    cr_expect_eq(score, 0, "no FMA at 1/4, but twice the operations as multiplies and adds: %s", out);
    cr_expect(strstr(out, "= 2.000 of them") && strstr(out, "does the zero K-blocks' work"), "%s", out);
    tl_json_free(r);
}

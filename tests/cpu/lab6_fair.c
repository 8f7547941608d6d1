/*
 * Lab 6's "128-bit global loads and stores" judges the width of the
 * accesses, not how the drawn shape splits into warps. At 520x2008 (seed 7)
 * a row of out is 130 float4s, not a multiple of the reference's block
 * width: its warps past a row's end run with idle lanes and make partial
 * requests, 9036 store requests against 8157.5 full ones (1.108x), which
 * cost the reference its 20 points while the item counted warp requests.
 * Counted per thread (ncu's smsp__sass_thread_inst_executed_op_global_ld/st)
 * the reference makes exactly rows x cols / 4 of each at every shape, while
 * 32-bit and 64-bit kernels make 4x and 2x. Each case here: the file's CPU
 * worker counts at SHAPE (cpu-check --counters SHAPE --ncu-csv), then
 * build/tools/report judges those counters with tests/fixtures/lab6.rubric
 * (the lab's rubric with all-pass test fixtures; the same vector_max_requests).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "json.h"
#include "shell.h"

#define WORK "build/tests/cpu-lab6-fair"
#define REFERENCE "solutions/lab6-register-transpose/transpose.cu"

/* Lab 6's scalar_only fixture (the vector path never taken) as a file. */
static const char *scalar_only(void)
{
    cr_assert_eq(sh_("mkdir -p " WORK " && patch -s -o " WORK "/scalar_only.cu " REFERENCE
                     " < tests/submissions/lab6/scalar_only.patch"), 0, "the patch did not apply");
    return WORK "/scalar_only.cu";
}

/* The first number after LABEL in an item's text ("global loads: bytes/access   16.00   16": 16.00); -1: absent. */
static double value(const char *output, const char *label)
{
    const char *p = strstr(output, label);
    return p ? strtod(p + strlen(label), NULL) : -1;
}

typedef struct {
    double score;           /* the 128-bit item's points */
    char output[8192];      /* its text */
} item;

/* SRC's counters at SHAPE in CPU mode, judged by the lab's rubric: the 128-bit item. */
static item judged(const char *src, const char *name, const char *shape)
{
    char cmd[3072], log[256], err[256] = "";
    snprintf(log, sizeof log, WORK "/%s.log", name);
    snprintf(cmd, sizeof cmd,
             "mkdir -p " WORK " && make -s --no-print-directory -f mk/submission.mk LAB=lab6 SRC=%s cpu > %s 2>&1 && "
             "w=$(make -s --no-print-directory -f mk/submission.mk LAB=lab6 SRC=%s print-cpu) && "
             "build/cpu/cpu-check --worker ${w%% *} --kind ${w#* } --lab lab6 --source %s --json " WORK "/%s.json "
             "--shape 1x1 --counters %s --ncu-csv " WORK "/%s.csv >> %s 2>&1",
             src, log, src, src, name, shape, name, log);
    int status = sh_(cmd);
    cr_assert_eq(status, 0, "CPU check of %s at %s: exit %d\n%s", src, shape, status, read_all(log));
    snprintf(cmd, sizeof cmd, "rm -f " WORK "/%s.results.json && NO_COLOR=1 build/tools/report "
             "--rubric tests/fixtures/lab6.rubric --source lab.cu --seed 7 --results " WORK "/%s.results.json "
             "--history " WORK "/%s.history.csv --tests tests/fixtures/tests-all-pass.json "
             "--measure tests/fixtures/measure-library.json --sanitizers tests/fixtures/sanitizers-clean "
             "--counters " WORK "/%s.csv --counters-shape %s >> %s 2>&1", name, name, name, name, shape, log);
    sh_(cmd);
    char path[256];
    snprintf(path, sizeof path, WORK "/%s.results.json", name);
    tl_json *r = tl_json_parse_file(path, err, sizeof err);
    cr_assert(r, "report wrote no results.json (%s):\n%s", err, read_all(log));
    item it = {-1, ""};
    for (const tl_json *t = tl_json_get(r, "tests")->child; t; t = t->next)
        if (!strncmp(tl_json_string(t, "name", ""), "128-bit global loads and stores", 31)) {
            it.score = tl_json_number(t, "score", -1);
            snprintf(it.output, sizeof it.output, "%s", tl_json_string(t, "output", ""));
        }
    tl_json_free(r);
    cr_assert_geq(it.score, 0, "no 128-bit item:\n%s", read_all(log));
    return it;
}

/* The reference at seed 7's drawn shape: every access 16 bytes, though its stores take 1.108x full warps'
 * requests (rows x cols / 128); judged against whole rows' requests (2008 rows of out x ceil(520 / 128)). */
Test(lab6_fair, the_reference_keeps_the_points_where_rows_end_mid_warp, .timeout = 600)
{
    item it = judged(REFERENCE, "ref_520x2008", "520x2008");
    cr_expect_eq(it.score, 20, "%s", it.output);
    cr_expect_eq(value(it.output, "global stores: requests"), 9036, "%s", it.output);
    cr_expect_eq(value(it.output, "global stores: thread accesses"), 520 * 2008 / 4, "%s", it.output);
    cr_expect_eq(value(it.output, "global loads: thread accesses"), 520 * 2008 / 4, "%s", it.output);
    cr_expect(strstr(it.output, "9036.00    10040"), "whole rows: 2008 x 5 store requests: %s", it.output);
}

/* Awkward shapes of counters_range: cols / 4 (a row of in in float4s) and rows / 4 (of out) not multiples of
 * 32 or of the block's width, rows % 8 == 4 or cols % 8 == 4 (rows starting mid-sector). */
Test(lab6_fair, the_reference_keeps_the_points_over_awkward_shapes, .timeout = 900)
{
    static const char *const shapes[] = {"1028x516", "612x1500", "2044x524", "516x2044"};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        char name[64];
        snprintf(name, sizeof name, "ref_%s", shapes[i]);
        item it = judged(REFERENCE, name, shapes[i]);
        cr_expect_eq(it.score, 20, "%s:\n%s", shapes[i], it.output);
        cr_expect(value(it.output, "global loads: thread accesses") == value(it.output, "global stores: thread accesses"),
                  "%s:\n%s", shapes[i], it.output);
    }
}

/* Narrower accesses still lose them at the same shape: float 4 bytes an access, float2 8. */
Test(lab6_fair, float_and_float2_kernels_still_lose_the_points, .timeout = 600)
{
    item scalar = judged(scalar_only(), "scalar_520x2008", "520x2008");
    cr_expect_eq(scalar.score, 0, "%s", scalar.output);
    cr_expect(value(scalar.output, "global loads: thread accesses") == 520 * 2008 &&
              strstr(scalar.output, "32-bit (float) accesses"), "%s", scalar.output);
    item pairs = judged("tests/cpu/fixtures/float2_blocks.cu", "float2_520x2008", "520x2008");
    cr_expect_eq(pairs.score, 0, "%s", pairs.output);
    cr_expect(value(pairs.output, "global loads: thread accesses") == 520 * 2008 / 2 &&
              strstr(pairs.output, "64-bit (float2) accesses"), "%s", pairs.output);
}

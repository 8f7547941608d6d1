/*
 * Issue 43: lab 6's sectors hint only when it is true. At 600x1716 (1716 %
 * 8 == 4) every other row of in starts in the middle of a 32-byte sector;
 * the reference, whose warps move neighbouring float4s of one row, touches
 * 16.89 sectors per load request where its bytes fill 15.89. The text gives
 * that ideal (as report.html does, per line) and says the shape explains the
 * rest, instead of telling the student to do what the kernel already does.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "json.h"

#define OUT "build/tests/report-student"

/* The lab 6 rubric's report on all-pass inputs with the counters of `csv` at `shape`: item 128-bit's output. */
static const char *vector_item(const char *csv, const char *shape)
{
    static char text[8192];
    char cmd[1024], err[256] = "";
    snprintf(cmd, sizeof cmd, "mkdir -p " OUT " && rm -f " OUT "/results.json && NO_COLOR=1 build/tools/report "
             "--rubric tests/fixtures/lab6.rubric --source lab.cu --seed 7 --results " OUT "/results.json "
             "--history " OUT "/history.csv --tests tests/fixtures/tests-all-pass.json "
             "--measure tests/fixtures/measure-library.json --sanitizers tests/fixtures/sanitizers-clean "
             "--counters %s --counters-shape %s > " OUT "/stdout.txt 2>&1", csv, shape);
    int status = system(cmd);
    cr_assert(WIFEXITED(status), "report did not exit normally");
    tl_json *r = tl_json_parse_file(OUT "/results.json", err, sizeof err);
    cr_assert(r, "no results.json: %s", err);
    const char *out = NULL;
    for (const tl_json *t = tl_json_get(r, "tests")->child; t; t = t->next)
        if (!strncmp(tl_json_string(t, "name", ""), "128-bit global loads and stores", 31))
            out = tl_json_string(t, "output", "");
    cr_assert(out, "no 128-bit item");
    snprintf(text, sizeof text, "%s", out);
    tl_json_free(r);
    return text;
}

Test(student_meets, a_shape_with_rows_mid_sector_is_not_blamed_on_the_access_pattern)
{
    const char *out = vector_item("tests/fixtures/ncu-vector-600x1716.csv", "600x1716");
    cr_expect(strstr(out, "global loads: sectors/request         16.89    15.89"), "the ideal for the shape:\n%s", out);
    cr_expect(strstr(out, "global stores: sectors/request        15.00       15\n"), "%s", out);
    cr_expect(!strstr(out, "Neighbouring threads should move"), "a hint the kernel already follows:\n%s", out);
    cr_expect(strstr(out, "That is the shape, not your access pattern: in's rows are 1716 floats long (1716 % 8 == 4)"),
              "%s", out);
}

/* Where rows start on sectors (the same counts, said to be at 600x1720), the excess is the access
 * pattern's: the hint stays. */
Test(student_meets, aligned_rows_with_extra_sectors_keep_the_hint)
{
    const char *out = vector_item("tests/fixtures/ncu-vector-600x1716.csv", "600x1720");
    cr_expect(strstr(out, "Hint: your loads touch 16.9 sectors per request: 128-bit, but a warp's 16-byte pieces "
                          "land in more sectors than the"), "%s", out);
}

/*
 * ./grade --cpu (issue 16): the grade without a GPU. Every reference
 * solution gets full correctness marks (its score is the maximum, with the
 * performance points left out of it and said so), every skeleton scores 0,
 * and bad submissions get their diagnosis from CPU mode's checks (a race as
 * racecheck's, an illegal address as memcheck's, bank conflicts from the
 * computed counters). Each test reads the grade's results.json; no GPU is
 * needed, and none is used even where there is one (--cpu).
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "json.h"

#define WORK "build/tests/cpu-grade"
#define SEED "20261121"   /* the GPU suite's */

/* ./grade LAB --cpu on SRC (a kit path) into WORK/NAME; its exit status and results.json. */
typedef struct {
    int status;
    tl_json *results;
    char log[256];
} grade_run;

static grade_run grade_cpu(const char *lab, const char *src, const char *name)
{
    grade_run g;
    char cmd[2048], err[256], json[256];
    snprintf(g.log, sizeof g.log, WORK "/%s.log", name);
    snprintf(json, sizeof json, WORK "/%s/results.json", name);
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK " && rm -rf " WORK "/%s && TILELAB_HISTORY=" WORK "/history.csv "
             "NO_COLOR=1 ./grade %s --cpu --file %s --seed " SEED " --out " WORK "/%s > %s 2>&1",
             name, lab, src, name, g.log);
    unsetenv("MAKEFLAGS");   /* a fresh top-level make inside, as a student's */
    unsetenv("MAKELEVEL");
    int status = system(cmd);
    g.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    g.results = tl_json_parse_file(json, err, sizeof err);
    cr_assert(g.results, "%s: no results.json (%s); exit %d; see %s", src, err, g.status, g.log);
    return g;
}

/* NAME.patch applied to the lab's solution, as the GPU suite applies it. */
static const char *patched(const char *lab, const char *name)
{
    static char path[256];
    char cmd[1024];
    snprintf(path, sizeof path, WORK "/fixtures/%s-%s.cu", lab, name);
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK "/fixtures && patch -s -o %s $(ls solutions/%s-*/*.cu) "
             "< tests/submissions/%s/%s.patch", path, lab, lab, name);
    cr_assert_eq(system(cmd), 0, "tests/submissions/%s/%s.patch does not apply", lab, name);
    return path;
}

/* The graded item whose name starts with `prefix`. */
static const tl_json *item(const grade_run *g, const char *prefix)
{
    for (const tl_json *t = tl_json_get(g->results, "tests")->child; t; t = t->next)
        if (!strncmp(tl_json_string(t, "name", ""), prefix, strlen(prefix)))
            return t;
    cr_assert_fail("no item '%s' in the results (%s)", prefix, g->log);
    return NULL;
}

/* Some item's output holds `text`. */
static int says(const grade_run *g, const char *text)
{
    for (const tl_json *t = tl_json_get(g->results, "tests")->child; t; t = t->next)
        if (strstr(tl_json_string(t, "output", ""), text))
            return 1;
    return 0;
}

static void full_marks(const char *lab, const char *src)
{
    grade_run g = grade_cpu(lab, src, lab);
    double score = tl_json_number(g.results, "score", -1), max = tl_json_number(g.results, "max_score", -1);
    for (const tl_json *t = tl_json_get(g.results, "tests")->child; t; t = t->next)   /* what was lost, in the log */
        cr_expect(tl_json_number(t, "score", 0) == tl_json_number(t, "max_score", 0), "%s: %s: %g/%g: %s", src,
                  tl_json_string(t, "name", "?"), tl_json_number(t, "score", 0), tl_json_number(t, "max_score", 0),
                  tl_json_string(t, "output", ""));
    cr_expect_eq(g.status, 0, "%s: ./grade --cpu exited %d (score %g/%g); see %s", src, g.status, score, max, g.log);
    cr_expect(max > 0 && score == max, "%s: %g/%g; see %s", src, score, max, g.log);
    cr_expect_str_eq(tl_json_string(tl_json_get(g.results, "extra_data"), "mode", ""), "cpu");
    cr_expect(strstr(tl_json_string(g.results, "output", ""), "CPU mode (no GPU): Nothing was timed"),
              "%s: results.json's output does not say it ran in CPU mode", src);
    /* Performance: not measured, out of the maximum, and said so. */
    for (const tl_json *t = tl_json_get(g.results, "tests")->child; t; t = t->next) {
        const char *name = tl_json_string(t, "name", "");
        if (strncmp(name, "performance", 11) && strncmp(name, "speed", 5))
            continue;
        cr_expect(tl_json_number(t, "max_score", -1) == 0 && strstr(tl_json_string(t, "output", ""), "not measured: no GPU"),
                  "%s: '%s' is not left out as not measured", src, name);
    }
    tl_json_free(g.results);
}

static void scores_zero(const char *lab, const char *src)
{
    grade_run g = grade_cpu(lab, src, lab);
    cr_expect_eq(g.status, 1, "%s: ./grade --cpu exited %d; see %s", src, g.status, g.log);
    cr_expect(tl_json_number(g.results, "score", -1) == 0 && tl_json_number(g.results, "max_score", 0) > 0,
              "%s: %g/%g from an untouched skeleton; see %s", src, tl_json_number(g.results, "score", -1),
              tl_json_number(g.results, "max_score", 0), g.log);
    tl_json_free(g.results);
}

Test(cpu_grade_solutions, lab1, .timeout = 300) { full_marks("lab1", "solutions/lab1-naive-transpose/transpose.cu"); }
Test(cpu_grade_solutions, lab2, .timeout = 300) { full_marks("lab2", "solutions/lab2-shared-tile/transpose.cu"); }
Test(cpu_grade_solutions, lab3, .timeout = 300) { full_marks("lab3", "solutions/lab3-padding/transpose.cu"); }
Test(cpu_grade_solutions, lab4, .timeout = 300) { full_marks("lab4", "solutions/lab4-tiled-matmul/matmul.cu"); }
Test(cpu_grade_solutions, lab5, .timeout = 300) { full_marks("lab5", "solutions/lab5-supersteps/supersteps.cu"); }
Test(cpu_grade_solutions, lab6, .timeout = 300) { full_marks("lab6", "solutions/lab6-register-transpose/transpose.cu"); }

Test(cpu_grade_skeletons, lab1, .timeout = 300) { scores_zero("lab1", "labs/lab1-naive-transpose/transpose.cu"); }
Test(cpu_grade_skeletons, lab2, .timeout = 300) { scores_zero("lab2", "labs/lab2-shared-tile/transpose.cu"); }
Test(cpu_grade_skeletons, lab3, .timeout = 300) { scores_zero("lab3", "labs/lab3-padding/transpose.cu"); }
Test(cpu_grade_skeletons, lab4, .timeout = 300) { scores_zero("lab4", "labs/lab4-tiled-matmul/matmul.cu"); }
Test(cpu_grade_skeletons, lab5, .timeout = 300) { scores_zero("lab5", "labs/lab5-supersteps/supersteps.cu"); }
Test(cpu_grade_skeletons, lab6, .timeout = 300) { scores_zero("lab6", "labs/lab6-register-transpose/transpose.cu"); }

Test(cpu_grade_fixtures, a_missing_barrier_is_racechecks_finding, .timeout = 300)
{
    grade_run g = grade_cpu("lab2", patched("lab2", "missing_barrier"), "lab2-missing_barrier");
    cr_expect_eq(g.status, 1);
    cr_expect(tl_json_number(item(&g, "racecheck"), "score", -1) == 0, "racecheck kept its points; see %s", g.log);
    cr_expect(says(&g, "Race reported (CPU mode, no GPU): race on shared memory"), "no race named; see %s", g.log);
    cr_expect(strstr(tl_json_string(tl_json_get(g.results, "extra_data"), "flags", ""), "race"), "not flagged as a race; see %s", g.log);
    tl_json_free(g.results);
}

Test(cpu_grade_fixtures, a_wild_store_is_an_illegal_address, .timeout = 300)
{
    grade_run g = grade_cpu("lab1", patched("lab1", "illegal_address"), "lab1-illegal_address");
    cr_expect_eq(g.status, 1);
    cr_expect(tl_json_number(g.results, "score", -1) == 0, "%g points; see %s", tl_json_number(g.results, "score", -1), g.log);
    cr_expect(says(&g, "cudaErrorIllegalAddress"), "no illegal address named; see %s", g.log);
    cr_expect(strstr(tl_json_string(tl_json_get(g.results, "extra_data"), "flags", ""), "out-of-bounds"), "not flagged out of bounds; see %s", g.log);
    tl_json_free(g.results);
}

Test(cpu_grade_fixtures, no_padding_loses_the_bank_conflict_points_alone, .timeout = 300)
{
    grade_run g = grade_cpu("lab3", patched("lab3", "no_padding"), "lab3-no_padding");
    const tl_json *conflicts = item(&g, "bank conflicts");
    cr_expect_eq(g.status, 1);
    cr_expect(tl_json_number(conflicts, "score", -1) == 0 && tl_json_number(conflicts, "max_score", 0) > 0,
              "the bank-conflict points were not lost; see %s", g.log);
    cr_expect(tl_json_number(g.results, "score", -1) == tl_json_number(g.results, "max_score", 0) -
              tl_json_number(conflicts, "max_score", 0), "other points lost too; see %s", g.log);
    cr_expect(says(&g, "pad it to [32][33]"), "no hint to pad the tile; see %s", g.log);
    tl_json_free(g.results);
}

Test(cpu_grade_fixtures, what_cpu_mode_cannot_run_is_not_graded, .timeout = 300)
{
    grade_run g = grade_cpu("lab1", "tests/cpu/fixtures/uses_atomic.cu", "lab1-uses_atomic");
    cr_expect_eq(g.status, 2, "exit %d; see %s", g.status, g.log);
    cr_expect(strstr(tl_json_string(g.results, "output", ""), "CPU mode does not run (atomicAdd at "
                     "tests/cpu/fixtures/uses_atomic.cu:11); grade it on a GPU"),
              "%s", tl_json_string(g.results, "output", ""));
    tl_json_free(g.results);
}

/* Without a GPU (CUDA_VISIBLE_DEVICES= hides any), ./grade chooses CPU mode by itself and says so. */
Test(cpu_grade_fixtures, without_a_gpu_grade_chooses_cpu_mode_and_says_so, .timeout = 300)
{
    char cmd[1024], err[256];
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK " && rm -rf " WORK "/auto && CUDA_VISIBLE_DEVICES= TILELAB_HISTORY=" WORK
             "/history.csv NO_COLOR=1 ./grade lab1 --file solutions/lab1-naive-transpose/transpose.cu --seed " SEED
             " --out " WORK "/auto > " WORK "/auto.log 2>&1");
    unsetenv("MAKEFLAGS");
    unsetenv("MAKELEVEL");
    unsetenv("TILELAB_CPU_FALLBACK");
    int status = system(cmd);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "exit %d; see " WORK "/auto.log", WEXITSTATUS(status));
    tl_json *r = tl_json_parse_file(WORK "/auto/results.json", err, sizeof err);
    cr_assert(r, "no results.json: %s", err);
    cr_expect_str_eq(tl_json_string(tl_json_get(r, "extra_data"), "mode", ""), "cpu");
    FILE *f = fopen(WORK "/auto.log", "r");
    char log[1 << 15] = "";
    size_t n = f ? fread(log, 1, sizeof log - 1, f) : 0;
    log[n] = '\0';
    if (f)
        fclose(f);
    cr_expect(strstr(log, "no usable NVIDIA GPU") && strstr(log, "grading in CPU mode instead"), "%s", log);
    tl_json_free(r);
}

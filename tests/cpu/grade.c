/*
 * ./grade --cpu (issue 16): the grade without a GPU, on every row of the
 * table the GPU suite grades (tests/gpu/fixtures.c): each lab's solution
 * (by default: full marks of what CPU mode grades, its performance points
 * left out and said so) and skeleton (by default: zero), and every fixture
 * in tests/submissions/, checked against its `expect-cpu:` header: the exit
 * status, score and diagnoses CPU mode's checks give it (a race as
 * racecheck's, an illegal address as memcheck's, bank conflicts from the
 * computed counters). A fixture that needs a real GPU says why in its
 * `expect-cpu-skip:` line and is reported skipped. No fixture has a test of
 * its own here: adding one needs no C. Each test reads the grade's
 * results.json; no GPU is needed, and none is used even where there is one
 * (--cpu). TILELAB_FIXTURE picks rows as in the GPU suite.
 *
 * Rows are graded on reduced cases (TILELAB_TEST_CASES=reduced: at most
 * 256x256 elements, cpu/cpu_cases.h), which each results.json must record,
 * but for the solution rows and rows whose header says `expect-cases: full`;
 * TILELAB_TEST_FULL=1 (make test-full, before a release) grades every row on
 * the real cases. A cheat or an idiom shows at 129x257 as at 8191x8193; the
 * large cases cost seconds a row (lab 1: 88 % of its grade).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../gpu/fixtures.h"
#include "json.h"

#define WORK "build/tests/cpu-grade"
#define SEED "20261121"   /* the GPU suite's */

/* ./grade LAB --cpu on SRC (a kit path) into WORK/NAME, with more options
 * (plain words); its exit status and results.json. */
typedef struct {
    int status;
    tl_json *results;
    char log[256];
} grade_run;

static grade_run grade_cpu_cases(const char *lab, const char *src, const char *name, const char *args, int reduced)
{
    grade_run g;
    char cmd[2048], err[256], json[256];
    snprintf(g.log, sizeof g.log, WORK "/%s.log", name);
    snprintf(json, sizeof json, WORK "/%s/results.json", name);
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK " && rm -rf " WORK "/%s && TILELAB_HISTORY=" WORK "/history.csv "
             "TILELAB_TEST_CASES=%s NO_COLOR=1 ./grade %s --cpu --file %s --seed " SEED " --out " WORK "/%s %s > %s 2>&1",
             name, reduced ? "reduced" : "", lab, src, name, args, g.log);
    unsetenv("MAKEFLAGS");   /* a fresh top-level make inside, as a student's */
    unsetenv("MAKELEVEL");
    int status = system(cmd);
    g.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    g.results = tl_json_parse_file(json, err, sizeof err);
    cr_assert(g.results, "%s: no results.json (%s); exit %d; see %s", src, err, g.status, g.log);
    return g;
}

static grade_run grade_cpu(const char *lab, const char *src, const char *name, const char *args)
{
    return grade_cpu_cases(lab, src, name, args, 0);
}

/* Reduced cases for this row? Not for a solution, an `expect-cases: full` row, or make test-full. */
static int reduced_for(const fixture *f)
{
    const char *full = getenv("TILELAB_TEST_FULL");
    return !f->full_cases && !(full && !strcmp(full, "1"));
}

/* TILELAB_FIXTURE: row names, or starts of them, separated by commas. */
static int named_by(const char *list, const char *name)
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len > 0 && strncmp(name, p, len) == 0)
            return 1;
        p += len + (p[len] == ',');
    }
    return 0;
}

/* Every output of a results.json joined, for diagnosis checks. */
static void all_outputs(const tl_json *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s\n", tl_json_string(r, "output", ""));
    for (const tl_json *t = tl_json_get(r, "tests") ? tl_json_get(r, "tests")->child : NULL; t; t = t->next) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s: %s (%g/%g)\n", tl_json_string(t, "name", ""), tl_json_string(t, "output", ""),
                 tl_json_number(t, "score", 0), tl_json_number(t, "max_score", 0));
    }
}

/* A patch fixture, applied to the lab's solution as the GPU suite applies
 * it, into this suite's own folder (the two suites may run at once). */
static void apply_patch(const fixture *f, char *graded, size_t len)
{
    char cmd[2048];
    snprintf(graded, len, WORK "/patched/%s.cu", f->run);
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK "/patched && rm -f %s && patch -s -o %s %s < %s > %s.log 2>&1", graded,
             graded, f->solution, f->path, graded);
    cr_assert_eq(system(cmd), 0, "%s: %s does not apply to %s; see %s.log", f->name, f->path, f->solution, graded);
}

/* Full marks in CPU mode: the maximum of what it grades, with the timed
 * points out of it, not measured, and said so. */
static void expect_cpu_mode_said(const fixture *f, const grade_run *g)
{
    cr_expect_str_eq(tl_json_string(tl_json_get(g->results, "extra_data"), "mode", ""), "cpu", "%s: results.json's "
                     "extra_data.mode; see %s", f->name, g->log);
    cr_expect(strstr(tl_json_string(g->results, "output", ""), "CPU mode (no GPU): Nothing was timed"),
              "%s: results.json's output does not say it ran in CPU mode; see %s", f->name, g->log);
    for (const tl_json *t = tl_json_get(g->results, "tests")->child; t; t = t->next) {
        const char *name = tl_json_string(t, "name", "");
        if (strncmp(name, "performance", 11) && strncmp(name, "speed", 5))
            continue;
        cr_expect(tl_json_number(t, "max_score", -1) == 0 && strstr(tl_json_string(t, "output", ""), "not measured: no GPU"),
                  "%s: '%s' is not left out as not measured; see %s", f->name, name, g->log);
    }
}

/* One ./grade --cpu of the row into WORK/<run>/, checked against its expect-cpu. */
static double grade(const fixture *f, const char *graded, const char *run)
{
    const fx_outcome *want = &f->cpu;
    int reduced = reduced_for(f);
    grade_run g = grade_cpu_cases(f->lab, graded, run, f->args, reduced);
    double score = tl_json_number(g.results, "score", -1), max = tl_json_number(g.results, "max_score", -1);
    static char outputs[65536];
    all_outputs(g.results, outputs, sizeof outputs);

    /* A reduced grade is said to be one, and a real one is never marked so. */
    const char *cases = tl_json_string(tl_json_get(g.results, "extra_data"), "cases", "");
    cr_expect_str_eq(cases, reduced ? "reduced" : "", "%s: results.json's extra_data.cases is \"%s\" for a grade on %s "
                     "cases; see %s", f->name, cases, reduced ? "reduced" : "the real", g.log);
    /* ./grade exits 0 only when no point is lost: all of what CPU mode checked. */
    int status = want->exit_status == FX_EXIT_BY_SCORE ? (score >= max ? 0 : 1) : want->exit_status;
    cr_expect_eq(g.status, status, "%s: exit status %d, expected %d; see %s\n%s", f->name, g.status, status, g.log,
                 outputs);
    if (want->full) {
        cr_expect(max > 0 && score == max, "%s: score %g of %g, expected all of it; see %s\n%s", f->name, score, max,
                  g.log, outputs);
        expect_cpu_mode_said(f, &g);
    } else
        cr_expect(score >= want->min_score && score <= want->max_score, "%s: score %.2f (of %g), expected %g..%g; see "
                  "%s\n%s", f->name, score, max, want->min_score, want->max_score, g.log, outputs);
    for (int i = 0; i < want->diagnoses; i++)
        cr_expect(strstr(outputs, want->diagnosis[i]), "%s: the report lacks \"%s\"; see %s\n%s", f->name,
                  want->diagnosis[i], g.log, outputs);
    printf("%-40s exit %d  score %6.2f of %g%s\n", f->name, g.status, score, max, reduced ? "  (reduced cases)" : "");
    tl_json_free(g.results);
    return score;
}

/* The row named `name`, graded in CPU mode: malformed rows fail here too. */
static void check(const char *name)
{
    fixture *table;
    char err[256], graded[FX_TEXT + 64];
    int n = fixtures_load(&table, err, sizeof err);
    cr_assert(n >= 0, "%s", err);
    const fixture *f = NULL;
    for (int i = 0; i < n && !f; i++)
        if (strcmp(table[i].name, name) == 0)
            f = &table[i];
    cr_assert(f, "%s: no longer in the table", name);
    cr_assert(!f->error[0], "%s: %s", f->name, f->error);
    const char *only = getenv("TILELAB_FIXTURE");
    if (only && *only && !named_by(only, f->name))
        cr_skip_test("%s: not named by TILELAB_FIXTURE=%s", f->name, only);
    if (f->cpu_skip[0])
        cr_skip_test("%s: not graded in CPU mode: %s", f->name, f->cpu_skip);

    if (f->is_patch)
        apply_patch(f, graded, sizeof graded);
    else
        snprintf(graded, sizeof graded, "%s", f->graded);
    if (f->env[0]) {
        char env[FX_TEXT];
        snprintf(env, sizeof env, "%s", f->env);
        char *eq = strchr(env, '=');
        *eq = '\0';
        setenv(env, eq + 1, 1);
    }
    double first = 0;
    for (int i = 1; i <= f->repeat; i++) {
        char run[160];
        snprintf(run, sizeof run, f->repeat > 1 ? "%s-%d" : "%s", f->run, i);
        double score = grade(f, graded, run);
        if (i == 1)
            first = score;
        else
            cr_expect_eq(score, first, "%s: the same submission graded %d times: %.2f, then %.2f", f->name, i, first,
                         score);
    }
    free(table);
}

/* A row is a parameter by name, as in the GPU suite: each test re-reads the
 * table in its own process, so only the name crosses (cr_malloc'd). */
typedef struct {
    char name[128];
} row_name;

static void free_rows(struct criterion_test_params *crp)
{
    cr_free(crp->params);
}

ParameterizedTestParameters(cpu_grade, row)
{
    fixture *table;
    char err[256];
    int n = fixtures_load(&table, err, sizeof err), count = 0;
    row_name *rows = cr_malloc(sizeof *rows * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        snprintf(rows[count++].name, sizeof rows->name, "%s", table[i].name);
    if (n < 0)   /* no table (run from elsewhere): one row, which fails saying why */
        snprintf(rows[count++].name, sizeof rows->name, "(no table)");
    free(table);
    return cr_make_param_array(row_name, rows, count, free_rows);
}

/* 300 s a row: the slowest (a hang CPU mode must stop) take about a minute on 2 cores. */
ParameterizedTest(row_name *row, cpu_grade, row, .timeout = 300) { check(row->name); }

/* Not rows of the table: a file CPU mode refuses, and ./grade choosing CPU mode by itself. */
Test(cpu_grade_fixtures, what_cpu_mode_cannot_run_is_not_graded, .timeout = 300)
{
    grade_run g = grade_cpu("lab1", "tests/cpu/fixtures/uses_syncthreads_count.cu", "lab1-uses_syncthreads_count", "");
    cr_expect_eq(g.status, 2, "exit %d; see %s", g.status, g.log);
    cr_expect(strstr(tl_json_string(g.results, "output", ""), "CPU mode does not run (__syncthreads_count at "
                     "tests/cpu/fixtures/uses_syncthreads_count.cu:11); grade it on a GPU"),
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

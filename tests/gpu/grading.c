/*
 * The GPU suite: ./grade on every row of the table in fixtures.c: each lab's
 * solution (full marks) and skeleton (zero), and every fixture in
 * tests/submissions/ (bad submissions, attacks on the grader, and in fair/
 * other correct ones), each checked for the exit status, score range and
 * diagnoses its `expect:` header states (tests/submissions/README.md). No
 * fixture has a test of its own here: adding one needs no C.
 *
 * Runs four grades at a time (make runs it with -j4): their tests share the
 * GPU, and ./grade's GPU lock gives each measurement the GPU alone. Without a
 * usable GPU every row is skipped, with the reason, and the suite passes.
 * TILELAB_FIXTURE=lab1/hangs (a row's name, or the start of one: lab1/;
 * several separated by commas: lab1/,fair/) grades only the rows it names; the others report themselves skipped.
 *
 * Each row graded leaves RUNS/<run>.verdict: "running", then a line per grade
 * ("exit N score S", and "FAIL: why" when it is not what the row expects),
 * then "done". tests/gpu/device-run.sh makes its table of every row from them.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "fixtures.h"
#include "json.h"

#define SEED "20261121"

static void require_gpu(const char *name)
{
    const char *probe = getenv("TILELAB_PROBE");
    char cmd[512], why[512] = "";
    snprintf(cmd, sizeof cmd, "%s 2>&1", probe ? probe : "false");
    FILE *p = popen(cmd, "r");
    if (p && !fgets(why, sizeof why, p))
        why[0] = '\0';
    int status = p ? pclose(p) : -1;
    if (!probe || status != 0) {
        why[strcspn(why, "\n")] = '\0';
        cr_skip_test("%s: GPU suite skipped: %s", name, probe ? why : "TILELAB_PROBE is not set (run it through make test)");
    }
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
        snprintf(buf + used, len - used, "%s: %s\n", tl_json_string(t, "name", ""), tl_json_string(t, "output", ""));
    }
}

/* A patch fixture (tests/submissions/[attacks/|fair/]labN/NAME.patch) is
 * applied to the lab's reference solution into f->graded, beneath
 * build/tests/gpu-runs/patched/, which is graded instead. */
static void apply_patch(const fixture *f)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname %s)\" && rm -f %s %s.rej && patch -s -o %s %s < %s > %s.log 2>&1",
             f->graded, f->graded, f->graded, f->graded, f->solution, f->path, f->graded);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: %s does not apply to %s; see %s.log", f->name,
              f->path, f->solution, f->graded);
}

/* A line appended to the row's verdict file (the top says what it holds). */
static void verdict(const fixture *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void verdict(const fixture *f, const char *fmt, ...)
{
    char path[512];
    snprintf(path, sizeof path, RUNS "/%s.verdict", f->run);
    FILE *out = fopen(path, "a");
    if (!out)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
    fclose(out);
}

/* One ./grade of the row into RUNS/<run>/, checked against its expectation. */
static double grade(const fixture *f, const char *run)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "TILELAB_HISTORY=" RUNS "/history.csv NO_COLOR=1 ./grade %s --file %s "
             "--seed " SEED " --out " RUNS "/%s %s > " RUNS "/%s.log 2>&1", f->lab, f->graded, run, f->args, run);
    system("mkdir -p " RUNS);
    int status = system(cmd);
    cr_assert(WIFEXITED(status), "%s: ./grade did not exit normally", f->name);

    char path[512], err[256], outputs[65536];
    snprintf(path, sizeof path, RUNS "/%s/results.json", run);
    tl_json *r = tl_json_parse_file(path, err, sizeof err);
    cr_assert(r, "%s: no valid results.json (%s); see " RUNS "/%s.log", f->name, err, run);
    double score = tl_json_number(r, "score", -1);
    all_outputs(r, outputs, sizeof outputs);
    tl_json_free(r);

    /* ./grade exits 0 only when no point is lost: 100 of 100, or of what was checked. */
    int want = f->expect.exit_status == FX_EXIT_BY_SCORE ? (score >= 100 ? 0 : 1) : f->expect.exit_status;
    char wrong[2048] = "";
    if (WEXITSTATUS(status) != want)
        snprintf(wrong + strlen(wrong), sizeof wrong - strlen(wrong), "; exit status %d, expected %d",
                 WEXITSTATUS(status), want);
    if (!(score >= f->expect.min_score && score <= f->expect.max_score))
        snprintf(wrong + strlen(wrong), sizeof wrong - strlen(wrong), "; score %.2f, expected %g..%g", score,
                 f->expect.min_score, f->expect.max_score);
    for (int i = 0; i < f->expect.diagnoses; i++)
        if (!strstr(outputs, f->expect.diagnosis[i]))
            snprintf(wrong + strlen(wrong), sizeof wrong - strlen(wrong), "; the report lacks \"%s\"",
                     f->expect.diagnosis[i]);
    verdict(f, "exit %d score %.2f%s%s", WEXITSTATUS(status), score, wrong[0] ? " FAIL: " : "", wrong[0] ? wrong + 2 : "");
    cr_expect(!wrong[0], "%s: %s\n%s", f->name, wrong[0] ? wrong + 2 : "", outputs);
    printf("%-36s exit %d  score %6.2f\n", f->name, WEXITSTATUS(status), score);
    return score;
}

/* The row named `name`, checked: malformed fixtures fail even without a GPU. */
static void check(const char *name)
{
    fixture *table;
    char err[256];
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
    if (f->skip[0])
        cr_skip_test("%s: not graded here: %s", f->name, f->skip);
    require_gpu(f->name);

    char path[512];
    system("mkdir -p " RUNS);
    snprintf(path, sizeof path, RUNS "/%s.verdict", f->run);
    remove(path);
    verdict(f, "running");
    if (f->is_patch)
        apply_patch(f);
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
        double score = grade(f, run);
        if (i == 1)
            first = score;
        else if (score != first) {
            verdict(f, "FAIL: the same submission graded %d times: %.2f, then %.2f", i, first, score);
            cr_assert_fail("%s: the same submission graded %d times: %.2f, then %.2f", f->name, i, first, score);
        }
    }
    verdict(f, "done");
    free(table);
}

/* A row is a parameter by name: each test re-reads the table in its own
 * process, so only the name crosses (cr_malloc'd, as Criterion requires). */
typedef struct {
    char name[128];
} row_name;

static void free_rows(struct criterion_test_params *crp)
{
    cr_free(crp->params);
}

/* The rows whose expect-timeout is `seconds` (0: none), malformed rows with those of no limit. */
static struct criterion_test_params rows_within(int seconds)
{
    fixture *table;
    char err[256];
    int n = fixtures_load(&table, err, sizeof err), count = 0;
    row_name *rows = cr_malloc(sizeof *rows * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        if ((table[i].error[0] ? 0 : table[i].timeout_s) == seconds)
            snprintf(rows[count++].name, sizeof rows->name, "%s", table[i].name);
    if (n < 0 && seconds == 0)   /* no table (run from elsewhere): one row, which fails saying why */
        snprintf(rows[count++].name, sizeof rows->name, "(no table)");
    free(table);
    return cr_make_param_array(row_name, rows, count, free_rows);
}

/* Criterion sets a time limit where a test is declared, so there is one
 * declaration per limit a fixture may ask for (FIXTURE_TIMEOUTS in
 * fixtures.h): graded_timeout_0s (none: Criterion reads 0 so),
 * graded_timeout_120s, ... A grade that hangs past its limit fails instead of
 * stalling the suite. */
#define ROWS_WITHIN(seconds)                                                                              \
    ParameterizedTestParameters(grading, graded_timeout_##seconds##s) { return rows_within(seconds); }    \
    ParameterizedTest(row_name *row, grading, graded_timeout_##seconds##s, .timeout = seconds) { check(row->name); }

FIXTURE_TIMEOUTS(ROWS_WITHIN)

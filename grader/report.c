/*
 * report.c — the grader's score-and-report step. Reads the rubric, the hidden
 * tests' Criterion JSON and the measurement JSON; prints the report; writes
 * Gradescope's results.json (always, also when grading was impossible) and
 * appends a row to the history CSV. Exit: 0 full marks, 1 points lost,
 * 2 could not grade.
 *
 *   report --rubric R --source F --seed S --results OUT.json [--history H.csv]
 *          [--device DEV.json] [--tests TESTS.json] [--tests-log LOG]
 *          [--measure M.json] [--measure-status N] [--measure-part PART.json] [--build-log LOG]
 *          [--problem TEXT] [--elapsed SECONDS] [--quiet] [--kit-version V]
 *          [--structure "shared=N barrier=M" [--structure-note TEXT]] [--sanitizers DIR | --sanitizer-missing TEXT]
 *          [--not-allowed CALLS | --not-allowed-file FINDINGS] [--counters NCU.csv | --counters-missing TEXT]
 *          [--cpu-mode NOTE]
 *
 * --cpu-mode NOTE: graded in CPU mode (./grade --cpu, no GPU): the report and
 * results.json say so with NOTE (the shapes capped), and every speed item is
 * "not measured: no GPU", its points left out of the maximum.
 *
 * FINDINGS: build/tools/inspect's output (grader/inspect.c), one `KIND: NAME: sentence` a line:
 * the file scores 0 and each sentence is shown.
 *
 * --problem: could not grade, for that reason (a bad command line, no GPU,
 * the kit's own failure). Then the rubric may be missing (an unknown lab):
 * the lab is named after the rubric's file. A measurement that exits 2
 * (TL_EXIT_CANNOT_RUN: a reference failed) is the kit's failure too: could
 * not grade, never a score as if the student's kernel had failed. Could not
 * grade is always exit 2, and results.json then holds one failing test named
 * "could not grade" with the reason, besides the top-level output.
 */
#include "rubric.h"
#include "counters.h"
#include "csv.h"
#include "json.h"
#include "shapes.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { MAX_TESTS = 128, OUTPUT_LEN = 8192 };

/* What went wrong, in words a gradebook can filter on (extra_data.flags). */
enum {
    FLAG_COMPILE_ERROR = 1 << 0, FLAG_NOT_ALLOWED = 1 << 1, FLAG_TIMEOUT = 1 << 2, FLAG_RACE = 1 << 3,
    FLAG_OUT_OF_BOUNDS = 1 << 4, FLAG_WRONG = 1 << 5, FLAG_CRASH = 1 << 6, FLAG_NOT_GRADED = 1 << 7,
};
static const char *const flag_words[] = {"compile-error", "not-allowed", "timeout", "race",
                                         "out-of-bounds", "wrong", "crash", "not-graded"};

typedef struct {
    char name[160];
    double score, max_score;
    int passed;
    int beyond_correctness;   /* sanitizers, structure, performance: printed after a gap */
    char unit[16];            /* a lab of several kernels: the rubric unit it belongs to */
    char heading[128];        /* printed above it: the part it opens */
    char output[OUTPUT_LEN];
} graded_test;

typedef struct {
    const char *rubric_path, *source, *seed, *results, *history, *device_json, *tests_json,
        *tests_log, *measure_json, *measure_part_json, *build_log, *problem, *structure, *structure_note, *double_buffered, *sanitizers, *sanitizer_missing,
        *not_allowed, *not_allowed_file, *counters, *counters_missing, *kit_version;
    const char *counters_failed;  /* the student's launch failed under ncu: the counter points are lost */
    const char *counters_shape;   /* the shape ncu read (rubric counters_shape, moved by the seed) */
    const char *cpu_mode;         /* --cpu-mode NOTE: graded in CPU mode (no GPU): nothing timed; NOTE says how */
    const char *contrast_counters; /* lab 7: ncu's counters of the kit's contrast kernel (rubric contrast) */
    int measure_status;
    int quiet;   /* results.json only: the caller has said what went wrong */
    double elapsed;
} options;

typedef struct {
    tl_rubric rubric;
    char device[512];
    graded_test tests[MAX_TESTS];
    int ntests;
    int could_not_grade;
    char problem[OUTPUT_LEN];
    char note[512];               /* a diagnosis drawn from several tests */
    unsigned flags;               /* what went wrong, for gradebooks: FLAG_* */
    int measured;                 /* a verified measurement exists */
    int rows, cols, depth;        /* matmul: rows = M, cols = N, depth = K */
    double gbps, copy_gbps, fraction, noise;   /* fraction: of copy, or of cuBLAS for matmul */
    double gflops, naive_gflops, cublas_gflops;
    double baseline_speedup;      /* lab 5: speed over lab 4's kernel, 0 when not compared */
} grade;

static int is_sparse(const tl_rubric *r) { return !strcmp(r->kind, "sparse"); }
/* Labs 4 and 7 (kinds matmul and sparse) measure GFLOP/s against cuBLAS. */
static int is_matmul(const tl_rubric *r) { return !strcmp(r->kind, "matmul") || !strcmp(r->kind, "sparse"); }

static int colour;

static const char *paint(const char *code) { return colour ? code : ""; }
#define GREEN paint("\033[32m")
#define RED paint("\033[31m")
#define BOLD paint("\033[1m")
#define RESET paint("\033[0m")

static void appendf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void appendf(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* Append up to `max_lines` lines of a file, optionally only those containing `filter`. */
static void append_file(char *buf, size_t len, const char *path, const char *filter, int max_lines)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return;
    char line[1024];
    int n = 0;
    while (n < max_lines && fgets(line, sizeof line, f)) {
        if (filter && !strstr(line, filter))
            continue;
        appendf(buf, len, "    %s", line);
        if (!strchr(line, '\n'))
            appendf(buf, len, "\n");
        n++;
    }
    fclose(f);
}

/* The linker's complaints name the grader's rules, not a line of the file. */
static const char *build_failure_hint(const char *log_path, const char *lab)
{
    static char hint[256];
    char line[1024];
    FILE *f = fopen(log_path, "r");
    const char *found = NULL;
    while (f && !found && fgets(line, sizeof line, f)) {
        if (strstr(line, "multiple definition of `main'"))
            found = "your file must not define main(): the grader and build/<lab> supply their own.";
        else if (strstr(line, "undefined reference to `launch_"))
            found = "your file must define the launch function of the skeleton (same name and "
                    "parameters); copy its signature back from the skeleton.";
        else if (strstr(line, "multiple definition of `launch_"))
            found = "the launch function is defined twice: keep one.";
    }
    if (f)
        fclose(f);
    if (!found) {
        snprintf(hint, sizeof hint, "fix the first error above, then `make %s`.", lab);
        found = hint;
    }
    return found;
}

/* ---- hidden tests ------------------------------------------------------ */

/* "s07_31x33" -> "31x33"; "s21_random_1" -> "random_1 (417x2051)"; "v21_random4_1" -> "random4_1 (420x2052)". */
static void display_name(const char *test, const char *seed, int matmul, const char *unit, char *out, size_t len,
                         tl_shape *shape)
{
    const char *rest = strchr(test, '_') ? strchr(test, '_') + 1 : test;
    int k, side;
    char letter;
    shape->rows = shape->cols = 0;
    if (unit && !matmul && sscanf(rest, "random_%d", &k) == 1) {   /* lab 5: a random length or side */
        int inplace = !strcmp(unit, "inplace");
        side = tl_random_shape(strtoull(seed, NULL, 10), k, inplace ? TL_RANDOM_INPLACE_MAX_SIDE
                                                                     : TL_RANDOM_CLINIC_MAX_N).rows;
        snprintf(out, len, "%s (%c = %d)", rest, inplace ? 'N' : 'n', side);
        return;
    }
    if (unit && sscanf(rest, "%c_%d", &letter, &side) == 2) {   /* "N_1000" -> "N = 1000" */
        snprintf(out, len, "%c = %d", letter, side);
        return;
    }
    if (matmul && sscanf(rest, "random_%d", &k) == 1) {   /* "random_2 (40x3x977)": M x K x N */
        tl_mm_shape mm = tl_random_mm_shape(strtoull(seed, NULL, 10), k, TL_RANDOM_MM_MAX_SIDE);
        snprintf(out, len, "%s (%dx%dx%d)", rest, mm.m, mm.k, mm.n);
        return;
    }
    if (sscanf(rest, "random_%d", &k) == 1) {
        *shape = tl_random_shape(strtoull(seed, NULL, 10), k, TL_RANDOM_MAX_SIDE);
        snprintf(out, len, "%s (%dx%d)", rest, shape->rows, shape->cols);
        return;
    }
    if (sscanf(rest, "random4_%d", &k) == 1) {   /* lab 6: sides rounded up to multiples of 4 */
        *shape = tl_round_up_shape(tl_random_shape(strtoull(seed, NULL, 10), k, TL_RANDOM_MAX_SIDE), 4);
        snprintf(out, len, "%s (%dx%d)", rest, shape->rows, shape->cols);
        return;
    }
    const char *digits = rest + strcspn(rest, "0123456789");
    if (tl_parse_shape(digits, shape) != 0)
        shape->rows = shape->cols = 0;
    snprintf(out, len, "%s", rest);
    for (char *p = out; *p; p++)
        if (*p == '_')
            *p = ' ';
}

/* Reason and next step for a test that did not pass. */
static unsigned explain_failure(const tl_json *test, const tl_rubric *r, char *out, size_t len)
{
    unsigned flag = FLAG_WRONG;
    const char *status = tl_json_string(test, "status", "?");
    const tl_json *messages = tl_json_get(test, "messages");
    size_t nmsg = tl_json_length(messages);
    const char *first = nmsg ? messages->child->string : NULL;
    if (first && strstr(first, "timed out")) {
        appendf(out, len, "timed out: a kernel was still running at its %g s deadline, or the test "
                "passed its %g s limit. One launch should take milliseconds.\nLikely causes: a loop whose exit "
                "condition never changes, or threads waiting at a barrier that others of the block never "
                "reach (a __syncthreads() in a branch or a loop not every thread takes the same way).\n"
                "Next: run build/%s to see which shape hangs; compute-sanitizer --tool synccheck names a "
                "divergent barrier.\n", r->kernel_timeout_s, r->test_timeout_s, r->id);
        flag = FLAG_TIMEOUT;
    } else if (first && strstr(first, "crashed")) {
        flag = FLAG_CRASH;
        appendf(out, len, "the test process crashed (a signal such as a segmentation fault in host "
                "code).\nNext: run build/%s and read the first error it prints.\n", r->id);
    } else if (nmsg == 0) {
        flag = FLAG_CRASH;
        appendf(out, len, "the test process ended early (%s, no message).\nNext: remove any exit() or "
                "abort() from your file, then run build/%s.\n", status, r->id);
    } else {
        for (const tl_json *m = messages->child; m; m = m->next) {
            if (m->type != TL_JSON_STRING)
                continue;
            /* The guards' and canaries' words (guard.c, matrix messages), not any "outside". */
            if (strstr(m->string, "wrote outside") || strstr(m->string, "read from outside") ||
                strstr(m->string, "IllegalAddress"))
                flag = FLAG_OUT_OF_BOUNDS;
            else if (strstr(m->string, "CUDA error") && flag == FLAG_WRONG)
                flag = FLAG_CRASH;
            /* Criterion prefixes "file.c:line: "; the message itself is what matters. */
            const char *text = m->string, *source = strstr(text, ".c:");
            const char *after_line = source ? strstr(source, ": ") : NULL;
            if (after_line)
                text = after_line + 2;
            while (*text == ' ')
                text++;
            const char *next = strstr(text, " Next: ");
            if (next)
                appendf(out, len, "%.*s\nNext: %s\n", (int)(next - text), text, next + 7);
            else
                appendf(out, len, "%s\n", text);
        }
    }
    return flag;
}

/* A hidden test and its suite; `order` is its unit's place in the rubric. */
typedef struct {
    const tl_json *test;
    const char *suite;
    int order;
} found_test;

static int by_unit_then_name(const void *a, const void *b)
{
    const found_test *x = (const found_test *)a, *y = (const found_test *)b;
    if (x->order != y->order)
        return x->order - y->order;
    return strcmp(tl_json_string(x->test, "name", ""), tl_json_string(y->test, "name", ""));
}

static int unit_index(const tl_rubric *r, const char *name)
{
    const tl_rubric_unit *u = tl_rubric_find_unit(r, name);
    return u ? (int)(u - r->units) : -1;
}

static int grade_tests(grade *g, const options *o)
{
    char err[256];
    tl_json *doc = o->tests_json ? tl_json_parse_file(o->tests_json, err, sizeof err) : NULL;
    if (!doc) {
        snprintf(g->problem, sizeof g->problem, "the hidden tests produced no readable results (%s).\n",
                 o->tests_json ? err : "no report");
        append_file(g->problem, sizeof g->problem, o->tests_log, NULL, 20);
        return -1;
    }
    const tl_rubric *r = &g->rubric;
    found_test all[MAX_TESTS];
    int n = 0, in_unit[TL_RUBRIC_MAX_UNITS] = {0};
    for (const tl_json *suite = tl_json_get(doc, "test_suites") ? tl_json_get(doc, "test_suites")->child : NULL;
         suite; suite = suite->next)
        for (const tl_json *t = tl_json_get(suite, "tests") ? tl_json_get(suite, "tests")->child : NULL;
             t && n < MAX_TESTS; t = t->next) {
            const char *name = tl_json_string(suite, "name", "");
            int order = r->nunits ? unit_index(r, name) : 0;
            if (order < 0)
                continue;   /* a suite the rubric does not grade */
            all[n++] = (found_test){t, name, order};
            if (r->nunits)
                in_unit[order]++;
        }
    if (n == 0) {
        snprintf(g->problem, sizeof g->problem, "the hidden tests reported no test at all.\n");
        tl_json_free(doc);
        return -1;
    }
    qsort(all, (size_t)n, sizeof all[0], by_unit_then_name);

    /* Right on every square shape, wrong only on others: rows and cols swapped. */
    int square_fail = 0, other_fail = 0, square_pass = 0;
    for (int i = 0; i < n; i++) {
        graded_test *t = &g->tests[g->ntests++];
        memset(t, 0, sizeof *t);
        tl_shape shape;
        const tl_json *test = all[i].test;
        const tl_rubric_unit *unit = r->nunits ? &r->units[all[i].order] : NULL;
        int matmul = is_matmul(r) || (unit && !strcmp(unit->name, "dbuf"));
        display_name(tl_json_string(test, "name", "?"), o->seed, matmul, unit ? unit->name : NULL, t->name,
                     sizeof t->name, &shape);
        t->max_score = unit ? unit->points / in_unit[all[i].order] : r->correctness_points / n;
        t->passed = strcmp(tl_json_string(test, "status", ""), "PASSED") == 0;
        t->score = t->passed ? t->max_score : 0;
        if (unit)
            snprintf(t->unit, sizeof t->unit, "%s", unit->name);
        if (!t->passed)
            g->flags |= explain_failure(test, r, t->output, sizeof t->output);
        int square = !matmul && !unit && shape.rows > 0 && shape.rows == shape.cols;

        if (square && t->passed) square_pass++;
        else if (square) square_fail++;
        else if (!t->passed && strstr(t->output, "shape ")) other_fail++;   /* a wrong result, not a hang */
    }
    if (square_pass >= 2 && square_fail == 0 && other_fail > 0)
        snprintf(g->note, sizeof g->note, "Every square shape passed and only non-square ones failed: rows "
                 "and cols are probably swapped in an index or in the grid (handout: Row-major layout).");
    tl_json_free(doc);
    return 0;
}

/* ---- beyond correctness: sanitizers, structure --------------------------- */

static graded_test *add_item(grade *g, const char *name, double points)
{
    graded_test *t = &g->tests[g->ntests++];
    snprintf(t->name, sizeof t->name, "%s", name);
    t->max_score = points;
    t->score = 0;
    t->passed = 0;
    t->beyond_correctness = 1;
    t->output[0] = '\0';
    return t;
}

/* A sanitizer's first finding: the error line and the lines that locate it. */
static void quote_first_finding(char *out, size_t len, const char *log_path)
{
    FILE *f = fopen(log_path, "r");
    char line[1024];
    int quoting = 0;
    while (f && quoting < 3 && fgets(line, sizeof line, f)) {
        if (strncmp(line, "========= ", 10) != 0)
            continue;
        const char *text = line + 10;
        while (*text == ' ')
            text++;
        if (!quoting && !(strstr(text, "Invalid") || strstr(text, "Error") || strstr(text, "error") ||
                          strstr(text, "Race") || strstr(text, "Barrier")))
            continue;
        if (quoting && (strstr(text, "SUMMARY") || *text == '\n' || strstr(text, "Saved host backtrace")))
            break;
        appendf(out, len, "  %s", text);
        quoting++;
    }
    if (f)
        fclose(f);
}

/* Where a line of the student's file sits: its kernel and its superstep
 * (SUPERSTEP(name) { ... }, tilelab.h). Braces are counted; // comments are
 * skipped. 0 when the file cannot be read or is shorter. */
typedef struct {
    char kernel[64], superstep[64];   /* the function (a kernel or a __device__ helper) */
    int helper;                       /* a __device__ function: its superstep is its caller's */
} place;

/* One line with comments and literals blanked: `in_comment` carries a
 * block comment over to the next line. */
static void code_only(char *line, int *in_comment)
{
    for (char *c = line; *c; c++) {
        if (*in_comment) {
            if (c[0] == '*' && c[1] == '/') {
                *in_comment = 0;
                *c++ = ' ';
            }
            *c = ' ';
        } else if (c[0] == '/' && c[1] == '*') {
            *in_comment = 1;
            *c++ = ' ';
            *c = ' ';
        } else if (c[0] == '/' && c[1] == '/') {
            *c = '\0';
            return;
        } else if (*c == '"' || *c == '\'') {   /* a literal: blank it up to its closing quote */
            char quote = *c;
            for (*c++ = ' '; *c && *c != quote; c++) {
                if (*c == '\\' && c[1])
                    *c++ = ' ';
                *c = ' ';
            }
            if (!*c)
                return;
            *c = ' ';
        }
    }
}

static int locate(const char *source, int line, place *p)
{
    FILE *f = source && line > 0 ? fopen(source, "r") : NULL;
    char buf[1024], pending[64] = "";
    int n = 0, depth = 0, step_depth = -1, in_comment = 0;
    memset(p, 0, sizeof *p);
    while (f && n < line && fgets(buf, sizeof buf, f)) {
        n++;
        code_only(buf, &in_comment);
        char *s;
        if (depth == 0 && ((s = strstr(buf, "__global__")) != NULL || (s = strstr(buf, "__device__")) != NULL)) {
            char *paren = strchr(s, '('), *start = paren;
            while (start && start > s && (start[-1] == '_' || isalnum((unsigned char)start[-1])))
                start--;
            if (paren && start < paren) {
                snprintf(p->kernel, sizeof p->kernel, "%.*s", (int)(paren - start), start);
                p->helper = s[2] == 'd';
            }
        }
        char *step = strstr(buf, "SUPERSTEP(");
        for (char *c = buf; *c; c++) {
            if (c == step && sscanf(step, "SUPERSTEP(%63[A-Za-z0-9_]", pending) != 1)
                pending[0] = '\0';
            if (*c == ';') {   /* SUPERSTEP(name) is followed by its { ... }, never by a statement */
                pending[0] = '\0';
            } else if (*c == '{' && ++depth && pending[0] && step_depth < 0) {
                step_depth = depth;
                snprintf(p->superstep, sizeof p->superstep, "%s", pending);
                pending[0] = '\0';
            } else if (*c == '}') {
                if (depth == step_depth) {
                    step_depth = -1;
                    p->superstep[0] = '\0';
                }
                depth--;
            }
        }
    }
    if (f)
        fclose(f);
    return line > 0 && n == line;
}

/* The lines of the student's file a sanitizer finding names (".../file.cu:42"). */
static int finding_lines(const char *finding, const char *source, int *lines, int max)
{
    const char *base = source ? strrchr(source, '/') : NULL;
    base = base ? base + 1 : source;
    int n = 0;
    for (const char *at = base ? strstr(finding, base) : NULL; at && n < max; at = strstr(at + 1, base)) {
        int line;
        int whole_name = at == finding || at[-1] == '/' || at[-1] == ' ';   /* not the tail of another name */
        if (whole_name && at[strlen(base)] == ':' && sscanf(at + strlen(base) + 1, "%d", &line) == 1)
            lines[n++] = line;
    }
    return n;
}

/* Part and superstep of the lines a finding names, and what the BSP rule says. */
static void explain_places(char *out, size_t len, const char *finding, const char *source, const char *tool,
                           const tl_rubric_unit *unit)
{
    int lines[2], n = finding_lines(finding, source, lines, 2);
    place p[2];
    int located = 0;
    for (int i = 0; i < n; i++) {
        if (!locate(source, lines[i], &p[i]))
            continue;
        located++;
        char part[32] = "";
        if (unit)
            snprintf(part, sizeof part, "part %d, ", unit->part);
        if (p[i].helper && !p[i].superstep[0])
            appendf(out, len, "  line %d: %sin %s, a __device__ function: the superstep is its caller's\n",
                    lines[i], part, p[i].kernel);
        else
            appendf(out, len, "  line %d: %sin %s, %s%s%s\n", lines[i], part, p[i].kernel[0] ? p[i].kernel : "your file",
                    p[i].superstep[0] ? "superstep '" : "in no superstep", p[i].superstep, p[i].superstep[0] ? "'" : "");
    }
    if (located < n || !n || strcmp(tool, "racecheck") != 0 || (n == 2 && (p[0].helper || p[1].helper)))
        return;
    if (n == 2 && p[0].superstep[0] && !strcmp(p[0].superstep, p[1].superstep))
        appendf(out, len, "  Both accesses sit in superstep '%s': a write and a read (or a read and a later "
                "write) of the same shared word by different threads belong in different supersteps.\n",
                p[0].superstep);
    else if (n == 2 && (!p[0].superstep[0] || !p[1].superstep[0]))
        appendf(out, len, "  No superstep barrier separates these two accesses: put them in different "
                "supersteps.\n");
}

/* One sanitizer run's verdict, in the report's words. `log_name` is the
 * log's and status file's name in the sanitizers' folder ("racecheck",
 * "racecheck-pairs"). Returns 1 when it ran clean, 0 when not. */
enum { SAN_CLEAN, SAN_FOUND, SAN_OTHER };
static int sanitizer_verdict(grade *g, const options *o, const char *tool, const char *log_name,
                             const tl_rubric_unit *unit, char *out, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.status", o->sanitizers, log_name);
    FILE *f = fopen(path, "r");
    int status = -1;
    if (f) {
        if (fscanf(f, "%d", &status) != 1)
            status = -1;
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/%s.log", o->sanitizers, log_name);
    if (status == 0 || status == 1)   /* 1: no sanitizer error, but the check itself found a wrong result */
        return SAN_CLEAN;
    if (status == 86) {
        int race = !strcmp(tool, "racecheck"), sync = !strcmp(tool, "synccheck");
        g->flags |= race || sync ? FLAG_RACE : FLAG_OUT_OF_BOUNDS;
        char finding[2048] = "";
        quote_first_finding(finding, sizeof finding, path);
        if (o->cpu_mode)   /* the findings of CPU mode's own checks, in this tool's place */
            appendf(out, len, "CPU mode's checks found what %s reports; the first:\n%s", tool, finding);
        else
            appendf(out, len, "compute-sanitizer --tool %s found errors; the first:\n%s", tool, finding);
        if (unit)   /* a lab of several kernels (lab 5) thinks in parts and supersteps */
            explain_places(out, len, finding, o->source, tool, unit);
        appendf(out, len, "Next: %s\n", race
                ? "threads read shared memory that other threads write with no barrier between: put "
                  "__syncthreads() between the phases, reached by every thread of the block (handout: Two "
                  "phases and a barrier; lab 5: supersteps)."
                : sync
                ? "a barrier that not every thread of the block reaches (inside an if, or a loop whose trip "
                  "count differs between threads): move it out of the branch so every thread meets it "
                  "(handout lab 5: Barrier rules)."
                : "an access outside a buffer at the line above: check the bounds tests of both phases "
                  "(handout: Partial tiles).");
        return SAN_FOUND;
    }
    if (status == 124)
        appendf(out, len, "the %s run timed out (log: %s): a kernel did not finish. Most often a barrier "
                "some threads never reach while others wait at it; a GPU busy with other work can also slow "
                "the sanitizer past its limit (grade again to tell).\n", tool, path);
    else {
        appendf(out, len, "the %s run failed (exit %d); its output:\n", tool, status);
        append_file(out, len, path, NULL, 8);
    }
    return SAN_OTHER;
}

static void grade_sanitizer(grade *g, const options *o, const char *tool, double points, int all_passed)
{
    if (points <= 0)
        return;
    char name[64];
    snprintf(name, sizeof name, "%s: clean on %s", tool, g->rubric.sanitizer_shape);
    graded_test *t = add_item(g, name, points);
    if (o->sanitizer_missing || !o->sanitizers) {
        t->max_score = 0;   /* not checked: left out of the maximum, not counted as lost */
        t->passed = 1;
        appendf(t->output, OUTPUT_LEN, "not checked: %s. These points are left out of the maximum.\n",
                o->sanitizer_missing ? o->sanitizer_missing : "the sanitizers did not run");
        return;
    }
    if (sanitizer_verdict(g, o, tool, tool, NULL, t->output, OUTPUT_LEN) == SAN_CLEAN) {
        t->score = all_passed ? points : 0;
        t->passed = all_passed;
        if (!all_passed)
            appendf(t->output, OUTPUT_LEN, "no %s errors, but these points count only when every "
                    "correctness test passes.\n", tool);
    }
}

/* The compiled kernel must use what the lab teaches (counts from its PTX). */
static void grade_structure(grade *g, const options *o, int all_passed)
{
    const tl_rubric *r = &g->rubric;
    if (r->structure_points <= 0 || !r->require[0])
        return;
    char name[128];
    int wants_shared = strstr(r->require, "shared") != NULL, wants_barrier = strstr(r->require, "barrier") != NULL;
    snprintf(name, sizeof name, "structure: uses %s%s%s", wants_shared ? "shared memory" : "",
             wants_shared && wants_barrier ? " and " : "", wants_barrier ? "a barrier" : "");
    graded_test *t = add_item(g, name, r->structure_points);
    int shared = -1, barrier = -1;
    if (!o->structure || sscanf(o->structure, "shared=%d barrier=%d", &shared, &barrier) != 2) {
        appendf(t->output, OUTPUT_LEN, "could not inspect the compiled kernel.\n");
        return;
    }
    int ok = 1;
    if (wants_shared && shared == 0) {
        ok = 0;
        appendf(t->output, OUTPUT_LEN, "your compiled kernel never loads or stores shared memory.\nNext: "
                "stage the tile in a __shared__ array (handout: %s).\n",
                is_matmul(r) ? "The tiled kernel" : "The idea: stage a tile");
    }
    if (wants_barrier && barrier == 0) {
        ok = 0;
        appendf(t->output, OUTPUT_LEN, "your compiled kernel has no barrier.\nNext: separate the load and "
                "store phases with __syncthreads() (handout: Two phases and a barrier).\n");
    }
    if (o->structure_note && *o->structure_note)
        appendf(t->output, OUTPUT_LEN, "%s.\n", o->structure_note);
    if (ok && !all_passed)
        appendf(t->output, OUTPUT_LEN, "uses both, but structure points count only when every correctness "
                "test passes.\n");
    t->passed = ok && all_passed;
    t->score = t->passed ? t->max_score : 0;
}

/* The inspector's findings (grader/inspect.c: `KIND: NAME: sentence` a line),
 * or the refused calls alone (--not-allowed CALLS): no points at all. */
static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void grade_not_allowed(grade *g, const options *o)
{
    const tl_rubric *r = &g->rubric;
    graded_test *t = add_item(g, "allowed calls only", tl_rubric_max_points(r));
    g->flags |= FLAG_NOT_ALLOWED;
    t->beyond_correctness = 0;
    enum { MAX_FINDINGS = 64 };
    static char lines[MAX_FINDINGS][1024];
    const char *calls[MAX_FINDINGS];
    int nlines = 0, ncalls = 0, more = 0;
    FILE *f = o->not_allowed_file ? fopen(o->not_allowed_file, "r") : NULL;
    while (f && fgets(lines[nlines], sizeof lines[nlines], f)) {
        char *line = lines[nlines];
        if (!strchr(line, '\n')) {   /* longer than a line here: the rest is dropped */
            int c;
            while ((c = fgetc(f)) != EOF && c != '\n')
                ;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (!*line)
            continue;
        if (nlines == MAX_FINDINGS - 1) {
            more++;
            continue;
        }
        /* "calls: NAME: sentence": NAME goes in the summary line. */
        if (!strncmp(line, "calls: ", 7) && strstr(line + 7, ": "))
            calls[ncalls++] = line + 7;
        nlines++;
    }
    if (f)
        fclose(f);
    qsort(calls, ncalls, sizeof *calls, by_name);
    char names[512] = "";
    for (int i = 0; i < ncalls; i++)
        appendf(names, sizeof names, "%s%.*s", i ? " " : "", (int)(strstr(calls[i], ": ") - calls[i]), calls[i]);
    if (o->not_allowed)
        appendf(t->output, OUTPUT_LEN, "not allowed: your file calls %s. ", o->not_allowed);
    else if (ncalls)
        appendf(t->output, OUTPUT_LEN, "not allowed: your file calls %s. ", names);
    else
        appendf(t->output, OUTPUT_LEN, "not allowed: your file holds code a lab file may not have. ");
    appendf(t->output, OUTPUT_LEN, "In tilelab you write and launch the kernel yourself, in your own file; "
            "library shortcuts (cuBLAS, cudaMemcpy and friends) and code outside the launch function earn "
            "no points, so the file was not graded further.\n");
    for (int i = 0; i < nlines; i++) {
        /* Each finding's sentence: what the student reads, without KIND and NAME. */
        const char *text = lines[i], *first = strstr(text, ": ");
        const char *second = first ? strstr(first + 2, ": ") : NULL;
        appendf(t->output, OUTPUT_LEN, "  - %s\n", second ? second + 2 : text);
    }
    if (more)
        appendf(t->output, OUTPUT_LEN, "  (and %d more)\n", more);
    if (o->not_allowed || !nlines)
        appendf(t->output, OUTPUT_LEN, "Next: remove the call and launch your own kernel.\n");
}

/* ---- hardware counters (ncu) ---------------------------------------------- */

/* One counter row: yours next to the ideal; a hint when it is off. */
static int counter_row(char *out, const char *what, double yours, double ideal, double tolerance)
{
    int off = yours > ideal + tolerance;
    appendf(out, OUTPUT_LEN, "  %-34s %8.2f %8.0f%s\n", what, yours, ideal, off ? "   <- off" : "");
    return off;
}

/* What requests over those of 128-bit accesses say (lab 6): 4x for float, 2x for float2. */
static const char *access_width(double ratio)
{
    return ratio > 3.5 && ratio < 4.5 ? "32-bit (float) accesses, as lab 3's"
           : ratio > 1.7 && ratio < 2.3 ? "64-bit (float2) accesses"
           : "more requests than the data needs (narrow accesses, or work besides the transpose)";
}

/* Bank conflicts per shared request and sectors per global request, shown to
 * every lab that names counters_shape; lab 3 scores the conflicts. The
 * counters count work, not time: no noise, no margin for a busy GPU. */
static void grade_counters(grade *g, const options *o, int all_passed)
{
    const tl_rubric *r = &g->rubric;
    if (!r->counters_shape[0])
        return;
    char name[128];
    int vector = r->vector_points > 0;
    if (vector)
        snprintf(name, sizeof name, "128-bit global loads and stores (ncu)");
    else if (r->bank_conflict_points > 0)
        snprintf(name, sizeof name, "bank conflicts: near zero (ncu)");
    else
        snprintf(name, sizeof name, "hardware counters (ncu; for your information)");
    double points = r->bank_conflict_points + r->vector_points;
    graded_test *t = add_item(g, name, points);
    if (!all_passed) {
        t->passed = points <= 0;
        appendf(t->output, OUTPUT_LEN, "not read: counters are read only when every correctness test passes.\n");
        return;
    }
    const char *shape = o->counters_shape ? o->counters_shape : r->counters_shape;
    if (o->counters_failed) {   /* the student's launch, not the tool: lost, not left out */
        t->passed = points <= 0;
        appendf(t->output, OUTPUT_LEN, "your launch failed at %s under ncu: %s.%s\n", shape, o->counters_failed,
                points > 0 ? " These points are lost: a kernel must be right at every shape." : "");
        return;
    }
    tl_counters c;
    char err[256];
    if (o->counters_missing || !o->counters || tl_counters_read(o->counters, &c, err, sizeof err) != 0) {
        t->max_score = 0;   /* not checked: left out of the maximum, not counted as lost */
        t->passed = 1;
        appendf(t->output, OUTPUT_LEN, "not checked: %s.%s\n", o->counters_missing ? o->counters_missing
                : o->counters ? err : "ncu did not run", points > 0
                ? " These points are left out of the maximum." : "");
        return;
    }
    double ld_conflicts = tl_per_request(c.shared_ld_conflicts, c.shared_ld_requests);
    double st_conflicts = tl_per_request(c.shared_st_conflicts, c.shared_st_requests);
    double all_conflicts = tl_per_request(c.shared_ld_conflicts + c.shared_st_conflicts,
                                          c.shared_ld_requests + c.shared_st_requests);
    double ld_sectors = tl_per_request(c.global_ld_sectors, c.global_ld_requests);
    double st_sectors = tl_per_request(c.global_st_sectors, c.global_st_requests);
    /* Half a sector of slack: edge blocks of a partial tile touch fewer. */
    const double ideal = TL_IDEAL_SECTORS_PER_REQUEST, slack = 0.5;
    /* ncu counts a few extra store wavefronts even for conflict-free code
     * (0.13 per request for lab 4's reference on an H200): no alarm below 0.25. */
    double conflict_slack = r->bank_conflicts_max > 0 ? r->bank_conflicts_max : 0.25;

    if (o->cpu_mode)   /* the same metrics, computed: every launch of the case summed */
        appendf(t->output, OUTPUT_LEN, "computed in CPU mode by the hardware's rules (ncu's metrics), %s:\n  %-34s %8s %8s\n",
                shape, "", "yours", "ideal");
    else
        appendf(t->output, OUTPUT_LEN, "ncu --clock-control none, %s, %d launch%s:\n  %-34s %8s %8s\n",
                shape, c.kernels, c.kernels == 1 ? "" : "es", "", "yours", "ideal");
    int ld_c = counter_row(t->output, "shared loads: bank conflicts/req", ld_conflicts, 0, conflict_slack);
    int st_c = counter_row(t->output, "shared stores: bank conflicts/req", st_conflicts, 0, conflict_slack);
    int ld_s, st_s;
    /* Lab 6: the requests themselves. A warp of float4 accesses moves 512
     * bytes, so rows x cols floats need rows x cols / 128 load requests and
     * as many stores; more means narrower accesses or extra work (another
     * kernel only adds requests). */
    tl_shape at;
    double ideal_requests = vector && tl_parse_shape(shape, &at) == 0 ? (double)at.rows * at.cols / 128 : 0;
    if (vector) {
        counter_row(t->output, "global loads: sectors/request", ld_sectors, 16, INFINITY);   /* shown, never off */
        counter_row(t->output, "global stores: sectors/request", st_sectors, 16, INFINITY);
        ld_s = counter_row(t->output, "global loads: requests", c.global_ld_requests, ideal_requests,
                           (r->vector_max_requests - 1) * ideal_requests);
        st_s = counter_row(t->output, "global stores: requests", c.global_st_requests, ideal_requests,
                           (r->vector_max_requests - 1) * ideal_requests);
    } else {
        ld_s = counter_row(t->output, "global loads: sectors/request", ld_sectors, ideal, slack);
        st_s = counter_row(t->output, "global stores: sectors/request", st_sectors, ideal, slack);
    }
    tl_mm_shape mm;
    if (is_matmul(r) && tl_parse_mm_shape(r->counters_shape, &mm) == 0 && c.global_ld_sectors + c.global_st_sectors > 0)
        /* Per byte the SMs asked of the memory system (sectors of 32 bytes, L1 hits included):
         * what tiling changes. 2 FLOP per 8 bytes loaded without reuse; t x t tiles: t / 4. */
        appendf(t->output, OUTPUT_LEN, "  %-34s %8.2f %8s   (no reuse: 0.25; 16x16 tiles: 4; 32x32: 8)\n",
                "arithmetic intensity: FLOP/byte", tl_matmul_flops(mm) /
                (32.0 * (c.global_ld_sectors + c.global_st_sectors)), "-");
    if (c.shared_ld_requests + c.shared_st_requests == 0)
        appendf(t->output, OUTPUT_LEN, "(no shared-memory accesses: nothing to conflict)\n");
    if (vector && (ld_s || st_s)) {
        double worst = fmax(ld_s ? c.global_ld_requests : 0, st_s ? c.global_st_requests : 0) / ideal_requests;
        appendf(t->output, OUTPUT_LEN, "Hint: your %s%s%s take %.1fx the requests of 128-bit accesses: %s. Load "
                "and store whole 4 x 4 blocks as four float4 rows (handout lab 6: Vectors cut requests).\n",
                ld_s ? "loads" : "", ld_s && st_s ? " and " : "", st_s ? "stores" : "", worst, access_width(worst));
    } else if (vector && (ld_sectors > 16.5 || st_sectors > 16.5)) {   /* wide, but scattered: no points lost */
        appendf(t->output, OUTPUT_LEN, "Hint: your %s touch %.1f sectors per request: 128-bit, but a warp's 16-byte "
                "pieces land in more sectors than the 16 its 512 bytes fill. Neighbouring threads should move "
                "neighbouring float4s of one row, on both sides (handout lab 6: A tile laid out like out).\n",
                ld_sectors > st_sectors ? "loads" : "stores", fmax(ld_sectors, st_sectors));
    } else if (ld_s)
        appendf(t->output, OUTPUT_LEN, "Hint: loads touch %.0f sectors per request: your reads are not coalesced "
                "(a warp reading 32 neighbouring floats needs 4).\n", ld_sectors);
    if (st_s && !vector)
        appendf(t->output, OUTPUT_LEN, "Hint: stores touch %.0f sectors per request: your writes are not "
                "coalesced; consecutive threads should write consecutive addresses (lab 2's tile does it).\n",
                st_sectors);
    if ((ld_c || st_c) && vector)   /* float4 rows padded by one float lose their 16-byte alignment */
        appendf(t->output, OUTPUT_LEN, "Hint: each shared %s waits %.1f extra bank passes. A tile of float4s cannot "
                "be padded by one float; swizzle its columns instead (handout lab 6: Banks and float4). No points "
                "depend on it.\n", ld_c ? "load" : "store", ld_c ? ld_conflicts : st_conflicts);
    else if (ld_c || st_c)
        appendf(t->output, OUTPUT_LEN, "Hint: each shared %s waits %.1f extra bank passes: threads of a warp hit "
                "the same bank. A column of a [32][32] tile lies in one bank; pad it to [32][33] (handout lab 3: "
                "The padding fix).\n", ld_c ? "load" : "store", ld_c ? ld_conflicts : st_conflicts);
    if (vector) {
        t->passed = ideal_requests > 0 && !ld_s && !st_s;
        t->score = t->passed ? t->max_score : 0;
        if (!t->passed)
            appendf(t->output, OUTPUT_LEN, "The points need at most %gx the requests of 128-bit accesses (%.0f) on "
                    "loads and on stores, at %s.\n", r->vector_max_requests, ideal_requests, shape);
        return;
    }
    if (r->bank_conflict_points > 0) {
        t->passed = all_conflicts <= r->bank_conflicts_max;
        t->score = t->passed ? t->max_score : 0;
        if (!t->passed)
            appendf(t->output, OUTPUT_LEN, "%.2f bank conflicts per shared request (loads and stores together); "
                    "the points need at most %g.\n", all_conflicts, r->bank_conflicts_max);
    } else {
        t->passed = !(ld_c || st_c || ld_s || st_s);
    }
}

/* ---- performance ------------------------------------------------------- */

/* Lab 3 against the student's own lab 2: the speedup padding bought, timed in the same process. */
static void report_baseline(graded_test *t, const tl_json *m, const tl_rubric *r)
{
    if (!r->baseline[0])
        return;
    const tl_json *b = tl_json_get(m, "baseline");
    if (is_matmul(r)) {   /* lab 7: lab 4's reference, in GFLOP/s */
        /* "lab4" -> "lab 4" */
        const char *digits = r->baseline + strcspn(r->baseline, "0123456789");
        char lab[40];
        snprintf(lab, sizeof lab, "%.*s %s", (int)(digits - r->baseline), r->baseline, digits);
        if (!b || !tl_json_number(b, "verified", 0)) {
            appendf(t->output, OUTPUT_LEN, "against %s's kernel: not compared (%s; not your file's fault).\n",
                    lab, b ? tl_json_string(b, "verification", "?")
                                   : tl_json_string(m, "baseline_skipped", "no measurement"));
            return;
        }
        double speedup = tl_json_number(b, "speedup", 0);
        appendf(t->output, OUTPUT_LEN, "against %s's kernel (%s), same run: %.0f GFLOP/s = %.3f of cuBLAS; yours "
                "is %.2fx its speed\n", lab, tl_json_string(b, "source", "?"), tl_json_number(b, "gflops", 0),
                tl_json_number(b, "fraction_of_cublas", 0), speedup);
        return;
    }
    if (!b) {
        appendf(t->output, OUTPUT_LEN, "against your %s: not compared (%s).\n", r->baseline,
                tl_json_string(m, "baseline_skipped", "no measurement"));
        return;
    }
    const tl_json *bench = tl_json_get(b, "bench");
    const char *source = tl_json_string(b, "source", r->baseline);
    if (!tl_json_number(b, "verified", 0)) {
        appendf(t->output, OUTPUT_LEN, "against your %s (%s): not compared, its output is wrong at %dx%d (%s).\n",
                r->baseline, source, (int)tl_json_number(m, "rows", 0), (int)tl_json_number(m, "cols", 0),
                tl_json_string(b, "verification", "?"));
        return;
    }
    double base_gbps = tl_json_number(bench, "work_gbps", 0);
    double speedup = tl_json_number(b, "speedup", 0);
    appendf(t->output, OUTPUT_LEN, "against your %s (%s), same run: %.1f GB/s = %.3f of copy; yours is "
            "%.2fx %s\n", r->baseline, source, base_gbps, tl_json_number(bench, "fraction_of_copy", 0), speedup,
            speedup >= 1 ? "faster" : "its speed (slower)");
}

/* Lab 6 against the library (rubric library: cuBLAS Sgeam), timed in the same rounds; no points. */
static void report_library(graded_test *t, const tl_json *m, const tl_rubric *r)
{
    if (!r->library[0])
        return;
    const tl_json *l = tl_json_get(m, "library");
    if (!l || !tl_json_number(l, "verified", 0)) {
        appendf(t->output, OUTPUT_LEN, "against %s: not compared (%s; not your file's fault).\n", r->library_title,
                l ? tl_json_string(l, "verification", "?") : tl_json_string(m, "library_skipped", "no measurement"));
        return;
    }
    double speedup = tl_json_number(l, "speedup", 0);
    appendf(t->output, OUTPUT_LEN, "against %s, same run: %.1f GB/s = %.3f of copy; yours is %.2fx its speed "
            "(%s)\n", r->library_title, tl_json_number(l, "work_gbps", 0), tl_json_number(l, "fraction_of_copy", 0),
            speedup, speedup >= 1 ? "faster" : "slower");
}

/* The transpose labs: bandwidth against the copy of the same bytes. */
static void read_bandwidth(grade *g, const tl_json *m, graded_test *t)
{
    const tl_json *bench = tl_json_get(m, "bench"), *work = tl_json_get(bench, "work");
    g->rows = (int)tl_json_number(m, "rows", 0);
    g->cols = (int)tl_json_number(m, "cols", 0);
    g->gbps = tl_json_number(bench, "work_gbps", 0);
    g->copy_gbps = tl_json_number(bench, "copy_gbps", 0);
    g->fraction = tl_json_number(bench, "fraction_of_copy", 0);
    g->noise = tl_json_number(work, "noise", 0);
    appendf(t->output, OUTPUT_LEN, "%dx%d, cold (L2 flushed), %d samples: median %.4f ms (min %.4f, max %.4f), "
            "noise %.2f %%%s\n", g->rows, g->cols, (int)tl_json_number(bench, "samples", 0),
            tl_json_number(work, "median_ms", 0), tl_json_number(work, "min_ms", 0),
            tl_json_number(work, "max_ms", 0), 100 * g->noise, tl_json_number(bench, "noisy", 0)
            ? " (noisy: stopped at the sample cap above 1 %; a busy GPU? grade again)" : "");
    appendf(t->output, OUTPUT_LEN, "your kernel %.1f GB/s = %.3f of copy (copy %.1f GB/s, same run)\n",
            g->gbps, g->fraction, g->copy_gbps);
}

/* Lab 4: GFLOP/s against the naive kernel and cuBLAS FP32, all timed in one run. */
static void read_gflops(grade *g, const tl_json *m, graded_test *t)
{
    const tl_json *mm = tl_json_get(m, "matmul"), *yours = tl_json_get(mm, "yours");
    g->rows = (int)tl_json_number(m, "m", 0);
    g->depth = (int)tl_json_number(m, "k", 0);
    g->cols = (int)tl_json_number(m, "n", 0);
    g->gflops = tl_json_number(mm, "gflops", 0);
    g->naive_gflops = tl_json_number(mm, "naive_gflops", 0);
    g->cublas_gflops = tl_json_number(mm, "cublas_gflops", 0);
    g->fraction = tl_json_number(mm, "fraction_of_cublas", 0);
    g->noise = tl_json_number(yours, "noise", 0);
    appendf(t->output, OUTPUT_LEN, "%dx%dx%d (MxKxN), cold (L2 flushed), %d samples: median %.3f ms (min %.3f, "
            "max %.3f), noise %.2f %%%s\n", g->rows, g->depth, g->cols, (int)tl_json_number(mm, "samples", 0),
            tl_json_number(yours, "median_ms", 0), tl_json_number(yours, "min_ms", 0),
            tl_json_number(yours, "max_ms", 0), 100 * g->noise, tl_json_number(mm, "noisy", 0)
            ? " (noisy: stopped at the sample cap above 1 %; a busy GPU? grade again)" : "");
    appendf(t->output, OUTPUT_LEN, "your kernel %.0f GFLOP/s = %.3f of cuBLAS FP32 (%.0f GFLOP/s) = %.2fx the "
            "naive kernel (%.0f GFLOP/s), same run\n", g->gflops, g->fraction, g->cublas_gflops,
            tl_json_number(mm, "speedup_over_naive", 0), g->naive_gflops);
    if (!tl_json_number(m, "references_verified", 1))
        appendf(t->output, OUTPUT_LEN, "warning: a reference kernel gave a wrong result on this GPU; tell "
                "your instructor.\n");
}

/* The measurement's JSON. A lab of several kernels rewrites it after each
 * one, so even a run that timed out later keeps what it measured. */
static tl_json *load_measurement(const grade *g, const options *o, const char *path, char *err, size_t len)
{
    if (!path || (o->measure_status == 124 && !g->rubric.nunits))
        return NULL;
    return tl_json_parse_file(path, err, len);
}

/* CPU mode (--cpu-mode): a speed item is "not measured: no GPU", out of the maximum. 1 when it was. */
static int not_measured_in_cpu_mode(graded_test *t, const options *o)
{
    if (!o->cpu_mode)
        return 0;
    t->max_score = 0;   /* not measured: left out of the maximum, not counted as lost */
    t->passed = 1;
    appendf(t->output, OUTPUT_LEN, "not measured: no GPU. This grade ran in CPU mode, which times nothing; these "
            "points are left out of the maximum. ./grade on a machine with an NVIDIA GPU measures them.\n");
    return 1;
}

static void grade_performance(grade *g, const options *o, int all_passed)
{

    const tl_rubric *r = &g->rubric;
    int matmul = is_matmul(r);
    const char *of = matmul ? "cuBLAS" : "copy";
    graded_test *t = add_item(g, matmul ? "performance: GFLOP/s as a fraction of cuBLAS"
                                        : "performance: bandwidth as a fraction of copy", r->performance_points);
    if (not_measured_in_cpu_mode(t, o))
        return;
    char thresholds[160];
    snprintf(thresholds, sizeof thresholds, "thresholds: %.3f of %s = 0 points, %.3f of %s = %g points",
             r->perf_low, of, r->perf_high, of, r->performance_points);

    if (!all_passed) {
        appendf(t->output, OUTPUT_LEN, "not measured: performance counts only when every correctness "
                "test passes.\nNext: fix the failing tests above.\n");
        return;
    }
    char err[256];
    tl_json *m = load_measurement(g, o, o->measure_json, err, sizeof err);
    if (!m) {
        if (o->measure_status == 124)
            appendf(t->output, OUTPUT_LEN, "the measurement timed out after %g s. Next: time your kernel "
                    "with build/%s; it should take milliseconds on its largest shape.\n", r->measure_timeout_s, r->id);
        else
            appendf(t->output, OUTPUT_LEN, "the measurement failed (exit %d) and wrote no result.\n",
                    o->measure_status);
        append_file(t->output, OUTPUT_LEN, o->tests_log, "measure", 10);
        return;
    }
    if (tl_json_get(m, "skipped")) {   /* lab 5: this kernel failed the measurement's quick check */
        appendf(t->output, OUTPUT_LEN, "not measured: %s\n", tl_json_string(m, "skipped", "?"));
        tl_json_free(m);
        return;
    }
    if (matmul)
        read_gflops(g, m, t);
    else
        read_bandwidth(g, m, t);
    appendf(t->output, OUTPUT_LEN, "%s\n", thresholds);
    if (!tl_json_number(m, "verified_after_timing", 0)) {
        appendf(t->output, OUTPUT_LEN, "the output was wrong after timing (%s): no performance points. "
                "Next: a kernel must give the same result on every launch.\n",
                tl_json_string(m, "verification", "?"));
    } else if (tl_json_number(m, "below_floor", 0)) {
        /* Below the floor (bench.h) the time is not a kernel's: work was skipped. */
        appendf(t->output, OUTPUT_LEN, "%s: your kernel skipped work on some calls (a median of %.4f ms per "
                "launch, the floor is %.4f ms): no performance points. Next: do all the work on every call.\n",
                matmul ? "faster than the GPU's FP32 peak" : "faster than the memory can move the data",
                tl_json_number(tl_json_get(tl_json_get(m, matmul ? "matmul" : "bench"), matmul ? "yours" : "work"),
                               "median_ms", 0),
                tl_json_number(m, "floor_ms", 0));
    } else {
        g->measured = 1;
        if (!r->speedup_unit[0] || is_sparse(r))   /* lab 5 compares its baseline in the speed item */
            report_baseline(t, m, r);
        report_library(t, m, r);
        t->score = tl_rubric_perf_points(r, g->fraction);
        if (t->score < t->max_score && r->perf_next[0])
            appendf(t->output, OUTPUT_LEN, "Next: %s\n", r->perf_next);
    }
    t->passed = t->score >= t->max_score;
    tl_json_free(m);
}

/* ---- a lab of several kernels (rubric unit lines: lab 5) ------------------- */

/* Lab 5, part 3: GFLOP/s over the baseline (lab 4's tiled kernel), timed interleaved in one run. */
static void grade_speedup(grade *g, const options *o, int all_passed)
{
    const tl_rubric *r = &g->rubric;
    graded_test *t = add_item(g, "speed: GFLOP/s over lab 4's tiled kernel", r->speedup_points);
    if (not_measured_in_cpu_mode(t, o))
        return;
    if (!all_passed) {
        appendf(t->output, OUTPUT_LEN, "not measured: speed counts only when every test of this part passes.\n"
                "Next: fix the failing tests above.\n");
        return;
    }
    char err[256];
    /* A lab of several kernels measures this part in its own process (--measure-part). */
    tl_json *m = load_measurement(g, o, o->measure_part_json ? o->measure_part_json : o->measure_json, err, sizeof err);
    const tl_json *mm = tl_json_get(m, "dbuf"), *yours = tl_json_get(mm, "yours"), *base = tl_json_get(mm, "baseline");
    if (!mm || tl_json_get(mm, "skipped") || !yours) {
        appendf(t->output, OUTPUT_LEN, "not measured: %s\n", !m ? "the measurement wrote no result"
                : tl_json_string(mm, "skipped", "the measurement did not reach this kernel"));
        append_file(t->output, OUTPUT_LEN, o->tests_log, "measure", 10);
        tl_json_free(m);
        return;
    }
    g->gflops = tl_json_number(mm, "gflops", 0);
    g->naive_gflops = tl_json_number(mm, "naive_gflops", 0);
    appendf(t->output, OUTPUT_LEN, "%dx%dx%d (MxKxN), cold (L2 flushed), %d samples: median %.3f ms, noise %.2f %%%s\n"
            "your kernel %.0f GFLOP/s = %.2fx the naive kernel (%.0f GFLOP/s), same run\n",
            (int)tl_json_number(mm, "m", 0), (int)tl_json_number(mm, "k", 0), (int)tl_json_number(mm, "n", 0),
            (int)tl_json_number(mm, "samples", 0), tl_json_number(yours, "median_ms", 0),
            100 * tl_json_number(yours, "noise", 0), tl_json_number(mm, "noisy", 0)
            ? " (noisy: stopped at the sample cap above 1 %; a busy GPU? grade again)" : "",
            g->gflops, tl_json_number(mm, "speedup_over_naive", 0), g->naive_gflops);
    const char *dbuf = o->double_buffered;
    if (dbuf && !strncmp(dbuf, "yes", 3))
        appendf(t->output, OUTPUT_LEN, "structure: double-buffered (%s)\n", dbuf + (dbuf[3] == ':' ? 5 : 3));
    else if (dbuf && strncmp(dbuf, "no", 2))
        appendf(t->output, OUTPUT_LEN, "structure: %s\n", dbuf);
    if (!tl_json_number(mm, "verified_after_timing", 0)) {
        appendf(t->output, OUTPUT_LEN, "the output was wrong after timing (%s): no speed points. Next: a kernel "
                "must give the same result on every launch.\n", tl_json_string(mm, "verification", "?"));
    } else if (tl_json_number(mm, "below_floor", 0)) {
        appendf(t->output, OUTPUT_LEN, "faster than the GPU's FP32 peak: your kernel skipped work on some calls "
                "(floor %.3f ms): no speed points. Next: do all the work on every call.\n",
                tl_json_number(mm, "floor_ms", 0));
    } else if (dbuf && !strncmp(dbuf, "no", 2)) {
        /* Part 3 teaches the schedule: speed alone cannot tell it here. */
        appendf(t->output, OUTPUT_LEN, "not double-buffered: %s: no speed points (they are for the "
                "double-buffered schedule).\nNext: %s\n", dbuf + (dbuf[2] == ':' ? 4 : 2),
                r->speedup_next[0] ? r->speedup_next : "two buffers per operand, one barrier per K-step");
    } else if (!base || !tl_json_number(base, "verified", 0)) {
        t->max_score = 0;   /* nothing to compare with: left out of the maximum, not counted as lost */
        t->passed = 1;
        appendf(t->output, OUTPUT_LEN, "against %s: not compared (%s). These points are left out of the maximum.\n",
                r->baseline, base ? tl_json_string(base, "verification", "its output is wrong")
                                  : tl_json_string(mm, "baseline_skipped", "no baseline was built"));
    } else {
        g->baseline_speedup = tl_json_number(base, "speedup", 0);
        appendf(t->output, OUTPUT_LEN, "against %s (%s), same run: %.0f GFLOP/s; yours runs at %.3fx its speed\n"
                "thresholds: %.2fx = 0 points, %.2fx = %g points\n", r->baseline,
                tl_json_string(base, "source", "?"), tl_json_number(base, "gflops", 0), g->baseline_speedup,
                r->speedup_low, r->speedup_high, r->speedup_points);
        t->score = tl_rubric_speedup_points(r, g->baseline_speedup);
        t->passed = t->score >= t->max_score;
        if (!t->passed && r->speedup_next[0])
            appendf(t->output, OUTPUT_LEN, "Next: %s\n", r->speedup_next);
    }
    tl_json_free(m);
}

/*
 * Lab 7, part 2: the student's sparse kernel against the same student's
 * dense one and cuBLAS's dense product, timed interleaved in one run
 * (sparse_measure.cu), at block densities 1, 1/2 and 1/4. The lines show
 * the speedup over the student's dense kernel (the lesson); the points
 * follow cuBLAS's time over the sparse kernel's at 1/4, which no lab file
 * can move by slowing its own dense kernel (attacks/lab7/slow_dense_hides_slow_sparse).
 */
static void grade_sparse_speedup(grade *g, const options *o, int all_passed)
{
    const tl_rubric *r = &g->rubric;
    graded_test *t = add_item(g, "speed: skipping zeros (against cuBLAS's dense product)", r->speedup_points);
    if (not_measured_in_cpu_mode(t, o))
        return;
    if (!all_passed) {
        appendf(t->output, OUTPUT_LEN, "not measured: speed counts only when every test of this part passes.\n"
                "Next: fix the failing tests above.\n");
        return;
    }
    char err[256];
    tl_json *m = load_measurement(g, o, o->measure_part_json ? o->measure_part_json : o->measure_json, err, sizeof err);
    const tl_json *sp = tl_json_get(m, "sparse");
    if (!sp) {
        appendf(t->output, OUTPUT_LEN, "not measured: %s\n", !m ? "the measurement wrote no result"
                : "the measurement did not reach this kernel");
        append_file(t->output, OUTPUT_LEN, o->tests_log, "measure", 10);
        tl_json_free(m);
        return;
    }
    const tl_json *dense = tl_json_get(sp, "dense"), *d1 = tl_json_get(sp, "d1"), *d2 = tl_json_get(sp, "d2"),
                  *d4 = tl_json_get(sp, "d4");
    if (!tl_json_number(sp, "verified_after_timing", 0)) {
        appendf(t->output, OUTPUT_LEN, "the output of your %s kernel was wrong while timed (%s): no speed points. "
                "Next: a kernel must give the same result on every launch.\n", tl_json_string(sp, "failed", "?"),
                tl_json_string(sp, "verification", "?"));
        tl_json_free(m);
        return;
    }
    const tl_json *cublas = tl_json_get(sp, "cublas");
    double quarter = tl_json_number(sp, "over_cublas_quarter", 0);
    appendf(t->output, OUTPUT_LEN, "%dx%dx%d (MxKxN), cold (L2 flushed), %d samples, interleaved%s:\n"
            "                                                     over your dense   over cuBLAS\n"
            "  your dense kernel                       %8.3f ms\n"
            "  cuBLAS FP32, dense                      %8.3f ms\n"
            "  your sparse kernel, no zero K-blocks    %8.3f ms  %8.2fx %15.2fx\n"
            "  ... half the K-blocks zero (1/2)        %8.3f ms  %8.2fx %15.2fx\n"
            "  ... three K-blocks in four zero (1/4)   %8.3f ms  %8.2fx %15.2fx\n"
            "scored: cuBLAS's dense time over your sparse kernel's at 1/4 (your own dense kernel is yours to slow "
            "down; cuBLAS is not)\nthresholds, at 1/4: %.2fx = 0 points, %.2fx = %g points\n",
            (int)tl_json_number(sp, "m", 0), (int)tl_json_number(sp, "k", 0), (int)tl_json_number(sp, "n", 0),
            (int)tl_json_number(sp, "samples", 0), tl_json_number(sp, "noisy", 0)
            ? " (noisy: stopped at the sample cap above 1 %; a busy GPU? grade again)" : "",
            tl_json_number(dense, "median_ms", 0), tl_json_number(cublas, "median_ms", 0),
            tl_json_number(d1, "median_ms", 0), tl_json_number(sp, "speedup_d1", 0),
            tl_json_number(sp, "over_cublas_d1", 0), tl_json_number(d2, "median_ms", 0),
            tl_json_number(sp, "speedup_half", 0), tl_json_number(sp, "over_cublas_half", 0),
            tl_json_number(d4, "median_ms", 0), tl_json_number(sp, "speedup_quarter", 0), quarter, r->speedup_low,
            r->speedup_high, r->speedup_points);
    g->baseline_speedup = quarter;
    t->score = tl_rubric_speedup_points(r, quarter);
    t->passed = t->score >= t->max_score;
    if (!t->passed && r->speedup_next[0])
        appendf(t->output, OUTPUT_LEN, "Next: %s\n", r->speedup_next);
    tl_json_free(m);
}

/* Branch targets and the share of them where the warp's threads went different ways. */
static int read_branches(const char *csv, double *targets, double *divergent, char *err, size_t len)
{
    tl_counters c;
    if (!csv || tl_counters_read(csv, &c, err, len) != 0)
        return -1;
    if (!c.has_branches) {
        snprintf(err, len, "ncu did not report the branch metrics");
        return -1;
    }
    *targets = c.branch_targets;
    *divergent = c.divergent_targets;
    return 0;
}

/*
 * Lab 7: the sparse kernel's skip must be the warp's, not a lane's: ncu's
 * divergent branch targets, over all branch targets, at most divergent_max
 * at the counters shape. The kit's wide-tile kernel (rubric contrast) is
 * counted on the same shape and printed beside, for no points.
 */
static void grade_uniform_branches(grade *g, const options *o, int all_passed)
{
    const tl_rubric *r = &g->rubric;
    graded_test *t = add_item(g, "warp-uniform skips: divergent branches (ncu)", r->uniform_points);
    if (o->cpu_mode) {   /* first: out of the maximum whatever the tests say, as the speed items */
        t->max_score = 0;
        t->passed = 1;
        appendf(t->output, OUTPUT_LEN, "not checked: CPU mode does not count branches (a GPU's ncu does). These "
                "points are left out of the maximum.\n");
        return;
    }
    if (!all_passed) {
        appendf(t->output, OUTPUT_LEN, "not read: counters are read only when every test of this part passes.\n");
        return;
    }
    const char *shape = o->counters_shape ? o->counters_shape : r->counters_shape;
    if (o->counters_failed) {
        appendf(t->output, OUTPUT_LEN, "your launch failed at %s under ncu: %s. These points are lost: a kernel "
                "must be right at every shape.\n", shape, o->counters_failed);
        return;
    }
    double targets = 0, divergent = 0;
    char err[256] = "";
    if (o->counters_missing || !o->counters ||
        read_branches(o->counters, &targets, &divergent, err, sizeof err) != 0) {
        t->max_score = 0;   /* not checked: left out of the maximum, not counted as lost */
        t->passed = 1;
        appendf(t->output, OUTPUT_LEN, "not checked: %s. These points are left out of the maximum.\n",
                o->counters_missing ? o->counters_missing : o->counters ? err : "ncu did not run");
        return;
    }
    double share = targets > 0 ? divergent / targets : 0;
    appendf(t->output, OUTPUT_LEN, "ncu --clock-control none, %s, your sparse kernel (launches summed):\n"
            "  branch targets %.0f, divergent %.0f = %.2f %% (at most %.2f %%)\n", shape, targets, divergent,
            100 * share, 100 * r->divergent_max);
    double wide_targets, wide_divergent;
    char wide_err[256];
    if (o->contrast_counters &&
        read_branches(o->contrast_counters, &wide_targets, &wide_divergent, wide_err, sizeof wide_err) == 0)
        appendf(t->output, OUTPUT_LEN, "  the kit's wide-tile kernel, same shape and B: branch targets %.0f, "
                "divergent %.0f = %.2f %% (each lane skips its own columns' zeros)\n", wide_targets, wide_divergent,
                100 * (wide_targets > 0 ? wide_divergent / wide_targets : 0));
    t->passed = share <= r->divergent_max;
    t->score = t->passed ? t->max_score : 0;
    if (!t->passed)
        appendf(t->output, OUTPUT_LEN, "your skip diverges: lanes of one warp take different ways at a branch. "
                "Next: give every lane of a warp the same columns (a tall warp tile: lanes stacked along the rows), "
                "so a K-block's pattern is the warp's, and branch only on it (handout: Why the tall tile).\n");
}

/* "clinic: reverse_blocks (...)" -> "clinic"; a title without a colon whole. */
static void part_heading(const tl_rubric_unit *u, char *out, size_t len)
{
    size_t n = strcspn(u->title, ":");
    snprintf(out, len, "Part %d: %.*s", u->part, (int)n, u->title);
}

/*
 * Per unit, in the rubric's order: its tests and a sanitizer item (each
 * sanitizer's points shared by the units without a gate), then its
 * performance or speed item when the rubric names it. A gated unit (the
 * clinic) is one item instead: its points need its tests right AND
 * memcheck, racecheck and synccheck clean on it.
 */
static void grade_units(grade *g, const options *o)
{
    static const char *const tools[] = {"memcheck", "racecheck", "synccheck"};
    const tl_rubric *r = &g->rubric;
    static graded_test tests[MAX_TESTS];
    int n = g->ntests, last_part = -1;
    memcpy(tests, g->tests, (size_t)n * sizeof tests[0]);
    g->ntests = 0;
    int checked = o->sanitizers && !o->sanitizer_missing;

    for (int k = 0; k < r->nunits; k++) {
        const tl_rubric_unit *u = &r->units[k];
        int first = g->ntests, count = 0, right = 0, clean = 1;
        for (int i = 0; i < n; i++)
            if (!strcmp(tests[i].unit, u->name)) {
                count++;
                right += tests[i].passed;
            }
        int all_right = count > 0 && right == count;
        char findings[OUTPUT_LEN] = "";
        for (int s = 0; checked && s < 3; s++) {
            char log[64];
            snprintf(log, sizeof log, "%s-%s", tools[s], u->name);
            clean &= sanitizer_verdict(g, o, tools[s], log, u, findings, sizeof findings) == SAN_CLEAN;
        }
        if (u->gated) {
            graded_test *t = add_item(g, u->title, u->points);
            appendf(t->output, OUTPUT_LEN, "hidden tests: %d of %d right\n", right, count);
            int shown = 0;   /* the first two failures; each message names its shape */
            for (int i = 0; i < n; i++)
                if (!strcmp(tests[i].unit, u->name) && !tests[i].passed && shown++ < 2)
                    appendf(t->output, OUTPUT_LEN, "%s", tests[i].output);
            if (!checked)   /* fixed means right AND clean: without the tools, not graded */
                appendf(t->output, OUTPUT_LEN, "not checked: %s. A clinic kernel counts as fixed only when the "
                        "sanitizers find it clean, so these points are left out of the maximum.\n",
                        o->sanitizer_missing ? o->sanitizer_missing : "the sanitizers did not run");
            else if (clean)
                appendf(t->output, OUTPUT_LEN, "memcheck, racecheck and synccheck: clean on n = %s\n",
                        u->sanitizer_shape);
            else
                appendf(t->output, OUTPUT_LEN, "%s%s", findings, all_right
                        ? "Right on every test, but not fixed: a race or a divergent barrier that gives the "
                          "right answer on this GPU today is still a bug.\n" : "");
            t->passed = all_right && clean;
            t->score = t->passed && checked ? t->max_score : 0;
            if (!checked) {
                t->max_score = 0;
                t->passed = 1;
            }
        } else {
            for (int i = 0; i < n; i++)
                if (!strcmp(tests[i].unit, u->name))
                    g->tests[g->ntests++] = tests[i];
            char name[96];
            snprintf(name, sizeof name, "memcheck, racecheck, synccheck: clean on %s", u->sanitizer_shape);
            graded_test *t = add_item(g, name, tl_rubric_unit_sanitizer_points(r));
            if (!checked) {
                t->max_score = 0;   /* not checked: left out of the maximum, not counted as lost */
                t->passed = 1;
                appendf(t->output, OUTPUT_LEN, "not checked: %s. These points are left out of the maximum.\n",
                        o->sanitizer_missing ? o->sanitizer_missing : "the sanitizers did not run");
            } else if (clean) {
                t->passed = all_right;
                t->score = all_right ? t->max_score : 0;
                if (!all_right)
                    appendf(t->output, OUTPUT_LEN, "no errors, but these points count only when every test of "
                            "this part passes.\n");
            } else {
                appendf(t->output, OUTPUT_LEN, "%s", findings);
            }
            if (!strcmp(r->performance_unit, u->name))
                grade_performance(g, o, all_right);
            if (!strcmp(r->speedup_unit, u->name))
                (is_sparse(r) ? grade_sparse_speedup : grade_speedup)(g, o, all_right);
            if (!strcmp(r->counters_unit, u->name))
                grade_uniform_branches(g, o, all_right);
        }
        for (int i = first; i < g->ntests; i++)   /* the parts are headed, not gapped */
            g->tests[i].beyond_correctness = 0;
        if (u->part != last_part && first < g->ntests)
            part_heading(u, g->tests[first].heading, sizeof g->tests[first].heading);
        last_part = u->part;
    }
}

/* ---- output ------------------------------------------------------------ */

static double total(const grade *g, int max)
{
    double s = 0;
    for (int i = 0; i < g->ntests; i++)
        s += max ? g->tests[i].max_score : g->tests[i].score;
    return s;
}

static void print_indented(const char *text)
{
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, "\n");
        printf("        %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

static void print_report(const grade *g, const options *o)
{
    printf("\n%s%s: %s%s\n", BOLD, g->rubric.id, g->rubric.title, RESET);
    printf("  file  %s\n", o->source);
    if (g->device[0])
        printf("  GPU   %s\n", g->device);
    if (o->cpu_mode)
        printf("  GPU   none: graded in CPU mode\n  note  %s\n", o->cpu_mode);
    if (o->seed[0])
        printf("  seed  %s   (./grade --seed %s reproduces the hidden tests)\n", o->seed, o->seed);
    printf("\n");
    if (g->could_not_grade) {
        printf("%sCould not grade:%s\n", RED, RESET);
        print_indented(g->problem);
        printf("\nScore: not graded\n");   /* not 0/100: nothing was scored */
        return;
    }
    for (int i = 0; i < g->ntests; i++) {
        const graded_test *t = &g->tests[i];
        if (t->heading[0])
            printf("\n  %s%s%s\n", BOLD, t->heading, RESET);
        if (t->beyond_correctness && (i == 0 || !g->tests[i - 1].beyond_correctness)) {
            if (g->note[0])
                printf("  %sNote:%s %s\n", BOLD, RESET, g->note);
            printf("\n");
        }
        const char *tag = t->max_score == 0 && t->beyond_correctness ? "INFO"
                        : t->passed ? "PASS" : t->score > 0 ? "PART" : "FAIL";
        printf("  %s%-4s%s  %-46s %6.2f/%-6.2f\n", t->passed || !strcmp(tag, "INFO") ? GREEN : RED, tag, RESET,
               t->name, t->score, t->max_score);
        if (t->output[0])
            print_indented(t->output);
    }
    printf("\n%sScore: %.2f/%g%s\n", BOLD, total(g, 0), total(g, 1), RESET);
}

/* `text` as one sh word: as it is when it needs no quotes, else in single quotes. */
static void sh_word(char *out, size_t len, const char *text)
{
    if (*text && strspn(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+,:=@%-") ==
                     strlen(text)) {
        appendf(out, len, "%s", text);
        return;
    }
    appendf(out, len, "'");
    for (const char *c = text; *c; c++)
        appendf(out, len, *c == '\'' ? "'\\''" : "%c", *c);
    appendf(out, len, "'");
}

/* "./grade lab2 --file labs/lab2-shared-tile/transpose.cu --seed 7", run from the kit's folder. */
static void reproduce_command(const grade *g, const options *o, char *out, size_t len)
{
    snprintf(out, len, "./grade ");
    sh_word(out, len, g->rubric.id[0] ? g->rubric.id : "labN");
    appendf(out, len, " --file ");
    sh_word(out, len, o->source);
    if (o->seed[0])
        appendf(out, len, " --seed %s", o->seed);
    if (o->cpu_mode)
        appendf(out, len, " --cpu");
}

/* Written whole under a temporary name beside it, then renamed: a reader (or
 * a grade running at the same time) sees the old file or the new one, never
 * half of one. */
static void write_results(const grade *g, const options *o)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", o->results, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "grade: cannot write %s\n", o->results);
        return;
    }
    const tl_rubric *r = &g->rubric;
    double max = g->could_not_grade ? tl_rubric_max_points(r) : total(g, 1);
    tl_json_writer w;
    tl_jw_init(&w, f);
    tl_jw_object_begin(&w, NULL);
    tl_jw_number(&w, "score", g->could_not_grade ? 0 : total(g, 0));
    tl_jw_number(&w, "max_score", max);
    tl_jw_number(&w, "execution_time", o->elapsed);
    /* The verdict, then what names the run: GPU, seed, the command that repeats it, the kit. */
    static char text[OUTPUT_LEN + 2048];
    char command[1024];
    reproduce_command(g, o, command, sizeof command);
    text[0] = '\0';
    if (g->could_not_grade)
        appendf(text, sizeof text, "Could not grade: %s\n", g->problem);
    else if (g->note[0])
        appendf(text, sizeof text, "%s\n\n", g->note);
    if (o->cpu_mode)
        appendf(text, sizeof text, "CPU mode (no GPU): %s\n", o->cpu_mode);
    appendf(text, sizeof text, "GPU: %s\nseed: %s\nrepeat this run: %s\nkit: tilelab %s\n",
            g->device[0] ? g->device : o->cpu_mode ? "none (CPU mode)" : "not known (the GPU was not reached)",
            o->seed[0] ? o->seed : "none",
            command, o->kit_version ? o->kit_version : "unknown");
    tl_jw_string(&w, "output", text);
    tl_jw_string(&w, "output_format", "text");   /* plain text, its line breaks kept */
    tl_jw_string(&w, "visibility", "visible");
    tl_jw_string(&w, "stdout_visibility", "hidden");
    tl_jw_array_begin(&w, "tests");
    if (g->could_not_grade) {   /* Gradescope shows tests: the reason as one, failed, worth nothing */
        tl_jw_object_begin(&w, NULL);
        tl_jw_string(&w, "name", "could not grade");
        tl_jw_number(&w, "score", 0);
        tl_jw_number(&w, "max_score", 0);
        tl_jw_string(&w, "status", "failed");
        tl_jw_string(&w, "output", g->problem);
        tl_jw_string(&w, "visibility", "visible");
        tl_jw_object_end(&w);
    }
    for (int i = 0; i < g->ntests; i++) {
        tl_jw_object_begin(&w, NULL);
        tl_jw_string(&w, "name", g->tests[i].name);
        tl_jw_number(&w, "score", g->tests[i].score);
        tl_jw_number(&w, "max_score", g->tests[i].max_score);
        tl_jw_string(&w, "status", g->tests[i].passed ? "passed" : "failed");
        tl_jw_string(&w, "output", g->tests[i].output);
        tl_jw_string(&w, "visibility", "visible");
        tl_jw_object_end(&w);
    }
    tl_jw_array_end(&w);
    if (g->measured) {
        tl_jw_array_begin(&w, "leaderboard");
        tl_jw_object_begin(&w, NULL);
        int matmul = is_matmul(&g->rubric);
        tl_jw_string(&w, "name", matmul ? "GFLOP/s" : "Bandwidth (GB/s)");
        tl_jw_number(&w, "value", matmul ? g->gflops : g->gbps);
        tl_jw_string(&w, "order", "desc");
        tl_jw_object_end(&w);
        tl_jw_object_begin(&w, NULL);
        tl_jw_string(&w, "name", matmul ? "Fraction of cuBLAS" : "Fraction of copy");
        tl_jw_number(&w, "value", g->fraction);
        tl_jw_string(&w, "order", "desc");
        tl_jw_object_end(&w);
        tl_jw_array_end(&w);
    }
    tl_jw_object_begin(&w, "extra_data");
    tl_jw_string(&w, "lab", g->rubric.id);
    tl_jw_string(&w, "source", o->source);
    tl_jw_string(&w, "seed", o->seed);
    tl_jw_string(&w, "gpu", g->device);
    if (o->cpu_mode)   /* absent on a GPU, as before */
        tl_jw_string(&w, "mode", "cpu");
    tl_jw_string(&w, "kit_version", o->kit_version ? o->kit_version : "unknown");
    tl_jw_string(&w, "command", command);
    tl_jw_bool(&w, "graded", !g->could_not_grade);
    char flags[128] = "";
    for (unsigned i = 0; i < sizeof flag_words / sizeof flag_words[0]; i++)
        if (g->flags & (1u << i))
            appendf(flags, sizeof flags, "%s%s", flags[0] ? " " : "", flag_words[i]);
    tl_jw_string(&w, "flags", flags);
    if (g->measured && is_matmul(&g->rubric)) {
        tl_jw_int(&w, "m", g->rows);
        tl_jw_int(&w, "k", g->depth);
        tl_jw_int(&w, "n", g->cols);
        tl_jw_number(&w, "gflops", g->gflops);
        tl_jw_number(&w, "naive_gflops", g->naive_gflops);
        tl_jw_number(&w, "cublas_gflops", g->cublas_gflops);
        tl_jw_number(&w, "fraction_of_cublas", g->fraction);
        tl_jw_number(&w, "noise", g->noise);
    } else if (g->measured) {
        tl_jw_int(&w, "rows", g->rows);
        tl_jw_int(&w, "cols", g->cols);
        tl_jw_number(&w, "gbps", g->gbps);
        tl_jw_number(&w, "copy_gbps", g->copy_gbps);
        tl_jw_number(&w, "fraction_of_copy", g->fraction);
        tl_jw_number(&w, "noise", g->noise);
    }
    if (g->rubric.speedup_unit[0] && g->gflops > 0) {   /* lab 5, part 3 */
        tl_jw_number(&w, "gflops", g->gflops);
        tl_jw_number(&w, "naive_gflops", g->naive_gflops);
        if (g->baseline_speedup > 0)
            tl_jw_number(&w, "speedup_over_baseline", g->baseline_speedup);
    }
    tl_jw_object_end(&w);
    tl_jw_object_end(&w);
    if (fclose(f) != 0 || rename(tmp, o->results) != 0) {
        fprintf(stderr, "grade: error writing %s\n", o->results);
        remove(tmp);
    }
}

/* Columns of the history CSV (documented in README.md, read by plots/). */
static const char *const history_header[] = {
    "time_utc", "lab", "source", "gpu", "rows", "cols", "gbps", "copy_gbps",
    "fraction_of_copy", "score", "max_score", "seed", "depth", "gflops", "cublas_gflops", "fraction_of_cublas"};
enum { HISTORY_COLUMNS = sizeof history_header / sizeof history_header[0] };

static void append_history(const grade *g, const options *o)
{
    if (!o->history || g->could_not_grade)
        return;
    char when[32], rows[16] = "", cols[16] = "", gbps[32] = "", copy[32] = "", frac[32] = "",
         score[32], max[32], depth[16] = "", gflops[32] = "", cublas[32] = "", frac_cublas[32] = "";
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    if (g->measured && is_matmul(&g->rubric)) {   /* rows = M, cols = N, depth = K */
        snprintf(rows, sizeof rows, "%d", g->rows);
        snprintf(cols, sizeof cols, "%d", g->cols);
        snprintf(depth, sizeof depth, "%d", g->depth);
        snprintf(gflops, sizeof gflops, "%.1f", g->gflops);
        snprintf(cublas, sizeof cublas, "%.1f", g->cublas_gflops);
        snprintf(frac_cublas, sizeof frac_cublas, "%.4f", g->fraction);
    } else if (g->measured) {
        snprintf(rows, sizeof rows, "%d", g->rows);
        snprintf(cols, sizeof cols, "%d", g->cols);
        snprintf(gbps, sizeof gbps, "%.2f", g->gbps);
        snprintf(copy, sizeof copy, "%.2f", g->copy_gbps);
        snprintf(frac, sizeof frac, "%.4f", g->fraction);
    }
    if (!is_matmul(&g->rubric) && g->gflops > 0)   /* lab 5: part 3's GFLOP/s beside part 2's bandwidth */
        snprintf(gflops, sizeof gflops, "%.1f", g->gflops);

    snprintf(score, sizeof score, "%.2f", total(g, 0));
    snprintf(max, sizeof max, "%g", total(g, 1));
    const char *row[HISTORY_COLUMNS] = {when, g->rubric.id, o->source, g->device, rows, cols,
                                        gbps, copy, frac, score, max, o->seed, depth, gflops, cublas, frac_cublas};
    if (tl_csv_append(o->history, history_header, row, HISTORY_COLUMNS) != 0)
        fprintf(stderr, "grade: cannot append to %s\n", o->history);
}

/* ---- main -------------------------------------------------------------- */

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = "1";
    for (int i = 1; i < argc; i += 2) {
        if (!strcmp(argv[i], "--quiet")) {
            o->quiet = 1;
            i--;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "report: option %s needs a value\n", argv[i]);
            return -1;
        }
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--rubric")) o->rubric_path = v;
        else if (!strcmp(k, "--source")) o->source = v;
        else if (!strcmp(k, "--seed")) o->seed = v;
        else if (!strcmp(k, "--results")) o->results = v;
        else if (!strcmp(k, "--history")) o->history = v;
        else if (!strcmp(k, "--device")) o->device_json = v;
        else if (!strcmp(k, "--tests")) o->tests_json = v;
        else if (!strcmp(k, "--tests-log")) o->tests_log = v;
        else if (!strcmp(k, "--measure")) o->measure_json = v;
        else if (!strcmp(k, "--measure-status")) o->measure_status = atoi(v);
        else if (!strcmp(k, "--measure-part")) o->measure_part_json = v;
        else if (!strcmp(k, "--build-log")) o->build_log = v;
        else if (!strcmp(k, "--problem")) o->problem = v;
        else if (!strcmp(k, "--elapsed")) o->elapsed = atof(v);
        else if (!strcmp(k, "--structure")) o->structure = v;
        else if (!strcmp(k, "--structure-note")) o->structure_note = v;
        else if (!strcmp(k, "--double-buffered")) o->double_buffered = v;
        else if (!strcmp(k, "--sanitizers")) o->sanitizers = v;
        else if (!strcmp(k, "--sanitizer-missing")) o->sanitizer_missing = v;
        else if (!strcmp(k, "--not-allowed")) o->not_allowed = v;
        else if (!strcmp(k, "--not-allowed-file")) o->not_allowed_file = v;
        else if (!strcmp(k, "--counters")) o->counters = v;
        else if (!strcmp(k, "--counters-missing")) o->counters_missing = v;
        else if (!strcmp(k, "--counters-failed")) o->counters_failed = v;
        else if (!strcmp(k, "--counters-shape")) o->counters_shape = v;
        else if (!strcmp(k, "--cpu-mode")) o->cpu_mode = v;
        else if (!strcmp(k, "--contrast-counters")) o->contrast_counters = v;
        else if (!strcmp(k, "--kit-version")) o->kit_version = v;
        else {
            fprintf(stderr, "report: unknown option %s\n", k);
            return -1;
        }
    }
    if (!o->rubric_path || !o->source || !o->results) {
        fprintf(stderr, "report: --rubric, --source and --results are required\n");
        return -1;
    }
    return 0;
}

static void read_device(grade *g, const char *path)
{
    char err[256];
    tl_json *d = path ? tl_json_parse_file(path, err, sizeof err) : NULL;
    if (!d)
        return;
    int driver = (int)tl_json_number(d, "driver_version", 0), runtime = (int)tl_json_number(d, "runtime_version", 0);
    snprintf(g->device, sizeof g->device, "%s (%s, %d SMs, L2 %.0f MiB, memory %d MHz x %d bit, "
             "driver CUDA %d.%d, runtime %d.%d)", tl_json_string(d, "name", "?"), tl_json_string(d, "arch", "?"),
             (int)tl_json_number(d, "sm_count", 0), tl_json_number(d, "l2_bytes", 0) / 1048576.0,
             (int)tl_json_number(d, "memory_clock_khz", 0) / 1000, (int)tl_json_number(d, "bus_width_bits", 0),
             driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    tl_json_free(d);
}

int main(int argc, char **argv)
{
    options o;
    if (argc == 2 && !strcmp(argv[1], "--counter-metrics")) {   /* what grade asks ncu for */
        puts(TL_COUNTER_METRICS);
        return 0;
    }
    if (parse_options(argc, argv, &o) != 0)
        return 2;
    static grade g;
    char err[512];
    if (tl_rubric_load(o.rubric_path, &g.rubric, err, sizeof err) != 0) {
        if (!o.problem) {
            fprintf(stderr, "grade: %s\n", err);
            return 2;
        }
        /* Could not grade anyway (an unknown lab): named after the rubric's file. */
        memset(&g.rubric, 0, sizeof g.rubric);
        /* The lab from the path: labs/<id>-<name>/lab.rubric (or a file <id>.rubric). */
        const char *base = strrchr(o.rubric_path, '/') ? strrchr(o.rubric_path, '/') + 1 : o.rubric_path;
        if (!strcmp(base, "lab.rubric") && base > o.rubric_path + 1) {
            const char *folder = base - 1;
            while (folder > o.rubric_path && folder[-1] != '/')
                folder--;
            snprintf(g.rubric.id, sizeof g.rubric.id, "%.*s", (int)strcspn(folder, "-/"), folder);
        } else {
            snprintf(g.rubric.id, sizeof g.rubric.id, "%.*s", (int)strcspn(base, "."), base);
        }
        snprintf(g.rubric.title, sizeof g.rubric.title, "not a lab of this kit");
    }
    colour = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    read_device(&g, o.device_json);

    if (o.build_log) {
        g.could_not_grade = 1;
        g.flags |= FLAG_COMPILE_ERROR;
        snprintf(g.problem, sizeof g.problem, "%s does not compile. The compiler says:\n", o.source);
        append_file(g.problem, sizeof g.problem, o.build_log, NULL, 40);
        appendf(g.problem, sizeof g.problem, "Next: %s\n", build_failure_hint(o.build_log, g.rubric.id));
    } else if (o.problem) {
        g.could_not_grade = 1;
        snprintf(g.problem, sizeof g.problem, "%s\n", o.problem);
    } else if (o.not_allowed || o.not_allowed_file) {
        grade_not_allowed(&g, &o);
    } else if (grade_tests(&g, &o) != 0) {
        g.could_not_grade = 1;
    } else if (o.measure_status == 2) {   /* TL_EXIT_CANNOT_RUN (kit/check.h) */
        /* The measurement's own failure (a reference kernel, the GPU): the kit's, not the file's. */
        g.could_not_grade = 1;
        snprintf(g.problem, sizeof g.problem, "not your file's fault: the measurement could not run (exit %d). "
                 "It said:\n", o.measure_status);
        append_file(g.problem, sizeof g.problem, o.tests_log, "measure", 10);
        appendf(g.problem, sizeof g.problem, "Next: grade again; if it happens again, tell your instructor.\n");
    } else if (g.rubric.nunits) {
        grade_units(&g, &o);
    } else {
        /* Points beyond correctness count only when every correctness test passes. */
        int all_passed = 1;
        for (int i = 0; i < g.ntests; i++)
            all_passed &= g.tests[i].passed;
        grade_sanitizer(&g, &o, "memcheck", g.rubric.memcheck_points, all_passed);
        grade_sanitizer(&g, &o, "racecheck", g.rubric.racecheck_points, all_passed);
        grade_sanitizer(&g, &o, "synccheck", g.rubric.synccheck_points, all_passed);
        grade_structure(&g, &o, all_passed);
        grade_counters(&g, &o, all_passed);
        grade_performance(&g, &o, all_passed);
    }

    if (g.could_not_grade && !(g.flags & FLAG_COMPILE_ERROR))
        g.flags |= FLAG_NOT_GRADED;
    if (!o.quiet)
        print_report(&g, &o);
    write_results(&g, &o);
    append_history(&g, &o);
    if (g.could_not_grade)
        return 2;
    return fabs(total(&g, 0) - total(&g, 1)) < 1e-9 ? 0 : 1;
}

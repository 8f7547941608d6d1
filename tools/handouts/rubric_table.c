/*
 * rubric_table.c — build/tools/rubric-table: what a lab's rubric awards, as
 * the Markdown its handout shows, so that the two cannot drift apart.
 *
 *   rubric-table --update HANDOUT...   rewrite each handout's tables in place
 *   rubric-table --check HANDOUT...    exit 1 naming every table that differs
 *   rubric-table --print points|calibration LAB
 *
 * from labs/LAB-<name>/lab.rubric (--rubrics DIR: DIR/LAB.rubric).
 * A handout marks each table with a pair of lines,
 *
 *   <!-- rubric-table lab3 points: ... -->      ...      <!-- rubric-table end -->
 *
 * (outside ``` code blocks), and everything between them is this tool's:
 * `points` is the table of what is graded, its points, and what earns none
 * and what earns all of them; `calibration` is what ./grade measured on the
 * GPUs the thresholds were checked on (the rubric's `calibrated` lines), for
 * the handout's Compare section, after the student's own run. The rubric is
 * read by grader/rubric.c, as the grader reads it. Exit 0 done, 1 a table
 * differs (--check), 2 an error (a rubric that does not load, a marker
 * without its end).
 */
#include "lab_kinds.h"
#include "rubric.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BEGIN "<!-- rubric-table "
#define END "<!-- rubric-table end -->"

enum { OUT_LEN = 1 << 16 };

typedef struct {
    char text[OUT_LEN];
    size_t len;
} buffer;

static void put(buffer *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->text + b->len, sizeof b->text - b->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->len = b->len + (size_t)n < sizeof b->text ? b->len + (size_t)n : sizeof b->text - 1;
}

/* `text` as lines of at most `width` columns (a longer word on its own), as the handouts are wrapped. */
static void put_wrapped(buffer *b, const char *text, int width)
{
    int col = 0;
    while (*text) {
        while (*text == ' ')
            text++;
        int word = (int)strcspn(text, " ");
        if (!word)
            break;
        if (col && col + 1 + word > width) {
            put(b, "\n");
            col = 0;
        }
        put(b, "%s%.*s", col ? " " : "", word, text);
        col += (col ? 1 : 0) + word;
        text += word;
    }
    put(b, "\n");
}

/* A threshold as the rubric means it: two decimals, more only when it has them (0.10, 0.125). */
static const char *number(double v, char *out)
{
    snprintf(out, 32, "%.2f", v);
    if (strtod(out, NULL) != v)
        snprintf(out, 32, "%g", v);
    return out;
}

/* "lab4" -> "lab 4" */
static const char *lab_name(const char *id, char *out)
{
    if (!strncmp(id, "lab", 3) && id[3])
        snprintf(out, 32, "lab %s", id + 3);
    else
        snprintf(out, 32, "%s", id);
    return out;
}

/* What the kind measures, from its descriptor (grader/lab_kinds.h). */
static int is_matmul(const tl_rubric *r) { return kind_of(r)->matrix_product; }
static int is_sparse(const tl_rubric *r) { return kind_of(r)->speed_item == SPEED_SPARSE_OVER_CUBLAS; }

static void row(buffer *b, const char *item, double points, const char *none, const char *all)
{
    put(b, "| %s | %g | %s | %s |\n", item, points, none, all);
}

/* The sanitizers with points, "memcheck, racecheck and synccheck". */
static const char *sanitizer_list(const tl_rubric *r, char *out, size_t len)
{
    const char *names[3];
    int n = 0;
    if (r->memcheck_points > 0)
        names[n++] = "memcheck";
    if (r->racecheck_points > 0)
        names[n++] = "racecheck";
    if (r->synccheck_points > 0)
        names[n++] = "synccheck";
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        snprintf(out + strlen(out), len - strlen(out), "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ", names[i]);
    return out;
}

static void tests_row(buffer *b, const char *item, double points)
{
    row(b, item, points, "every test wrong", "every test right (the points are shared evenly by the tests)");
}

static void performance_row(buffer *b, const tl_rubric *r, const char *prefix)
{
    char low[32], high[32], item[128], none[96], all[96];
    const char *of = is_matmul(r) ? "of cuBLAS FP32" : "of copy";
    snprintf(item, sizeof item, "%sperformance: %s", prefix,
             is_matmul(r) ? "GFLOP/s as a fraction of cuBLAS FP32" : "bandwidth as a fraction of copy");
    snprintf(none, sizeof none, "%s %s or less", number(r->perf_low, low), of);
    snprintf(all, sizeof all, "%s %s or more", number(r->perf_high, high), of);
    row(b, item, r->performance_points, none, all);
}

static void speedup_row(buffer *b, const tl_rubric *r, const char *prefix, const char *unit)
{
    char low[32], high[32], lab[32], item[128], none[96], all[192];
    lab_name(r->baseline, lab);
    if (is_sparse(r)) {   /* lab 7: the sparse kernel against the same file's dense one */
        snprintf(item, sizeof item, "%sspeed: cuBLAS's dense time over your sparse kernel's, three K-blocks in "
                 "four zero", prefix);
        snprintf(none, sizeof none, "%sx or less", number(r->speedup_low, low));
        snprintf(all, sizeof all, "%sx or more", number(r->speedup_high, high));
        row(b, item, r->speedup_points, none, all);
        return;
    }
    snprintf(item, sizeof item, "%sspeed: GFLOP/s over %s's kernel", prefix, lab);
    snprintf(none, sizeof none, "%sx %s's speed or less", number(r->speedup_low, low), lab);
    snprintf(all, sizeof all, "%sx or more%s", number(r->speedup_high, high),
             !strcmp(r->double_buffered_unit, unit)
                 ? ", and the kernel double-buffered: two shared buffers per operand, one barrier per K-step" : "");
    row(b, item, r->speedup_points, none, all);
}

/* Structure, from `require`: "shared", "barrier" or both, as ptx-structure judges them. */
static void structure_row(buffer *b, const tl_rubric *r)
{
    int shared = strstr(r->require, "shared") != NULL, barrier = strstr(r->require, "barrier") != NULL;
    char none[160], all[160];
    snprintf(none, sizeof none, "a kernel without %s%s%s", shared ? "shared-memory access" : "",
             shared && barrier ? " or without " : "", barrier ? "a barrier" : "");
    snprintf(all, sizeof all, "the kernels your launch ran %s%s%s", shared ? "load or store shared memory" : "",
             shared && barrier ? " and " : "", barrier ? "have a barrier" : "");
    row(b, "structure, read from the compiled kernels (PTX)", r->structure_points, none, all);
}

/* One sanitizer of a lab of one kernel. */
static void sanitizer_row(buffer *b, const char *tool, double points, const char *shape, const char *finding)
{
    if (points <= 0)
        return;
    char item[96], none[96];
    snprintf(item, sizeof item, "%s on %s", tool, shape);
    snprintf(none, sizeof none, "%s reported", finding);
    row(b, item, points, none, "clean");
}

/* A lab of several kernels (lab 5): each unit in the rubric's order. */
static void unit_rows(buffer *b, const tl_rubric *r)
{
    char tools[64], item[192], none[192], all[192], prefix[32];
    sanitizer_list(r, tools, sizeof tools);
    for (int k = 0; k < r->nunits; k++) {
        const tl_rubric_unit *u = &r->units[k];
        snprintf(prefix, sizeof prefix, "part %d ", u->part);
        if (u->gated) {
            snprintf(item, sizeof item, "part %d, %s", u->part, u->title);
            snprintf(none, sizeof none, "a test wrong, or a finding of memcheck, racecheck or synccheck on n = %s",
                     u->sanitizer_shape);
            snprintf(all, sizeof all, "every test right, and memcheck, racecheck and synccheck clean on n = %s "
                     "(all or nothing)", u->sanitizer_shape);
            row(b, item, u->points, none, all);
            continue;
        }
        snprintf(item, sizeof item, "part %d, %s: hidden tests", u->part, u->title);
        tests_row(b, item, u->points);
        if (tools[0]) {
            snprintf(item, sizeof item, "part %d sanitizers: %s on %s", u->part, tools, u->sanitizer_shape);
            row(b, item, tl_rubric_unit_sanitizer_points(r), "a finding of any of them", "all clean");
        }
        if (!strcmp(r->performance_unit, u->name))
            performance_row(b, r, prefix);
        if (!strcmp(r->speedup_unit, u->name))
            speedup_row(b, r, prefix, u->name);
        if (!strcmp(r->counters_unit, u->name) && r->uniform_points > 0) {
            char item[128], none[96], all[96], max[32];
            snprintf(item, sizeof item, "%swarp-uniform skips: divergent branch targets, counted by ncu at %s", prefix,
                     r->counters_shape);
            snprintf(none, sizeof none, "more than %s %% of its branch targets", number(100 * r->divergent_max, max));
            snprintf(all, sizeof all, "at most %s %%", max);
            row(b, item, r->uniform_points, none, all);
        }
    }
}

/* What the speed rows compare, in the words of the grader's report. */
static void measure_notes(buffer *b, const tl_rubric *r)
{
    if (is_matmul(r))
        put(b, "Fraction of cuBLAS FP32: your GFLOP/s over those of cuBLAS SGEMM in FP32 (TF32 off)");
    else
        put(b, "Fraction of copy: your kernel's GB/s over those of the kit's copy kernel moving the same bytes");
    put(b, ", timed cold in the same run, medians compared.");
    if (r->speedup_points > 0 && is_sparse(r)) {
        put(b, " Speed of part 2: your dense kernel, cuBLAS's dense product and your sparse kernel on B with no zero "
            "K-blocks, half of them and three in four, timed interleaved in the same run; the report shows both "
            "speedups, and the points read cuBLAS's, which your code cannot slow down.");
        if (r->baseline[0]) {
            char lab[32];
            put(b, " %s's reference kernel is timed with part 1, for comparison only.", lab_name(r->baseline, lab));
        }
    } else if (r->speedup_points > 0) {
        char lab[32];
        put(b, " Speed over %s's kernel: your GFLOP/s over those of %s's tiled kernel, the two timed "
            "interleaved in the same run.", lab_name(r->baseline, lab), lab);
    }
    if (r->baseline[0] && r->speedup_points <= 0) {
        char lab[32];
        put(b, " Your own %s kernel is timed in the same run, for comparison only.", lab_name(r->baseline, lab));
    }
    if (r->library[0])
        put(b, " %s is timed in the same run too, for comparison only.", r->library_title);
    put(b, " Between its two thresholds, a speed row's points grow linearly.");
}

static void points_table(buffer *b, const tl_rubric *r)
{
    put(b, "| graded | points | 0 points | full points |\n|--------|-------:|----------|-------------|\n");
    if (r->nunits) {
        unit_rows(b, r);
    } else {
        tests_row(b, "hidden tests", r->correctness_points);
        sanitizer_row(b, "memcheck", r->memcheck_points, r->sanitizer_shape, "an error");
        sanitizer_row(b, "racecheck", r->racecheck_points, r->sanitizer_shape, "a race");
        sanitizer_row(b, "synccheck", r->synccheck_points, r->sanitizer_shape, "a barrier error");
        if (r->structure_points > 0 && r->require[0])
            structure_row(b, r);
        if (r->bank_conflict_points > 0) {
            char item[96], none[96], all[128], max[32];
            snprintf(item, sizeof item, "bank conflicts, counted by ncu at %s", r->counters_shape);
            snprintf(none, sizeof none, "more than %s per shared request", number(r->bank_conflicts_max, max));
            snprintf(all, sizeof all, "at most %s per shared request, loads and stores together", max);
            row(b, item, r->bank_conflict_points, none, all);
        }
        if (r->vector_points > 0) {
            char item[192], none[128], all[128], max[32];
            long lo, hi, step;
            if (sscanf(r->counters_range, "%ld %ld %ld", &lo, &hi, &step) == 3)
                snprintf(item, sizeof item, "128-bit accesses: global loads and stores per thread, counted by ncu at a shape drawn from "
                         "the seed (each side a multiple of %ld in %ld..%ld)", step, lo, hi);
            else
                snprintf(item, sizeof item, "128-bit accesses: global loads and stores per thread, counted by ncu near %s%s",
                         r->counters_shape, r->counters_jitter > 0 ? " (the shape drawn from the seed)" : "");
            snprintf(none, sizeof none, "more than %sx those of float4 (16 bytes each) on loads or on stores",
                     number(r->vector_max_requests, max));
            snprintf(all, sizeof all, "at most %sx on both (float: 4x, float2: 2x)", max);
            row(b, item, r->vector_points, none, all);
        }
        performance_row(b, r, "");
        if (r->counters_shape[0] && r->bank_conflict_points <= 0 && r->vector_points <= 0) {
            char item[96];
            snprintf(item, sizeof item, "hardware counters, read by ncu at %s", r->counters_shape);
            row(b, item, 0, "-", "for your information");
        }
    }
    put(b, "| **total** | **%g** | | |\n\n", tl_rubric_max_points(r));

    static buffer note;
    note.len = 0;
    if (r->nunits)
        put(&note, "The rows of a part after its tests count only when every test of that part passes.");
    else
        put(&note, "The rows after the hidden tests count only when every hidden test passes.");
    int counted = r->bank_conflict_points + r->vector_points > 0;
    if (r->memcheck_points + r->racecheck_points + r->synccheck_points + r->bank_conflict_points + r->vector_points > 0)
        put(&note, " When compute-sanitizer%s is missing%s, its rows say `not checked` and why, and leave the maximum.",
            counted ? " or ncu" : "", counted ? " or may not read the counters" : "");
    put(&note, " ");
    measure_notes(&note, r);
    if (r->ncalibrations) {
        put(&note, " The thresholds were checked against `./grade`'s own measurement of the reference solution on ");
        for (int i = 0; i < r->ncalibrations; i++)
            put(&note, "%sthe %s", i == 0 ? "" : i == r->ncalibrations - 1 ? " and " : ", ", r->calibrations[i].gpu);
        put(&note, ": see *Compare (after your own run)*.");
    }
    put_wrapped(b, note.text, 78);
}

static void calibration_table(buffer *b, const tl_rubric *r)
{
    put(b, "| GPU | measured through `./grade` |\n|-----|----------------------------|\n");
    for (int i = 0; i < r->ncalibrations; i++)
        put(b, "| %s (%s) | %s |\n", r->calibrations[i].gpu, r->calibrations[i].setup, r->calibrations[i].measured);
}

/* The rubric a marker names: the lab's own file (labs/<id>-<name>/lab.rubric), as the handouts
 * name it, also when --rubrics reads copies. */
static const char *rubric_source(const char *id)
{
    static char path[1024];
    if (tl_rubric_path(id, path, sizeof path) != 0)
        snprintf(path, sizeof path, "labs/%s-*/lab.rubric", id);
    return path;
}

/* The Markdown of one table; 0, or -1 with the reason in err. */
static int generate(const char *rubrics, const char *id, const char *what, buffer *b, char *err, size_t errlen)
{
    char path[1024];
    tl_rubric r;
    if (!rubrics) {   /* the lab's own: labs/<id>-<name>/lab.rubric */
        if (tl_rubric_path(id, path, sizeof path) != 0) {
            snprintf(err, errlen, "no lab '%s' (no labs/%s-*/lab.rubric)", id, id);
            return -1;
        }
    } else {
        snprintf(path, sizeof path, "%s/%s.rubric", rubrics, id);
    }
    if (tl_rubric_load(path, &r, err, errlen) != 0)
        return -1;
    if (!strcmp(what, "points")) {
        points_table(b, &r);
    } else if (!strcmp(what, "calibration")) {
        if (!r.ncalibrations) {
            snprintf(err, errlen, "%.400s has no calibrated lines", path);
            return -1;
        }
        calibration_table(b, &r);
    } else {
        snprintf(err, errlen, "no table '%s' (points or calibration)", what);
        return -1;
    }
    return 0;
}

/* The whole file, NUL-terminated (malloc'd); NULL when it cannot be read. */
static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *text = malloc(cap);
    size_t got;
    while (text && (got = fread(text + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *bigger = realloc(text, cap *= 2);
            if (!bigger)
                free(text);
            text = bigger;
        }
    }
    fclose(f);
    if (text)
        text[n] = '\0';
    return text;
}

/* The line number of `p` in `text`. */
static int line_of(const char *text, const char *p)
{
    int n = 1;
    for (; text < p; text++)
        n += *text == '\n';
    return n;
}

/*
 * The handout with every table regenerated, in `out` (malloc'd). Returns the
 * number of tables that differ (each named on stderr when `tell`), or -1
 * with the reason in err.
 */
static int regenerate(const char *path, const char *rubrics, const char *text, int tell, char **out, char *err,
                      size_t errlen)
{
    static buffer table;
    size_t n = 0;
    char *res = malloc(strlen(text) + 1);
    int differ = 0, fenced = 0;
    for (const char *line = text; res && *line;) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line + 1) : strlen(line);
        fenced ^= !strncmp(line, "```", 3);   /* a marker quoted in a code block is text */
        if (fenced || strncmp(line, BEGIN, strlen(BEGIN)) || !strncmp(line, END, strlen(END))) {
            memcpy(res + n, line, len);
            n += len;
            line += len;
            continue;
        }
        char id[32], what[32], why[512];
        const char *end = strstr(line, "\n" END);
        table.len = 0;
        if (sscanf(line + strlen(BEGIN), "%31[a-z0-9_] %31[a-z]", id, what) != 2)
            snprintf(why, sizeof why, "a table's first line is " BEGIN "LAB points|calibration ... -->");
        else if (!end)
            snprintf(why, sizeof why, "the %s %s table has no '" END "' line after it", id, what);
        else if (put(&table, BEGIN "%s %s: written by make handout-tables from %s; "
                     "edit the rubric, not this table -->\n\n", id, what, rubric_source(id)),
                 generate(rubrics, id, what, &table, why, sizeof why) == 0)
            why[0] = '\0';
        if (why[0]) {
            snprintf(err, errlen, "%s:%d: %s", path, line_of(text, line), why);
            free(res);
            return -1;
        }
        put(&table, "\n");
        size_t old_len = (size_t)(end + 1 - line);
        if (old_len != table.len || memcmp(line, table.text, table.len)) {
            differ++;
            if (tell)
                fprintf(stderr, "%s:%d: the %s %s table differs from labs/%s-*/lab.rubric\n", path,
                        line_of(text, line), id, what, id);
        }
        char *bigger = realloc(res, n + table.len + strlen(end + 1) + 1);   /* the table and the rest */
        if (!bigger)
            break;
        res = bigger;
        memcpy(res + n, table.text, table.len);
        n += table.len;
        line = end + 1;
    }
    if (!res) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    res[n] = '\0';
    *out = res;
    return differ;
}

/* Written beside the handout and renamed over it: never half a handout. */
static int write_file(const char *path, const char *text)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.rubric-table.tmp", path);
    FILE *f = fopen(tmp, "wb");
    int ok = f && fputs(text, f) != EOF;
    if (f)
        ok &= fclose(f) == 0;
    ok = ok && rename(tmp, path) == 0;
    if (!ok)
        remove(tmp);
    return ok ? 0 : -1;
}

static int usage(void)
{
    fprintf(stderr, "usage: rubric-table [--rubrics DIR] --update|--check HANDOUT...\n"
                    "       rubric-table [--rubrics DIR] --print points|calibration LAB\n"
                    "  the tables between '" BEGIN "LAB points|calibration ... -->' and '" END "'\n"
                    "  lines of a handout, from labs/LAB-*/lab.rubric (--rubrics DIR: DIR/LAB.rubric)\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *rubrics = NULL, *mode = NULL;
    int i = 1;
    if (i + 1 < argc && !strcmp(argv[i], "--rubrics")) {
        rubrics = argv[i + 1];
        i += 2;
    }
    if (i < argc)
        mode = argv[i++];
    if (!mode || i >= argc)
        return usage();
    char err[1024];
    if (!strcmp(mode, "--print")) {
        static buffer b;
        if (i + 2 != argc)
            return usage();
        if (generate(rubrics, argv[i + 1], argv[i], &b, err, sizeof err) != 0) {
            fprintf(stderr, "rubric-table: %s\n", err);
            return 2;
        }
        fwrite(b.text, 1, b.len, stdout);
        return 0;
    }
    int update = !strcmp(mode, "--update");
    if (!update && strcmp(mode, "--check"))
        return usage();
    int status = 0;
    for (; i < argc; i++) {
        char *text = read_file(argv[i]), *out = NULL;
        if (!text) {
            fprintf(stderr, "rubric-table: %s: cannot read it\n", argv[i]);
            status = 2;
            continue;
        }
        int differ = regenerate(argv[i], rubrics, text, !update, &out, err, sizeof err);
        if (differ < 0) {
            fprintf(stderr, "rubric-table: %s\n", err);
            status = 2;
        } else if (differ > 0 && update) {
            if (write_file(argv[i], out) != 0) {
                fprintf(stderr, "rubric-table: %s: cannot write it\n", argv[i]);
                status = 2;
            } else {
                printf("%s: %d table%s rewritten\n", argv[i], differ, differ == 1 ? "" : "s");
            }
        } else if (differ > 0 && status == 0) {
            status = 1;
        }
        free(text);
        free(out);
    }
    if (status == 1)
        fprintf(stderr, "rubric-table: the handouts' tables differ from the rubrics: run make handout-tables\n");
    return status;
}

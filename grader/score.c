/*
 * score.c — results into points: the hidden tests, the sanitizers, the
 * compiled kernel's structure, ncu's counters, the measured speed, and the
 * parts of a lab of several kernels. Each item gets its points and the lines
 * that show how; the words for what went wrong are explain.c's.
 */
#include "report.h"
#include "counters.h"
#include "shapes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- hidden tests ------------------------------------------------------ */

/* A hidden test the rubric names: as the JSON reported it, or (test NULL)
 * missing from it. `order` is its unit's place in the rubric; a missing one
 * comes after its unit's reported tests, in the rubric's order (`rank`). */
typedef struct {
    const tl_json *test;
    const char *suite, *name;   /* name: the rubric's, for a missing test */
    int order, rank;
    double points;
} found_test;

static int by_unit_then_name(const void *a, const void *b)
{
    const found_test *x = (const found_test *)a, *y = (const found_test *)b;
    if (x->order != y->order)
        return x->order - y->order;
    if (!x->test != !y->test)
        return !x->test - !y->test;
    if (!x->test)
        return x->rank - y->rank;
    return strcmp(tl_json_string(x->test, "name", ""), tl_json_string(y->test, "name", ""));
}

static int unit_index(const tl_rubric *r, const char *name)
{
    const tl_rubric_unit *u = tl_rubric_find_unit(r, name);
    return u ? (int)(u - r->units) : -1;
}

/* Whether the JSON reported test `name` (as the rubric names it) of `suite`. */
static int reported(const found_test *all, int n, const char *suite, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(all[i].suite, suite) &&
            !strcmp(tl_rubric_test_name(tl_json_string(all[i].test, "name", "")), name))
            return 1;
    return 0;
}

/*
 * Each test gets the points of its rubric `tests` line. A reported test the
 * rubric does not name is the kit's error (could not grade); a named test
 * the JSON lacks (a crashed run) fails with 0 points, and the others keep
 * theirs.
 */
int grade_tests(grade *g, const options *o)
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
    int n = 0;
    for (const tl_json *suite = tl_json_get(doc, "test_suites") ? tl_json_get(doc, "test_suites")->child : NULL;
         suite; suite = suite->next)
        for (const tl_json *t = tl_json_get(suite, "tests") ? tl_json_get(suite, "tests")->child : NULL;
             t && n < MAX_TESTS; t = t->next) {
            const char *name = tl_json_string(suite, "name", "");
            int order = r->nunits ? unit_index(r, name) : 0;
            if (order < 0)
                continue;   /* a suite the rubric does not grade */
            double points = tl_rubric_test_points(r, name, tl_json_string(t, "name", ""));
            if (points < 0) {
                snprintf(g->problem, sizeof g->problem, "the rubric gives no points to hidden test %s (suite %s). "
                         "Not your file's fault: the kit's rubric and its hidden tests disagree.\nNext: tell your "
                         "instructor.\n", tl_rubric_test_name(tl_json_string(t, "name", "?")), name);
                tl_json_free(doc);
                return -1;
            }
            all[n++] = (found_test){t, name, NULL, order, 0, points};
        }
    if (n == 0) {
        snprintf(g->problem, sizeof g->problem, "the hidden tests reported no test at all.\n");
        tl_json_free(doc);
        return -1;
    }
    int reported_n = n, rank = 0;
    for (int k = 0; k < r->ntest_groups; k++) {
        const tl_rubric_test_group *group = &r->test_groups[k];
        for (int i = 0; i < group->ntests && n < MAX_TESTS; i++, rank++)
            if (!reported(all, reported_n, group->suite, group->tests[i]))
                all[n++] = (found_test){NULL, group->suite, group->tests[i],
                                        r->nunits ? unit_index(r, group->suite) : 0, rank,
                                        group->points / group->ntests};
    }
    qsort(all, (size_t)n, sizeof all[0], by_unit_then_name);

    /* Right on every square shape, wrong on every other: rows and cols swapped (swapped_rows_note). */
    int square_fail = 0, other_fail = 0, square_pass = 0, other_pass = 0;
    for (int i = 0; i < n; i++) {
        graded_test *t = &g->tests[g->ntests++];
        memset(t, 0, sizeof *t);
        tl_shape shape;
        const tl_json *test = all[i].test;
        const tl_rubric_unit *unit = r->nunits ? &r->units[all[i].order] : NULL;
        int matmul = kind_of(r)->matrix_product || (unit && !strcmp(unit->name, "dbuf"));
        display_name(test, test ? tl_json_string(test, "name", "?") : all[i].name ? all[i].name : "", t->name,
                     sizeof t->name, &shape);
        t->max_score = all[i].points;
        t->passed = test && strcmp(tl_json_string(test, "status", ""), "PASSED") == 0;
        t->score = t->passed ? t->max_score : 0;
        if (unit)
            snprintf(t->unit, sizeof t->unit, "%s", unit->name);
        if (!test)
            g->flags |= explain_missing(r, t->output, sizeof t->output);
        else if (!t->passed)
            g->flags |= explain_failure(test, r, t->output, sizeof t->output);
        int square = !matmul && !unit && shape.rows > 0 && shape.rows == shape.cols;

        /* 1 x N and N x 1 come out the same with rows and cols swapped: no evidence either way. */
        int other = !matmul && !unit && shape.rows > 1 && shape.cols > 1 && shape.rows != shape.cols;

        if (square && t->passed) square_pass++;
        else if (square) square_fail++;
        else if (other && t->passed) other_pass++;
        else if (!t->passed && strstr(t->output, "shape ")) other_fail++;   /* a wrong result, not a hang */
    }
    const char *note = swapped_rows_note(square_pass, square_fail, other_fail, other_pass);
    if (note)
        snprintf(g->note, sizeof g->note, "%s", note);
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


/* One sanitizer run's verdict. `log_name` is the log's and status file's
 * name in the sanitizers' folder ("racecheck", "racecheck-pairs"); what it
 * found goes to `out`. */
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
        explain_sanitizer_findings(out, len, tool, path, o, unit);
        return SAN_FOUND;
    }
    explain_sanitizer_failure(out, len, tool, status, path);
    return SAN_OTHER;
}

void grade_sanitizer(grade *g, const options *o, const char *tool, double points, int all_passed)
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
void grade_structure(grade *g, const options *o, int all_passed)
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
                kind_of(r)->shared_tile_handout);
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

/* The inspector's findings, or the refused calls alone (--not-allowed
 * CALLS): no points at all. */
void grade_not_allowed(grade *g, const options *o)
{
    const tl_rubric *r = &g->rubric;
    /* the maximum the grade would have had: in CPU mode, without the points it never measures */
    graded_test *t = add_item(g, "allowed calls only", o->cpu_mode ? tl_rubric_cpu_max_points(r) : tl_rubric_max_points(r));
    g->flags |= FLAG_NOT_ALLOWED;
    t->beyond_correctness = 0;
    explain_not_allowed(t->output, OUTPUT_LEN, o);
}

/* ---- hardware counters (ncu) ---------------------------------------------- */

/* One counter row: yours next to the ideal, marked when it is off (explain_counters gives the hint). */
static int counter_row(char *out, const char *what, double yours, double ideal, double tolerance)
{
    int off = yours > ideal + tolerance;
    appendf(out, OUTPUT_LEN, ideal == floor(ideal) ? "  %-34s %8.2f %8.0f%s\n" : "  %-34s %8.2f %8.2f%s\n", what, yours,
            ideal, off ? "   <- off" : "");
    return off;
}


/*
 * Rubric counters_timed: ncu counted the launch again at the timed shape.
 * Counts per request do not depend on the shape (edge tiles aside: the
 * slack), so a kernel that changes its accesses between the shape it is
 * counted at and the shape it is timed at is caught. `what` names each
 * pair, `counted` and `timed` hold the same metric at both shapes. 0 when
 * they agree or the rubric asks for no second count; else 1, why in `out`.
 */
typedef struct {
    const char *what;
    double counted, timed, slack;
} timed_pair;

static int read_timed_counts(const options *o, tl_counters *c, char *out, size_t len)
{
    char err[256];
    if (o->counters_timed_failed) {
        snprintf(out, len, "at the timed shape your launch failed under ncu: %s", o->counters_timed_failed);
        return -1;
    }
    if (tl_counters_read(o->counters_timed, c, err, sizeof err) != 0) {
        snprintf(out, len, "at the timed shape ncu's counts could not be read (%s)", err);
        return -1;
    }
    return 0;
}

/*
 * A kernel can always tell that a profiler is in its process (ncu's
 * environment, its injected library, its threads), so it could run one code
 * path when counted and another when timed. The counts' points are paid only
 * when the counted launch took the time the measurement took for the same
 * request: ncu's own GPU time of the launch it counted at the timed shape
 * (gpu__time_duration, the request's kernels summed), over the measurement's
 * median per launch at that shape and input (lab 7: B dense and at block
 * density 1/4), must lie within the rubric's profiled_time_low..high. 1 when
 * it does not (why in `out`); 0 when it does (the times in `out`), or when
 * nothing can be set beside it (no measurement: a test failed; ncu reported
 * no time; `out` empty).
 */
typedef struct {
    const char *csv, *what;
    double timed_ms;
} profiled_request;

static int profiled_time_differs(const options *o, const tl_rubric *r, char *out, size_t len)
{
    if (!(r->profiled_time_low > 0 && r->profiled_time_high > 0) || o->cpu_mode)
        return 0;
    profiled_request req[2];
    int n = 0;
    char err[256];
    tl_json *m = NULL;
    if (!r->nunits && o->counters_timed && o->measure_json && (m = tl_json_parse_file(o->measure_json, err, sizeof err)) &&
        tl_json_number(m, "verified_after_timing", 0)) {
        const tl_json *work = tl_json_get(tl_json_get(m, "bench"), "work");
        req[n++] = (profiled_request){o->counters_timed, "the timed shape", tl_json_number(work, "median_ms", 0)};
    }
    tl_json *part = NULL;
    if (r->ffma_ratio_max > 0 && o->ffma_dense && o->ffma_quarter && o->measure_part_json &&
        (part = tl_json_parse_file(o->measure_part_json, err, sizeof err))) {
        const tl_json *sp = tl_json_get(part, "sparse");
        if (tl_json_number(sp, "verified_after_timing", 0)) {
            req[n++] = (profiled_request){o->ffma_dense, "B dense", tl_json_number(tl_json_get(sp, "d1"), "median_ms", 0)};
            req[n++] = (profiled_request){o->ffma_quarter, "block density 1/4",
                                          tl_json_number(tl_json_get(sp, "d4"), "median_ms", 0)};
        }
    }
    int differs = 0;
    out[0] = '\0';
    for (int i = 0; i < n && !differs; i++) {
        tl_counters c;
        if (req[i].timed_ms <= 0 || tl_counters_read(req[i].csv, &c, err, sizeof err) != 0 || !c.has_duration)
            continue;
        double ratio = c.duration_ms / req[i].timed_ms;
        if (ratio >= r->profiled_time_low && ratio <= r->profiled_time_high) {
            size_t used = strlen(out);
            snprintf(out + used, len - used, "%s%s: %.4g ms counted (ncu) vs %.4g ms timed, %.2fx", used ? "; " : "",
                     req[i].what, c.duration_ms, req[i].timed_ms, ratio);
            continue;
        }
        differs = 1;
        snprintf(out, len, "your kernel ran differently under the profiler: %.4g ms counted vs %.4g ms timed (%s, "
                 "%.2fx; the same code takes %.2f..%.2fx), so its counts are not the code that was timed and their "
                 "points are not paid. Next: one code path, whatever runs beside your kernel", c.duration_ms,
                 req[i].timed_ms, req[i].what, ratio, r->profiled_time_low, r->profiled_time_high);
    }
    tl_json_free(m);
    tl_json_free(part);
    return differs;
}

static int timed_counts_disagree(const timed_pair *pairs, int n, char *out, size_t len)
{
    for (int i = 0; i < n; i++) {
        const timed_pair *p = &pairs[i];
        double high = p->counted > p->timed ? p->counted : p->timed;
        if (fabs(p->counted - p->timed) > p->slack + 0.25 * high) {
            snprintf(out, len, "%s: %.2f at the counted shape, %.2f at the shape your kernel is timed at. Counts "
                     "per request do not depend on the shape; a kernel that changes its accesses where it is "
                     "timed or where it is counted loses these points", p->what, p->counted, p->timed);
            return 1;
        }
    }
    return 0;
}

/* The counters item's ratios, each judged per kernel and weighted by the
 * global bytes the kernel moves (counters.h: tl_counters_weighted). */
static void per_kernel_ratios(const tl_counters *c, double *ld_conflicts, double *st_conflicts, double *all_conflicts,
                              double *ld_sectors, double *st_sectors, char *judged, size_t len)
{
    const unsigned bytes = TL_WORK_BYTES;
    const char *w = "the global bytes";
    *ld_conflicts = tl_counters_weighted(c, TL_BIT(TL_M_SHARED_LD_CONFLICTS), TL_BIT(TL_M_SHARED_LD_REQUESTS), bytes, w,
                                         NULL, 0);
    *st_conflicts = tl_counters_weighted(c, TL_BIT(TL_M_SHARED_ST_CONFLICTS), TL_BIT(TL_M_SHARED_ST_REQUESTS), bytes, w,
                                         NULL, 0);
    *all_conflicts = tl_counters_weighted(c, TL_BIT(TL_M_SHARED_LD_CONFLICTS) | TL_BIT(TL_M_SHARED_ST_CONFLICTS),
                                          TL_BIT(TL_M_SHARED_LD_REQUESTS) | TL_BIT(TL_M_SHARED_ST_REQUESTS), bytes, w,
                                          NULL, 0);
    *ld_sectors = tl_counters_weighted(c, TL_BIT(TL_M_GLOBAL_LD_SECTORS), TL_BIT(TL_M_GLOBAL_LD_REQUESTS), bytes, w,
                                       NULL, 0);
    *st_sectors = tl_counters_weighted(c, TL_BIT(TL_M_GLOBAL_ST_SECTORS), TL_BIT(TL_M_GLOBAL_ST_REQUESTS), bytes, w,
                                       NULL, 0);
    if (judged) {   /* the kernels that carry the weight: any ratio over requests every kernel makes names them */
        unsigned any = TL_BIT(TL_M_GLOBAL_LD_REQUESTS) | TL_BIT(TL_M_GLOBAL_ST_REQUESTS) |
                       TL_BIT(TL_M_SHARED_LD_REQUESTS) | TL_BIT(TL_M_SHARED_ST_REQUESTS);
        tl_counters_weighted(c, 0, any, bytes, w, judged, len);
    }
}

/* Bank conflicts per shared request and sectors per global request, shown to
 * every lab that names counters_shape; lab 3 scores the conflicts. The
 * counters count work, not time: no noise, no margin for a busy GPU. */
void grade_counters(grade *g, const options *o, int all_passed)
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
    /* Per kernel, weighted by the global bytes each moves: a kernel that moves
     * none cannot dilute a tile's conflicts or sectors (one kernel: its own). */
    char judged[512];
    double ld_conflicts, st_conflicts, all_conflicts, ld_sectors, st_sectors;
    per_kernel_ratios(&c, &ld_conflicts, &st_conflicts, &all_conflicts, &ld_sectors, &st_sectors, judged,
                      sizeof judged);
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
    if (c.nkernels > 1)
        appendf(t->output, OUTPUT_LEN, "  (%d kernels ran: judged per kernel, weighted by the global bytes each "
                "moves: %s)\n", c.nkernels, judged[0] ? judged : "none moved any; their sums");
    int ld_c = counter_row(t->output, "shared loads: bank conflicts/req", ld_conflicts, 0, conflict_slack);
    int st_c = counter_row(t->output, "shared stores: bank conflicts/req", st_conflicts, 0, conflict_slack);
    int ld_s, st_s;
    /* Lab 6: the width of the accesses, judged by the requests a float4 kernel
     * needs when no warp spans two rows: each row of cols floats takes
     * ceil(cols / 128) requests (loads: rows rows of cols; stores: cols rows of
     * rows). A warp that runs past a row's end (cols / 4 not a multiple of the
     * block's width) makes a partial request, which no kernel of honest 2D
     * blocks avoids: the reference at 520x2008 made 9,036 store requests, 1.108x
     * rows x cols / 128, the old ideal, and lost its points; 0.90x this one.
     * float2 takes 2x, float 4x; with the counted shapes' sides from 512 up
     * (the rubric's counters_range) the whole-row rounding adds at most 1.24x, so
     * both stay over the 1.1 bar. The per-thread counts (CPU mode's
     * thread accesses) are shown beside, not judged: ncu on an H200 has no
     * thread-level global load/store metric (smsp__sass_thread_inst_executed_op_global_ld
     * is not in its --query-metrics, 2026-11-29), and both modes judge alike. */
    tl_shape at;
    int have_shape = vector && tl_parse_shape(shape, &at) == 0;
    double ideal_ld_requests = have_shape ? (double)at.rows * ceil(at.cols / 128.0) : 0;
    double ideal_st_requests = have_shape ? (double)at.cols * ceil(at.rows / 128.0) : 0;
    int per_thread = vector && c.has_thread_accesses;
    double ideal_accesses = have_shape ? (double)at.rows * at.cols / 4 : 0;
    double ld_judged = c.global_ld_requests, st_judged = c.global_st_requests;
    /* The sectors per request the bytes moved need, whole sectors each: rows x
     * cols floats read once and written once, over the requests made (what
     * report.html shows per line, from the same addresses, in CPU mode). */
    double ld_ideal = have_shape ? tl_per_request((double)at.rows * at.cols / 8, c.global_ld_requests) : 16;
    double st_ideal = have_shape ? tl_per_request((double)at.rows * at.cols / 8, c.global_st_requests) : 16;
    if (vector) {
        counter_row(t->output, "global loads: sectors/request", ld_sectors, round(ld_ideal * 100) / 100, INFINITY);   /* shown, never off */
        counter_row(t->output, "global stores: sectors/request", st_sectors, round(st_ideal * 100) / 100, INFINITY);
        ld_s = counter_row(t->output, "global loads: requests", ld_judged, ideal_ld_requests,
                           (r->vector_max_requests - 1) * ideal_ld_requests);
        st_s = counter_row(t->output, "global stores: requests", st_judged, ideal_st_requests,
                           (r->vector_max_requests - 1) * ideal_st_requests);
        if (per_thread && c.global_ld_threads > 0 && c.global_st_threads > 0) {   /* shown, never judged */
            counter_row(t->output, "global loads: thread accesses", c.global_ld_threads, ideal_accesses, INFINITY);
            counter_row(t->output, "global stores: thread accesses", c.global_st_threads, ideal_accesses, INFINITY);
        }
    } else {
        ld_s = counter_row(t->output, "global loads: sectors/request", ld_sectors, ideal, slack);
        st_s = counter_row(t->output, "global stores: sectors/request", st_sectors, ideal, slack);
    }
    tl_mm_shape mm;
    if (kind_of(r)->matrix_product && tl_parse_mm_shape(r->counters_shape, &mm) == 0 && c.global_ld_sectors + c.global_st_sectors > 0)
        /* Per byte the SMs asked of the memory system (sectors of 32 bytes, L1 hits included):
         * what tiling changes. 2 FLOP per 8 bytes loaded without reuse; t x t tiles: t / 4. */
        appendf(t->output, OUTPUT_LEN, "  %-34s %8.2f %8s   (no reuse: 0.25; 16x16 tiles: 4; 32x32: 8)\n",
                "arithmetic intensity: FLOP/byte", tl_matmul_flops(mm) /
                (32.0 * (c.global_ld_sectors + c.global_st_sectors)), "-");
    if (c.shared_ld_requests + c.shared_st_requests == 0)
        appendf(t->output, OUTPUT_LEN, "(no shared-memory accesses: nothing to conflict)\n");
    if (c.tensor > 0)   /* counted where arithmetic is judged (grade_gpu.sh: count_tensor) */
        appendf(t->output, OUTPUT_LEN, "  %-34s %8.0f %8s%s\n", "tensor-pipe instructions", c.tensor, "-",
                !strcmp(r->arithmetic, "fp32") ? "   <- this lab's arithmetic is FP32 on the CUDA cores" : "");
    counter_reading reading = {
        .vector = vector, .ld_conflicted = ld_c, .st_conflicted = st_c, .ld_scattered = ld_s, .st_scattered = st_s,
        .ld_conflicts = ld_conflicts, .st_conflicts = st_conflicts, .ld_sectors = ld_sectors, .st_sectors = st_sectors,
        .ld_requests = ld_judged, .st_requests = st_judged, .ideal_ld_requests = ideal_ld_requests, .ideal_st_requests = ideal_st_requests, .per_thread = 0,
        .ld_ideal = ld_ideal, .st_ideal = st_ideal, .rows = have_shape ? at.rows : 0, .cols = have_shape ? at.cols : 0};
    explain_counters(t->output, OUTPUT_LEN, &reading);
    /* Where the timing is too (rubric counters_timed), for what this item scores. */
    char timed_why[512] = "";
    int timed_off = 0;
    if (!o->cpu_mode && r->counters_timed > 0 && points > 0 && (o->counters_timed || o->counters_timed_failed)) {
        tl_counters tc;
        if (read_timed_counts(o, &tc, timed_why, sizeof timed_why) != 0) {
            timed_off = 1;
        } else {
            timed_pair pairs[2];
            double t_ld_c, t_st_c, t_all_c, t_ld_s, t_st_s;
            per_kernel_ratios(&tc, &t_ld_c, &t_st_c, &t_all_c, &t_ld_s, &t_st_s, NULL, 0);
            if (vector) {
                pairs[0] = (timed_pair){"global loads: sectors/request", ld_sectors, t_ld_s, 0.5};
                pairs[1] = (timed_pair){"global stores: sectors/request", st_sectors, t_st_s, 0.5};
            } else {
                pairs[0] = (timed_pair){"shared loads: bank conflicts/req", ld_conflicts, t_ld_c, conflict_slack};
                pairs[1] = (timed_pair){"shared stores: bank conflicts/req", st_conflicts, t_st_c, conflict_slack};
            }
            timed_off = timed_counts_disagree(pairs, 2, timed_why, sizeof timed_why);
            if (!timed_off)
                appendf(t->output, OUTPUT_LEN, "counted again at the shape your kernel is timed at (%d launch%s): "
                        "the same per request.\n", tc.kernels, tc.kernels == 1 ? "" : "es");
            if (!timed_off && !(timed_off = profiled_time_differs(o, r, timed_why, sizeof timed_why)) && timed_why[0]) {
                appendf(t->output, OUTPUT_LEN, "the counted launch's own time beside the measurement's (%s): the "
                        "same code.\n", timed_why);
                timed_why[0] = '\0';
            }
        }
        if (timed_off)
            appendf(t->output, OUTPUT_LEN, "%s.\n", timed_why);
    }
    if (vector) {
        int ideal_known = ideal_ld_requests > 0 && ideal_st_requests > 0;
        t->passed = ideal_known && !ld_s && !st_s && !timed_off;
        t->score = t->passed ? t->max_score : 0;
        if (!(ideal_known && !ld_s && !st_s))
            appendf(t->output, OUTPUT_LEN, "The points need at most %gx the requests of float4 accesses, whole "
                    "rows each (%.0f loads, %.0f stores), at %s.\n", r->vector_max_requests,
                    ideal_ld_requests, ideal_st_requests, shape);
        return;
    }
    if (r->bank_conflict_points > 0) {
        t->passed = all_conflicts <= r->bank_conflicts_max && !timed_off;
        t->score = t->passed ? t->max_score : 0;
        if (all_conflicts > r->bank_conflicts_max)
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
    if (kind_of(r)->matrix_product) {   /* lab 7: lab 4's reference, in GFLOP/s */
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

/* CPU mode (--cpu-mode): a speed item is "not measured: no GPU", out of the maximum, and
 * the kernels a GPU run times beside yours (baseline, library) are not compared. 1 when it was. */
static int not_measured_in_cpu_mode(graded_test *t, const options *o, const tl_rubric *r, int compare)
{
    if (!o->cpu_mode)
        return 0;
    t->max_score = 0;   /* not measured: left out of the maximum, not counted as lost */
    t->passed = 1;
    appendf(t->output, OUTPUT_LEN, "not measured: no GPU. This grade ran in CPU mode, which times nothing; these "
            "points are left out of the maximum. ./grade on a machine with an NVIDIA GPU measures them.\n");
    if (compare && r->baseline[0])
        appendf(t->output, OUTPUT_LEN, "against your %s: not compared: needs a GPU.\n", r->baseline);
    if (compare && r->library[0])
        appendf(t->output, OUTPUT_LEN, "against %s: not compared: needs a GPU.\n", r->library_title);
    return 1;
}

void grade_performance(grade *g, const options *o, int all_passed)
{

    const tl_rubric *r = &g->rubric;
    const lab_kind *kind = kind_of(r);
    int matmul = kind->matrix_product;
    const char *of = kind->reference;
    graded_test *t = add_item(g, kind->performance_item, r->performance_points);
    if (not_measured_in_cpu_mode(t, o, r, 1))
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
                kind->below_floor,
                tl_json_number(tl_json_get(tl_json_get(m, matmul ? "matmul" : "bench"), matmul ? "yours" : "work"),
                               "median_ms", 0),
                tl_json_number(m, "floor_ms", 0));
    } else {
        g->measured = 1;
        /* A speed item over the baseline (lab 5, part 3) compares the baseline there. */
        if (!r->speedup_unit[0] || kind->speed_item != SPEED_OVER_BASELINE)
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

/* A part's speed item (lab 5 part 3, lab 7 part 2) and its measurement, which
 * a lab of several kernels takes in its own process (--measure-part; NULL
 * when it wrote none). 0, with the item saying why, when the part is not
 * measured: CPU mode, or a test of the part failed. */
static int part_speed_item(grade *g, const options *o, const char *name, int all_passed, graded_test **item,
                           tl_json **measurement)
{
    graded_test *t = *item = add_item(g, name, g->rubric.speedup_points);
    if (not_measured_in_cpu_mode(t, o, &g->rubric, 0))
        return 0;
    if (!all_passed) {
        appendf(t->output, OUTPUT_LEN, "not measured: speed counts only when every test of this part passes.\n"
                "Next: fix the failing tests above.\n");
        return 0;
    }
    char err[256];
    *measurement = load_measurement(g, o, o->measure_part_json ? o->measure_part_json : o->measure_json, err, sizeof err);
    return 1;
}

/* Lab 5, part 3: GFLOP/s over the baseline (lab 4's tiled kernel), timed interleaved in one run. */
static void grade_speedup(grade *g, const options *o, int all_passed)
{
    const tl_rubric *r = &g->rubric;
    graded_test *t;
    tl_json *m;
    if (!part_speed_item(g, o, "speed: GFLOP/s over lab 4's tiled kernel", all_passed, &t, &m))
        return;
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
static int skipped_work_shown(graded_test *t, const options *o, const tl_rubric *r);

static void grade_sparse_speedup(grade *g, const options *o, int all_passed)
{
    const tl_rubric *r = &g->rubric;
    graded_test *t;
    tl_json *m;
    if (!part_speed_item(g, o, "speed: skipping zeros (against cuBLAS's dense product)", all_passed, &t, &m))
        return;
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
    g->sparse_over_cublas = quarter;
    t->score = tl_rubric_speedup_points(r, quarter);
    if (r->ffma_ratio_max > 0 && !skipped_work_shown(t, o, r))
        t->score = 0;
    t->passed = t->score >= t->max_score;
    if (!t->passed && r->speedup_next[0])
        appendf(t->output, OUTPUT_LEN, "Next: %s\n", r->speedup_next);
    tl_json_free(m);
}

/*
 * Lab 7, rubric ffma_ratio_max: time alone cannot tell skipped work from a
 * dense kernel that is fast enough; the FMAs can. ncu counted the FP32 FMAs
 * your sparse launch executed at the timed shape with B dense and with 3
 * K-blocks in 4 zero: skipping leaves about 1/4 of them. 1 when the counts
 * show it (or could not be taken: ncu missing leaves it unchecked), else 0.
 */
static int skipped_work_shown(graded_test *t, const options *o, const tl_rubric *r)
{
    if (o->ffma_failed) {
        appendf(t->output, OUTPUT_LEN, "the FMAs executed could not be counted: %s. No speedup points without "
                "evidence that work was skipped.\n", o->ffma_failed);
        return 0;
    }
    tl_counters dense, quarter;
    char err[256];
    if (!o->ffma_dense || !o->ffma_quarter) {
        appendf(t->output, OUTPUT_LEN, "FMAs executed: not counted (%s).\n",
                o->counters_missing ? o->counters_missing : "ncu did not run");
        return 1;
    }
    if (tl_counters_read(o->ffma_dense, &dense, err, sizeof err) != 0 ||
        tl_counters_read(o->ffma_quarter, &quarter, err, sizeof err) != 0 || !dense.has_ffma || !quarter.has_ffma) {
        appendf(t->output, OUTPUT_LEN, "FMAs executed: ncu's counts could not be read (%s).\n",
                err[0] ? err : "no FMA metric");
        return 1;
    }
    /* Every kind of arithmetic counts: work moved to the tensor pipes (at one
     * density or both) is work the FP32 count does not see. A lab of FP32
     * arithmetic takes none as evidence; elsewhere a tensor-pipe warp
     * instruction counts as the FMAs of its smallest shape (m16n8k4, 512). */
    if (dense.tensor > 0 || quarter.tensor > 0) {
        appendf(t->output, OUTPUT_LEN, "tensor-pipe instructions your sparse launch executed (ncu, the timed shape): "
                "%.4g with B dense, %.4g at block density 1/4.\n", dense.tensor, quarter.tensor);
        if (!strcmp(r->arithmetic, "fp32")) {
            appendf(t->output, OUTPUT_LEN, "work on the tensor cores: this lab's arithmetic is FP32 on the CUDA "
                    "cores, so the FMA counts are no evidence of skipped work and the speedup points are not paid. "
                    "Next: do every product with FP32 FMAs and skip the zero K-blocks.\n");
            return 0;
        }
    }
    char why[512];
    if (profiled_time_differs(o, r, why, sizeof why)) {
        appendf(t->output, OUTPUT_LEN, "no speedup points: the FMA counts are no evidence of the code that was "
                "timed. %s.\n", why);
        return 0;
    }
    /* FP32 adds and multiplies count too: a product done as FMUL + FADD is work an FMA count misses. */
    double dense_work = dense.ffma + dense.fadd + dense.fmul + 512 * dense.tensor;
    double quarter_work = quarter.ffma + quarter.fadd + quarter.fmul + 512 * quarter.tensor;
    double ratio = dense_work > 0 ? quarter_work / dense_work : 1;
    appendf(t->output, OUTPUT_LEN, "FP32 FMAs your sparse launch executed (ncu, the timed shape; adds and multiplies "
            "counted with them): %.4g with B dense, %.4g at block density 1/4 = %.3f of them (at most %.2f)\n",
            dense_work, quarter_work, ratio, r->ffma_ratio_max);
    if (ratio <= r->ffma_ratio_max)
        return 1;
    appendf(t->output, OUTPUT_LEN, "your sparse kernel does the zero K-blocks' work: no speedup points, whatever "
            "the time. Next: skip a K-block the pattern says is zero for the whole warp (handout: What sparsity "
            "buys).\n");
    return 0;
}

/* The share of divergent branch targets, judged per kernel and weighted by
 * the arithmetic each does (FP32 FMAs and tensor-pipe instructions), so a
 * kernel of branches that does no product cannot dilute the one that does. */
static double divergent_share(const tl_counters *c, char *judged, size_t len)
{
    return tl_counters_weighted(c, TL_BIT(TL_M_DIVERGENT_TARGETS), TL_BIT(TL_M_BRANCH_TARGETS), TL_WORK_ARITHMETIC,
                                "the arithmetic", judged, len);
}

/* Branch targets, those where the warp's threads went different ways, and their share (divergent_share). */
static int read_branches(const char *csv, double *targets, double *divergent, double *share, char *judged,
                         size_t judged_len, char *err, size_t len)
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
    *share = divergent_share(&c, judged, judged_len);
    if (judged && c.nkernels < 2)
        judged[0] = '\0';   /* one kernel: nothing to say about which */
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
        appendf(t->output, OUTPUT_LEN, "not checked: CPU mode does not count branches (a GPU's ncu does); it traces "
                "them, and report.html draws which warps' lanes diverged. These points are left out of the maximum.\n");
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
    double targets = 0, divergent = 0, share = 0;
    char err[256] = "", judged[512] = "";
    if (o->counters_missing || !o->counters ||
        read_branches(o->counters, &targets, &divergent, &share, judged, sizeof judged, err, sizeof err) != 0) {
        t->max_score = 0;   /* not checked: left out of the maximum, not counted as lost */
        t->passed = 1;
        appendf(t->output, OUTPUT_LEN, "not checked: %s. These points are left out of the maximum.\n",
                o->counters_missing ? o->counters_missing : o->counters ? err : "ncu did not run");
        return;
    }
    appendf(t->output, OUTPUT_LEN, "ncu --clock-control none, %s, your sparse kernel (launches summed):\n"
            "  branch targets %.0f, divergent %.0f = %.2f %% (at most %.2f %%)\n", shape, targets, divergent,
            100 * share, 100 * r->divergent_max);
    if (judged[0])
        appendf(t->output, OUTPUT_LEN, "  (several kernels ran: the share is judged per kernel, weighted by the "
                "arithmetic each does: %s)\n", judged);
    double wide_targets, wide_divergent, wide_share;
    char wide_err[256];
    if (o->contrast_counters && read_branches(o->contrast_counters, &wide_targets, &wide_divergent, &wide_share, NULL,
                                              0, wide_err, sizeof wide_err) == 0)
        appendf(t->output, OUTPUT_LEN, "  the kit's wide-tile kernel, same shape and B: branch targets %.0f, "
                "divergent %.0f = %.2f %% (each lane skips its own columns' zeros)\n", wide_targets, wide_divergent,
                100 * wide_share);
    int timed_off = 0;
    if (r->counters_timed > 0 && (o->counters_timed || o->counters_timed_failed)) {   /* where the timing is too */
        char why[512] = "";
        tl_counters tc;
        if (read_timed_counts(o, &tc, why, sizeof why) != 0 || !tc.has_branches) {
            if (!why[0])
                snprintf(why, sizeof why, "at the timed shape ncu did not report the branch metrics");
            timed_off = 1;
        } else {
            timed_pair share_pair = {"divergent branch targets over all", share, divergent_share(&tc, NULL, 0),
                                     r->divergent_max};
            timed_off = timed_counts_disagree(&share_pair, 1, why, sizeof why);
            if (!timed_off)
                appendf(t->output, OUTPUT_LEN, "  at the shape your kernel is timed at: branch targets %.0f, "
                        "divergent %.0f: the same share\n", tc.branch_targets, tc.divergent_targets);
            if (!timed_off && !(timed_off = profiled_time_differs(o, r, why, sizeof why)) && why[0]) {
                appendf(t->output, OUTPUT_LEN, "  the counted launches' own times beside the measurement's (%s): the "
                        "same code\n", why);
                why[0] = '\0';
            }
        }
        if (timed_off)
            appendf(t->output, OUTPUT_LEN, "%s.\n", why);
    }
    t->passed = share <= r->divergent_max && !timed_off;
    t->score = t->passed ? t->max_score : 0;
    if (share > r->divergent_max)
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
void grade_units(grade *g, const options *o)
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
                (kind_of(r)->speed_item == SPEED_SPARSE_OVER_CUBLAS ? grade_sparse_speedup
                                                                    : grade_speedup)(g, o, all_right);
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

double total(const grade *g, int max)
{
    double s = 0;
    for (int i = 0; i < g->ntests; i++)
        s += max ? g->tests[i].max_score : g->tests[i].score;
    return s;
}

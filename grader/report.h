/*
 * report.h — the parts of build/tools/report and what they share. report.c
 * runs the pipeline; score.c turns results into points; explain.c writes the
 * reasons and next steps; locate.c finds the student's lines a finding names;
 * output.c prints the report and writes results.json and the history row;
 * lab_kinds.c says what each kind of lab measures. Internal to the report.
 */
#ifndef TILELAB_REPORT_H
#define TILELAB_REPORT_H

#include "rubric.h"
#include "json.h"
#include "lab_kinds.h"   /* what each kind of lab measures (kind_of) */
#include "shapes.h"

#include <stddef.h>

enum { MAX_TESTS = 128, OUTPUT_LEN = 8192 };

/* What went wrong, in words a gradebook can filter on (extra_data.flags, flag_words in output.c). */
enum {
    FLAG_COMPILE_ERROR = 1 << 0, FLAG_NOT_ALLOWED = 1 << 1, FLAG_TIMEOUT = 1 << 2, FLAG_RACE = 1 << 3,
    FLAG_OUT_OF_BOUNDS = 1 << 4, FLAG_WRONG = 1 << 5, FLAG_CRASH = 1 << 6, FLAG_NOT_GRADED = 1 << 7,
};

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
    const char *counters_timed;   /* rubric counters_timed: ncu's CSV at the timed shape */
    const char *counters_timed_failed;   /* or why that count failed */
    const char *ffma_dense, *ffma_quarter;   /* rubric ffma_ratio_max: ncu's CSVs, B dense and at block density 1/4 */
    const char *ffma_failed;                 /* or why those counts failed */
    const char *cpu_mode;         /* --cpu-mode NOTE: graded in CPU mode (no GPU): nothing timed; NOTE says how */
    const char *cases_reduced;    /* --cases-reduced NOTE: the kit's own tests ran smaller cases: not a grade */
    char *retried_alone;          /* runs that timed out with the GPU shared and ran again alone, a line each (grade_gpu.sh) */
    const char *contrast_counters; /* lab 7: ncu's counters of the kit's contrast kernel (rubric contrast) */
    const char *html;             /* --html PATH: report.html, the grade drawn (report_page.c) */
    const char *run;              /* --run DIR: a grade's run folder, read back (report_run.c) */
    const char *step_failed;      /* --step-failed STEP (includes, student, object, grader, cpu): that step of the file's failed ... */
    int step_status;              /* ... with --step-status N; its log is in --run DIR */
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
    double sparse_over_cublas;    /* lab 7: cuBLAS's dense time over the sparse kernel's at block density 1/4 */
} grade;


/* ---- report_run.c: a grade's run folder (--run DIR) read back into options -- */

/* The options DIR's plan and step records imply. 0; -1 in CPU mode when the
 * file uses what CPU mode cannot run: o->problem (said on stderr) and o->quiet instead. */
int read_run(options *o, const tl_rubric *r);
/* A step of the file's that failed (STATUS its exit). Its inspection (STEP includes, object):
 * the inspector's findings (o->not_allowed_file), or the inspector's own failure (o->problem,
 * o->quiet). Its build (student, grader, cpu): a build limit it hit (o->problem, said on
 * stderr, o->quiet), CPU mode's limit (o->problem), or the compiler's errors naming the file as
 * the student does (o->build_log, DIR/build-errors.log). 0. */
int read_failed_step(options *o, const char *step, int status);

/* ---- report_text.c: building the report's texts ------------------------- */

void appendf(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Append up to `max_lines` lines of a file, optionally only those containing `filter`. */
void append_file(char *buf, size_t len, const char *path, const char *filter, int max_lines);

/* ---- score.c: results into points ---------------------------------------- */

/* The hidden tests' JSON into one item per test; -1 (g->problem says why) when there is none. */
int grade_tests(grade *g, const options *o);
void grade_sanitizer(grade *g, const options *o, const char *tool, double points, int all_passed);
void grade_structure(grade *g, const options *o, int all_passed);
void grade_counters(grade *g, const options *o, int all_passed);
void grade_performance(grade *g, const options *o, int all_passed);
/* A lab of several kernels (rubric unit lines): every item, part by part. */
void grade_units(grade *g, const options *o);
/* A file the inspector refused: one item worth everything, scored 0. */
void grade_not_allowed(grade *g, const options *o);
/* The points scored, or (max) the points that could be. */
double total(const grade *g, int max);

/* ---- explain.c: reasons and next steps ----------------------------------- */

/* The next step for a file that does not compile, from the build log. */
const char *build_failure_hint(const char *log_path, const char *lab);
/* "s07_31x33" -> "31x33"; "s21_random_1" -> "random_1 (417x2051)"; the shape when the name holds one. */
void display_name(const tl_json *test, const char *name, char *out, size_t len, tl_shape *shape);
/* Reason and next step for a test that did not pass; its FLAG_*. */
unsigned explain_failure(const tl_json *test, const tl_rubric *r, char *out, size_t len);
/* Reason and next step for a test the rubric names that the hidden tests did not report; its FLAG_*. */
unsigned explain_missing(const tl_rubric *r, char *out, size_t len);
/* The diagnosis drawn from square and other shapes' results, or NULL. */
const char *swapped_rows_note(int square_pass, int square_fail, int other_fail, int other_pass);
/* A sanitizer run that found errors (its log at `log_path`): the first finding, where, and what to do. */
void explain_sanitizer_findings(char *out, size_t len, const char *tool, const char *log_path, const options *o,
                                const tl_rubric_unit *unit);
/* A sanitizer run that did not finish (timed out, 124) or failed otherwise. */
void explain_sanitizer_failure(char *out, size_t len, const char *tool, int status, const char *log_path);
/* What the inspector found (--not-allowed CALLS or --not-allowed-file FINDINGS), a sentence each. */
void explain_not_allowed(char *out, size_t len, const options *o);

/* ncu's counters of one launch, and which of them are off the ideal. */
typedef struct {
    int vector;                           /* lab 6: the requests of 128-bit accesses are scored */
    int ld_conflicted, st_conflicted;     /* bank conflicts above the slack */
    int ld_scattered, st_scattered;       /* sectors (or, vector, requests) above the ideal */
    double ld_conflicts, st_conflicts;    /* per shared request */
    double ld_sectors, st_sectors;        /* per global request */
    double ld_requests, st_requests, ideal_ld_requests, ideal_st_requests;   /* lab 6: whole rows' requests of float4s */
    int per_thread;                       /* lab 6: the three above count thread-level accesses, not warp requests */
    double ld_ideal, st_ideal;            /* lab 6: sectors per request the bytes need */
    int rows, cols;                       /* lab 6: the counted shape of in (0: unknown) */
} counter_reading;
/* The hints the counters call for. */
void explain_counters(char *out, size_t len, const counter_reading *c);

/* ---- locate.c: the student's lines a finding names ----------------------- */

/* Part and superstep of the lines of `source` a sanitizer finding names, and what the BSP rule says. */
void explain_places(char *out, size_t len, const char *finding, const char *source, const char *tool,
                    const tl_rubric_unit *unit);

/* ---- output.c: what the student and the gradebook read ------------------- */

void print_report(const grade *g, const options *o);
/* Gradescope's results.json, written whole or not at all. */
void write_results(const grade *g, const options *o);
/* One row of the history CSV for a graded run. */
void append_history(const grade *g, const options *o);

/* ---- report_page.c: the grade drawn ---------------------------------------- */

/* report.html at `path`: the score, the performance beside its references, and
 * (CPU mode) each access line's warp from cpu-check.json in the same folder.
 * Written whole or not at all; -1 when it could not be. */
int write_report_page(const grade *g, const options *o, const char *path);
/* The same pictures, each alone on a page PREFIX-<space>-<op>.html (and
 * PREFIX-timeline-<kernel>.html), from a CPU-mode grade's folder `dir`, for
 * the handouts (report --figures, tools/handouts/figures.sh); "PATH WIDTH
 * HEIGHT" a line on stdout. 0, or -1 when one could not be written. */
int write_figure_files(const char *dir, const char *source, const char *prefix);

#endif

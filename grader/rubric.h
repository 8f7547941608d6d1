/*
 * rubric.h — a lab's rubric file (labs/labN-<name>/lab.rubric): `key value`
 * lines, '#' starts a comment. Scoring rules live here and nowhere else.
 */
#ifndef TILELAB_RUBRIC_H
#define TILELAB_RUBRIC_H

#include <stddef.h>

/*
 * One kernel of a lab with several (`unit NAME PART POINTS GATE SHAPE TITLE`):
 * its hidden tests are the Criterion suite NAME, its sanitizer runs are
 * `check --unit NAME --shape SHAPE`. POINTS are its share of
 * correctness_points; GATE `clean` makes them need the sanitizers clean too
 * (a clinic kernel is fixed only when race-free), `-` does not.
 */
enum { TL_RUBRIC_MAX_UNITS = 8 };
typedef struct {
    char name[16];
    int part;
    double points;
    int gated;
    char sanitizer_shape[32];
    char title[96];
} tl_rubric_unit;

/*
 * Hidden tests and their points (`tests SUITE POINTS NAME...`, repeatable):
 * the named tests of the Criterion suite SUITE share POINTS equally. A test
 * is named as the report shows it, its ordering prefix dropped (s07_31x33 is
 * 31x33, s21_random_1 is random_1). A lab's lines add up to
 * correctness_points (with unit lines: each unit's lines to its points), so
 * a new test or a test that did not report never moves the others' points.
 */
enum { TL_RUBRIC_MAX_TEST_GROUPS = 16, TL_RUBRIC_MAX_GROUP_TESTS = 48 };
typedef struct {
    char suite[16];
    double points;
    int ntests;
    char tests[TL_RUBRIC_MAX_GROUP_TESTS][40];
} tl_rubric_test_group;

/*
 * One GPU the thresholds rest on (`calibrated GPU | SETUP | MEASURED`):
 * what ./grade measured there, quoted by the handouts (build/tools/rubric-table).
 */
enum { TL_RUBRIC_MAX_CALIBRATIONS = 4 };
typedef struct {
    char gpu[64];        /* "NVIDIA H100 80GB HBM3" */
    char setup[96];      /* "sm_90, driver 580.159.04, CUDA 13.0, 2026-11-24" */
    char measured[256];  /* "the reference 0.158 of copy" */
} tl_rubric_calibration;

typedef struct {
    char id[32];
    char title[128];
    char kind[32];
    double correctness_points;
    double performance_points;
    double kernel_timeout_s;
    double test_timeout_s;
    double measure_timeout_s;
    double perf_low, perf_high;   /* fractions of copy speed */
    /* Optional: 0 or empty when the lab does not use them. */
    double memcheck_points;       /* compute-sanitizer memcheck clean on the awkward shape */
    double racecheck_points;      /* compute-sanitizer racecheck clean on it */
    double structure_points;      /* the compiled kernel uses what the lab teaches */
    char require[64];             /* what structure means: "shared barrier" */
    char allowed_calls[256];      /* more calls a lab file may make, as shell patterns, beside build/tools/inspect's allow-list */
    char perf_next[256];          /* the next step when performance points are lost */
    char counters_shape[32];      /* "1024x1024": read ncu's counters for the launch at this shape */
    double bank_conflict_points;  /* shared-memory bank conflicts per request at most ... */
    double bank_conflicts_max;    /* ... this many (counters_shape needed) */
    char baseline[32];            /* "lab2": also time the student's own file of that lab */
    char bench_launch[64];        /* what `make bench` times of a lab of several kernels: "matmul launch_matmul_dbuf" */
    char baseline_dirs[64];       /* where ./grade looks for it before labs/: "solutions" */
    char sanitizer_shape[32];     /* the shape the sanitizers run on: "257x131", "67x45x33" */
    double synccheck_points;      /* compute-sanitizer synccheck clean (barriers every thread reaches) */
    char hidden_suites[64];       /* the hidden-test suites this lab runs: "transpose vector" (default: all of its kind) */
    double vector_points;         /* global load and store requests at most ...                    */
    double vector_max_requests;   /* ... this many times those of float4 accesses in whole rows (rows x ceil(cols / 128) loads, cols x ceil(rows / 128) stores) */
    double counters_jitter;       /* the counters shape moves by up to 4 such steps per side, from the seed */
    char counters_range[32];      /* "LO HI STEP": each side of the counters shape drawn from the seed in LO..HI */
    double counters_timed;        /* 1: ncu counts again at the timed shape; counts per request must agree */
    /* The counted launch's own time (ncu, at the timed shape) over the time the measurement took for
     * that request, per launch: outside LOW..HIGH the kernel ran differently under the profiler, and
     * the points its counts earn are not paid (score.c). 0: not compared. */
    double profiled_time_low, profiled_time_high;
    double ffma_ratio_max;        /* lab 7: FMAs executed at block density 1/4 over those at 1, at most this, or no speedup points */
    char library[32];             /* a kit worker timed beside yours for comparison, no points: "cublas_geam" */
    char library_title[64];       /* how the report names it: "cuBLAS Sgeam" */
    char counters_unit[16];       /* a lab of several kernels: the unit ncu reads at counters_shape (lab 7: sparse) */
    double uniform_points;        /* lab 7: that kernel's divergent branch targets at most ... */
    double divergent_max;         /* ... this share of its branch targets */
    char contrast[32];            /* a kit worker ncu reads beside it, for no points: "sparse_wide" */
    char bench_series[32];        /* the series make bench times the reference and the student's file as: "padded" (none: not benched) */
    char arithmetic[16];          /* "fp32": tensor-core instructions are refused (build/tools/inspect reads it) */
    double static_device_bytes_max; /* static device memory a file may declare (inspect; 0: its default, 64 KiB) */
    double build_timeout_s;       /* the file's build and inspection, each at most this long (0: ./grade's 120 s) */
    double build_memory_mb;       /* ... and this much address space (0: ./grade's 4096 MiB; lab 7's reference compiles in 2048) */
    /* A lab of several kernels (lab 5): one `unit` line each, in report order. */
    tl_rubric_unit units[TL_RUBRIC_MAX_UNITS];
    int nunits;
    char performance_unit[16];    /* the unit performance_points measure (bandwidth vs copy) */
    double speedup_points;        /* speed over the baseline kernel, timed in the same run: */
    double speedup_low, speedup_high;   /* 0 points at or below low, all at or above high */
    char speedup_unit[16];        /* the unit they measure */
    char double_buffered_unit[16]; /* its kernel must be double-buffered (grader/ptx.h), or no speed points */
    char speedup_next[256];       /* the next step when speedup points are lost */
    /* The hidden tests' points, one `tests` line each. */
    tl_rubric_test_group test_groups[TL_RUBRIC_MAX_TEST_GROUPS];
    int ntest_groups;
    /* The GPUs the thresholds rest on, one `calibrated` line each. */
    tl_rubric_calibration calibrations[TL_RUBRIC_MAX_CALIBRATIONS];
    int ncalibrations;
} tl_rubric;

/* 0 on success; else -1 with "file:line: what" in err. */
int tl_rubric_load(const char *path, tl_rubric *r, char *err, size_t errlen);

/* The rubric file of lab `id`: labs/<id>-<name>/lab.rubric. 0, or -1 when no folder or several have it. */
int tl_rubric_path(const char *id, char *path, size_t size);

/* The labs, by the folders that hold a lab.rubric: "lab1 lab2 ...". Their number, or -1. */
int tl_rubric_lab_list(char *out, size_t size);

/* Key `key` as the rubric file wrote it (numbers as %g; "" when unset); -1 for no such key. */
int tl_rubric_value(const tl_rubric *r, const char *key, char *out, size_t size);

/* Everything the rubric can award. */
double tl_rubric_max_points(const tl_rubric *r);
/* What CPU mode can award: the timed items (performance, speedup) and ncu's
 * branch counts (uniform_points) left out, as score.c leaves them out. */
double tl_rubric_cpu_max_points(const tl_rubric *r);

/* Points for a measured fraction of copy: 0 at or below low, all at or above high, linear between. */
double tl_rubric_perf_points(const tl_rubric *r, double fraction_of_copy);

/* The same for a speedup over the baseline (speedup_low, speedup_high, speedup_points). */
double tl_rubric_speedup_points(const tl_rubric *r, double speedup);

/* A hidden test's name as a rubric names it: Criterion's name without its ordering prefix ("s07_31x33" -> "31x33"). */
const char *tl_rubric_test_name(const char *criterion_name);

/* The points of hidden test `criterion_name` of `suite` (its `tests` line's share), or -1 when no line names it. */
double tl_rubric_test_points(const tl_rubric *r, const char *suite, const char *criterion_name);

/* The shape ncu reads counters at for this seed (a decimal number): the
 * rubric's counters_shape ("1024x1024", "1024x1024x1024"), each side drawn
 * from the seed over counters_range "LO HI STEP" (hundreds of values a side:
 * no kernel can single the counted shapes out), or moved by up to 4 steps of
 * counters_jitter. "" when the lab names none. -1 when the seed is not a number. */
int tl_rubric_counters_shape(const tl_rubric *r, const char *seed, char *out, size_t size);

/* The unit named `name`, or NULL. */
const tl_rubric_unit *tl_rubric_find_unit(const tl_rubric *r, const char *name);

/* A lab of several kernels: the sanitizer item of each unit without a gate,
 * the sanitizers' points shared evenly by those units. */
double tl_rubric_unit_sanitizer_points(const tl_rubric *r);

#endif

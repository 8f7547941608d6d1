/*
 * supersteps_check.cu — the quick check behind build/lab5: each of lab 5's
 * five kernels on a few visible shapes, with a verdict; then the in-place
 * transpose's bandwidth and the double-buffered matmul's GFLOP/s, timed
 * quickly. ./grade runs it per kernel (--unit) under the sanitizers.
 */
#include "tilelab.h"
#include "remote.h"
#include "matmul_timing.h"
#include "transpose_timing.h"
#include "judge_kernels.h"
#include "bench.h"
#include "device.h"
#include "matrix.h"
#include "matmul_case.h"
#include "shapes.h"
#include "supersteps_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Named by build/labN, the script mk/submission.mk writes. */
#define tl_lab_id tl_env_text("TILELAB_LAB", "this lab")
#define tl_lab_source tl_env_text("TILELAB_SOURCE", "your lab file")

/* The kernels, in the order of the lab's parts; the names are the rubric's units. */
enum { REVERSE, SUMS, PAIRS, INPLACE, DBUF, UNITS };
static const char *const unit_names[UNITS] = {"reverse", "sums", "pairs", "inplace", "dbuf"};
static const char *const unit_titles[UNITS] = {
    "part 1, clinic: reverse_blocks", "part 1, clinic: block_sums", "part 1, clinic: pair_sums",
    "part 2: transpose in place", "part 3: double-buffered matmul"};
static const char *const visible[UNITS] = {"1 255 1000 65539", "1 255 1000 65539", "1 255 1000 65539",
                                           "1 33 1000 4097", "1x1x1 17x33x65 513x257x129"};

static void usage(FILE *to, const char *prog)
{
    fprintf(to, "usage: %s [--unit reverse|sums|pairs|inplace|dbuf [--shape S]]... [--seed S] [--no-time]\n"
                "  Checks %s's kernels on a few shapes each and times parts 2 and 3,\n"
                "  or the kernels named (--unit) on their visible shapes or on S only: a length n\n"
                "  (part 1), a side N (part 2) or MxKxN (part 3). --no-time only checks\n"
                "  (for sanitizers: each kernel runs once per shape). Grading is ./grade's job.\n",
            prog, tl_lab_source);
}

/* One shape of one unit: a table row; returns the verdict. */
static tl_case_verdict check_one(int unit, const char *shape, uint64_t seed)
{
    tl_case_result r;
    tl_mm_shape mm;
    if (unit == DBUF) {
        if (tl_parse_mm_shape(shape, &mm) != 0)
            goto bad_shape;
        r = tl_matmul_case_of(launch_matmul_dbuf, mm, seed, TL_MM_FINITE);
    } else {
        char *end;
        long n = strtol(shape, &end, 10);
        if (*end || n < 1 || n > (unit == INPLACE ? 46340 : 1 << 28))
            goto bad_shape;
        r = unit == INPLACE ? tl_inplace_case((int)n, seed) : tl_clinic_case((tl_clinic)unit, (int)n, seed);
    }
    printf("  %-9s %-14s %s\n", unit_names[unit], shape, r.verdict == TL_CASE_PASS ? "ok" : tl_case_verdict_name(r.verdict));
    if (r.verdict != TL_CASE_PASS)
        printf("      %s\n", r.message);
    return r.verdict;
bad_shape:
    fprintf(stderr, "%s: '%s' is not a shape for %s (%s)\n", tl_lab_id, shape, unit_names[unit],
            unit == DBUF ? "MxKxN" : unit == INPLACE ? "a side N" : "a length n");
    exit(TL_EXIT_CANNOT_RUN);
}

/* Every visible shape of one unit (or `only`); stops after a fatal verdict. */
static int check_unit(int unit, const char *only, uint64_t seed, int *fatal)
{
    char shapes[64];
    snprintf(shapes, sizeof shapes, "%s", only ? only : visible[unit]);
    int failed = 0;
    for (char *s = strtok(shapes, " "); s && !*fatal; s = strtok(NULL, " ")) {
        tl_case_verdict v = check_one(unit, s, seed++);
        failed += v != TL_CASE_PASS;
        *fatal = TL_CASE_FATAL(v);
    }
    return failed;
}

/* Part 2 timed as ./grade times it (transpose_timing.h): your in-place
 * transpose and the kit's copy, each in its worker, each call checked. */
static void time_inplace(int side)
{
    size_t stride = tl_slot_floats((size_t)side * side);
    float *a, *copy_out;
    CHECK_CUDA(cudaMalloc((void **)&a, stride * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&copy_out, stride * sizeof(float)));
    tl_worker *copy_worker = tl_worker_new(tl_env_text("TILELAB_COPY_WORKER", "build/no-copy-worker"), "the kit's copy");
    tl_timed_inplace yours;
    tl_timed_transpose copy;
    tl_timed_inplace_init(&yours, tl_student_worker(), a, side, 1, 1);
    tl_timed_transpose_init(&copy, "the copy", copy_worker, a, copy_out, side, side, 1, 0, 2);
    tl_bench_work works[2] = {tl_timed_inplace_work(&yours), tl_timed_transpose_work(&copy)};
    tl_stats st[2];
    int noisy = tl_bench_interleaved(works, 2, &TL_BENCH_QUICK, st);
    double bytes = 2.0 * side * side * sizeof(float);
    if (yours.timed.failed)
        printf("  inplace   %dx%d: a timed call failed: %s\n", side, side, yours.timed.verification);
    else
        printf("  inplace   %dx%d: %.4f ms, %.1f GB/s = %.1f %% of copy (%.1f GB/s)%s\n", side, side, st[0].median,
               tl_gbps(bytes, st[0].median), 100 * st[1].median / st[0].median, tl_gbps(bytes, st[1].median),
               noisy ? " (noisy)" : "");
    tl_worker_stop(copy_worker);
    CHECK_CUDA(cudaFree(a));
    CHECK_CUDA(cudaFree(copy_out));
}

static void time_dbuf(tl_mm_shape s)
{
    tl_stats st;
    double gflops = tl_timed_matmul_gflops(TL_OP_DBUF, s, &TL_BENCH_QUICK, &st);
    printf("  dbuf      %dx%dx%d: %.3f ms, %.0f GFLOP/s\n", s.m, s.k, s.n, st.median, gflops);
}

int main(int argc, char **argv)
{
    /* --unit may repeat, each followed by its own --shape: ./grade's
     * sanitizers check every kernel in one run, on each one's shape. */
    int chosen[UNITS] = {0}, any_chosen = 0, last_unit = -1, timing = 1;
    const char *shape_of[UNITS] = {NULL};
    unsigned long long seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout, argv[0]);
            return 0;
        } else if (!strcmp(argv[i], "--unit") && v) {
            last_unit = -1;
            for (int u = 0; u < UNITS; u++)
                if (!strcmp(v, unit_names[u]))
                    last_unit = u;
            if (last_unit < 0) {
                fprintf(stderr, "%s: no kernel '%s'; choose reverse, sums, pairs, inplace or dbuf\n", argv[0], v);
                return TL_EXIT_CANNOT_RUN;
            }
            chosen[last_unit] = any_chosen = 1;
            i++;
        } else if (!strcmp(argv[i], "--shape") && v) {
            if (last_unit < 0) {
                fprintf(stderr, "%s: --shape needs a --unit before it (which kernel the shape is for)\n", argv[0]);
                return TL_EXIT_CANNOT_RUN;
            }
            shape_of[last_unit] = v, i++;
        } else if (!strcmp(argv[i], "--no-time")) {
            timing = 0;
        } else if (!strcmp(argv[i], "--seed") && v) {
            seed = strtoull(v, NULL, 10), i++;
        } else {
            fprintf(stderr, "%s: unknown or incomplete option '%s'\n", argv[0], argv[i]);
            usage(stderr, argv[0]);
            return TL_EXIT_CANNOT_RUN;
        }
    }

    tl_device_info dev;
    tl_device_open_or_exit(&dev, argv[0]);
    char desc[512];
    tl_device_describe(&dev, desc, sizeof desc);
    printf("tilelab quick check: %s (%s)\nGPU: %s\n", tl_lab_id, tl_lab_source, desc);

    int failed = 0, fatal = 0, failed_unit[UNITS] = {0};
    for (int u = 0; u < UNITS && !fatal; u++) {
        if (any_chosen && !chosen[u])
            continue;
        printf("\n%s\n", unit_titles[u]);
        failed_unit[u] = check_unit(u, shape_of[u], seed, &fatal);
        failed += failed_unit[u];
    }
    if (fatal)
        printf("stopping: after this the GPU context is unusable for this process.\n");
    if (timing && !fatal && !any_chosen) {
        printf("\nTimings (each in its worker, each call on fresh input and checked; copy = the kit's copy of the same bytes, timed the same way):\n");
        if (!failed_unit[INPLACE])
            time_inplace(tl_bench_measure_side(dev.l2_bytes));
        if (!failed_unit[DBUF])
            time_dbuf((tl_mm_shape){2048, 2048, 2048});
    }
    printf("\n%s\n", failed ? "Some shapes failed: fix them, then run ./grade."
                            : "All shapes correct. Right results do not prove a clinic kernel fixed: run ./grade, which also runs racecheck and synccheck on each kernel.");
    return tl_workers_finish(failed ? TL_EXIT_FAILED : TL_EXIT_OK);
}

/*
 * transpose_check.cu — the quick check behind build/lab1..3: run the
 * student's transpose on a few visible shapes and one large one, and print
 * shape, time, GB/s, % of copy and a verdict. Grading is ./grade's job.
 */
#include "tilelab.h"
#include "remote.h"
#include "bench.h"
#include "device.h"
#include "matrix.h"
#include "shapes.h"
#include "transpose_case.h"
#include "transpose_timing.h"
#include "judge_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Named by build/labN, the script mk/submission.mk writes. */
#define tl_lab_id tl_env_text("TILELAB_LAB", "this lab")
#define tl_lab_source tl_env_text("TILELAB_SOURCE", "your lab file")

/* Below this many bytes moved a launch costs more than the data: no fraction is shown. */
static const double LAUNCH_BOUND_BYTES = 4 << 20;

static const tl_shape visible_shapes[] = {{1, 1}, {2, 3}, {31, 33}, {1, 1024}, {1000, 1500}};

static void usage(FILE *to, const char *prog)
{
    fprintf(to, "usage: %s [--rows R --cols C | --shape RxC... | --timed-shape] [--seed S] [--no-time]\n"
                "  Checks and times %s on a few shapes and one large one,\n"
                "  or on R x C, or on each --shape given, or on the shape ./grade times for the\n"
                "  seed in TILELAB_SEED (--timed-shape); --no-time only checks (for sanitizers and\n"
                "  profilers: the kernel runs once per shape). Grading is ./grade's job.\n", prog, tl_lab_source);
}

/* Times one shape that passed its check, as ./grade does (transpose_timing.h):
 * your kernel and the kit's copy, each in its worker, each call checked. */
static void time_shape(int rows, int cols, tl_bench_result *b)
{
    size_t n = (size_t)rows * cols;
    float *in, *out;
    CHECK_CUDA(cudaMalloc((void **)&in, tl_slot_floats(n) * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&out, tl_slot_floats(n) * sizeof(float)));
    static tl_worker *copy_worker;
    if (!copy_worker)
        copy_worker = tl_worker_new(tl_env_text("TILELAB_COPY_WORKER", "build/no-copy-worker"), "the kit's copy");
    tl_timed_transpose yours, copy;
    tl_timed_transpose_init(&yours, "your kernel", tl_student_worker(), in, out, rows, cols, 1, 1, 1);
    tl_timed_transpose_init(&copy, "the copy", copy_worker, in, out, rows, cols, 1, 0, 2);
    tl_bench_work works[2] = {tl_timed_transpose_work(&yours), tl_timed_transpose_work(&copy)};
    tl_stats stats[2];
    memset(b, 0, sizeof *b);
    b->noisy = tl_bench_interleaved(works, 2, &TL_BENCH_QUICK, stats) || yours.timed.failed || copy.timed.failed;
    b->bytes = 2.0 * n * sizeof(float);
    b->work_ms = stats[0];
    b->copy4_ms = stats[1];
    b->work_gbps = tl_gbps(b->bytes, stats[0].median);
    b->copy_gbps = tl_gbps(b->bytes, stats[1].median);
    b->fraction_of_copy = b->copy_gbps > 0 ? b->work_gbps / b->copy_gbps : 0;
    if (yours.timed.failed)
        printf("    a timed call failed: %s\n", yours.timed.verification);
    tl_worker_stop(copy_worker);
    CHECK_CUDA(cudaFree(in));
    CHECK_CUDA(cudaFree(out));
}

static int timing = 1;

/* One table row; returns the verdict. */
static tl_case_verdict check_shape(int rows, int cols, uint64_t seed)
{
    char shape[32];
    snprintf(shape, sizeof shape, "%dx%d", rows, cols);
    tl_case_result r = tl_transpose_case(rows, cols, seed);
    if (r.verdict != TL_CASE_PASS) {
        printf("%-13s %10s %9s %10s %9s  %s\n", shape, "-", "-", "-", "-", tl_case_verdict_name(r.verdict));
        printf("    %s\n", r.message);
        return r.verdict;
    }
    if (!timing) {
        printf("%-13s %10s %9s %10s %9s  ok\n", shape, "-", "-", "-", "-");
        return r.verdict;
    }
    tl_bench_result b;
    time_shape(rows, cols, &b);
    if (b.bytes < LAUNCH_BOUND_BYTES)
        printf("%-13s %10.4f %9.1f %10s %9s  ok (too small to compare: launch time dominates)\n", shape,
               b.work_ms.median, b.work_gbps, "-", "-");
    else
        printf("%-13s %10.4f %9.1f %10.1f %8.1f%%  ok%s\n", shape, b.work_ms.median, b.work_gbps,
               b.copy_gbps, 100 * b.fraction_of_copy, b.noisy ? " (noisy)" : "");
    return r.verdict;
}

int main(int argc, char **argv)
{
    int rows = 0, cols = 0;
    unsigned long long seed = 1;
    tl_shape given[8];   /* --shape, repeatable: ./grade's sanitizers check every path in one run */
    int ngiven = 0, timed_shape = 0;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout, argv[0]);
            return 0;
        } else if (!strcmp(argv[i], "--shape") && v) {   /* RxC: how ./grade names shapes */
            tl_shape sh;
            if (tl_parse_shape(v, &sh) != 0) {
                fprintf(stderr, "%s: --shape takes RxC, e.g. 257x131\n", argv[0]);
                return TL_EXIT_CANNOT_RUN;
            }
            if (ngiven == (int)(sizeof given / sizeof given[0])) {
                fprintf(stderr, "%s: at most %d --shape options\n", argv[0], ngiven);
                return TL_EXIT_CANNOT_RUN;
            }
            given[ngiven++] = sh;
            i++;
        } else if (!strcmp(argv[i], "--timed-shape")) {
            timed_shape = 1;
        } else if (!strcmp(argv[i], "--rows") && v) {
            rows = atoi(v), i++;
        } else if (!strcmp(argv[i], "--cols") && v) {
            cols = atoi(v), i++;
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
    if ((rows || cols) && (rows < 1 || cols < 1)) {
        fprintf(stderr, "%s: give both --rows and --cols, each at least 1\n", argv[0]);
        return TL_EXIT_CANNOT_RUN;
    }

    tl_device_info dev;
    tl_device_open_or_exit(&dev, argv[0]);
    char desc[512];
    tl_device_describe(&dev, desc, sizeof desc);
    printf("tilelab quick check: %s (%s)\nGPU: %s\n", tl_lab_id, tl_lab_source, desc);
    printf("Each timing: median of cold launches (L2 flushed), each in a fresh input; copy = the kit's copy of the same bytes, timed the same way.\n\n");
    printf("%-13s %10s %9s %10s %9s  %s\n", "shape", "time ms", "GB/s", "copy GB/s", "of copy", "verdict");

    if (rows && ngiven < (int)(sizeof given / sizeof given[0]))
        given[ngiven++] = (tl_shape){rows, cols};
    if (timed_shape && ngiven < (int)(sizeof given / sizeof given[0])) {
        given[ngiven++] = tl_transpose_timed_shape(tl_judge_secret(), tl_bench_measure_side(dev.l2_bytes));
    }
    int failed = 0;
    if (ngiven) {
        for (int i = 0; i < ngiven; i++) {
            tl_case_verdict v = check_shape(given[i].rows, given[i].cols, seed + i);
            failed += v != TL_CASE_PASS;
            if (TL_CASE_FATAL(v))
                break;
        }
    } else {
        int side = tl_bench_measure_side(dev.l2_bytes);
        tl_shape shapes[sizeof visible_shapes / sizeof visible_shapes[0] + 1];
        size_t count = sizeof visible_shapes / sizeof visible_shapes[0];
        memcpy(shapes, visible_shapes, sizeof visible_shapes);
        shapes[count++] = (tl_shape){side, side};
        for (size_t i = 0; i < count; i++) {
            tl_case_verdict v = check_shape(shapes[i].rows, shapes[i].cols, seed + i);
            failed += v != TL_CASE_PASS;
            if (TL_CASE_FATAL(v)) {
                printf("stopping: after this the GPU context is unusable for this process.\n");
                break;
            }
        }
    }
    printf("\n%s\n", failed ? "Some shapes failed: fix them, then run ./grade."
                            : "All shapes correct. Run ./grade for the hidden tests and your score.");
    return tl_workers_finish(failed ? TL_EXIT_FAILED : TL_EXIT_OK);
}

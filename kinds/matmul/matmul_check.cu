/*
 * matmul_check.cu — the quick check behind build/lab4: run the student's
 * C = A B on a few visible shapes (M x K x N) and one large square, and print
 * shape, time, GFLOP/s and a verdict. Grading (against the naive kernel and
 * cuBLAS) is ./grade's job.
 */
#include "tilelab.h"
#include "remote.h"
#include "matmul_timing.h"
#include "bench.h"
#include "device.h"
#include "matrix.h"
#include "matmul_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Named by build/labN, the script mk/submission.mk writes. */
#define tl_lab_id tl_env_text("TILELAB_LAB", "this lab")
#define tl_lab_source tl_env_text("TILELAB_SOURCE", "your lab file")

static const tl_mm_shape visible_shapes[] = {{1, 1, 1}, {17, 33, 65}, {1000, 1, 1000}, {513, 257, 129}};
static const tl_mm_shape large_shape = {4096, 4096, 4096};

static void usage(FILE *to, const char *prog)
{
    fprintf(to, "usage: %s [--shape MxKxN] [--seed S] [--no-time]\n"
                "  Checks and times %s on a few shapes and one large one, or on\n"
                "  MxKxN only (A is MxK, B is KxN); --no-time only checks (for\n"
                "  sanitizers and profilers: the kernel runs once). Grading is ./grade's job.\n",
            prog, tl_lab_source);
}

int main(int argc, char **argv)
{
    tl_mm_shape only = {0, 0, 0};
    int timing = 1;
    unsigned long long seed = 1;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout, argv[0]);
            return 0;
        } else if (!strcmp(argv[i], "--shape") && v) {
            if (tl_parse_mm_shape(v, &only) != 0) {
                fprintf(stderr, "%s: --shape takes MxKxN, each at least 1 (e.g. 17x33x65)\n", argv[0]);
                return TL_EXIT_CANNOT_RUN;
            }
            i++;
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
    printf("Shapes are M x K x N. Each timing: median of cold launches (L2 flushed).\n\n");
    printf("%-20s %10s %10s  %s\n", "shape", "time ms", "GFLOP/s", "verdict");

    tl_mm_shape shapes[8];
    size_t count = 0;
    if (only.m) {
        shapes[count++] = only;
    } else {
        memcpy(shapes, visible_shapes, sizeof visible_shapes);
        count = sizeof visible_shapes / sizeof visible_shapes[0];
        shapes[count++] = large_shape;
    }
    int failed = 0;
    for (size_t i = 0; i < count; i++) {
        char name[48];
        snprintf(name, sizeof name, "%dx%dx%d", shapes[i].m, shapes[i].k, shapes[i].n);
        tl_case_result r = tl_matmul_case(shapes[i], seed + i, TL_MM_FINITE);
        if (r.verdict != TL_CASE_PASS) {
            failed++;
            printf("%-20s %10s %10s  %s\n    %s\n", name, "-", "-", tl_case_verdict_name(r.verdict), r.message);
            if (TL_CASE_FATAL(r.verdict)) {
                printf("stopping: after this the GPU context is unusable for this process.\n");
                break;
            }
            continue;
        }
        /* Tiny shapes time the launch, not the kernel: shown, not compared. */
        if (timing && tl_matmul_flops(shapes[i]) >= 1e8) {
            tl_stats st;
            double gflops = tl_timed_matmul_gflops(TL_OP_MATMUL, shapes[i], &TL_BENCH_QUICK, &st);
            printf("%-20s %10.4f %10.0f  ok%s\n", name, st.median, gflops, st.noise > 0.03 ? " (noisy)" : "");
        } else {
            printf("%-20s %10s %10s  ok\n", name, "-", "-");
        }
    }
    printf("\n%s\n", failed ? "Some shapes failed: fix them, then run ./grade."
                            : "All shapes correct. Run ./grade for the hidden tests and your score.");
    return tl_workers_finish(failed ? TL_EXIT_FAILED : TL_EXIT_OK);
}

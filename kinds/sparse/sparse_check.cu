/*
 * sparse_check.cu — the quick check behind build/lab7: part 1's dense
 * product and part 2's sparse one on a few visible shapes each, with a
 * verdict; then both timed quickly. ./grade runs it per kernel (--unit)
 * under the sanitizers, and under ncu for part 2's branch counters.
 */
#include "tilelab.h"
#include "remote.h"
#include "matmul_timing.h"
#include "sparse_timing.h"
#include "bench.h"
#include "device.h"
#include "matmul_case.h"
#include "shapes.h"
#include "sparse_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Named by build/labN, the script mk/submission.mk writes. */
#define tl_lab_id tl_env_text("TILELAB_LAB", "this lab")
#define tl_lab_source tl_env_text("TILELAB_SOURCE", "your lab file")

/* The kernels, in the order of the lab's parts; the names are the rubric's units. */
enum { DENSE, SPARSE, UNITS };
static const char *const unit_names[UNITS] = {"dense", "sparse"};
static const char *const unit_titles[UNITS] = {"part 1: dense warp-tiled matmul",
                                               "part 2: sparse B, skipped by whole warps"};
static const char *const visible[UNITS] = {"1x1x1 17x33x65 513x257x129 130x36x260", "17x33x65 130x203x129 1024x1024x1024"};

static void usage(FILE *to, const char *prog)
{
    fprintf(to, "usage: %s [--unit dense|sparse [--shape MxKxN | --timed-shape]]... [--blocks D] [--seed S] [--no-time]\n"
                "  Checks %s's two products on a few shapes each and times them,\n"
                "  or the kernels named (--unit) on their visible shapes or on MxKxN only,\n"
                "  or (sparse) on the shape ./grade times for the seed in TILELAB_SEED;\n"
                "  --blocks D: part 2 on B with K-blocks nonzero with probability D alone.\n"
                "  Part 2 runs every shape twice: B whose zeros change along K (zero, dense\n"
                "  and partial K-blocks), then B with half its values zero. --no-time only\n"
                "  checks (for sanitizers and counters). Grading is ./grade's job.\n",
            prog, tl_lab_source);
}

static tl_case_verdict report(int unit, const char *shape, tl_case_result r)
{
    printf("  %-7s %-16s %s\n", unit_names[unit], shape, r.verdict == TL_CASE_PASS ? "ok" : tl_case_verdict_name(r.verdict));
    if (r.verdict != TL_CASE_PASS)
        printf("      %s\n", r.message);
    return r.verdict;
}

/* --blocks D: part 2 on one B alone, K-blocks nonzero with probability D
 * (as the measurement draws them), for ./grade's count of the FMAs executed;
 * < 0: not given. */
static double blocks_density = -1;

/* One shape of one unit (two cases for part 2); returns the first bad verdict. */
static tl_case_verdict check_one(int unit, const char *shape, uint64_t seed)
{
    tl_mm_shape mm;
    if (tl_parse_mm_shape(shape, &mm) != 0) {
        fprintf(stderr, "%s: '%s' is not a shape MxKxN\n", tl_lab_id, shape);
        exit(TL_EXIT_CANNOT_RUN);
    }
    if (unit == DENSE)
        return report(unit, shape, tl_matmul_case(mm, seed, TL_MM_FINITE));
    if (blocks_density >= 0)
        return report(unit, shape, blocks_density >= 1 ? tl_sparse_case(mm, seed, TL_SPARSE_DENSE, 1)
                                                       : tl_sparse_case(mm, seed, TL_SPARSE_BLOCKS, blocks_density));
    tl_case_verdict v = report(unit, shape, tl_sparse_case(mm, seed, TL_SPARSE_ALONG_K, 0));
    if (v != TL_CASE_PASS)
        return v;
    return report(unit, shape, tl_sparse_case(mm, seed + 1, TL_SPARSE_ELEMENTS, 0.5));
}

static int check_unit(int unit, const char *only, uint64_t seed, int *fatal)
{
    char shapes[128];
    snprintf(shapes, sizeof shapes, "%s", only ? only : visible[unit]);
    int failed = 0;
    for (char *s = strtok(shapes, " "); s && !*fatal; s = strtok(NULL, " ")) {
        tl_case_verdict v = check_one(unit, s, seed++);
        failed += v != TL_CASE_PASS;
        *fatal = TL_CASE_FATAL(v);
    }
    return failed;
}

/* Both products timed as ./grade times them, at one quick shape, interleaved. */
static void time_both(tl_mm_shape s)
{
    size_t stride = tl_sparse_slot_stride(s.m, s.n, s.k), dense_stride = tl_matmul_slot_stride(s.m, s.n, s.k);
    stride = stride > dense_stride ? stride : dense_stride;
    float *A, *B, *C, *Bt;
    CHECK_CUDA(cudaMalloc((void **)&A, stride * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&B, stride * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&C, stride * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&Bt, stride * sizeof(float)));
    tl_sparse_upload_b(Bt, s.n, s.k, 1, stride, TL_SPARSE_BLOCKS, 0.25, 7);
    tl_timed_matmul dense;
    tl_timed_sparse sparse;
    tl_timed_matmul_init(&dense, "your dense kernel", tl_student_worker(), TL_OP_MATMUL, A, B, C, s.m, s.n, s.k, 1, 1);
    tl_timed_sparse_init(&sparse, "your sparse kernel", tl_student_worker(), A, Bt, C, s.m, s.n, s.k, 1, 2);
    tl_bench_work works[2] = {tl_timed_matmul_work(&dense), tl_timed_sparse_work(&sparse)};
    tl_stats st[2];
    int noisy = tl_bench_interleaved(works, 2, &TL_BENCH_QUICK, st);
    double flops = tl_matmul_flops(s);
    if (dense.timed.failed)
        printf("  dense   %dx%dx%d: a timed call failed: %s\n", s.m, s.k, s.n, dense.timed.verification);
    else
        printf("  dense   %dx%dx%d: %.3f ms, %.0f GFLOP/s%s\n", s.m, s.k, s.n, st[0].median,
               flops / (st[0].median * 1e6), noisy ? " (noisy)" : "");
    if (sparse.timed.failed)
        printf("  sparse  %dx%dx%d: a timed call failed: %s\n", s.m, s.k, s.n, sparse.timed.verification);
    else if (!dense.timed.failed)
        printf("  sparse  %dx%dx%d, block density 1/4: %.3f ms = %.2fx your dense kernel\n", s.m, s.k, s.n,
               st[1].median, st[0].median / st[1].median);
    CHECK_CUDA(cudaFree(A));
    CHECK_CUDA(cudaFree(B));
    CHECK_CUDA(cudaFree(C));
    CHECK_CUDA(cudaFree(Bt));
}

int main(int argc, char **argv)
{
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
                fprintf(stderr, "%s: no kernel '%s'; choose dense or sparse\n", argv[0], v);
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
        } else if (!strcmp(argv[i], "--timed-shape")) {
            if (last_unit < 0) {
                fprintf(stderr, "%s: --timed-shape needs a --unit before it (which kernel the shape is for)\n", argv[0]);
                return TL_EXIT_CANNOT_RUN;
            }
            tl_mm_shape t = tl_sparse_timed_shape(tl_judge_secret(), (tl_mm_shape){TL_SPARSE_MEASURE_SIDE,
                                                  TL_SPARSE_MEASURE_SIDE, TL_SPARSE_MEASURE_SIDE}, NULL);
            static char timed_text[64];
            snprintf(timed_text, sizeof timed_text, "%dx%dx%d", t.m, t.k, t.n);
            shape_of[last_unit] = timed_text;
        } else if (!strcmp(argv[i], "--blocks") && v) {
            char *end;
            blocks_density = strtod(v, &end);
            if (*end || !(blocks_density > 0 && blocks_density <= 1)) {
                fprintf(stderr, "%s: --blocks takes a density in (0, 1], e.g. 0.25\n", argv[0]);
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

    int failed = 0, fatal = 0;
    for (int u = 0; u < UNITS && !fatal; u++) {
        if (any_chosen && !chosen[u])
            continue;
        printf("\n%s\n", unit_titles[u]);
        failed += check_unit(u, shape_of[u], seed, &fatal);
    }
    if (fatal)
        printf("stopping: after this the GPU context is unusable for this process.\n");
    if (timing && !fatal && !any_chosen && !failed) {
        printf("\nTimings (each call on fresh input and checked):\n");
        time_both((tl_mm_shape){2048, 2048, 2048});
    }
    printf("\n%s\n", failed ? "Some shapes failed: fix them, then run ./grade."
                            : "All shapes correct. Run ./grade for the hidden tests, the sanitizers, the branch "
                              "counters and the speed.");
    return tl_workers_finish(failed ? TL_EXIT_FAILED : TL_EXIT_OK);
}

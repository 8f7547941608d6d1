/*
 * sparse_measure.cu — the grader's speed measurement for lab 7, part 2. A
 * judge program: no student code is linked in. The student's worker runs
 * both of the student's products, timed through the same path, cold and
 * interleaved in the same rounds (sparse_timing.h, matmul_timing.h):
 *   dense   launch_matmul on B itself;
 *   d1      launch_matmul_sparse on the same-sized B with no zeros;
 *   d2, d4  launch_matmul_sparse on B with each (column, K-block) zero with
 *           probability 1/2 and 3/4 (block density 1/2 and 1/4).
 *   cublas  cuBLAS SGEMM in FP32 on the dense B (cublas_launch.cu, its own worker).
 * The speedups over the student's dense kernel (its time over d2's and
 * d4's) are what the report shows: what skipping zeros buys. The score
 * reads cuBLAS's time over d4's instead: the student's own dense kernel is
 * the student's code, and a file whose dense kernel does its work twice
 * would make a slow sparse kernel look fast beside it
 * (tests/submissions/attacks/lab7/slow_dense_hides_slow_sparse). cuBLAS is
 * the kit's. Part 1's speed against cuBLAS is matmul_measure.cu's job.
 *
 * The timed shape is drawn from a range around 4096^3 from the secret seed.
 *
 *   measure-sparse --json FILE --cublas-worker PATH [--shape MxKxN]
 *
 * TILELAB_WORKER: the student's worker; TILELAB_SEED: the seed.
 */
#include "tilelab.h"
#include "bench.h"
#include "device.h"
#include "matmul_case.h"
#include "matmul_timing.h"
#include "remote.h"
#include "shapes.h"
#include "sparse_timing.h"
#include "timed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DENSE, D1, D2, D4, CUBLAS, WORKS };

/* The grader's plan with more time: four products of ~4 ms per round, each
 * sample with its fresh input and its check, take about 0.9 s a round on an
 * H100, so TL_BENCH_GRADE's 8 s stopped at 9 rounds, one short of its 10. */
static const tl_bench_plan SPARSE_PLAN = {5, 50.0, 10, 200, 0.01, 20.0};
static const char *const work_names[WORKS] = {"dense", "d1", "d2", "d4", "cublas"};
static const double densities[WORKS] = {1, 1, 0.5, 0.25, 1};

static void write_stats(tl_json_writer *w, const char *key, const tl_stats *s)
{
    tl_jw_object_begin(w, key);
    tl_jw_number(w, "median_ms", s->median);
    tl_jw_number(w, "min_ms", s->min);
    tl_jw_number(w, "max_ms", s->max);
    tl_jw_number(w, "noise", s->noise);
    tl_jw_object_end(w);
}

int main(int argc, char **argv)
{
    const char *json_path = NULL, *cublas_path = NULL;
    tl_mm_shape base = {TL_SPARSE_MEASURE_SIDE, TL_SPARSE_MEASURE_SIDE, TL_SPARSE_MEASURE_SIDE};
    for (int i = 1; i + 1 < argc; i += 2) {   /* the other workers grade names are not needed here */
        if (!strcmp(argv[i], "--json")) json_path = argv[i + 1];
        else if (!strcmp(argv[i], "--cublas-worker")) cublas_path = argv[i + 1];
        else if (!strcmp(argv[i], "--shape") && tl_parse_mm_shape(argv[i + 1], &base) != 0) {
            fprintf(stderr, "%s: --shape takes MxKxN, e.g. 4096x4096x4096\n", argv[0]);
            return TL_EXIT_CANNOT_RUN;
        }
    }
    if (!json_path || !cublas_path || !tl_student_worker()) {
        fprintf(stderr, "usage: TILELAB_WORKER=PATH %s --json FILE --cublas-worker PATH [--shape MxKxN]\n", argv[0]);
        return TL_EXIT_CANNOT_RUN;
    }
    uint64_t secret = tl_judge_secret();
    tl_device_info dev;
    tl_device_open_or_exit(&dev, argv[0]);

    uint64_t shape_state;
    tl_mm_shape s = tl_sparse_timed_shape(secret, base, &shape_state);
    size_t stride = tl_sparse_slot_stride(s.m, s.n, s.k), dense_stride = tl_matmul_slot_stride(s.m, s.n, s.k);
    stride = stride > dense_stride ? stride : dense_stride;
    /* A, C, dense B and three encoded Bs: six buffers of `slots` slots. */
    int slots = tl_timed_slots(2, 6, stride);
    float *A, *B, *C, *Bt[WORKS] = {NULL};
    CHECK_CUDA(cudaMalloc((void **)&A, stride * slots * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&B, stride * slots * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&C, stride * slots * sizeof(float)));
    for (int w = D1; w <= D4; w++) {
        CHECK_CUDA(cudaMalloc((void **)&Bt[w], stride * slots * sizeof(float)));
        tl_sparse_upload_b(Bt[w], s.n, s.k, slots, stride, w == D1 ? TL_SPARSE_DENSE : TL_SPARSE_BLOCKS,
                           densities[w], tl_next_secret(&shape_state));
    }

    tl_timed_matmul dense, cublas;
    tl_timed_sparse sparse[WORKS];
    tl_timed_matmul_init(&dense, "your dense kernel", tl_student_worker(), TL_OP_MATMUL, A, B, C, s.m, s.n, s.k,
                         slots, secret);
    dense.stride = stride;   /* one stride for all: the buffers are shared */
    dense.timed.slot_bytes = stride * sizeof(float);
    tl_timed_matmul_init(&cublas, "cuBLAS", tl_worker_new(cublas_path, "cuBLAS"), TL_OP_MATMUL, A, B, C, s.m, s.n,
                         s.k, slots, secret + 9);
    cublas.stride = stride;
    cublas.timed.slot_bytes = stride * sizeof(float);
    for (int w = D1; w <= D4; w++) {
        tl_timed_sparse_init(&sparse[w], "your sparse kernel", tl_student_worker(), A, Bt[w], C, s.m, s.n, s.k,
                             slots, secret + w);
        sparse[w].stride = stride;
        sparse[w].timed.slot_bytes = stride * sizeof(float);
    }

    /* Each product once, checked, before any timing. */
    tl_timed_matmul_once(&dense);
    int failed = dense.timed.failed;
    for (int w = D1; w <= D4 && !failed; w++) {
        tl_timed_sparse_once(&sparse[w]);
        failed = sparse[w].timed.failed;
    }
    int noisy = 1;
    tl_stats stats[WORKS];
    memset(stats, 0, sizeof stats);
    if (!failed) {
        tl_bench_work works[WORKS];
        dense.timed.calls = 0;
        works[DENSE] = tl_timed_matmul_work(&dense);
        for (int w = D1; w <= D4; w++) {
            sparse[w].timed.calls = 0;
            works[w] = tl_timed_sparse_work(&sparse[w]);
        }
        works[CUBLAS] = tl_timed_matmul_work(&cublas);
        noisy = tl_bench_interleaved(works, WORKS, &SPARSE_PLAN, stats);
    }
    const tl_timed *first_failed = dense.timed.failed ? &dense.timed : NULL;
    for (int w = D1; w <= D4 && !first_failed; w++)
        if (sparse[w].timed.failed)
            first_failed = &sparse[w].timed;
    /* cuBLAS wrong or failed: the kit cannot grade this run. */
    if (!failed && cublas.timed.failed) {
        fprintf(stderr, "measure: could not grade (not your file's fault): cuBLAS failed while timed: %s\n",
                cublas.timed.verification);
        return TL_EXIT_CANNOT_RUN;
    }

    FILE *f = fopen(json_path, "w");
    if (!f) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], json_path);
        return TL_EXIT_CANNOT_RUN;
    }
    double speedup[WORKS] = {0}, over_cublas[WORKS] = {0};
    for (int w = D1; w <= D4; w++) {
        speedup[w] = stats[w].median > 0 ? stats[DENSE].median / stats[w].median : 0;
        over_cublas[w] = stats[w].median > 0 ? stats[CUBLAS].median / stats[w].median : 0;
    }
    tl_json_writer jw;
    tl_jw_init(&jw, f);
    tl_jw_object_begin(&jw, NULL);
    tl_device_write_json(&dev, &jw, "device");
    tl_jw_string(&jw, "op", "sparse");
    tl_jw_object_begin(&jw, "sparse");
    tl_jw_int(&jw, "m", s.m);
    tl_jw_int(&jw, "k", s.k);
    tl_jw_int(&jw, "n", s.n);
    tl_jw_bool(&jw, "verified_after_timing", !first_failed);
    tl_jw_string(&jw, "verification", first_failed ? first_failed->verification
                                                   : "every timed call checked: within the fp32 bound");
    tl_jw_string(&jw, "failed", !first_failed ? "" : first_failed == &dense.timed ? "dense" : "sparse");
    tl_jw_int(&jw, "samples", stats[DENSE].n);
    tl_jw_int(&jw, "launches_per_sample", slots);
    tl_jw_bool(&jw, "noisy", noisy);
    for (int w = 0; w < WORKS; w++)
        write_stats(&jw, work_names[w], &stats[w]);
    tl_jw_number(&jw, "speedup_d1", speedup[D1]);
    tl_jw_number(&jw, "speedup_half", speedup[D2]);
    tl_jw_number(&jw, "speedup_quarter", speedup[D4]);
    /* The score's: cuBLAS's dense time over the sparse kernel's. */
    tl_jw_number(&jw, "over_cublas_d1", over_cublas[D1]);
    tl_jw_number(&jw, "over_cublas_half", over_cublas[D2]);
    tl_jw_number(&jw, "over_cublas_quarter", over_cublas[D4]);
    tl_jw_object_end(&jw);
    tl_jw_object_end(&jw);
    fclose(f);

    if (!first_failed)
        printf("  %dx%dx%d: your dense kernel %.3f ms, cuBLAS %.3f ms; your sparse kernel at block density 1: %.3f ms "
               "(%.2fx), 1/2: %.3f ms (%.2fx), 1/4: %.3f ms (%.2fx, %.2fx cuBLAS) (noise %.2f %%, %d samples of %d "
               "launches)\n", s.m, s.k, s.n, stats[DENSE].median, stats[CUBLAS].median, stats[D1].median, speedup[D1],
               stats[D2].median, speedup[D2], stats[D4].median, speedup[D4], over_cublas[D4], 100 * stats[D4].noise,
               stats[DENSE].n, slots);
    else
        printf("  a timed call failed: %s\n", first_failed->verification);
    tl_worker_stop(cublas.timed.worker);
    tl_worker_stop(tl_student_worker());
    return first_failed ? TL_EXIT_FAILED : TL_EXIT_OK;
}

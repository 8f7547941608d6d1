/*
 * matmul_timing.h — a worker's C = A B timed by a judge (timed.h), the way
 * transpose_timing.h times a transpose: `slots` launches per sample on
 * `slots` triples (A, B, C), fresh A and B (hash values) and a poisoned C
 * before every sample, and every C checked afterwards at sampled elements
 * against an FP64 dot product (the fp32 bound of the hidden tests), every
 * A and B checked unchanged.
 */
#ifndef TILELAB_MATMUL_TIMING_H
#define TILELAB_MATMUL_TIMING_H

#include <stddef.h>
#include <stdint.h>
#include "shapes.h"
#include "timed.h"

typedef struct {
    tl_timed timed;             /* first: the work's context is this struct */
    tl_worker_op op;            /* TL_OP_MATMUL, or TL_OP_DBUF (lab 5) */
    float *A, *B, *C;           /* `slots` matrices each, `stride` floats apart */
    size_t stride;
    int m, n, k;
} tl_timed_matmul;

/* Elements checked per C: a wrong tile shows in a few hundred samples. */
enum { TL_MATMUL_CHECKED_ELEMENTS = 2048 };

#ifdef __cplusplus
extern "C" {
#endif

/* The buffers for `slots` triples of an m x k x n product: one stride. */
size_t tl_matmul_slot_stride(int m, int n, int k);

void tl_timed_matmul_init(tl_timed_matmul *t, const char *what, tl_worker *worker, tl_worker_op op, float *A,
                          float *B, float *C, int m, int n, int k, int slots, uint64_t secret);
tl_bench_work tl_timed_matmul_work(tl_timed_matmul *t);
void tl_timed_matmul_once(tl_timed_matmul *t);

/* The quick checks: the student's `op` alone at shape s (one slot), its
 * GFLOP/s; a failed call prints why and gives 0. */
double tl_timed_matmul_gflops(tl_worker_op op, tl_mm_shape s, const tl_bench_plan *plan, tl_stats *st);

#ifdef __cplusplus
}
#endif

#endif

/*
 * sparse_timing.h — lab 7's launch_matmul_sparse timed by a judge
 * (timed.h), as matmul_timing.h times a dense product: `slots` launches per
 * sample, each on its own (A, encoded B, C). B is drawn and encoded once
 * (sparse_case.h) and copied into every slot: what is timed is the product,
 * not the encoder. A gets fresh values (hash of a secret seed) and C is
 * poisoned before every sample; every C is checked afterwards at sampled
 * elements against an FP64 dot product, and A checked unchanged.
 */
#ifndef TILELAB_SPARSE_TIMING_H
#define TILELAB_SPARSE_TIMING_H

#include <stddef.h>
#include <stdint.h>
#include "shapes.h"
#include "sparse_case.h"
#include "timed.h"

typedef struct {
    tl_timed timed;             /* first: the work's context is this struct */
    float *A, *Bt, *C;          /* `slots` each, `stride` floats apart; Bt: the encoded B */
    size_t stride;
    int m, n, k;
} tl_timed_sparse;

#ifdef __cplusplus
extern "C" {
#endif

/* The floats one slot needs: the largest of A, the encoded B and C, on a 2 MiB boundary. */
size_t tl_sparse_slot_stride(int m, int n, int k);

/* B (k x n) drawn as `kind` says from `seed`, encoded into each of `slots` slots of Bt. */
void tl_sparse_upload_b(float *Bt, int n, int k, int slots, size_t stride, tl_sparsity kind, double density,
                        uint64_t seed);

/* The side measure-sparse times around (its --shape may change it). */
enum { TL_SPARSE_MEASURE_SIDE = 4096 };

/* The shape measure-sparse times for the secret (TILELAB_SEED): each side of
 * `base` +- 8 tiles of 32. ./grade's counters are read there too
 * (check-sparse --unit sparse --timed-shape). `rest`, if not NULL, gets the
 * secret stream's state after the shape, from which the measurement draws
 * its patterns. */
tl_mm_shape tl_sparse_timed_shape(uint64_t secret, tl_mm_shape base, uint64_t *rest);

void tl_timed_sparse_init(tl_timed_sparse *t, const char *what, tl_worker *worker, float *A, float *Bt, float *C,
                          int m, int n, int k, int slots, uint64_t secret);
tl_bench_work tl_timed_sparse_work(tl_timed_sparse *t);
void tl_timed_sparse_once(tl_timed_sparse *t);

#ifdef __cplusplus
}
#endif

#endif

/*
 * transpose_timing.h — a worker's transposes timed by a judge (timed.h):
 * `slots` launches per sample on `slots` buffer pairs, each with input
 * written just before (fresh hash values, judge_kernels.h) and a poisoned
 * output, and every output checked afterwards. The grader's measurement
 * and the quick check both time this way.
 */
#ifndef TILELAB_TRANSPOSE_TIMING_H
#define TILELAB_TRANSPOSE_TIMING_H

#include <stdint.h>
#include "timed.h"
#include "shapes.h"

/* Out of place: the copy too (check_output 0: its output is no transpose). */
typedef struct {
    tl_timed timed;             /* first: the work's context is this struct */
    float *in, *out;            /* `slots` matrices each, `stride` floats apart */
    int rows, cols;
    size_t stride;              /* tl_slot_floats(rows * cols): allocate slots * stride */
    int check_output;
} tl_timed_transpose;

/* Lab 5 part 2: in place, n x n; the launches may allocate nothing. */
typedef struct {
    tl_timed timed;
    float *a;
    int n;
    size_t stride;
} tl_timed_inplace;

#ifdef __cplusplus
extern "C" {
#endif

/* The shape measure-transpose times for the secret (TILELAB_SEED): `side`
 * (tl_bench_measure_side of the GPU's L2) +- 8 tiles of 32 on each axis.
 * ./grade's counters are read there too (check-transpose --timed-shape). */
tl_shape tl_transpose_timed_shape(uint64_t secret, int side);

void tl_timed_transpose_init(tl_timed_transpose *t, const char *what, tl_worker *worker, float *in, float *out,
                             int rows, int cols, int slots, int check_output, uint64_t secret);
tl_bench_work tl_timed_transpose_work(tl_timed_transpose *t);
/* One sample by hand: prepare, run, check. */
void tl_timed_transpose_once(tl_timed_transpose *t);

void tl_timed_inplace_init(tl_timed_inplace *t, tl_worker *worker, float *a, int n, int slots, uint64_t secret);
tl_bench_work tl_timed_inplace_work(tl_timed_inplace *t);
void tl_timed_inplace_once(tl_timed_inplace *t);

#ifdef __cplusplus
}
#endif

#endif

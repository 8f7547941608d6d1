/*
 * transpose_timing.h — a worker's transpose timed by a judge (bench.h's
 * worker works): `slots` launches per sample on `slots` buffer pairs, each
 * with input written just before (fresh hash values, judge_kernels.h) and a
 * poisoned output, and every output checked afterwards. The grader's
 * measurement and the quick check both time this way.
 */
#ifndef TILELAB_TRANSPOSE_TIMING_H
#define TILELAB_TRANSPOSE_TIMING_H

#include <stdint.h>
#include "bench.h"
#include "remote.h"

typedef struct {
    const char *what;           /* "your kernel", "the baseline" */
    tl_worker *worker;
    float *in, *out;            /* `slots` matrices each, `stride` floats apart */
    int rows, cols, slots;
    size_t stride;              /* tl_slot_floats(rows * cols): allocate slots * stride */
    int check_output;           /* 0: the copy, whose output is not a transpose */
    uint64_t seed;              /* this sample's inputs */
    uint64_t next_seed;
    tl_run_outcome outcome;
    int calls, failed;          /* launches checked; samples wrong or failed */
    char verification[800];
    tl_stats stats;
    double worker_gpu_ms;       /* the worker's own account, summed: diagnostics */
} tl_timed_transpose;

/* Lab 5 part 2: the student's in-place transposes timed the same way,
 * `slots` n x n matrices `stride` floats apart, each checked, and the
 * device allocations the launches made counted (in place means none). */
typedef struct {
    tl_worker *worker;
    float *a;
    int n, slots;
    size_t stride;
    uint64_t seed, next_seed;
    tl_run_outcome outcome;
    int calls, failed;
    unsigned allocs;
    char verification[800];
} tl_timed_inplace;

#ifdef __cplusplus
extern "C" {
#endif

/* A secret stream of 64-bit values (splitmix64 steps of *state). */
uint64_t tl_next_secret(uint64_t *state);

void tl_timed_transpose_init(tl_timed_transpose *t, const char *what, tl_worker *worker, float *in, float *out,
                             int rows, int cols, int slots, int check_output, uint64_t secret);
/* The work for tl_bench_interleaved(). */
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

/*
 * timed.h — what every kind of worker's work a judge times has in common
 * (bench.h's worker works): the worker, `slots` launches per request, one
 * request per sample, a fresh secret seed for each sample's inputs, the
 * outcome of the last request, how many calls were checked, and the first
 * reason a call failed. The kinds (transpose_timing.h, matmul_timing.h)
 * begin their structs with one and add their buffers and their check.
 */
#ifndef TILELAB_TIMED_H
#define TILELAB_TIMED_H

#include <stddef.h>
#include <stdint.h>
#include "bench.h"
#include "remote.h"

/* Output elements the judge reads back right after every reply. */
enum { TL_CONFIRM_POINTS = 32 };

typedef struct {
    const char *what;           /* "your kernel", "the copy", ... */
    tl_worker *worker;
    int slots;                  /* launches per request, each on its own buffers */
    size_t slot_bytes;          /* how far apart those buffers are */
    uint64_t seed, next_seed;   /* this sample's inputs; the secret stream */
    tl_run_outcome outcome;     /* of the last request */
    int calls, failed;          /* launches checked; samples failed or wrong */
    unsigned allocs;            /* cudaMalloc-family calls the launches made */
    /* The judge's own look at the outputs as the reply came (tl_timed_confirm). */
    float *confirm_out;         /* slot i's output at confirm_out + i * slot_bytes; NULL: none */
    size_t confirm_floats;      /* output floats per slot */
    uint64_t confirm_state;     /* a secret stream of its own for the positions */
    size_t confirm_at[TL_CONFIRM_POINTS];
    unsigned confirm_seen[TL_CONFIRM_POINTS];
    int confirm_count;
    char verification[800];     /* the first failure, for the report */
    tl_stats stats;
} tl_timed;

#ifdef __cplusplus
extern "C" {
#endif

/* Launches per sample: `wanted` (more amortise a request's own cost), or
 * fewer while `buffers` buffers of `slot_floats` floats per slot would take
 * more than 60 % of the GPU's free memory; at least 1. */
int tl_timed_slots(int wanted, int buffers, size_t slot_floats);

/* A secret stream of 64-bit values (splitmix64 steps of *state). */
uint64_t tl_next_secret(uint64_t *state);

/* A timed side drawn from the secret stream: `around` +- 8 tiles of 32, so
 * no shape can be singled out (`around` itself when that would be < 32). */
int tl_timed_side(uint64_t *state, int around);

void tl_timed_init(tl_timed *t, const char *what, tl_worker *worker, int slots, size_t slot_bytes, uint64_t secret);
/* The next sample's seed, from the secret stream. */
uint64_t tl_timed_reseed(tl_timed *t);
/* One request of `slots` launches of `op`; none once the worker is gone. */
void tl_timed_request(tl_timed *t, tl_worker_op op, void *p0, void *p1, void *p2, int a0, int a1, int a2);
/* After a request: 1 when it failed (the reason kept), else 0 with its calls counted. */
int tl_timed_request_failed(tl_timed *t);
/* The outputs the judge confirms: `floats` per slot from `out`. Right after
 * each reply the judge itself reads TL_CONFIRM_POINTS of them at secret
 * positions (half in the last slot); tl_timed_confirm, after a check that
 * passed, reads them again. An element that changed in between was written
 * after the reply: the reply came before the work was done (a lab file can
 * rewrite the worker, cudaDeviceSynchronize included), and the sample fails.
 * The judge's reads go through the copy engine, which does not wait for the
 * worker's kernels. */
void tl_timed_confirm_outputs(tl_timed *t, float *out, size_t floats);
/* After a check that passed: 1 (the sample failed, the reason kept) when an
 * output changed after the reply, else 0. */
int tl_timed_confirm(tl_timed *t);
/* A wrong result found by a check: the first reason is kept. */
void tl_timed_wrong(tl_timed *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The bench work of a kind whose struct begins with a tl_timed. */
tl_bench_work tl_timed_work(tl_timed *t, tl_work_fn prepare, tl_work_fn run, tl_work_fn check);

#ifdef __cplusplus
}
#endif

#endif

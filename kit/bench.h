/*
 * bench.h — how the kit measures a kernel. All measurement vocabulary lives
 * here (the nvbench words):
 *
 *   warm-up   launches before timing, so module loading and clock ramp-up
 *             stay out of the numbers;
 *   cold      L2 flushed before every timed launch (a buffer of twice the L2
 *             size is written), so data never starts in cache;
 *   sample    one cold launch timed with CUDA events;
 *   noise     relative standard deviation of the samples; sampling stops at
 *             `min_samples` once noise <= `max_noise`, or at a cap;
 *   bytes moved   what the work must read plus write, at least once each;
 *   copy      the speed of light: a device-to-device copy of the same bytes,
 *             timed interleaved with the work so clock drift hits both;
 *   fraction of copy   work GB/s over copy GB/s, medians of the same run.
 */
#ifndef TILELAB_BENCH_H
#define TILELAB_BENCH_H

#include <stddef.h>
#include "stats.h"
#include "json.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int warmup_launches;     /* at least this many warm-up launches ...      */
    double warmup_ms;        /* ... and at least this much GPU time          */
    int min_samples;
    int max_samples;
    double max_noise;        /* 0.01 = 1 % */
    double max_seconds;      /* wall-clock cap on sampling; past it, a slow
                                kernel stops at TL_BENCH_FEWEST_SAMPLES */
} tl_bench_plan;

enum { TL_BENCH_FEWEST_SAMPLES = 3 };

extern const tl_bench_plan TL_BENCH_GRADE;   /* the grader: 10+ samples, noise <= 1 % (nvbench's floor) */
extern const tl_bench_plan TL_BENCH_QUICK;   /* build/labN: a quick look */
extern const tl_bench_plan TL_BENCH_SWEEP;   /* make bench: many kernels and sizes in a few minutes */

/* Enqueues one run of the work on the default stream. */
typedef void (*tl_work_fn)(void *ctx);

typedef struct {
    double bytes;            /* bytes moved by one run */
    tl_stats work_ms;        /* the kernel under test */
    tl_stats memcpy_ms;      /* cudaMemcpyAsync device-to-device, same bytes */
    tl_stats copy4_ms;       /* float4 copy kernel, same bytes */
    double work_gbps;        /* from the median */
    double copy_gbps;        /* the faster copy's median: the speed of light */
    double fraction_of_copy;
    int noisy;               /* stopped at a cap: fewer than min_samples, or noise above max_noise */
} tl_bench_result;

/* Monotonic wall-clock seconds: the caps on sampling, the kernel deadline. */
double tl_seconds_now(void);

/* One kind of work a benchmark times, with its context.
 *
 * launches == 0: `fn` enqueues one run on the default stream; CUDA events
 * time it (the kit's own kernels, the copy).
 * launches > 0: a worker's work (remote.h). `prepare` warms the worker
 * (tl_worker_warm), then writes fresh inputs and poisons the outputs: the
 * worker is the lab file's, so nothing it serves may come after the inputs
 * and before the timed request (the judge's fill makes that request's first
 * launch wait for a context switch, ~0.2 ms on an H100, in every worker
 * alike); `fn` is one request of `launches`
 * launches, each on its own buffers; `request_ms` gives its time on the
 * judge's clock, from the request written to the reply read (not the
 * judge's bookkeeping around them); a sample is that over `launches`;
 * `check` verifies every output. No L2 flush: the launches rotate through buffers
 * several times the L2's size, so every one starts cold, and a flush would
 * be the judge's GPU work again. */
typedef struct {
    tl_work_fn fn;
    void *ctx;
    int launches;
    tl_work_fn prepare;
    tl_work_fn check;
    double (*request_ms)(void *ctx);
} tl_bench_work;

/* Times `nworks` works cold, interleaved (one sample of each per round, L2
 * flushed before every sample) until all are quiet or the plan's caps; the
 * stats of each in out[]. Returns 1 when noisy (stopped at a cap). */
int tl_bench_interleaved(const tl_bench_work *works, int nworks, const tl_bench_plan *plan, tl_stats *out);

/* Time `work` (moving `bytes`) cold, interleaved with copies of the same bytes. */
void tl_bench_against_copy(tl_work_fn work, void *ctx, double bytes,
                           const tl_bench_plan *plan, tl_bench_result *out);

/* The result as a JSON object member named `key` (times in ms, speeds in GB/s). */
void tl_bench_write_json(const tl_bench_result *r, tl_json_writer *w, const char *key);

/*
 * The floors: a time below one means the kernel skipped work, not that it
 * is fast.
 *   copy floor     bytes moved over 1.05 x the fastest copy of the run:
 *                  the faster of the two copies (cudaMemcpyAsync, a float4
 *                  kernel) timed with CUDA events (tl_bench_copy_gbps), or the
 *                  kit's copy worker timed beside the kernel, whichever is
 *                  faster, so one slow sample of either never makes a real
 *                  kernel look impossible (tl_bench_copy_floor_ms);
 *   FP32 peak      SMs x 128 FP32 lanes x 2 FLOP x the peak SM clock. 128
 *                  is the most FP32 lanes any NVIDIA SM has (Ampere GA10x,
 *                  Ada, Hopper, Blackwell; 64 on Turing and A100): an upper
 *                  bound everywhere, with no per-arch table to keep.
 */
double tl_bench_copy_gbps(double bytes, const tl_bench_plan *plan);
double tl_bench_copy_floor_ms(double bytes, double event_copy_gbps, double worker_copy_gbps);
double tl_fp32_peak_gflops(int sm_count, int clock_khz);

/* The square side the grader measures at: the smallest power of two whose
 * bytes moved (2 * side^2 * 4) are at least 8x the L2 size, and >= 4096. */
int tl_bench_measure_side(size_t l2_bytes);

#ifdef __cplusplus
}
#endif

#endif

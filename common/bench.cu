/* bench.cu — cold, interleaved timing against the device's own copy speed. */
#include "bench.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

const tl_bench_plan TL_BENCH_GRADE = {5, 50.0, 30, 400, 0.01, 15.0};
const tl_bench_plan TL_BENCH_QUICK = {3, 20.0, 10, 40, 0.03, 2.0};

enum { SERIES_WORK, SERIES_MEMCPY, SERIES_COPY4, SERIES_COUNT };

/* The copy that defines the speed of light: 16-byte loads and stores. */
__global__ void tl_copy_float4(const float4 *src, float4 *dst, size_t n4)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

typedef struct {
    void *src, *dst;
    size_t copy_bytes;
    unsigned copy_blocks;
    void *flush;
    size_t flush_bytes;
    unsigned flush_value;
} copy_setup;

static void run_series(int series, tl_work_fn work, void *ctx, copy_setup *c)
{
    switch (series) {
    case SERIES_WORK:
        work(ctx);
        CHECK_LAUNCH();
        break;
    case SERIES_MEMCPY:
        CHECK_CUDA(cudaMemcpyAsync(c->dst, c->src, c->copy_bytes, cudaMemcpyDeviceToDevice, 0));
        break;
    case SERIES_COPY4:
        tl_copy_float4<<<c->copy_blocks, 256>>>((const float4 *)c->src, (float4 *)c->dst, c->copy_bytes / 16);
        CHECK_LAUNCH();
        break;
    }
}

static void flush_l2(copy_setup *c)
{
    /* Writing a buffer twice the L2 size evicts whatever the last launch left. */
    CHECK_CUDA(cudaMemsetAsync(c->flush, (int)(c->flush_value++ & 0xFF), c->flush_bytes, 0));
}

static double seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int all_quiet(double *samples[SERIES_COUNT], int n, double max_noise)
{
    for (int s = 0; s < SERIES_COUNT; s++)
        if (tl_stats_of(samples[s], n).noise > max_noise)
            return 0;
    return 1;
}

void tl_bench_against_copy(tl_work_fn work, void *ctx, double bytes,
                           const tl_bench_plan *plan, tl_bench_result *out)
{
    int device = 0, sms = 1, l2 = 0;
    CHECK_CUDA(cudaGetDevice(&device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));

    copy_setup c;
    memset(&c, 0, sizeof c);
    /* A copy of b bytes reads b and writes b: it moves as much as the work. */
    c.copy_bytes = ((size_t)(bytes / 2) + 15) / 16 * 16;
    c.copy_blocks = (unsigned)(sms * 16);
    c.flush_bytes = 2 * (size_t)(l2 > 0 ? l2 : 1 << 20);
    CHECK_CUDA(cudaMalloc(&c.src, c.copy_bytes));
    CHECK_CUDA(cudaMalloc(&c.dst, c.copy_bytes));
    CHECK_CUDA(cudaMalloc(&c.flush, c.flush_bytes));
    CHECK_CUDA(cudaMemset(c.src, 0x3C, c.copy_bytes));   /* not zeros: never time on zeros */

    cudaEvent_t start[SERIES_COUNT], stop[SERIES_COUNT];
    for (int s = 0; s < SERIES_COUNT; s++) {
        CHECK_CUDA(cudaEventCreate(&start[s]));
        CHECK_CUDA(cudaEventCreate(&stop[s]));
    }

    /* Warm-up: every series, until both the launch count and GPU time are
     * reached; a kernel so slow that this takes a quarter of the budget is
     * warm enough. */
    double warm_ms = 0, warm_began = seconds_now();
    for (int i = 0; i < 1000 && (i < plan->warmup_launches || warm_ms < plan->warmup_ms) &&
                    (i == 0 || seconds_now() - warm_began < plan->max_seconds / 4); i++) {
        CHECK_CUDA(cudaEventRecord(start[0], 0));
        for (int s = 0; s < SERIES_COUNT; s++)
            run_series(s, work, ctx, &c);
        CHECK_CUDA(cudaEventRecord(stop[0], 0));
        CHECK_CUDA(cudaEventSynchronize(stop[0]));
        float ms = 0;
        CHECK_CUDA(cudaEventElapsedTime(&ms, start[0], stop[0]));
        warm_ms += ms;
    }

    double *samples[SERIES_COUNT];
    for (int s = 0; s < SERIES_COUNT; s++)
        samples[s] = (double *)calloc((size_t)plan->max_samples, sizeof(double));

    int n = 0;
    double began = seconds_now();
    while (n < plan->max_samples) {
        for (int s = 0; s < SERIES_COUNT; s++) {   /* interleaved: one sample of each per round */
            flush_l2(&c);
            CHECK_CUDA(cudaEventRecord(start[s], 0));
            run_series(s, work, ctx, &c);
            CHECK_CUDA(cudaEventRecord(stop[s], 0));
        }
        CHECK_CUDA(cudaEventSynchronize(stop[SERIES_COUNT - 1]));
        for (int s = 0; s < SERIES_COUNT; s++) {
            float ms = 0;
            CHECK_CUDA(cudaEventElapsedTime(&ms, start[s], stop[s]));
            samples[s][n] = ms;
        }
        n++;
        if (n >= plan->min_samples && all_quiet(samples, n, plan->max_noise))
            break;
        /* Out of time: stop, with fewer samples if the kernel is very slow. */
        if (n >= TL_BENCH_FEWEST_SAMPLES && seconds_now() - began > plan->max_seconds)
            break;
    }

    out->bytes = bytes;
    out->work_ms = tl_stats_of(samples[SERIES_WORK], n);
    out->memcpy_ms = tl_stats_of(samples[SERIES_MEMCPY], n);
    out->copy4_ms = tl_stats_of(samples[SERIES_COPY4], n);
    out->noisy = n < plan->min_samples || !all_quiet(samples, n, plan->max_noise);
    out->work_gbps = tl_gbps(bytes, out->work_ms.median);
    double memcpy_gbps = tl_gbps(2.0 * c.copy_bytes, out->memcpy_ms.median);
    double copy4_gbps = tl_gbps(2.0 * c.copy_bytes, out->copy4_ms.median);
    out->copy_gbps = memcpy_gbps > copy4_gbps ? memcpy_gbps : copy4_gbps;
    out->fraction_of_copy = out->copy_gbps > 0 ? out->work_gbps / out->copy_gbps : 0;

    for (int s = 0; s < SERIES_COUNT; s++) {
        free(samples[s]);
        CHECK_CUDA(cudaEventDestroy(start[s]));
        CHECK_CUDA(cudaEventDestroy(stop[s]));
    }
    CHECK_CUDA(cudaFree(c.src));
    CHECK_CUDA(cudaFree(c.dst));
    CHECK_CUDA(cudaFree(c.flush));
}

int tl_bench_measure_side(size_t l2_bytes)
{
    int side = 4096;
    while (2.0 * side * side * 4 < 8.0 * (double)l2_bytes)
        side *= 2;
    return side;
}

static void write_stats(tl_json_writer *w, const char *key, const tl_stats *s)
{
    tl_jw_object_begin(w, key);
    tl_jw_number(w, "median_ms", s->median);
    tl_jw_number(w, "min_ms", s->min);
    tl_jw_number(w, "max_ms", s->max);
    tl_jw_number(w, "noise", s->noise);
    tl_jw_object_end(w);
}

void tl_bench_write_json(const tl_bench_result *r, tl_json_writer *w, const char *key)
{
    tl_jw_object_begin(w, key);
    tl_jw_number(w, "bytes_moved", r->bytes);
    tl_jw_int(w, "samples", r->work_ms.n);
    tl_jw_bool(w, "noisy", r->noisy);
    write_stats(w, "work", &r->work_ms);
    write_stats(w, "copy_memcpy", &r->memcpy_ms);
    write_stats(w, "copy_float4", &r->copy4_ms);
    tl_jw_number(w, "work_gbps", r->work_gbps);
    tl_jw_number(w, "copy_gbps", r->copy_gbps);
    tl_jw_number(w, "fraction_of_copy", r->fraction_of_copy);
    tl_jw_object_end(w);
}

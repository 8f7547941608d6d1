/* bench.cu — cold, interleaved timing against the device's own copy speed. */
#include "bench.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

double tl_seconds_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

const tl_bench_plan TL_BENCH_GRADE = {5, 50.0, 10, 200, 0.01, 8.0};
const tl_bench_plan TL_BENCH_QUICK = {3, 20.0, 10, 40, 0.03, 2.0};
/* Up to 200 samples of the tiny, jittery launches; at most ~2.5 s per kernel and size. */
const tl_bench_plan TL_BENCH_SWEEP = {3, 10.0, 20, 200, 0.02, 2.0};

/* The copy that defines the speed of light: 16-byte loads and stores. */
__global__ void tl_copy_float4(const float4 *src, float4 *dst, size_t n4)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

typedef struct {
    void *src, *dst;
    size_t bytes;
    unsigned blocks;
} copy_setup;

static void copy_by_memcpy(void *ctx)
{
    copy_setup *c = (copy_setup *)ctx;
    CHECK_CUDA(cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, 0));
}

static void copy_by_float4(void *ctx)
{
    copy_setup *c = (copy_setup *)ctx;
    tl_copy_float4<<<c->blocks, 256>>>((const float4 *)c->src, (float4 *)c->dst, c->bytes / 16);
    CHECK_LAUNCH();
}

/* One sample of one work, cold when flush_bytes > 0: its time in ms. */
static double one_sample(const tl_bench_work *w, cudaEvent_t start, cudaEvent_t stop, void *flush,
                         size_t flush_bytes, unsigned flush_value)
{
    if (w->launches > 0) {
        if (w->prepare)
            w->prepare(w->ctx);
        w->fn(w->ctx);
        double ms = w->request_ms(w->ctx) / w->launches;
        if (w->check)
            w->check(w->ctx);
        return ms;
    }
    if (flush_bytes)
        CHECK_CUDA(cudaMemsetAsync(flush, (int)(flush_value & 0xFF), flush_bytes, 0));
    CHECK_CUDA(cudaEventRecord(start, 0));
    w->fn(w->ctx);
    CHECK_LAUNCH();
    CHECK_CUDA(cudaEventRecord(stop, 0));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    return ms;
}

static int all_quiet(double **samples, int nworks, int n, double max_noise)
{
    for (int s = 0; s < nworks; s++)
        if (tl_stats_of(samples[s], n).noise > max_noise)
            return 0;
    return 1;
}

int tl_bench_interleaved(const tl_bench_work *works, int nworks, const tl_bench_plan *plan, tl_stats *out)
{
    int device = 0, l2 = 0;
    CHECK_CUDA(cudaGetDevice(&device));
    CHECK_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    /* Writing a buffer twice the L2 size evicts whatever the last launch left. */
    size_t flush_bytes = 2 * (size_t)(l2 > 0 ? l2 : 1 << 20);
    void *flush;
    unsigned flush_value = 0;
    CHECK_CUDA(cudaMalloc(&flush, flush_bytes));

    cudaEvent_t *start = HOST_ZEROED((size_t)nworks, cudaEvent_t, "start events");
    cudaEvent_t *stop = HOST_ZEROED((size_t)nworks, cudaEvent_t, "stop events");
    double **samples = HOST_ZEROED((size_t)nworks, double *, "sample lists");
    for (int s = 0; s < nworks; s++) {
        CHECK_CUDA(cudaEventCreate(&start[s]));
        CHECK_CUDA(cudaEventCreate(&stop[s]));
        samples[s] = HOST_ZEROED((size_t)plan->max_samples, double, "samples");
    }

    /* Warm-up: every work, until both the launch count and GPU time are
     * reached; work so slow that this takes a quarter of the budget is warm
     * enough. A worker's work is timed on the wall clock. */
    double warm_ms = 0, warm_began = tl_seconds_now();
    for (int i = 0; i < 1000 && (i < plan->warmup_launches || warm_ms < plan->warmup_ms) &&
                    (i == 0 || tl_seconds_now() - warm_began < plan->max_seconds / 4); i++) {
        for (int s = 0; s < nworks; s++)
            warm_ms += one_sample(&works[s], start[s], stop[s], flush, 0, (unsigned)i);
    }
    int n = 0;
    double began = tl_seconds_now();
    while (n < plan->max_samples) {
        for (int s = 0; s < nworks; s++)   /* interleaved: one cold sample of each per round */
            samples[s][n] = one_sample(&works[s], start[s], stop[s], flush, flush_bytes, flush_value++);
        n++;
        if (n >= plan->min_samples && all_quiet(samples, nworks, n, plan->max_noise))
            break;
        /* Out of time: stop, with fewer samples if the work is very slow. */
        if (n >= TL_BENCH_FEWEST_SAMPLES && tl_seconds_now() - began > plan->max_seconds)
            break;
    }

    int noisy = n < plan->min_samples || !all_quiet(samples, nworks, n, plan->max_noise);
    for (int s = 0; s < nworks; s++) {
        out[s] = tl_stats_of(samples[s], n);
        free(samples[s]);
        CHECK_CUDA(cudaEventDestroy(start[s]));
        CHECK_CUDA(cudaEventDestroy(stop[s]));
    }
    free(samples);
    free(start);
    free(stop);
    CHECK_CUDA(cudaFree(flush));
    return noisy;
}

/* Buffers for a copy that moves `bytes` (reads half, writes half). */
static void copy_setup_alloc(copy_setup *c, double bytes)
{
    int device = 0, sms = 1;
    CHECK_CUDA(cudaGetDevice(&device));
    CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    /* A copy of b bytes reads b and writes b: it moves as much as the work. */
    c->bytes = ((size_t)(bytes / 2) + 15) / 16 * 16;
    c->blocks = (unsigned)(sms * 16);
    CHECK_CUDA(cudaMalloc(&c->src, c->bytes));
    CHECK_CUDA(cudaMalloc(&c->dst, c->bytes));
    CHECK_CUDA(cudaMemset(c->src, 0x3C, c->bytes));   /* not zeros: never time on zeros */
}

static void copy_setup_free(copy_setup *c)
{
    CHECK_CUDA(cudaFree(c->src));
    CHECK_CUDA(cudaFree(c->dst));
}

void tl_bench_against_copy(tl_work_fn work, void *ctx, double bytes,
                           const tl_bench_plan *plan, tl_bench_result *out)
{
    copy_setup c;
    copy_setup_alloc(&c, bytes);

    const tl_bench_work works[] = {{work, ctx, 0, NULL, NULL, NULL}, {copy_by_memcpy, &c, 0, NULL, NULL, NULL},
                                   {copy_by_float4, &c, 0, NULL, NULL, NULL}};
    tl_stats stats[3];
    out->noisy = tl_bench_interleaved(works, 3, plan, stats);
    out->bytes = bytes;
    out->work_ms = stats[0];
    out->memcpy_ms = stats[1];
    out->copy4_ms = stats[2];
    out->work_gbps = tl_gbps(bytes, out->work_ms.median);
    double memcpy_gbps = tl_gbps(2.0 * c.bytes, out->memcpy_ms.median);
    double copy4_gbps = tl_gbps(2.0 * c.bytes, out->copy4_ms.median);
    out->copy_gbps = memcpy_gbps > copy4_gbps ? memcpy_gbps : copy4_gbps;
    out->fraction_of_copy = out->copy_gbps > 0 ? out->work_gbps / out->copy_gbps : 0;
    copy_setup_free(&c);
}

/* Copies of the same bytes, in this process: the speed of light. */
double tl_bench_copy_gbps(double bytes, const tl_bench_plan *plan)
{
    copy_setup c;
    copy_setup_alloc(&c, bytes);
    const tl_bench_work works[] = {{copy_by_memcpy, &c, 0, NULL, NULL, NULL}, {copy_by_float4, &c, 0, NULL, NULL, NULL}};
    tl_stats stats[2];
    tl_bench_interleaved(works, 2, plan, stats);
    double a = tl_gbps(2.0 * c.bytes, stats[0].median), b = tl_gbps(2.0 * c.bytes, stats[1].median);
    copy_setup_free(&c);
    return a > b ? a : b;
}

double tl_bench_copy_floor_ms(double bytes, double event_copy_gbps, double worker_copy_gbps)
{
    double fastest = event_copy_gbps > worker_copy_gbps ? event_copy_gbps : worker_copy_gbps;
    return fastest > 0 ? bytes / (1.05 * fastest * 1e9) * 1e3 : 0;
}

double tl_fp32_peak_gflops(int sm_count, int clock_khz)
{
    return (double)sm_count * 128 * 2 * clock_khz * 1e3 / 1e9;
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

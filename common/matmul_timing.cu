/* matmul_timing.cu — a worker's matmul timed by a judge (see matmul_timing.h). */
#include "matmul_timing.h"
#include "check.h"
#include "judge_kernels.h"
#include "transpose_timing.h"

#include <stdio.h>
#include <string.h>

size_t tl_matmul_slot_stride(int m, int n, int k)
{
    size_t a = (size_t)m * k, b = (size_t)k * n, c = (size_t)m * n, s = a > b ? a : b;
    s = s > c ? s : c;
    return tl_slot_floats(s);   /* every slot on a 2 MiB boundary (judge_kernels.h) */
}

static void prepare(void *ctx)
{
    tl_timed_matmul *t = (tl_timed_matmul *)ctx;
    t->seed = tl_next_secret(&t->next_seed);
    tl_fill_hashed(t->A, t->stride * t->slots, t->seed);
    tl_fill_hashed(t->B, t->stride * t->slots, t->seed + 1);
    CHECK_CUDA(cudaMemsetAsync(t->C, 0xFF, t->stride * t->slots * sizeof(float), 0));   /* poison */
    tl_worker_warm(t->worker);
}

/* One request: `slots` launches back to back, slot i on triple i. */
static void run(void *ctx)
{
    tl_timed_matmul *t = (tl_timed_matmul *)ctx;
    void *const ptrs[TL_WORKER_MAX_PTRS] = {t->A, t->B, t->C};
    const int args[TL_WORKER_MAX_ARGS] = {t->m, t->n, t->k};
    if (t->failed && t->outcome.status != TL_RUN_OK)
        return;   /* the worker is gone: the samples are void */
    tl_worker_run(t->worker, t->op, ptrs, args, (unsigned)t->slots, t->stride * sizeof(float), 0, &t->outcome);
}

static double request_ms(void *ctx)
{
    return 1e3 * ((tl_timed_matmul *)ctx)->outcome.seconds;
}

static void check(void *ctx)
{
    tl_timed_matmul *t = (tl_timed_matmul *)ctx;
    if (t->outcome.status != TL_RUN_OK) {
        if (!t->failed)
            snprintf(t->verification, sizeof t->verification, "%s: %s", t->what,
                     t->outcome.status == TL_RUN_CUDA_ERROR ? cudaGetErrorName((cudaError_t)t->outcome.cuda_error)
                                                            : t->outcome.message);
        t->failed = t->calls + 1;
        return;
    }
    t->calls += t->slots;
    tl_gpu_check a = tl_check_hashed(t->A, t->stride * t->slots, t->seed);
    tl_gpu_check b = tl_check_hashed(t->B, t->stride * t->slots, t->seed + 1);
    tl_gpu_check c = tl_check_matmuls(t->A, t->B, t->C, t->m, t->n, t->k, t->slots, t->stride,
                                      TL_MATMUL_CHECKED_ELEMENTS, t->seed ^ 0xC0FFEEull);
    if ((a.wrong || b.wrong || c.wrong) && !t->failed) {
        if (a.wrong || b.wrong)
            snprintf(t->verification, sizeof t->verification, "a timed call changed its input %s (%llu elements)",
                     a.wrong ? "A" : "B", a.wrong ? a.wrong : b.wrong);
        else {
            size_t j = (size_t)c.first % t->stride;
            snprintf(t->verification, sizeof t->verification, "timed call %d of %d: C(%zu, %zu) = %g is outside "
                     "the fp32 bound; %llu of %d checked elements wrong. Every timed call gets new input and must "
                     "do all its work", t->calls - t->slots + (int)((size_t)c.first / t->stride) + 1, t->calls,
                     j / t->n, j % t->n, c.got, c.wrong, TL_MATMUL_CHECKED_ELEMENTS * t->slots);
        }
    }
    if (a.wrong || b.wrong || c.wrong)
        t->failed++;
}

void tl_timed_matmul_init(tl_timed_matmul *t, const char *what, tl_worker *worker, tl_worker_op op, float *A,
                          float *B, float *C, int m, int n, int k, int slots, uint64_t secret)
{
    memset(t, 0, sizeof *t);
    t->what = what;
    t->worker = worker;
    t->op = op;
    t->A = A;
    t->B = B;
    t->C = C;
    t->stride = tl_matmul_slot_stride(m, n, k);
    t->m = m;
    t->n = n;
    t->k = k;
    t->slots = slots;
    t->next_seed = secret;
}

tl_bench_work tl_timed_matmul_work(tl_timed_matmul *t)
{
    tl_bench_work w = {run, t, t->slots, prepare, check, request_ms};
    return w;
}

void tl_timed_matmul_once(tl_timed_matmul *t)
{
    prepare(t);
    run(t);
    check(t);
}

double tl_timed_matmul_gflops(tl_worker_op op, tl_mm_shape s, const tl_bench_plan *plan, tl_stats *st)
{
    size_t stride = tl_matmul_slot_stride(s.m, s.n, s.k);
    float *A, *B, *C;
    CHECK_CUDA(cudaMalloc((void **)&A, stride * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&B, stride * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&C, stride * sizeof(float)));
    tl_timed_matmul t;
    tl_timed_matmul_init(&t, "your kernel", tl_student_worker(), op, A, B, C, s.m, s.n, s.k, 1, 1);
    tl_bench_work w = tl_timed_matmul_work(&t);
    tl_bench_interleaved(&w, 1, plan, st);
    CHECK_CUDA(cudaFree(A));
    CHECK_CUDA(cudaFree(B));
    CHECK_CUDA(cudaFree(C));
    if (t.failed) {
        printf("    a timed call failed: %s\n", t.verification);
        return 0;
    }
    return tl_matmul_flops(s) / (st->median * 1e6);
}

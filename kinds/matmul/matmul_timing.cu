/* matmul_timing.cu — a worker's matmul timed by a judge (see matmul_timing.h). */
#include "matmul_timing.h"
#include "check.h"
#include "devbuf.h"
#include "judge_kernels.h"

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
    /* The warm-up before the fresh inputs, never after (bench.h: prepare). */
    tl_worker_warm(t->timed.worker);
    uint64_t seed = tl_timed_reseed(&t->timed);
    size_t all = t->stride * t->timed.slots;
    tl_fill_hashed(t->A, all, seed);
    tl_fill_hashed(t->B, all, seed + 1);
    tl_fill_words_async(t->C, TL_POISON, all, 0);
    CHECK_CUDA(cudaStreamSynchronize(0));
}

/* One request: `slots` launches back to back, slot i on triple i. */
static void run(void *ctx)
{
    tl_timed_matmul *t = (tl_timed_matmul *)ctx;
    tl_timed_request(&t->timed, t->op, t->A, t->B, t->C, t->m, t->n, t->k);
}

static void check(void *ctx)
{
    tl_timed_matmul *t = (tl_timed_matmul *)ctx;
    tl_timed *d = &t->timed;
    if (tl_timed_request_failed(d))
        return;
    size_t all = t->stride * d->slots;
    tl_gpu_check a = tl_check_hashed(t->A, all, d->seed);
    tl_gpu_check b = tl_check_hashed(t->B, all, d->seed + 1);
    if (a.wrong || b.wrong) {
        tl_timed_wrong(d, "a timed call changed its input %s (%llu elements)", a.wrong ? "A" : "B",
                       a.wrong ? a.wrong : b.wrong);
        return;
    }
    tl_gpu_check c = tl_check_matmuls(t->A, t->B, t->C, t->m, t->n, t->k, d->slots, t->stride,
                                      TL_MATMUL_CHECKED_ELEMENTS, d->seed ^ 0xC0FFEEull);
    if (!c.wrong) {
        tl_timed_confirm(d);
        return;
    }
    size_t j = (size_t)c.first % t->stride;
    tl_timed_wrong(d, "timed call %d of %d: C(%zu, %zu) = %g is outside the fp32 bound; %llu of %d checked "
                   "elements wrong. Every timed call gets new input and must do all its work",
                   d->calls - d->slots + (int)((size_t)c.first / t->stride) + 1, d->calls, j / t->n, j % t->n,
                   c.got, c.wrong, TL_MATMUL_CHECKED_ELEMENTS * d->slots);
}

void tl_timed_matmul_init(tl_timed_matmul *t, const char *what, tl_worker *worker, tl_worker_op op, float *A,
                          float *B, float *C, int m, int n, int k, int slots, uint64_t secret)
{
    memset(t, 0, sizeof *t);
    t->stride = tl_matmul_slot_stride(m, n, k);
    tl_timed_init(&t->timed, what, worker, slots, t->stride * sizeof(float), secret);
    t->op = op;
    t->A = A;
    t->B = B;
    t->C = C;
    t->m = m;
    t->n = n;
    t->k = k;
    tl_timed_confirm_outputs(&t->timed, C, (size_t)m * n);
}

tl_bench_work tl_timed_matmul_work(tl_timed_matmul *t)
{
    return tl_timed_work(&t->timed, prepare, run, check);
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
    if (t.timed.failed) {
        printf("    a timed call failed: %s\n", t.timed.verification);
        return 0;
    }
    return tl_matmul_flops(s) / (st->median * 1e6);
}

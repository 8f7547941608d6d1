/* sparse_timing.cu — lab 7's sparse product timed by a judge (see sparse_timing.h). */
#include "sparse_timing.h"
#include "check.h"
#include "devbuf.h"
#include "judge_kernels.h"
#include "matrix.h"
#include "tilelab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sampled elements per C, as for the dense product. */
enum { CHECKED_ELEMENTS = 2048 };

size_t tl_sparse_slot_stride(int m, int n, int k)
{
    size_t a = (size_t)m * k, b = tl_sparse_encoded_floats(k, n), c = (size_t)m * n, s = a > b ? a : b;
    return tl_slot_floats(s > c ? s : c);
}

void tl_sparse_upload_b(float *Bt, int n, int k, int slots, size_t stride, tl_sparsity kind, double density,
                        uint64_t seed)
{
    float *B = HOST_FLOATS((size_t)k * n, "sparse B");
    float *encoded = HOST_FLOATS(tl_sparse_encoded_floats(k, n), "encoded B");
    tl_fill_seeded(B, (size_t)k * n, seed);
    tl_sparse_make_b(B, k, n, kind, density, seed ^ 0x5BA55E);
    tl_sparse_encode(B, k, n, encoded);
    for (int s = 0; s < slots; s++)
        CHECK_CUDA(cudaMemcpy(Bt + s * stride, encoded, tl_sparse_encoded_floats(k, n) * sizeof(float),
                              cudaMemcpyHostToDevice));
    free(B);
    free(encoded);
}

tl_mm_shape tl_sparse_timed_shape(uint64_t secret, tl_mm_shape base, uint64_t *rest)
{
    uint64_t shape_state = secret ^ 0x5BA55E5Bull;
    tl_mm_shape s = base;
    s.m = tl_timed_side(&shape_state, base.m);
    s.k = tl_timed_side(&shape_state, base.k);
    s.n = tl_timed_side(&shape_state, base.n);
    if (rest)
        *rest = shape_state;
    return s;
}

static void prepare(void *ctx)
{
    tl_timed_sparse *t = (tl_timed_sparse *)ctx;
    /* The warm-up before the fresh inputs, never after (bench.h: prepare). */
    tl_worker_warm(t->timed.worker);
    uint64_t seed = tl_timed_reseed(&t->timed);
    size_t all = t->stride * t->timed.slots;
    tl_fill_hashed(t->A, all, seed);
    tl_fill_words_async(t->C, TL_POISON, all, 0);
    CHECK_CUDA(cudaStreamSynchronize(0));
}

static void run(void *ctx)
{
    tl_timed_sparse *t = (tl_timed_sparse *)ctx;
    tl_timed_request(&t->timed, TL_OP_SPARSE, t->A, t->Bt, t->C, t->m, t->n, t->k);
}

static void check(void *ctx)
{
    tl_timed_sparse *t = (tl_timed_sparse *)ctx;
    tl_timed *d = &t->timed;
    if (tl_timed_request_failed(d))
        return;
    size_t all = t->stride * d->slots;
    tl_gpu_check a = tl_check_hashed(t->A, all, d->seed);
    if (a.wrong) {
        tl_timed_wrong(d, "a timed call changed its input A (%llu elements)", a.wrong);
        return;
    }
    tl_gpu_check c = tl_check_sparse_matmuls(t->A, t->Bt, t->C, t->m, t->n, t->k, d->slots, t->stride,
                                             CHECKED_ELEMENTS, d->seed ^ 0xC0FFEEull);
    if (!c.wrong) {
        tl_timed_confirm(d);
        return;
    }
    size_t j = (size_t)c.first % t->stride;
    tl_timed_wrong(d, "timed call %d of %d: C(%zu, %zu) = %g is outside the fp32 bound; %llu of %d checked "
                   "elements wrong. Every timed call gets new input and must do all its work",
                   d->calls - d->slots + (int)((size_t)c.first / t->stride) + 1, d->calls, j / t->n, j % t->n,
                   c.got, c.wrong, CHECKED_ELEMENTS * d->slots);
}

void tl_timed_sparse_init(tl_timed_sparse *t, const char *what, tl_worker *worker, float *A, float *Bt, float *C,
                          int m, int n, int k, int slots, uint64_t secret)
{
    memset(t, 0, sizeof *t);
    t->stride = tl_sparse_slot_stride(m, n, k);
    tl_timed_init(&t->timed, what, worker, slots, t->stride * sizeof(float), secret);
    t->A = A;
    t->Bt = Bt;
    t->C = C;
    t->m = m;
    t->n = n;
    t->k = k;
    tl_timed_confirm_outputs(&t->timed, C, (size_t)m * n);
}

tl_bench_work tl_timed_sparse_work(tl_timed_sparse *t)
{
    return tl_timed_work(&t->timed, prepare, run, check);
}

void tl_timed_sparse_once(tl_timed_sparse *t)
{
    prepare(t);
    run(t);
    check(t);
}

/* transpose_timing.cu — a worker's transpose timed by a judge (see transpose_timing.h). */
#include "transpose_timing.h"
#include "check.h"
#include "judge_kernels.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t tl_next_secret(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ull;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void prepare(void *ctx)
{
    tl_timed_transpose *t = (tl_timed_transpose *)ctx;
    t->seed = tl_next_secret(&t->next_seed);
    tl_fill_hashed(t->in, t->stride * t->slots, t->seed);
    CHECK_CUDA(cudaMemsetAsync(t->out, 0xFF, t->stride * t->slots * sizeof(float), 0));   /* poison */
    tl_worker_warm(t->worker);
}

/* One request: `slots` launches back to back, slot i on buffer pair i. */
static void run(void *ctx)
{
    tl_timed_transpose *t = (tl_timed_transpose *)ctx;
    void *const ptrs[TL_WORKER_MAX_PTRS] = {t->in, t->out, NULL};
    const int args[TL_WORKER_MAX_ARGS] = {t->rows, t->cols, 0};
    if (t->failed && t->outcome.status != TL_RUN_OK)
        return;   /* the worker is gone: no more calls, the samples are void */
    tl_worker_run(t->worker, TL_OP_TRANSPOSE, ptrs, args, (unsigned)t->slots,
                  t->stride * sizeof(float), 0, &t->outcome);
}

static double request_ms(void *ctx)
{
    tl_timed_transpose *t = (tl_timed_transpose *)ctx;
    t->worker_gpu_ms += t->outcome.worker_gpu_ms;
    return 1e3 * t->outcome.seconds;
}

static void check(void *ctx)
{
    tl_timed_transpose *t = (tl_timed_transpose *)ctx;
    if (t->outcome.status != TL_RUN_OK) {
        if (!t->failed)
            snprintf(t->verification, sizeof t->verification, "%s: %s", t->what,
                     t->outcome.status == TL_RUN_CUDA_ERROR ? cudaGetErrorName((cudaError_t)t->outcome.cuda_error)
                                                            : t->outcome.message);
        t->failed = t->calls + 1;
        return;
    }
    t->calls += t->slots;
    if (!t->check_output)
        return;
    tl_gpu_check c = tl_check_transposes(t->in, t->out, t->rows, t->cols, t->slots, t->stride, t->seed);
    if (c.wrong && !t->failed) {
        size_t n = t->stride, j = (size_t)c.first % n;
        if (c.first_in_input)
            snprintf(t->verification, sizeof t->verification, "a timed call changed the input at (row %zu, col "
                     "%zu); %llu elements wrong", j / t->cols, j % t->cols, c.wrong);
        else
            snprintf(t->verification, sizeof t->verification, "timed call %d of %d: output (row %zu, col %zu) "
                     "is %g, expected %g; %llu elements wrong. Every timed call gets new input and must do all "
                     "its work", t->calls - t->slots + (int)((size_t)c.first / n) + 1, t->calls, j / t->rows,
                     j % t->rows, c.got, c.expected, c.wrong);
    }
    if (c.wrong)
        t->failed++;
}


void tl_timed_transpose_init(tl_timed_transpose *t, const char *what, tl_worker *worker, float *in, float *out,
                             int rows, int cols, int slots, int check_output, uint64_t secret)
{
    memset(t, 0, sizeof *t);
    t->what = what;
    t->worker = worker;
    t->in = in;
    t->out = out;
    t->rows = rows;
    t->cols = cols;
    t->slots = slots;
    t->check_output = check_output;
    t->stride = tl_slot_floats((size_t)rows * cols);
    t->next_seed = secret;
}

tl_bench_work tl_timed_transpose_work(tl_timed_transpose *t)
{
    tl_bench_work w = {run, t, t->slots, prepare, check, request_ms};
    return w;
}

void tl_timed_transpose_once(tl_timed_transpose *t)
{
    prepare(t);
    run(t);
    check(t);
}

/* ---- lab 5 part 2: in place ---- */

static void inplace_prepare(void *ctx)
{
    tl_timed_inplace *t = (tl_timed_inplace *)ctx;
    t->seed = tl_next_secret(&t->next_seed);
    tl_fill_hashed(t->a, t->stride * t->slots, t->seed);
    tl_worker_warm(t->worker);
}

static void inplace_run(void *ctx)
{
    tl_timed_inplace *t = (tl_timed_inplace *)ctx;
    void *const ptrs[TL_WORKER_MAX_PTRS] = {t->a, NULL, NULL};
    const int args[TL_WORKER_MAX_ARGS] = {t->n, 0, 0};
    if (t->failed && t->outcome.status != TL_RUN_OK)
        return;
    tl_worker_run(t->worker, TL_OP_INPLACE, ptrs, args, (unsigned)t->slots, t->stride * sizeof(float), 0,
                  &t->outcome);
    t->allocs += t->outcome.device_allocs;
}

static double inplace_request_ms(void *ctx)
{
    return 1e3 * ((tl_timed_inplace *)ctx)->outcome.seconds;
}

static void inplace_check(void *ctx)
{
    tl_timed_inplace *t = (tl_timed_inplace *)ctx;
    if (t->outcome.status != TL_RUN_OK) {
        if (!t->failed)
            snprintf(t->verification, sizeof t->verification, "%s",
                     t->outcome.status == TL_RUN_CUDA_ERROR ? cudaGetErrorName((cudaError_t)t->outcome.cuda_error)
                                                            : t->outcome.message);
        t->failed = t->calls + 1;
        return;
    }
    t->calls += t->slots;
    if (t->allocs && !t->failed) {
        snprintf(t->verification, sizeof t->verification, "the timed calls allocated device memory (%u cudaMalloc "
                 "calls): in place means no second buffer", t->allocs);
        t->failed++;
        return;
    }
    tl_gpu_check c = tl_check_inplace(t->a, t->n, t->slots, t->stride, t->seed);
    if (c.wrong && !t->failed) {
        size_t nn = t->stride, j = (size_t)c.first % nn;
        snprintf(t->verification, sizeof t->verification, "timed call %d of %d: (row %zu, col %zu) is %g, expected "
                 "%g; %llu elements wrong. Every timed call gets new input and must do all its work",
                 t->calls - t->slots + (int)((size_t)c.first / nn) + 1, t->calls, j / t->n, j % t->n, c.got,
                 c.expected, c.wrong);
    }
    if (c.wrong)
        t->failed++;
}

void tl_timed_inplace_init(tl_timed_inplace *t, tl_worker *worker, float *a, int n, int slots, uint64_t secret)
{
    memset(t, 0, sizeof *t);
    t->worker = worker;
    t->a = a;
    t->n = n;
    t->slots = slots;
    t->stride = tl_slot_floats((size_t)n * n);
    t->next_seed = secret;
}

tl_bench_work tl_timed_inplace_work(tl_timed_inplace *t)
{
    tl_bench_work w = {inplace_run, t, t->slots, inplace_prepare, inplace_check, inplace_request_ms};
    return w;
}

void tl_timed_inplace_once(tl_timed_inplace *t)
{
    inplace_prepare(t);
    inplace_run(t);
    inplace_check(t);
}

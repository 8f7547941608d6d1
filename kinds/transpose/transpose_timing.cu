/* transpose_timing.cu — a worker's transposes timed by a judge (see transpose_timing.h). */
#include "transpose_timing.h"
#include "check.h"
#include "devbuf.h"
#include "judge_kernels.h"

#include <string.h>

tl_shape tl_transpose_timed_shape(uint64_t secret, int side)
{
    uint64_t shape_state = secret ^ 0x5EED5EEDull;
    tl_shape s;
    s.rows = tl_timed_side(&shape_state, side);
    s.cols = tl_timed_side(&shape_state, side);
    return s;
}

static void prepare(void *ctx)
{
    tl_timed_transpose *t = (tl_timed_transpose *)ctx;
    /* The warm-up before the fresh inputs, never after (bench.h: prepare). */
    tl_worker_warm(t->timed.worker);
    tl_fill_hashed(t->in, t->stride * t->timed.slots, tl_timed_reseed(&t->timed));
    tl_fill_words_async(t->out, TL_POISON, t->stride * t->timed.slots, 0);
    CHECK_CUDA(cudaStreamSynchronize(0));
}

/* One request: `slots` launches back to back, slot i on buffer pair i. */
static void run(void *ctx)
{
    tl_timed_transpose *t = (tl_timed_transpose *)ctx;
    tl_timed_request(&t->timed, TL_OP_TRANSPOSE, t->in, t->out, NULL, t->rows, t->cols, 0);
}

static void check(void *ctx)
{
    tl_timed_transpose *t = (tl_timed_transpose *)ctx;
    tl_timed *d = &t->timed;
    if (tl_timed_request_failed(d) || !t->check_output)
        return;
    tl_gpu_check c = tl_check_transposes(t->in, t->out, t->rows, t->cols, d->slots, t->stride, d->seed);
    if (!c.wrong) {
        tl_timed_confirm(d);
        return;
    }
    size_t j = (size_t)c.first % t->stride;
    if (c.first_in_input)
        tl_timed_wrong(d, "a timed call changed the input at (row %zu, col %zu); %llu elements wrong",
                       j / t->cols, j % t->cols, c.wrong);
    else
        tl_timed_wrong(d, "timed call %d of %d: output (row %zu, col %zu) is %g, expected %g; %llu elements "
                       "wrong. Every timed call gets new input and must do all its work",
                       d->calls - d->slots + (int)((size_t)c.first / t->stride) + 1, d->calls, j / t->rows,
                       j % t->rows, c.got, c.expected, c.wrong);
}

void tl_timed_transpose_init(tl_timed_transpose *t, const char *what, tl_worker *worker, float *in, float *out,
                             int rows, int cols, int slots, int check_output, uint64_t secret)
{
    memset(t, 0, sizeof *t);
    t->stride = tl_slot_floats((size_t)rows * cols);
    tl_timed_init(&t->timed, what, worker, slots, t->stride * sizeof(float), secret);
    t->in = in;
    t->out = out;
    t->rows = rows;
    t->cols = cols;
    t->check_output = check_output;
    if (check_output)
        tl_timed_confirm_outputs(&t->timed, out, (size_t)rows * cols);
}

tl_bench_work tl_timed_transpose_work(tl_timed_transpose *t)
{
    return tl_timed_work(&t->timed, prepare, run, check);
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
    /* The warm-up before the fresh inputs, never after (bench.h: prepare). */
    tl_worker_warm(t->timed.worker);
    tl_fill_hashed(t->a, t->stride * t->timed.slots, tl_timed_reseed(&t->timed));
    CHECK_CUDA(cudaStreamSynchronize(0));
}

static void inplace_run(void *ctx)
{
    tl_timed_inplace *t = (tl_timed_inplace *)ctx;
    tl_timed_request(&t->timed, TL_OP_INPLACE, t->a, NULL, NULL, t->n, 0, 0);
}

static void inplace_check(void *ctx)
{
    tl_timed_inplace *t = (tl_timed_inplace *)ctx;
    tl_timed *d = &t->timed;
    if (tl_timed_request_failed(d))
        return;
    if (d->allocs) {
        tl_timed_wrong(d, "the timed calls allocated device memory (%u cudaMalloc calls): in place means no "
                       "second buffer", d->allocs);
        return;
    }
    tl_gpu_check c = tl_check_inplace(t->a, t->n, d->slots, t->stride, d->seed);
    if (!c.wrong) {
        tl_timed_confirm(d);
        return;
    }
    size_t j = (size_t)c.first % t->stride;
    tl_timed_wrong(d, "timed call %d of %d: (row %zu, col %zu) is %g, expected %g; %llu elements wrong. Every "
                   "timed call gets new input and must do all its work",
                   d->calls - d->slots + (int)((size_t)c.first / t->stride) + 1, d->calls, j / t->n, j % t->n,
                   c.got, c.expected, c.wrong);
}

void tl_timed_inplace_init(tl_timed_inplace *t, tl_worker *worker, float *a, int n, int slots, uint64_t secret)
{
    memset(t, 0, sizeof *t);
    t->stride = tl_slot_floats((size_t)n * n);
    tl_timed_init(&t->timed, "your kernel", worker, slots, t->stride * sizeof(float), secret);
    t->a = a;
    t->n = n;
    tl_timed_confirm_outputs(&t->timed, a, (size_t)n * n);
}

tl_bench_work tl_timed_inplace_work(tl_timed_inplace *t)
{
    return tl_timed_work(&t->timed, inplace_prepare, inplace_run, inplace_check);
}

void tl_timed_inplace_once(tl_timed_inplace *t)
{
    inplace_prepare(t);
    inplace_run(t);
    inplace_check(t);
}

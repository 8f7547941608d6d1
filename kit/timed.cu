/* timed.cu — the shared part of a worker's timed work (see timed.h). */
#include "timed.h"
#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void confirm_at_reply(tl_timed *t);

uint64_t tl_next_secret(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ull;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int tl_timed_slots(int wanted, int buffers, size_t slot_floats)
{
    size_t free_bytes = 0, total_bytes = 0;
    CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
    int slots = wanted;
    while (slots > 1 && (double)buffers * slots * slot_floats * sizeof(float) > 0.6 * free_bytes)
        slots--;
    return slots;
}

int tl_timed_side(uint64_t *state, int around)
{
    int side = around + 32 * (int)(tl_next_secret(state) % 17) - 256;
    return side < 32 ? around : side;
}

void tl_timed_init(tl_timed *t, const char *what, tl_worker *worker, int slots, size_t slot_bytes, uint64_t secret)
{
    memset(t, 0, sizeof *t);
    t->what = what;
    t->worker = worker;
    t->slots = slots;
    t->slot_bytes = slot_bytes;
    t->next_seed = secret;
}

uint64_t tl_timed_reseed(tl_timed *t)
{
    return t->seed = tl_next_secret(&t->next_seed);
}

void tl_timed_request(tl_timed *t, tl_worker_op op, void *p0, void *p1, void *p2, int a0, int a1, int a2)
{
    void *const ptrs[TL_WORKER_MAX_PTRS] = {p0, p1, p2};
    const int args[TL_WORKER_MAX_ARGS] = {a0, a1, a2};
    if (t->failed && t->outcome.status != TL_RUN_OK)
        return;   /* the worker is gone: no more calls, the samples are void */
    tl_worker_run(t->worker, op, ptrs, args, (unsigned)t->slots, t->slot_bytes, 0, &t->outcome);
    confirm_at_reply(t);
    t->allocs += t->outcome.device_allocs;
}

int tl_timed_request_failed(tl_timed *t)
{
    if (t->outcome.status == TL_RUN_OK) {
        t->calls += t->slots;
        return 0;
    }
    if (!t->failed)
        snprintf(t->verification, sizeof t->verification, "%s: %s", t->what,
                 t->outcome.status == TL_RUN_CUDA_ERROR ? cudaGetErrorName((cudaError_t)t->outcome.cuda_error)
                                                        : t->outcome.message);
    t->failed = t->calls + 1;
    return 1;
}

void tl_timed_wrong(tl_timed *t, const char *fmt, ...)
{
    if (!t->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(t->verification, sizeof t->verification, fmt, ap);
        va_end(ap);
    }
    t->failed++;
}

/* The request's own time (timed.h's outcome), for tl_bench_interleaved. */
static double request_ms(void *ctx)
{
    return 1e3 * ((tl_timed *)ctx)->outcome.seconds;
}

tl_bench_work tl_timed_work(tl_timed *t, tl_work_fn prepare, tl_work_fn run, tl_work_fn check)
{
    tl_bench_work w = {run, t, t->slots, prepare, check, request_ms};
    return w;
}

/* ---- the judge's confirmation that the work was done by the reply ---- */

static unsigned *confirm_host;   /* pinned, so the reads stay copy-engine transfers */

void tl_timed_confirm_outputs(tl_timed *t, float *out, size_t floats)
{
    t->confirm_out = out;
    t->confirm_floats = floats;
    t->confirm_state = t->next_seed ^ 0x5EC0AD5EC0AD5EC0ull;
}

/* The words at the drawn positions, read by the judge now. */
static void confirm_read(const tl_timed *t, unsigned *words)
{
    if (!confirm_host)
        CHECK_CUDA(cudaMallocHost((void **)&confirm_host, sizeof(unsigned) * TL_CONFIRM_POINTS));
    const char *base = (const char *)t->confirm_out;
    for (int i = 0; i < t->confirm_count; i++)
        CHECK_CUDA(cudaMemcpyAsync(confirm_host + i, base + t->confirm_at[i], sizeof(unsigned),
                                   cudaMemcpyDeviceToHost, 0));
    CHECK_CUDA(cudaStreamSynchronize(0));
    memcpy(words, confirm_host, sizeof(unsigned) * t->confirm_count);
}

/* Right after a reply: the outputs as they are now, at fresh secret positions. */
static void confirm_at_reply(tl_timed *t)
{
    t->confirm_count = 0;
    if (!t->confirm_out || !t->confirm_floats || t->outcome.status != TL_RUN_OK)
        return;
    for (int i = 0; i < TL_CONFIRM_POINTS; i++) {
        uint64_t r = tl_next_secret(&t->confirm_state);
        /* Half in the last slot, whose launch ends last. */
        int slot = i % 2 ? t->slots - 1 : (int)(r % (uint64_t)t->slots);
        size_t element = (size_t)((r >> 16) % t->confirm_floats);
        t->confirm_at[i] = (size_t)slot * t->slot_bytes + element * sizeof(float);
    }
    t->confirm_count = TL_CONFIRM_POINTS;
    confirm_read(t, t->confirm_seen);
}

int tl_timed_confirm(tl_timed *t)
{
    if (!t->confirm_count)
        return 0;
    unsigned now[TL_CONFIRM_POINTS];
    confirm_read(t, now);
    for (int i = 0; i < t->confirm_count; i++) {
        if (now[i] == t->confirm_seen[i])
            continue;
        float then_f, now_f;
        memcpy(&then_f, &t->confirm_seen[i], sizeof then_f);
        memcpy(&now_f, &now[i], sizeof now_f);
        int slot = (int)(t->confirm_at[i] / t->slot_bytes);
        tl_timed_wrong(t, "timed call %d of %d: output element %zu was %g when the reply came and %g later: the "
                       "reply came before the work was done, so the judge cannot time it. Only the worker "
                       "replies, after cudaDeviceSynchronize; nothing in a lab file may stand in for either",
                       t->calls - t->slots + slot + 1, t->calls, t->confirm_at[i] % t->slot_bytes / sizeof(float),
                       then_f, now_f);
        return 1;
    }
    return 0;
}

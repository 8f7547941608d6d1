/* devbuf.cu — guarded device buffers. */
#include "devbuf.h"
#include "check.h"

#include <stdlib.h>

static uint32_t *canary_block(void)
{
    static uint32_t *block;   /* one host copy of a guard's worth of canary */
    if (!block) {
        block = (uint32_t *)malloc(TL_GUARD_WORDS * sizeof *block);
        if (!block) {
            tl_check_cuda(cudaErrorMemoryAllocation, "malloc(canary)", __FILE__, __LINE__);
            return NULL;
        }
        tl_guard_fill(block, TL_GUARD_WORDS);
    }
    return block;
}

static void write_guards(tl_devbuf *b)
{
    const size_t bytes = TL_GUARD_WORDS * sizeof(uint32_t);
    CHECK_CUDA(cudaMemcpy(b->base, canary_block(), bytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b->base + TL_GUARD_WORDS + b->n, canary_block(), bytes, cudaMemcpyHostToDevice));
}

void tl_devbuf_alloc(tl_devbuf *b, size_t n)
{
    b->n = n;
    CHECK_CUDA(cudaMalloc((void **)&b->base, (n + 2 * TL_GUARD_WORDS) * sizeof(uint32_t)));
    b->data = (float *)(b->base + TL_GUARD_WORDS);
    write_guards(b);
}

void tl_devbuf_free(tl_devbuf *b)
{
    if (b->base)
        CHECK_CUDA(cudaFree(b->base));
    b->base = NULL;
    b->data = NULL;
}

void tl_devbuf_upload(tl_devbuf *b, const float *host)
{
    CHECK_CUDA(cudaMemcpy(b->data, host, b->n * sizeof(float), cudaMemcpyHostToDevice));
    write_guards(b);
}

void tl_devbuf_poison(tl_devbuf *b)
{
    CHECK_CUDA(cudaMemset(b->data, 0xFF, b->n * sizeof(float)));   /* TL_POISON */
    write_guards(b);
}

tl_guard_report tl_devbuf_download(const tl_devbuf *b, float *host)
{
    const size_t bytes = TL_GUARD_WORDS * sizeof(uint32_t);
    uint32_t *before = (uint32_t *)malloc(2 * bytes), *after = before + TL_GUARD_WORDS;
    tl_guard_report g = {0, 0};
    if (!before) {
        tl_check_cuda(cudaErrorMemoryAllocation, "malloc(guard copy)", __FILE__, __LINE__);
        return g;
    }
    if (host)
        CHECK_CUDA(cudaMemcpy(host, b->data, b->n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(before, b->base, bytes, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaMemcpy(after, b->base + TL_GUARD_WORDS + b->n, bytes, cudaMemcpyDeviceToHost));
    g = tl_guard_scan(before, after, TL_GUARD_WORDS, b->n);
    free(before);
    return g;
}

/* devbuf.cu — guarded device buffers. */
#include "devbuf.h"
#include "check.h"

#include <stdlib.h>

static void write_guards(tl_devbuf *b)
{
    const size_t bytes = TL_GUARD_WORDS * sizeof(uint32_t);
    uint32_t *guard = (uint32_t *)malloc(bytes);
    if (!guard) {
        tl_check_cuda(cudaErrorMemoryAllocation, "malloc(guard)", __FILE__, __LINE__);
        return;
    }
    tl_guard_fill(guard, TL_GUARD_WORDS, b->canary);
    CHECK_CUDA(cudaMemcpy(b->base, guard, bytes, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(b->base + TL_GUARD_WORDS + b->n, guard, bytes, cudaMemcpyHostToDevice));
    free(guard);
}

void tl_devbuf_alloc(tl_devbuf *b, size_t n)
{
    static unsigned allocated;
    b->n = n;
    b->canary = tl_canary(allocated++);
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
    g = tl_guard_scan(before, after, TL_GUARD_WORDS, b->n, b->canary);
    free(before);
    return g;
}

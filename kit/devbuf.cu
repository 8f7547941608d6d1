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

/*
 * The buffers come from a few large allocations (chunks) kept for the
 * process's life. A judge shares its buffers with the worker by CUDA IPC,
 * and a worker maps them only as it starts, before its sandbox closes: a
 * cudaMalloc per test meant a new worker, a new CUDA context, per test.
 * With chunks, one worker serves test after test. A chunk is reused from
 * its start once every buffer in it is freed; freeing makes no CUDA call,
 * so it is safe after a kernel fault too.
 */
enum { MAX_CHUNKS = 8 };
static const size_t CHUNK_BYTES = (size_t)1 << 30;
/* Every buffer's data starts 512-byte aligned (its guard is 2^16 words): a texture object over
 * linear memory needs cudaDeviceProp::textureAlignment, 512 on every GPU the kit supports. With
 * cudaMalloc's 256, lab 1's fair/lab1/texture_object_input lost its round trip on an H200
 * (cudaErrorInvalidValue where the second buffer started 256 bytes past 512, 2026-11-29). */
static const size_t ALIGN = 512;

typedef struct {
    char *base;
    size_t size, used;
    unsigned live;
} chunk;

static chunk chunks[MAX_CHUNKS];

static uint32_t *chunk_take(size_t bytes)
{
    bytes = (bytes + ALIGN - 1) / ALIGN * ALIGN;
    /* A chunk whose buffers are all freed starts over (tl_devbuf_free). */
    for (int i = 0; i < MAX_CHUNKS && chunks[i].base; i++) {
        chunk *c = &chunks[i];
        if (c->size - c->used >= bytes) {
            uint32_t *p = (uint32_t *)(c->base + c->used);
            c->used += bytes;
            c->live++;
            return p;
        }
    }
    int i = 0;
    while (i < MAX_CHUNKS && chunks[i].base)
        i++;
    if (i == MAX_CHUNKS) {   /* every chunk busy: a leak of the kit's own */
        tl_check_cuda(cudaErrorMemoryAllocation, "tl_devbuf_alloc: every chunk in use", __FILE__, __LINE__);
        return NULL;
    }
    chunk *c = &chunks[i];
    c->size = bytes > CHUNK_BYTES ? bytes : CHUNK_BYTES;
    if (cudaMalloc((void **)&c->base, c->size) != cudaSuccess) {
        (void)cudaGetLastError();   /* a small GPU: just what this buffer needs */
        c->size = bytes;
        CHECK_CUDA(cudaMalloc((void **)&c->base, c->size));
    }
    c->used = bytes;
    c->live = 1;
    return (uint32_t *)c->base;
}

void tl_devbuf_alloc(tl_devbuf *b, size_t n)
{
    static unsigned allocated;
    b->n = n;
    b->canary = tl_canary(allocated++);
    b->base = chunk_take((n + 2 * TL_GUARD_WORDS) * sizeof(uint32_t));
    b->data = (float *)(b->base + TL_GUARD_WORDS);
    write_guards(b);
}

void tl_devbuf_free(tl_devbuf *b)
{
    for (int i = 0; i < MAX_CHUNKS && b->base; i++)
        if ((char *)b->base >= chunks[i].base && (char *)b->base < chunks[i].base + chunks[i].size) {
            if (chunks[i].live)
                chunks[i].live--;
            if (chunks[i].live == 0)
                chunks[i].used = 0;
        }
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
    tl_fill_words_async(b->data, TL_POISON, b->n, 0);
    CHECK_CUDA(cudaDeviceSynchronize());
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

/* A 32-bit pattern no memset can write (TL_POISON). */
__global__ void tl_fill_words_kernel(uint32_t *words, uint32_t bits, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        words[i] = bits;
}

void tl_fill_words_async(void *words, uint32_t bits, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return;
    size_t blocks = (n + 255) / 256;
    tl_fill_words_kernel<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256, 0, stream>>>((uint32_t *)words, bits, n);
    CHECK_CUDA(cudaGetLastError());
}

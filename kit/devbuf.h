/*
 * devbuf.h — device buffers with guard regions (see guard.h).
 *
 * A tl_devbuf is n floats on the GPU with TL_GUARD_WORDS canary words before
 * and after. Kernels get `data`; the guards tell whether they stayed inside.
 */
#ifndef TILELAB_DEVBUF_H
#define TILELAB_DEVBUF_H

#include <stddef.h>
#include <stdint.h>
#include "guard.h"
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    uint32_t *base;   /* start of the allocation: the guard before */
    float *data;      /* the n elements a kernel sees */
    size_t n;
    uint32_t canary;  /* this buffer's own guard value */
} tl_devbuf;

void tl_devbuf_alloc(tl_devbuf *b, size_t n);
void tl_devbuf_free(tl_devbuf *b);
/* Copy n floats in and (re)write both guards. */
void tl_devbuf_upload(tl_devbuf *b, const float *host);
/* n 32-bit words set to `bits`, on `stream` (TL_POISON: a memset cannot write it). */
void tl_fill_words_async(void *words, uint32_t bits, size_t n, cudaStream_t stream);

/* Fill the data with TL_POISON (NaN) and (re)write both guards. */
void tl_devbuf_poison(tl_devbuf *b);
/* Copy the data out (host may be NULL) and report any overwritten guard word. */
tl_guard_report tl_devbuf_download(const tl_devbuf *b, float *host);

#ifdef __cplusplus
}
#endif

#endif

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
/* Fill the data with TL_POISON (NaN) and (re)write both guards. */
void tl_devbuf_poison(tl_devbuf *b);
/* Copy the data out (host may be NULL) and report any overwritten guard word. */
tl_guard_report tl_devbuf_download(const tl_devbuf *b, float *host);

#ifdef __cplusplus
}
#endif

#endif

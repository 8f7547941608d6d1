/*
 * guard.h — guard regions around device buffers.
 *
 * Each buffer is allocated with `guard` extra words before and after it,
 * filled with a canary. After a launch the kit reads the guards back: a word
 * that is no longer the canary was written by the kernel, outside the buffer,
 * even where no sanitizer is running and no fault was raised.
 */
#ifndef TILELAB_GUARD_H
#define TILELAB_GUARD_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A NaN bit pattern a kernel is most unlikely to produce by computing. Each
 * buffer's guards use their own variant (bits 8-15 numbered), so a value read
 * past one buffer and written past another still shows as a change. */
#define TL_CANARY 0x7FA5C0DEu
#define TL_CANARY_MASK 0xFFFF00FFu
/* Output buffers are poisoned before every launch with a signalling NaN,
 * compared bitwise: arithmetic on a signalling NaN quiets it (the GPU's
 * NaNs are 0x7FFFFFFF, x86's keep the payload but set the quiet bit), so only
 * an element nothing wrote, or a plain copy of the poison, still holds these
 * bits; a NaN the kernel computed or stored reads as a wrong value. */
#define TL_POISON 0xFFBFFFFFu
/* Shared memory is poisoned with another one before tests (the worker,
 * kit/case.cu): a word read before any thread wrote it, copied out as is. */
#define TL_SHARED_POISON 0x7FB5EA5Eu
/* Whether a float holds exactly these bits. */
static inline int tl_bits_are(float v, uint32_t bits)
{
    union { float f; uint32_t u; } x;
    x.f = v;
    return x.u == bits;
}
/* Words of guard on each side: catches overruns of a few rows of 8K floats. */
#define TL_GUARD_WORDS ((size_t)1 << 16)

typedef struct {
    size_t count;       /* guard words overwritten */
    long long offset;   /* first one, in elements relative to the buffer start:
                           negative = before it, >= n = past its end */
} tl_guard_report;

/* The canary of the k-th guarded buffer. */
uint32_t tl_canary(unsigned k);
/* Is this a canary of any buffer (a value read from outside a buffer)? */
int tl_is_canary(uint32_t bits);

void tl_guard_fill(uint32_t *guard_words, size_t guard, uint32_t canary);
/* Scan the guard before and the guard after an n-element buffer. */
tl_guard_report tl_guard_scan(const uint32_t *before, const uint32_t *after, size_t guard, size_t n,
                              uint32_t canary);

/* "wrote outside the output at offset 1056 (32 elements past its end of 1024); 96 guard words changed" */
void tl_describe_guard(const tl_guard_report *g, const char *buffer_name, size_t n, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif

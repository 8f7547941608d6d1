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

/* A NaN bit pattern a kernel is most unlikely to produce by computing. */
#define TL_CANARY 0x7FA5C0DEu
/* Output buffers are poisoned with 0xFF bytes (a NaN) before every launch. */
#define TL_POISON 0xFFFFFFFFu
/* Words of guard on each side: catches overruns of a few rows of 8K floats. */
#define TL_GUARD_WORDS ((size_t)1 << 16)

typedef struct {
    size_t count;       /* guard words overwritten */
    long long offset;   /* first one, in elements relative to the buffer start:
                           negative = before it, >= n = past its end */
} tl_guard_report;

void tl_guard_fill(uint32_t *guard_words, size_t guard);
/* Scan the guard before and the guard after an n-element buffer. */
tl_guard_report tl_guard_scan(const uint32_t *before, const uint32_t *after, size_t guard, size_t n);

/* "wrote outside the output at offset 1056 (32 elements past its end of 1024); 96 guard words changed" */
void tl_describe_guard(const tl_guard_report *g, const char *buffer_name, size_t n, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif

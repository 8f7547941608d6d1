/*
 * cuda_pipeline.h — CPU mode's asynchronous copies (the toolkit's
 * __pipeline_* primitives, cp.async on sm_80 and newer). Here a copy is
 * done when it is issued, so a commit and a wait have nothing left to do:
 * one of the orders a GPU may give, and every barrier still counts (the race
 * check sees the copy's store to shared memory when it is issued). The copy
 * reads and writes in its own width (4, 8 or 16 bytes), so the counters see
 * the requests cp.async makes.
 */
#ifndef TILELAB_CPU_CUDA_PIPELINE_H
#define TILELAB_CPU_CUDA_PIPELINE_H

#include <cuda_runtime.h>

namespace tlc {
template <size_t N> struct alignas(N) copy_unit { unsigned char b[N]; };
/* `size_and_align` bytes (4, 8 or 16) to dst; the last `zfill` of them zeros,
 * not read. `move(d, s, n)` moves n bytes (16, 8, 4 or 1) at the caller's line. */
template <class M> inline void pipeline_copy(void *dst, const void *src, M move, size_t size_and_align, size_t zfill = 0)
{
    if ((size_and_align != 4 && size_and_align != 8 && size_and_align != 16) || zfill > size_and_align)
        tlc_unsupported("__pipeline_memcpy_async of other than 4, 8 or 16 bytes", __FILE__, __LINE__);
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    size_t copied = size_and_align - zfill, i = 0;
    if (copied == size_and_align) {
        move(d, s, (int)size_and_align);
        return;
    }
    for (; i + 4 <= copied; i += 4)
        move(d + i, s + i, 4);
    for (; i < copied; i++)
        move(d + i, s + i, 1);
    for (; i < size_and_align; i++)
        d[i] = 0;
}
}

/* A macro, so that each access is counted on the line that asks for the copy. */
#define __pipeline_memcpy_async(dst, src, ...)                                                               \
    ::tlc::pipeline_copy((dst), (src), [](unsigned char *tlc_d, const unsigned char *tlc_s, int tlc_n) {     \
        if (tlc_n == 16) *(::tlc::copy_unit<16> *)tlc_d = *(const ::tlc::copy_unit<16> *)tlc_s;             \
        else if (tlc_n == 8) *(::tlc::copy_unit<8> *)tlc_d = *(const ::tlc::copy_unit<8> *)tlc_s;           \
        else if (tlc_n == 4) *(float *)tlc_d = *(const float *)tlc_s;                                       \
        else *tlc_d = *tlc_s;                                                                                \
    }, __VA_ARGS__)
inline void __pipeline_commit() {}
inline void __pipeline_wait_prior(size_t) {}

#endif

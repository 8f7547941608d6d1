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
}

/* `size_and_align` bytes (4, 8 or 16) to dst; the last `zfill` of them zeros, not read. */
inline void __pipeline_memcpy_async(void *dst, const void *src, size_t size_and_align, size_t zfill = 0)
{
    if ((size_and_align != 4 && size_and_align != 8 && size_and_align != 16) || zfill > size_and_align)
        tlc_unsupported("__pipeline_memcpy_async of other than 4, 8 or 16 bytes", __FILE__, __LINE__);
    if (zfill == 0 && size_and_align == 16)
        *(tlc::copy_unit<16> *)dst = *(const tlc::copy_unit<16> *)src;
    else if (zfill == 0 && size_and_align == 8)
        *(tlc::copy_unit<8> *)dst = *(const tlc::copy_unit<8> *)src;
    else {
        size_t copied = size_and_align - zfill, i = 0;
        for (; i + 4 <= copied; i += 4)
            ((float *)dst)[i / 4] = ((const float *)src)[i / 4];
        for (; i < copied; i++)
            ((unsigned char *)dst)[i] = ((const unsigned char *)src)[i];
        for (; i < size_and_align; i++)
            ((unsigned char *)dst)[i] = 0;
    }
}
inline void __pipeline_commit() {}
inline void __pipeline_wait_prior(size_t) {}

#endif

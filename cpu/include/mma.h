/*
 * mma.h — CPU mode has no tensor cores. The names of nvcuda::wmma exist, so a
 * file whose wmma code is built for a GPU only (inside #if __CUDA_ARCH__ >= 800,
 * which the CPU build never defines) builds here, as an experiment left in a
 * lab 4 file must (tests/submissions/fair/lab4/unlaunched_tf32_wmma.cu); any
 * use of them stops the build with "not supported in CPU mode: wmma".
 */
#ifndef TILELAB_CPU_MMA_H
#define TILELAB_CPU_MMA_H

#include <cuda_runtime.h>

namespace nvcuda {
namespace wmma {
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
namespace precision {
struct tf32;
struct b1;
struct s4;
struct u4;
} // namespace precision
enum layout_t { mem_row_major, mem_col_major };
template <class... A> struct tlc_no_wmma {
    static constexpr bool value = sizeof...(A) < 0;
};
template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment {
    static_assert(tlc_no_wmma<Use, T>::value, "not supported in CPU mode: wmma (tensor cores)");
};
template <class... A> inline void fill_fragment(A &&...)
{
    static_assert(tlc_no_wmma<A...>::value, "not supported in CPU mode: wmma (tensor cores)");
}
template <class... A> inline void load_matrix_sync(A &&...)
{
    static_assert(tlc_no_wmma<A...>::value, "not supported in CPU mode: wmma (tensor cores)");
}
template <class... A> inline void store_matrix_sync(A &&...)
{
    static_assert(tlc_no_wmma<A...>::value, "not supported in CPU mode: wmma (tensor cores)");
}
template <class... A> inline void mma_sync(A &&...)
{
    static_assert(tlc_no_wmma<A...>::value, "not supported in CPU mode: wmma (tensor cores)");
}
} // namespace wmma
} // namespace nvcuda

#endif

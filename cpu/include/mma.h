/*
 * mma.h — CPU mode has no tensor cores. nvcuda::wmma's names and types exist,
 * so a file that holds wmma code builds here (an experiment left in a lab 4
 * file and never launched: tests/submissions/fair/lab4/unlaunched_tf32_wmma.cu);
 * a wmma call that runs stops the case with "not supported in CPU mode: wmma
 * (tensor cores) at FILE:LINE", as atomicAdd does.
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
template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment {
    enum { num_elements = 8 };
    float x[num_elements];
};
template <class F, class V>
inline void fill_fragment(F &, const V &, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    tlc_unsupported("wmma (tensor cores)", file, line);
}
template <class F, class T>
inline void load_matrix_sync(F &, const T *, unsigned, const char *file = __builtin_FILE(), int line = __builtin_LINE())
{
    tlc_unsupported("wmma (tensor cores)", file, line);
}
template <class F, class T>
inline void load_matrix_sync(F &, const T *, unsigned, layout_t, const char *file = __builtin_FILE(),
                             int line = __builtin_LINE())
{
    tlc_unsupported("wmma (tensor cores)", file, line);
}
template <class T, class F>
inline void store_matrix_sync(T *, const F &, unsigned, layout_t, const char *file = __builtin_FILE(),
                              int line = __builtin_LINE())
{
    tlc_unsupported("wmma (tensor cores)", file, line);
}
template <class D, class A, class B, class C>
inline void mma_sync(D &, const A &, const B &, const C &, const char *file = __builtin_FILE(),
                     int line = __builtin_LINE())
{
    tlc_unsupported("wmma (tensor cores)", file, line);
}
template <class T> inline float __float_to_tf32(T v) { return (float)v; }
} // namespace wmma
} // namespace nvcuda

#endif

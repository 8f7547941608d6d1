/*
 * cooperative_groups/reduce.h — CPU mode's cg::reduce over a tile of 32
 * threads or fewer: a butterfly of shuffles, as on a GPU.
 */
#ifndef TILELAB_CPU_CG_REDUCE_H
#define TILELAB_CPU_CG_REDUCE_H

#include <cooperative_groups.h>

namespace cooperative_groups {
template <class T> struct plus { T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(T a, T b) const { return a < b ? b : a; } };
template <class T> struct bit_and { T operator()(T a, T b) const { return a & b; } };
template <class T> struct bit_or { T operator()(T a, T b) const { return a | b; } };
template <class T> struct bit_xor { T operator()(T a, T b) const { return a ^ b; } };

template <unsigned N, class T, class Op> T reduce(const thread_block_tile<N> &g, T value, Op op)
{
    for (unsigned lanes = N / 2; lanes > 0; lanes /= 2)
        value = op(value, g.shfl_xor(value, (int)lanes));
    return value;
}
} // namespace cooperative_groups

#endif

/*
 * Fair (lab 1): the block shape as template parameters, the way libraries
 * instantiate one kernel for several configurations: transpose_naive<BX, BY>
 * launched with its arguments written out, transpose_naive<32, 8><<<...>>>.
 * The kernel uses BX and BY, compile-time constants, instead of blockDim.
 * The kernel is the reference's (one element a thread, 32 x 8 threads):
 * reads coalesced, writes strided.
 * Full marks: the reference's accesses and speed (0.158 of copy, H100;
 * lab 1 is full from 0.10).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

template <int BX, int BY>
__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    static_assert(BX % 32 == 0, "whole warps along a row, for coalesced reads");
    int c = blockIdx.x * BX + threadIdx.x;
    int r = blockIdx.y * BY + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    constexpr int bx = 32, by = 8;
    dim3 grid(CEIL_DIV(cols, bx), CEIL_DIV(rows, by));
    transpose_naive<bx, by><<<grid, dim3(bx, by)>>>(in, out, rows, cols);
}

/*
 * Fair (lab 1): the reference kernel with its index arithmetic moved into an
 * ordinary `__device__` helper function, declared the way every CUDA
 * tutorial declares one: not inline, not static, not __forceinline__.
 * nvcc inlines it into the kernel anyway (one call site, a few integer ops);
 * what it also does, for any non-inline __device__ function, is emit a host
 * stub of the same name whose body traps (calls exit) if host code ever
 * called it. That stub is nvcc's, not the student's: nothing here runs outside
 * the launch function. Same accesses and speed as the reference (reads
 * coalesced, writes strided, 32 x 8 threads): full marks, lab 1 is full from
 * 0.10 of copy and the reference measures 0.158 (H100).
 * Today the inspector refuses it ("your file calls exit", issue 27): that is
 * the bug, not this file.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { BLOCK_X = 32, BLOCK_Y = 8 };

/* Where element (r, c) of a rows x cols row-major matrix lives. */
__device__ size_t offset_of(int r, int c, int cols)
{
    return (size_t)r * cols + c;
}

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[offset_of(c, r, rows)] = in[offset_of(r, c, cols)];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

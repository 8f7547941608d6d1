/*
 * Fair (lab 1): the shape lives in __constant__ memory, two ints set with
 * cudaMemcpyToSymbol before the launch, as many courses teach for
 * "parameters every thread reads". A symbol copy of 8 bytes is no shortcut:
 * the transpose is the kernel's (the reference's, 32 x 8 threads, one element
 * each). The copy costs some microseconds per call against a launch of some
 * 3 ms at 8192 x 8192: full marks.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { BLOCK_X = 32, BLOCK_Y = 8 };

__constant__ int shape[2];   /* rows, cols */

__global__ void transpose_naive(const float *in, float *out)
{
    int rows = shape[0], cols = shape[1];
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    const int host_shape[2] = {rows, cols};
    if (cudaMemcpyToSymbol(shape, host_shape, sizeof host_shape) != cudaSuccess)
        return;
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    transpose_naive<<<grid, block>>>(in, out);
}

/*
 * Fair (lab 1): a device-side assert left in, checking an invariant that
 * holds (the output offset lies inside out's rows x cols elements). assert
 * in a kernel is standard CUDA (<assert.h>, a system header; the
 * programming guide's "Assertion" section): nvcc compiles it to a call of
 * __assertfail on the device, which only a failing assert reaches. It never
 * fires here. The rest is the reference.
 * Full marks: one compare per element in a memory-bound kernel (0.158 of
 * copy on the H100 for the reference; lab 1 is full from 0.10).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"
#include <assert.h>

enum { BLOCK_X = 32, BLOCK_Y = 8 };

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        size_t dst = (size_t)c * rows + r;
        assert(dst < (size_t)rows * cols);
        out[dst] = in[(size_t)r * cols + c];
    }
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

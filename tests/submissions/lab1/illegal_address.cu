/* Fixture: stores far outside any allocation.
 * Expected: every test fails with cudaErrorIllegalAddress (tests/gpu/grading.c). */
#include "tilelab.h"

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[((size_t)1 << 40) + (size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

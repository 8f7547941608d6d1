/* Lab 1: a syntax error (missing semicolon on line 8): could not grade, and the compiler line names this file.
 * expect-cpu: exit 2, score 0, "does_not_compile.cu(8): error"
 * expect: exit 2, score 0, "does_not_compile.cu(8): error" */
#include "tilelab.h"
__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

/* Fixture: the kernel does nothing.
 * Expected: zero correctness, 'nothing was written' (tests/gpu/grading.c). */
#include "tilelab.h"

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

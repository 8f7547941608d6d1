/* Fixture: the kernel never ends.
 * Expected: every test 'timed out' (tests/gpu/grading.c). */
#include "tilelab.h"

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    /* clock64() is volatile: the compiler cannot drop this loop. */
    while (clock64() >= 0) {
    }
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

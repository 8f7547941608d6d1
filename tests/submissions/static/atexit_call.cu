/* Judged at run time: the launch registers a function with atexit; the worker ends with _exit, so it never runs; inspect must print nothing. */
#include <stdlib.h>
#include "tilelab.h"

__global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static volatile int finished;
static void at_the_end(void)
{
    finished = 1;
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    atexit(at_the_end);
    dim3 block(32, 8), grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    LAUNCH(transpose_padded, grid, block)(in, out, rows, cols);
}

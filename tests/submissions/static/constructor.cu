/* Judged at run time: a constructor runs when the worker maps the file, inside its sandbox (no code of the file runs before it); inspect must print nothing. */
#include "tilelab.h"

__global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static volatile int warmed_up;
__attribute__((constructor)) static void warm_up(void)
{
    warmed_up = 1;
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8), grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    LAUNCH(transpose_padded, grid, block)(in, out, rows, cols);
}

/* Judged at run time: exit reached through a table of function pointers in the file's data. The worker reports it as the call that ended that request; inspect must print nothing. */
#include <stdlib.h>
#include "tilelab.h"

static void (*const endings[])(int) = {exit};

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    if (rows == 1)
        endings[cols & 0](0);
    dim3 block(32, 8), grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
}

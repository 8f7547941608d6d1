/* Attack: a global write() of its own, which would stand in for libc's wherever the worker's program binds to it; inspect must say "defines: write:", naming libc.so.6 (read from the worker's own link). */
#include <stddef.h>
#include "tilelab.h"

extern "C" long write(int fd, const void *buf, size_t n)
{
    (void)fd, (void)buf;
    return (long)n;
}

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8), grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
}

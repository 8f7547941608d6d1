/*
 * Lab 1 — naive transpose: reference solution.
 *
 * One thread per element. x runs along the columns of `in`, so the 32 threads
 * of a warp read 32 neighbouring floats (one 128-byte line: coalesced) and
 * write them `rows` floats apart (32 separate sectors: strided). That
 * asymmetry is the lesson; lab 2 removes it with a shared-memory tile.
 */
#include "tilelab.h"

enum { BLOCK_X = 32, BLOCK_Y = 8 };

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

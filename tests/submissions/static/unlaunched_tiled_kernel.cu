/* Attack: a naive kernel launched beside a tiled one never launched (lab 2); inspect finds nothing (no call is wrong); ptx-structure on the launched kernel must say "no shared memory". */
/* launch_transpose runs a naive transpose; a tiled kernel with shared memory
 * and a barrier sits beside it and is never launched. A check that greps the
 * whole file's PTX finds `ld.shared` and `bar.sync` and awards the structure
 * points; judged per kernel, on the kernel ncu saw run (transpose_naive),
 * the structure is missing.
 * Expected: ptx-structure --kernel 'transpose_naive(const float *, float *, int, int)'
 * reports no shared memory and no barrier (tests/unit/ptx.c). */
#include "tilelab.h"

enum { TILE = 32, BLOCK_ROWS = 8 };

/* Never launched: only here so that the file's PTX has shared memory and a barrier. */
__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];

    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    int out_c = blockIdx.y * TILE + threadIdx.x;
    int out_r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (out_r + j < cols && out_c < rows)
            out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
}

/* What actually runs: one thread per element, straight from global memory. */
__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, BLOCK_ROWS));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

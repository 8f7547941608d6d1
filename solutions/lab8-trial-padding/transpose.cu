/*
 * Lab 3 — padding against bank conflicts: reference solution.
 *
 * A block stages a 32 x 32 tile: reads walk along rows of `in` and writes
 * along rows of `out`, so both are coalesced; the transposition happens in
 * shared memory. 32 x 8 threads each move 4 elements: more bytes in flight
 * per thread, and more blocks fit on an SM than with 32 x 32 threads.
 * The tile has one extra column: row r of it starts at bank r mod 32, so the
 * column reads of the store phase spread over all 32 banks.
 */
#include "tilelab.h"

enum { TILE = 32, BLOCK_ROWS = 8 }; static_assert(TILE % BLOCK_ROWS == 0, "each thread moves TILE / BLOCK_ROWS rows of a tile");

__global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];   /* + 1: no bank conflicts */

    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];

    /* Every thread must finish loading before any thread reads another's element. */
    __syncthreads();

    /* The block's origin swaps: its tile lands at row blockIdx.x*TILE, column blockIdx.y*TILE of out. */
    int out_c = blockIdx.y * TILE + threadIdx.x;
    int out_r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (out_r + j < cols && out_c < rows)
            out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    LAUNCH(transpose_padded, grid, block)(in, out, rows, cols);
}

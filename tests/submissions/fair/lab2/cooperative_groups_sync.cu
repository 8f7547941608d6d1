/*
 * Fair (lab 2): the barrier written with cooperative groups,
 * cooperative_groups::this_thread_block().sync(), as the programming
 * guide's "Cooperative Groups" chapter recommends over __syncthreads(). It
 * compiles to the same bar.sync (the PTX has a barrier, so the structure
 * rule holds). Otherwise the reference: a [32][32] tile, 32 x 8 threads.
 * Full marks: the same instructions as the reference (0.611 of copy on the
 * H100, 0.456 on the H200; lab 2 is full from 0.35).
 * CPU mode runs it since 2026-11-27 (cooperative groups, warp
 * intrinsics, device and occupancy queries: cpu/include/): full marks.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"
#include <cooperative_groups.h>

enum { TILE = 32, BLOCK_ROWS = 8 };

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    cooperative_groups::thread_block block = cooperative_groups::this_thread_block();

    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];

    block.sync();

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
    LAUNCH(transpose_tiled, grid, block)(in, out, rows, cols);
}

/*
 * Fair (lab 2), possibly slower: an 8 x 8 shared tile with 8 x 8 threads,
 * one element a thread per phase, load, barrier, store, as in the first
 * tiled-transpose examples that use tiny blocks. Correct on every shape.
 * Accesses per warp (4 tile rows of 8): loads are four 32-byte runs of in,
 * stores four 32-byte runs of out: every sector used in full, as in the
 * 32 x 32 reference (whose warp also moves 128 bytes a request). The
 * column reads of the unpadded [8][8] tile hit banks 8 x + k: 2-way
 * conflicts, where the reference has 32-way. The costs: 64-thread blocks
 * (32 resident per SM at most, exactly filling 2048 threads), one barrier
 * per 64 elements, and DRAM rows touched in 32-byte pieces.
 * Score: lab 2 is full from 0.35 of copy and gives nothing at 0.20; the
 * 32 x 32 reference measures 0.611 (H100) and 0.456 (H200), the naive kernel
 * 0.158 and 0.135. Expected near 0.4, full marks or close; 75 (the
 * correctness and checks alone) if small blocks cost more than expected.
 * expect: exit by-score, score 75..100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 8 };

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];

    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];

    __syncthreads();

    int out_c = blockIdx.y * TILE + threadIdx.x;
    int out_r = blockIdx.x * TILE + threadIdx.y;
    if (out_r < cols && out_c < rows)
        out[(size_t)out_r * rows + out_c] = tile[threadIdx.x][threadIdx.y];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    LAUNCH(transpose_tiled, grid, block)(in, out, rows, cols);
}

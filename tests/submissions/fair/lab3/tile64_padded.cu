/*
 * Fair (lab 3): a 64 x 64 tile padded to [64][65], 64 x 8 threads (512 a
 * block), each moving 8 elements per phase. Banks: a warp is 32 consecutive
 * threadIdx.x of one tile row; the load phase writes tile[i][x .. x + 31]
 * (banks (65 i + x) % 32: 32 distinct), the store phase reads
 * tile[x .. x + 31][k] (banks (65 x + k) % 32 = (x + k) % 32: 32 distinct).
 * 0 conflicts. 16.6 KB of shared memory a block: 4 blocks (2048 threads) fit
 * an SM. Bounds tests in both phases.
 * Score: 0 bank conflicts (10 points) and coalesced phases; lab 3 is full
 * from 0.80 of copy and the 32 x 32 reference measures 0.985 (H100), 0.911
 * (H200). Twice the elements per thread and 4x the tile change occupancy
 * little: full marks expected; 90 would be 0.77 of copy, more than 20 %
 * under the reference.
 * expect: exit by-score, score 90..100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 64, ROWS = 8 };

__global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];

    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];

    __syncthreads();

    int out_c = blockIdx.y * TILE + threadIdx.x;
    int out_r = blockIdx.x * TILE + threadIdx.y;
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS)
        if (out_r + j < cols && out_c < rows)
            out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    LAUNCH(transpose_padded, grid, dim3(TILE, ROWS))(in, out, rows, cols);
}

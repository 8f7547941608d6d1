/*
 * Fair (lab 2): 16 x 16 tiles with 16 x 16 threads, one element a thread per
 * phase: the tile size of many textbook examples (Kirk and Hwu,
 * "Programming Massively Parallel Processors", use 16 x 16 tiles
 * throughout). A warp is two tile rows of 16: its loads are two 64-byte runs
 * of in, two full sectors each, and its stores two 64-byte runs of out.
 * The tile is unpadded ([16][16]); a warp's column read hits banks
 * (16 * tx + ty) % 32: a 16-way conflict, where the reference has 32-way.
 * Bounds tests in both phases.
 * Score: lab 2 is full from 0.35 of copy; the 32 x 32 reference measures
 * 0.611 (H100), 0.456 (H200). Half-line (64-byte) runs and 256 threads per
 * 256 elements (no reuse of the thread's index math) cost some speed, but
 * not 43 %: full marks expected. The range allows an H200 run where the
 * smaller tile costs more (85 is 0.327 of copy).
 * expect: exit by-score, score 85..100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 16 };

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

/*
 * Fair (lab 3): the block's height chosen at run time from the occupancy
 * API, as the programming guide's "Occupancy Calculator" section shows:
 * cudaOccupancyMaxPotentialBlockSize suggests a block size for the kernel;
 * the launch keeps 32 columns (one warp per tile row, for coalescing and the
 * padded tile's bank pattern) and takes rows = suggestion / 32, rounded
 * down to a power of two in 1..32, so it divides the tile. The kernel steps
 * through the tile blockDim.y rows at a time. cudaGetLastError() after the
 * launch, as the samples do (the kit checks again after the call).
 * Full marks: whatever the suggestion, the kernel is the reference's with
 * 32 x rows threads, [32][33] tile, 0 bank conflicts. The suggestion can
 * be 1024 threads (32 x 32), and lab 3's rubric
 * measured the padded tile with 32 x 32 threads at 0.588 of copy (H100), 0.461
 * (H200), under perf_low: so the launch caps rows at 8, the reference's,
 * and takes the suggestion only when it is smaller (0.985 of copy on the H100;
 * full from 0.80).
 * CPU mode runs it since 2026-11-27 (cooperative groups, warp
 * intrinsics, device and occupancy queries: cpu/include/): full marks.
 * Graded on an H100 (2026-11-27, seed 20261121): 0.800 of copy, on lab 3's
 * 0.800 mark for the full speed points: 99.94.
 * expect: exit by-score, score 95..100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 32, MAX_ROWS = 8 };

__global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];

    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];

    __syncthreads();

    int out_c = blockIdx.y * TILE + threadIdx.x;
    int out_r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (out_r + j < cols && out_c < rows)
            out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    int min_grid = 0, suggested = 0;
    if (cudaOccupancyMaxPotentialBlockSize(&min_grid, &suggested, transpose_padded, 0, 0) != cudaSuccess)
        suggested = TILE * MAX_ROWS;
    int block_rows = 1;
    while (block_rows * 2 <= suggested / TILE && block_rows * 2 <= MAX_ROWS)
        block_rows *= 2;

    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    transpose_padded<<<grid, dim3(TILE, block_rows)>>>(in, out, rows, cols);
    cudaGetLastError();
}

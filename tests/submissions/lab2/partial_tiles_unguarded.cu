/* Fixture (lab2): no bounds test in the store phase: partial tiles write outside the output.
 * Expected outcome: tests/gpu/grading.c. */
#include "tilelab.h"

enum { TILE = 32, BLOCK_ROWS = 8 };

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];

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
            out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    LAUNCH(transpose_tiled, grid, block)(in, out, rows, cols);
}

/*
 * Fair (lab 2): a grid-stride loop over tiles. The grid is capped (at most
 * 64 x 64 blocks) and each block walks the tile grid in steps of gridDim in
 * both directions, doing lab 2's load, barrier, store for each tile it
 * visits, with a second barrier before the next tile's load overwrites the
 * shared tile (the write-after-read the handout's second barrier is about).
 * The loop bounds depend on blockIdx and gridDim only, so every thread of a
 * block runs the same iterations and reaches every barrier.
 * Full marks: at 8192 x 8192 a block does 4 x 4 tiles; 4096 blocks of 256
 * threads still fill every SM many times over. The reference does one tile
 * per block (0.611 of copy on the H100, 0.456 on the H200); the extra
 * barrier per tile costs little beside the memory time (lab 2 is full from
 * 0.35).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 32, BLOCK_ROWS = 8, MAX_GRID = 64 };

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int tiles_y = CEIL_DIV(rows, TILE), tiles_x = CEIL_DIV(cols, TILE);

    for (int ty = blockIdx.y; ty < tiles_y; ty += gridDim.y)
        for (int tx = blockIdx.x; tx < tiles_x; tx += gridDim.x) {
            int c = tx * TILE + threadIdx.x, r = ty * TILE + threadIdx.y;
            for (int j = 0; j < TILE; j += BLOCK_ROWS)
                if (r + j < rows && c < cols)
                    tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
            __syncthreads();   /* tile complete */

            int out_c = ty * TILE + threadIdx.x, out_r = tx * TILE + threadIdx.y;
            for (int j = 0; j < TILE; j += BLOCK_ROWS)
                if (out_r + j < cols && out_c < rows)
                    out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
            __syncthreads();   /* tile read out before the next one is loaded */
        }
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid(min(CEIL_DIV(cols, TILE), (int)MAX_GRID), min(CEIL_DIV(rows, TILE), (int)MAX_GRID));
    LAUNCH(transpose_tiled, grid, block)(in, out, rows, cols);
}

/*
 * Fair (lab 2): the reference split into small helpers, each with the
 * linkage a careful student gives it, and the kernel declared with
 * __launch_bounds__(256) (the programming guide's "Launch Bounds": at most
 * 256 threads a block, so the compiler may budget registers for it):
 *   - load_tile: `static __device__ __forceinline__`;
 *   - store_tile: `static __device__ inline`;
 *   - in_matrix: `__device__ inline` (external linkage, inline).
 * Each phase is one call; the barrier stays in the kernel, between them.
 * The tile is lab 2's [32][32], 32 x 8 threads.
 * Full marks: after inlining, the reference's instructions (0.611 of copy
 * on the H100, 0.456 on the H200; lab 2 is full from 0.35).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 32, BLOCK_ROWS = 8, THREADS = TILE * BLOCK_ROWS };

__device__ inline bool in_matrix(int r, int c, int rows, int cols)
{
    return r < rows && c < cols;
}

static __device__ __forceinline__ void load_tile(float (*tile)[TILE], const float *in, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (in_matrix(r + j, c, rows, cols))
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
}

static __device__ inline void store_tile(const float (*tile)[TILE], float *out, int rows, int cols)
{
    int out_c = blockIdx.y * TILE + threadIdx.x;
    int out_r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (in_matrix(out_r + j, out_c, cols, rows))
            out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void __launch_bounds__(THREADS) transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    load_tile(tile, in, rows, cols);
    __syncthreads();   /* the whole tile is in before anyone reads a column of it */
    store_tile(tile, out, rows, cols);
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    LAUNCH(transpose_tiled, grid, block)(in, out, rows, cols);
}

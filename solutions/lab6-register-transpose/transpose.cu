/*
 * Lab 6 — the in-register transpose: reference solution.
 *
 * A block moves a 64 x 64 tile with 16 x 8 threads. Each thread moves 4 x 4
 * blocks of the matrix, two of them, with 128-bit accesses only:
 *   1. it loads a 4 x 4 block as four float4 rows of `in` (16 threads side
 *      by side read 256 contiguous bytes of one row: 8 full sectors);
 *   2. it transposes the block in its own registers (transpose4x4);
 *   3. it stores the four float4 rows of the transposed block into a shared
 *      tile laid out like `out`, and after one barrier every thread reads
 *      float4 rows of that tile back and writes them to `out`, again 256
 *      contiguous bytes per 16 threads.
 * Shared memory is indexed in float4 units with an XOR swizzle: the float4
 * at (row, q) lives at column q ^ (row / 4 % 16). Padding cannot spread the
 * stage-3 stores over the banks (a padded row no longer starts on a 16-byte
 * boundary); the XOR does, and needs no extra memory.
 *
 * Vectors need every row to start on a 16-byte boundary: rows % 4 == 0,
 * cols % 4 == 0 and 16-byte aligned buffers. Any other shape takes the
 * scalar path, lab 3's padded tile.
 */
#include "tilelab.h"

enum { TILE = 64, VEC = 4, THREADS_X = TILE / VEC, THREADS_Y = 8 }; static_assert(TILE % VEC == 0 && TILE % THREADS_Y == 0, "16 x 8 threads, whole 4 x 4 blocks");
enum { SCALAR_TILE = 32, BLOCK_ROWS = 8 }; static_assert(SCALAR_TILE % BLOCK_ROWS == 0, "lab 3's tile");

/* Row i of the result is column i of the 4 x 4 block v. */
__device__ __forceinline__ void transpose4x4(const float4 v[4], float4 t[4])
{
    t[0] = make_float4(v[0].x, v[1].x, v[2].x, v[3].x);
    t[1] = make_float4(v[0].y, v[1].y, v[2].y, v[3].y);
    t[2] = make_float4(v[0].z, v[1].z, v[2].z, v[3].z);
    t[3] = make_float4(v[0].w, v[1].w, v[2].w, v[3].w);
}

/* The shared tile's column for float4 q of row `row`: no two of 8 neighbours share banks. */
__device__ __forceinline__ int swizzle(int row, int q)
{
    return q ^ (row / VEC % THREADS_X);
}

__global__ void transpose_vec4(const float *in, float *out, int rows, int cols)
{
    /* The tile as `out` holds it: row = a column of the input tile, in float4s. */
    __shared__ float4 tile[TILE][TILE / VEC];

    int tile_r = blockIdx.y * TILE, tile_c = blockIdx.x * TILE;
    int bc = threadIdx.x;                               /* this thread's 4 x 4 block column */
    for (int br = threadIdx.y; br < TILE / VEC; br += THREADS_Y) {   /* and block rows */
        int r = tile_r + VEC * br, c = tile_c + VEC * bc;
        if (r >= rows || c >= cols)   /* rows and cols are multiples of 4: a block is all in or all out */
            continue;
        float4 v[4], t[4];
        for (int i = 0; i < 4; i++)
            v[i] = *(const float4 *)&in[(size_t)(r + i) * cols + c];
        transpose4x4(v, t);
        for (int j = 0; j < 4; j++) {
            int row = VEC * bc + j;
            tile[row][swizzle(row, br)] = t[j];
        }
    }

    /* Every block must be in the tile before any thread reads another's. */
    __syncthreads();

    /* Row `row` of the tile is row tile_c + row of out, from column tile_r. */
    int q = threadIdx.x;
    for (int row = threadIdx.y; row < TILE; row += THREADS_Y) {
        int out_r = tile_c + row, out_c = tile_r + VEC * q;
        if (out_r < cols && out_c < rows)
            *(float4 *)&out[(size_t)out_r * rows + out_c] = tile[row][swizzle(row, q)];
    }
}

/* Lab 3's kernel: any shape, one float at a time. */
__global__ void transpose_scalar(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[SCALAR_TILE][SCALAR_TILE + 1];

    int c = blockIdx.x * SCALAR_TILE + threadIdx.x;
    int r = blockIdx.y * SCALAR_TILE + threadIdx.y;
    for (int j = 0; j < SCALAR_TILE; j += BLOCK_ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    int out_c = blockIdx.y * SCALAR_TILE + threadIdx.x;
    int out_r = blockIdx.x * SCALAR_TILE + threadIdx.y;
    for (int j = 0; j < SCALAR_TILE; j += BLOCK_ROWS)
        if (out_r + j < cols && out_c < rows)
            out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    int aligned = rows % VEC == 0 && cols % VEC == 0 && ((size_t)in | (size_t)out) % 16 == 0;
    if (aligned) {
        dim3 block(THREADS_X, THREADS_Y);
        dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
        LAUNCH(transpose_vec4, grid, block)(in, out, rows, cols);
    } else {
        dim3 block(SCALAR_TILE, BLOCK_ROWS);
        dim3 grid(CEIL_DIV(cols, SCALAR_TILE), CEIL_DIV(rows, SCALAR_TILE));
        LAUNCH(transpose_scalar, grid, block)(in, out, rows, cols);
    }
}

/*
 * Fair (lab 2): two common forms in one file. The kernel is a template on
 * the tile's shape, transpose_tile<TILE, ROWS>, launched with its arguments
 * written out (transpose_tile<32, 8><<<...>>>). Beside it, the same kernel
 * for 32 x 8 under a C name, `extern "C"` transpose_tile_c, as code that
 * loads kernels by name (cuModuleGetFunction, NVRTC) keeps one; it is not
 * launched here. The tile is lab 2's [32][32], unpadded, 32 x 8 threads.
 * Full marks: the reference's kernel (0.611 of copy on the H100, 0.456 on
 * the H200; lab 2 is full from 0.35); the unlaunched extern "C" kernel
 * costs nothing at run time.
 * Today the inspector refuses the extern "C" kernel as a global name that
 * "could stand in for a function of the kit" (issue 27).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

template <int TILE, int ROWS>
__global__ void transpose_tile(const float *in, float *out, int rows, int cols)
{
    static_assert(TILE % ROWS == 0, "each thread moves TILE / ROWS rows of the tile");
    __shared__ float tile[TILE][TILE];

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

/* The 32 x 8 instance under a C name, for a loader that looks kernels up by name. */
extern "C" __global__ void transpose_tile_c(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][32];
    int c = blockIdx.x * 32 + threadIdx.x;
    int r = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    int out_c = blockIdx.y * 32 + threadIdx.x;
    int out_r = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (out_r + j < cols && out_c < rows)
            out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 32));
    transpose_tile<32, 8><<<grid, dim3(32, 8)>>>(in, out, rows, cols);
}

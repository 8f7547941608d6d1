/*
 * Fair (lab 3): an `extern "C"` kernel that calls two ordinary `__device__`
 * helpers (not inline, not static): load_tile and store_tile, one per
 * phase, the barrier between them in the kernel. This is how code written
 * for runtime loading by name (cuModuleGetFunction) is usually laid out.
 * The tile is lab 3's [32][33], 32 x 8 threads.
 * Full marks: nvcc inlines both helpers (each has one call site); the
 * reference's instructions and speed (0.985 of copy on the H100, 0.911 on
 * the H200; lab 3 is full from 0.80), 0 bank conflicts.
 * Today the inspector refuses it twice over (issue 27): nvcc's host copies
 * of the helpers call exit ("your file calls exit"), and the extern "C"
 * kernel is a global name ("could stand in for a function of the kit").
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#define TILE 32
#define ROWS 8

__device__ void load_tile(float (*tile)[TILE + 1], const float *in, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
}

__device__ void store_tile(float (*tile)[TILE + 1], float *out, int rows, int cols)
{
    int c = blockIdx.y * TILE + threadIdx.x;
    int r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    load_tile(tile, in, rows, cols);
    __syncthreads();
    store_tile(tile, out, rows, cols);
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    transpose_padded<<<grid, dim3(TILE, ROWS)>>>(in, out, rows, cols);
}

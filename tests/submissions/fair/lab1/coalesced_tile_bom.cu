/*
 * Fair (lab 1): the CUDA samples' coalesced transpose (transposeCoalesced in
 * NVIDIA/cuda-samples, Samples/6_Performance/transpose/transpose.cu; Mark
 * Harris, "An Efficient Matrix Transpose in CUDA C/C++") handed in for
 * lab 1: a 32 x 32 shared tile, a barrier, and both global phases coalesced.
 * Lab 1 asks for one thread per element but grades the result and its speed,
 * and a student who read ahead writes this. Bounds tests on both phases, so
 * partial tiles at the right and bottom edges are safe. The file starts with
 * a UTF-8 byte-order mark (EF BB BF), as Notepad and Visual Studio save
 * UTF-8; nvcc accepts it.
 * Full marks: faster than the naive reference (lab 2's reference, this
 * kernel, measures 0.611 of copy on the H100; lab 1 is full from 0.10).
 * Today the build puts a #line before the byte-order mark and nvcc stops
 * (issue 27): that is the bug, not this file.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_naive(const float *idata, float *odata, int height, int width)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = idata[(size_t)(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;   /* swapped block offsets */
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            odata[(size_t)(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 grid(CEIL_DIV(cols, TILE_DIM), CEIL_DIV(rows, TILE_DIM));
    dim3 threads(TILE_DIM, BLOCK_ROWS);
    LAUNCH(transpose_naive, grid, threads)(in, out, rows, cols);
}

/*
 * Fair (lab 3): the CUDA samples' conflict-free transpose
 * (transposeNoBankConflicts in NVIDIA/cuda-samples,
 * Samples/6_Performance/transpose/transpose.cu; Mark Harris, "An Efficient
 * Matrix Transpose in CUDA C/C++",
 * https://developer.nvidia.com/blog/efficient-matrix-transpose-cuda-cc/)
 * in the sample's own vocabulary (idata/odata, width/height, TILE_DIM,
 * BLOCK_ROWS as macros, __restrict__ pointers), with the bounds tests the
 * sample leaves out (it assumes multiples of 32), so every shape works.
 * Full marks: the reference's tile ([32][33]: 0 bank conflicts) and
 * accesses (0.985 of copy on the H100, 0.911 on the H200; lab 3 is full
 * from 0.80).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_padded(const float *__restrict__ idata, float *__restrict__ odata, int height, int width)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];

    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = idata[(size_t)(y + j) * width + x];

    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            odata[(size_t)(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    dim3 threads(TILE_DIM, BLOCK_ROWS);
    transpose_padded<<<grid, threads>>>(in, out, rows, cols);
}

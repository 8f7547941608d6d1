/*
 * Fair (lab 2): the CUDA samples' coalesced transpose (transposeCoalesced
 * in NVIDIA/cuda-samples, Samples/6_Performance/transpose/transpose.cu;
 * Mark Harris, "An Efficient Matrix Transpose in CUDA C/C++",
 * https://developer.nvidia.com/blog/efficient-matrix-transpose-cuda-cc/),
 * adapted to any shape with bounds tests on both phases, and launched the
 * way the samples launch everything: the kernel, then cudaGetLastError()
 * for launch errors and cudaDeviceSynchronize() for errors while it ran,
 * each checked. The tile is unpadded ([32][32]), as lab 2 asks.
 * Full marks: the reference's kernel (0.611 of copy on the H100, 0.456 on
 * the H200; lab 2 is full from 0.35). The synchronize waits for a kernel the
 * kit waits for anyway: no extra time beyond one call's latency, under the
 * noise of a 50 ms launch at 8192 x 8192 or so.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_tiled(const float *idata, float *odata, int height, int width)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];

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
    dim3 grid(CEIL_DIV(cols, TILE_DIM), CEIL_DIV(rows, TILE_DIM));
    dim3 threads(TILE_DIM, BLOCK_ROWS);
    transpose_tiled<<<grid, threads>>>(in, out, rows, cols);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
}

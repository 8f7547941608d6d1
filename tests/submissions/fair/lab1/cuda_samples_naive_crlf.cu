/*
 * Fair (lab 1): the CUDA samples' naive transpose (transposeNaive in
 * NVIDIA/cuda-samples, Samples/6_Performance/transpose/transpose.cu, and
 * Mark Harris, "An Efficient Matrix Transpose in CUDA C/C++",
 * https://developer.nvidia.com/blog/efficient-matrix-transpose-cuda-cc/),
 * written again for lab 1's contract: TILE_DIM x BLOCK_ROWS = 32 x 8 threads
 * per 32 x 32 tile, each thread copying TILE_DIM / BLOCK_ROWS = 4 elements
 * of its column of the tile, j rows apart. The sample assumes sides that are
 * multiples of 32; here every element is bounds-tested, so 1 x 1, 1 x N and
 * 8191 x 8193 work. Saved with Windows line ends (CRLF), as a Windows editor
 * or a git checkout with core.autocrlf writes it.
 * Full marks: the reference's accesses (reads coalesced, writes 32 sectors
 * per request) with 4 elements a thread; lab 1 is full from 0.10 of copy
 * (reference 0.158 on the H100, 0.135 on the H200).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_naive(const float *idata, float *odata, int height, int width)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;   /* a column of idata */
    int y = blockIdx.y * TILE_DIM + threadIdx.y;   /* the first of this thread's rows */

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            odata[(size_t)x * height + (y + j)] = idata[(size_t)(y + j) * width + x];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    dim3 threads(TILE_DIM, BLOCK_ROWS);
    transpose_naive<<<grid, threads>>>(in, out, rows, cols);
}

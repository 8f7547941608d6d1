/*
 * Fair (lab 1): host-side debug printing switched on by an environment
 * variable, getenv("LAB_DEBUG"), as students add while they work. The grader
 * never sets it (its workers get a clean environment), so every graded call
 * prints nothing; reading the environment is the sandbox's to allow, not a
 * name the inspector refuses. The kernel is the reference's: full marks.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#include <cstdio>
#include <cstdlib>

enum { BLOCK_X = 32, BLOCK_Y = 8 };

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    static const bool debug = getenv("LAB_DEBUG") != NULL;
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    if (debug)
        printf("launch_transpose: %d x %d, grid %u x %u\n", rows, cols, grid.x, grid.y);
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
    if (debug)
        printf("launch_transpose: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}

/*
 * Fair (lab 1): the reference kernel declared `extern "C"`, as code that
 * loads kernels by name (cuModuleGetFunction, NVRTC, ctypes, PyCUDA's
 * SourceModule) declares them, so the symbol is not C++-mangled. The kernel
 * is still launched from launch_transpose with <<<...>>> and stands in for
 * no function of the kit: its name, transpose_naive, is the skeleton's own.
 * Blocks of 32 x 16 threads instead of 32 x 8: the same coalesced reads and
 * strided writes, 512 threads a block (4 blocks an SM at full occupancy).
 * Full marks: lab 1 is full from 0.10 of copy, the reference measures 0.158
 * (H100) and 0.135 (H200), and the block shape changes no access.
 * Today the inspector refuses a global kernel name as one that "could stand
 * in for a function of the kit" (issue 27): that is the bug, not this file.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { BLOCK_X = 32, BLOCK_Y = 16 };

extern "C" __global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
}

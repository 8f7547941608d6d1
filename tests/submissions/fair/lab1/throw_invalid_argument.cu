/*
 * Fair (lab 1): bad arguments (a negative side) are refused with throw
 * std::invalid_argument, as C++ courses teach. The hidden tests never pass
 * one, so nothing is thrown; C++ exceptions are the run time's to judge (an
 * uncaught one would cost that one test, as a crash does), not a name the
 * inspector refuses. The kernel is the reference's: full marks.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#include <stdexcept>

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
    if (rows < 0 || cols < 0)
        throw std::invalid_argument("launch_transpose: a negative side");
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
}

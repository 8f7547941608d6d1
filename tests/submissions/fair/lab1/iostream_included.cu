/*
 * Fair (lab 1): #include <iostream>, its prints switched off (a constant
 * false), as a file keeps them between debugging sessions. Under g++ 12 the
 * include alone gives the object a static initialiser (std::ios_base::Init),
 * under g++ 13 it does not (libstdc++ initialises the streams itself): the
 * inspector has no rule about code before main, so the verdict is the same on
 * every host compiler (the initialiser runs inside the worker's sandbox, which
 * allows it). The kernel is the reference's: full marks.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#include <iostream>

enum { BLOCK_X = 32, BLOCK_Y = 8 };
static const bool verbose = false;

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
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
    if (verbose)
        std::cout << "transpose " << rows << " x " << cols << std::endl;
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
}

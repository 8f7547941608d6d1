/*
 * Fair (lab 1): the kernel and its helper inside an anonymous namespace,
 * the C++ way to give them internal linkage (what "make it static" asks,
 * spelled as C++ style guides prefer: e.g. the Google C++ Style Guide,
 * "Unnamed Namespaces and Static Variables"). The helper is a plain
 * __device__ function, not inline. The launch function stays global.
 * The kernel is the reference's (32 x 8 threads, one element each).
 * Full marks: the reference's accesses and speed (0.158 of copy on the H100;
 * lab 1 is full from 0.10).
 * Today the inspector refuses it: nvcc's host copy of the non-inline
 * __device__ helper calls exit, and the inspector reads that as the
 * student's call (issue 27).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

namespace {

constexpr int BLOCK_X = 32, BLOCK_Y = 8;

__device__ size_t at(int r, int c, int ld)
{
    return (size_t)r * ld + c;
}

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * BLOCK_X + threadIdx.x;
    int r = blockIdx.y * BLOCK_Y + threadIdx.y;
    if (r < rows && c < cols)
        out[at(c, r, rows)] = in[at(r, c, cols)];
}

} // namespace

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    LAUNCH(transpose_naive, grid, dim3(BLOCK_X, BLOCK_Y))(in, out, rows, cols);
}

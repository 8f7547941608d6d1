/*
 * Fair (lab 1): a kernel templated on its element type, launched with the
 * type deduced from the arguments: transpose<<<grid, block>>>(in, out, ...)
 * instantiates transpose<float> (the way generic code, e.g. a transpose for
 * float and double, is written). Same body as the reference: one element a
 * thread, 32 x 8 threads, reads coalesced, writes strided.
 * Full marks: the reference's accesses and speed (0.158 of copy, H100;
 * lab 1 is full from 0.10).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { BLOCK_X = 32, BLOCK_Y = 8 };

template <typename T>
__global__ void transpose(const T *in, T *out, int rows, int cols)
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
    transpose<<<grid, block>>>(in, out, rows, cols);
}

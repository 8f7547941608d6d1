/*
 * Fair (lab 1): the launch function makes a stream of its own, launches the
 * kernel on it, waits for it and destroys it, as the CUDA guide's streams
 * chapter shows. A stream is no shortcut: the kernel is the reference's (32 x 8
 * threads, one element each). Creating and destroying a stream costs some
 * microseconds per call against a launch of some 3 ms at 8192 x 8192 (lab 1 is
 * full from 0.10 of copy; the reference measures 0.158 on the H100): full marks.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

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
    cudaStream_t stream;
    if (cudaStreamCreate(&stream) != cudaSuccess)
        return;
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    transpose_naive<<<grid, block, 0, stream>>>(in, out, rows, cols);
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
}

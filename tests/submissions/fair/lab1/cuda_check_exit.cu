/*
 * Fair (lab 1): the CUDA_CHECK macro of nearly every CUDA course and tutorial:
 * on an error it prints the call, the file and the line with
 * fprintf(stderr, ...) and ends the program with exit(EXIT_FAILURE). Here no
 * call fails, so nothing is printed and exit is never reached: the host code's
 * printing and exit are the sandbox's to judge at run time (it allows both; an
 * exit that did happen would cost that one test), not a name the inspector
 * refuses. The kernel is the reference's (32 x 8 threads, one element each):
 * full marks, as the reference.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

#include <cstdio>
#include <cstdlib>

#define CUDA_CHECK(call)                                                                    \
    do {                                                                                    \
        cudaError_t err_ = (call);                                                          \
        if (err_ != cudaSuccess) {                                                          \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__, __LINE__,      \
                    cudaGetErrorString(err_));                                              \
            exit(EXIT_FAILURE);                                                             \
        }                                                                                   \
    } while (0)

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
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
    CUDA_CHECK(cudaGetLastError());
}

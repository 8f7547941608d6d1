/*
 * matmul_naive.cu — the grader's naive reference for lab 4: one thread per
 * element of C, every operand read from global memory (2 loads per FMA).
 * Timed beside the student's kernel: the floor that tiling must beat.
 */
#include "tilelab.h"

enum { NAIVE_BLOCK = 16 };

__global__ void tl_matmul_naive_kernel(const float *A, const float *B, float *C, int M, int N, int K)
{
    int row = blockIdx.y * NAIVE_BLOCK + threadIdx.y;
    int col = blockIdx.x * NAIVE_BLOCK + threadIdx.x;
    if (row >= M || col >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
        sum += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = sum;
}

extern "C" void tl_matmul_naive(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 block(NAIVE_BLOCK, NAIVE_BLOCK);
    dim3 grid(CEIL_DIV(N, NAIVE_BLOCK), CEIL_DIV(M, NAIVE_BLOCK));
    LAUNCH(tl_matmul_naive_kernel, grid, block)(A, B, C, M, N, K);
}

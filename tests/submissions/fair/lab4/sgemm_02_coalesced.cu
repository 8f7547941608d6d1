/*
 * Fair (lab 4), and honestly docked: rung 2 of the tutorial SGEMM ladder
 * (Simon Boehm, "How to Optimize a CUDA Matmul Kernel for cuBLAS-like
 * Performance", https://siboehm.com/articles/22/CUDA-MMM; SGEMM_CUDA kernel 2
 * "global memory coalescing"), adapted to lab 4: 1D blocks of 32 * 32
 * threads; thread t of a block computes C(row0 + t / 32, col0 + t % 32), so
 * the 32 threads of a warp share a row of A (one broadcast load) and read
 * 32 consecutive values of B and write 32 consecutive values of C. Any
 * shape: bounds test on the output, loop over all of K.
 * Score: correct (55) and sanitizer-clean (15), but no shared memory or
 * barrier (structure: "never loads or stores shared memory") and no tiling:
 * the coalesced naive kernel was reckoned at 0.106 (H200) and 0.115 (H100)
 * of cuBLAS, under lab 4's perf_low 0.12; graded on an H100 (2026-11-27,
 * seed 20261121) it measured 0.133 of cuBLAS (1.14x the naive kernel):
 * 10.6 of the 25 speed points, 80.57 in all. 72..92 covers both GPUs.
 * expect: exit 1, score 70..92, "never loads or stores shared memory"
 * expect-cpu: exit 1, score 70, "never loads or stores shared memory"
 */
#include "tilelab.h"

template <const unsigned BLOCKSIZE>
__global__ void sgemm_global_mem_coalesce(int M, int N, int K, const float *A, const float *B, float *C)
{
    const int cRow = blockIdx.x * BLOCKSIZE + threadIdx.x / BLOCKSIZE;
    const int cCol = blockIdx.y * BLOCKSIZE + threadIdx.x % BLOCKSIZE;
    if (cRow < M && cCol < N) {
        float tmp = 0.0f;
        for (int i = 0; i < K; ++i)
            tmp += A[(size_t)cRow * K + i] * B[(size_t)i * N + cCol];
        C[(size_t)cRow * N + cCol] = tmp;
    }
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 gridDim(CEIL_DIV(M, 32), CEIL_DIV(N, 32));
    dim3 blockDim(32 * 32);
    sgemm_global_mem_coalesce<32><<<gridDim, blockDim>>>(M, N, K, A, B, C);
}

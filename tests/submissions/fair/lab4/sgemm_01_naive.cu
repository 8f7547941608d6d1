/*
 * Fair (lab 4), and honestly docked: rung 1 of the tutorial SGEMM ladder
 * (Simon Boehm, "How to Optimize a CUDA Matmul Kernel for cuBLAS-like
 * Performance: a Worklog", https://siboehm.com/articles/22/CUDA-MMM;
 * github.com/siboehm/SGEMM_CUDA, kernel 1 "naive"), adapted to lab 4's
 * contract (row-major C = A B, any shape). One thread per element of C, 32 x
 * 32 blocks, and the worklog's index choice: threadIdx.x runs along the
 * rows of C, so a warp's 32 threads read 32 different rows of A (strided)
 * and write 32 rows of C. Correct for every shape: it loops over K with a
 * bounds test on the output only.
 * Score: correct (55) and clean under the sanitizers (15); no shared
 * memory or barrier (structure, 5 points: "never loads or stores shared
 * memory") and far under lab 4's perf_low of 0.12 of cuBLAS (the
 * worklog measures this rung at 1.3 % of cuBLAS): 70, as
 * tests/submissions/lab4/naive_no_tiling.
 * expect: exit 1, score 65..75, "never loads or stores shared memory"
 * expect-cpu: exit 1, score 70, "never loads or stores shared memory"
 */
#include "tilelab.h"

__global__ void sgemm_naive(int M, int N, int K, const float *A, const float *B, float *C)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;   /* row of C */
    const int y = blockIdx.y * blockDim.y + threadIdx.y;   /* column of C */
    if (x < M && y < N) {
        float tmp = 0.0f;
        for (int i = 0; i < K; ++i)
            tmp += A[(size_t)x * K + i] * B[(size_t)i * N + y];
        C[(size_t)x * N + y] = tmp;
    }
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 gridDim(CEIL_DIV(M, 32), CEIL_DIV(N, 32));
    dim3 blockDim(32, 32);
    sgemm_naive<<<gridDim, blockDim>>>(M, N, K, A, B, C);
}

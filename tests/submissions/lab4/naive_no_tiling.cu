/* Lab 4: a correct one-thread-per-output kernel, no tiling.
 * Full correctness, no structure points (no shared memory, no barrier) and no
 * performance points: tiling is what the lab pays for. Correctness and
 * sanitizers only: 70.
 * expect-cpu: exit 1, score 70, "never loads or stores shared memory"
 * expect: exit 1, score 65..75, "never loads or stores shared memory" */
#include "tilelab.h"

__global__ void matmul_naive(const float *A, const float *B, float *C, int M, int N, int K)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N)
        return;
    float sum = 0.0f;
    for (int k = 0; k < K; k++)
        sum += A[(size_t)row * K + k] * B[(size_t)k * N + col];
    C[(size_t)row * N + col] = sum;
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 block(16, 16);
    dim3 grid(CEIL_DIV(N, 16), CEIL_DIV(M, 16));
    LAUNCH(matmul_naive, grid, block)(A, B, C, M, N, K);
}

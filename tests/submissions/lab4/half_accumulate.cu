/* Fixture (lab 4): accumulates in half precision.
 * Expected: every result outside the fp32 error bound: the precision hint. */
#include "tilelab.h"
#include <cuda_fp16.h>

enum { TILE = 32 };

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    __half sum = __float2half(0.0f);

    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = row < M && t + tx < K ? A[(size_t)row * K + t + tx] : 0.0f;
        Bs[ty][tx] = t + ty < K && col < N ? B[(size_t)(t + ty) * N + col] : 0.0f;
        /* Both tiles complete before anyone multiplies. */
        __syncthreads();

        for (int k = 0; k < TILE; k++)
            sum = __hadd(sum, __float2half(As[ty][k] * Bs[k][tx]));
        /* Everyone done reading before the next load overwrites the tiles. */
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = __half2float(sum);
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 block(TILE, TILE);
    dim3 grid(CEIL_DIV(N, TILE), CEIL_DIV(M, TILE));
    LAUNCH(matmul_tiled, grid, block)(A, B, C, M, N, K);
}

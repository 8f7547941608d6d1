/*
 * Fair (lab 4), honestly slower: the reference's structure with 8 x 8 tiles
 * (8 x 8 threads, one output each; both barriers; zero fill), a tile size
 * some first examples use. Correct on every shape.
 * What it costs: each value loaded from global memory is used 8 times
 * instead of 32, so a block issues 4x the loads per FMA of the reference
 * and every shared-memory step has 8 FMAs per barrier pair. 64-thread
 * blocks: 32 resident per SM (the block limit) fill only 2048 threads with
 * many barriers in flight.
 * Score: correctness 55, sanitizers 15, structure 5 (shared memory and
 * barriers) = 75 without speed. Speed points grow from 0.12 to 0.15 of
 * cuBLAS; 16 x 16 tiles measure 0.158-0.175 and the naive kernel (no reuse)
 * 0.106-0.115, and a tile of 8 sits between them at best, likely under
 * 0.12. Expected 75..95 (95 would be 0.144 of cuBLAS).
 * expect: exit 1, score 75..95
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 8 };

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = row < M && t + tx < K ? A[(size_t)row * K + t + tx] : 0.0f;
        Bs[ty][tx] = t + ty < K && col < N ? B[(size_t)(t + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = sum;
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 block(TILE, TILE);
    dim3 grid(CEIL_DIV(N, TILE), CEIL_DIV(M, TILE));
    LAUNCH(matmul_tiled, grid, block)(A, B, C, M, N, K);
}

/*
 * Fair (lab 4): the tile size as a template parameter, launched with it
 * written out (matmul_tiled<32><<<...>>>), declared __launch_bounds__(TILE *
 * TILE), with a device assert that the block has the shape the kernel was
 * instantiated for (the kind of check students leave in after a wrong
 * launch once cost them an evening). The assert holds for the launch below
 * and never fires. Otherwise the reference: zero fill, two barriers.
 * Full marks: the reference's kernel plus one compare per thread (0.175-0.190
 * of cuBLAS on the H100; full from 0.15).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"
#include <assert.h>

template <int TILE>
__global__ void __launch_bounds__(TILE * TILE) matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    assert(blockDim.x == TILE && blockDim.y == TILE);
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = row < M && t + tx < K ? A[(size_t)row * K + t + tx] : 0.0f;
        Bs[ty][tx] = t + ty < K && col < N ? B[(size_t)(t + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = sum;
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    constexpr int tile = 32;
    dim3 grid(CEIL_DIV(N, tile), CEIL_DIV(M, tile));
    matmul_tiled<tile><<<grid, dim3(tile, tile)>>>(A, B, C, M, N, K);
}

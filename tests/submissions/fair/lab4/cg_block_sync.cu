/*
 * Fair (lab 4): the reference's kernel with its barriers written as
 * cooperative groups: `auto block = cooperative_groups::this_thread_block();`
 * then block.sync() after the loads and after the multiply, and the
 * thread's tile position from block.thread_index(). block.sync() is
 * bar.sync in the PTX, so the structure rule (shared memory and a barrier)
 * holds, and racecheck sees the same two barriers per K-step.
 * Full marks: the reference's instructions (0.175-0.190 of cuBLAS on the
 * H100; full from 0.15).
 * CPU mode runs it since 2026-11-27: 75/75 on a quiet 2-core machine
 * (seed 20261121). Its 1000x1x1000 case, like the reference's, takes 20 s
 * and more a run when the machine is loaded three times over (51.33 then).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"
#include <cooperative_groups.h>

enum { TILE = 32 };

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    auto block = cooperative_groups::this_thread_block();

    const int tx = block.thread_index().x, ty = block.thread_index().y;
    const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = row < M && t + tx < K ? A[(size_t)row * K + t + tx] : 0.0f;
        Bs[ty][tx] = t + ty < K && col < N ? B[(size_t)(t + ty) * N + col] : 0.0f;
        block.sync();
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        block.sync();
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

/*
 * Fair (lab 4): both tiles in one dynamic shared-memory buffer, sized at
 * launch, with the launch doing what production code does before it:
 * cudaDeviceGetAttribute(cudaDevAttrMaxSharedMemoryPerBlockOptin) to check
 * the size fits, cudaFuncSetAttribute(MaxDynamicSharedMemorySize) to allow
 * it, cudaOccupancyMaxActiveBlocksPerMultiprocessor to confirm a block fits
 * on an SM, then the launch and cudaGetLastError(). The kernel is the
 * reference's (32 x 32 tiles, 1024 threads, zero fill, two barriers) with
 * As at buf[0 .. 1023] and Bs at buf[1024 .. 2047].
 * Full marks: 8 KB a block as in the reference; the same kernel and speed
 * (0.175-0.190 of cuBLAS on the H100; full from 0.15). The queries cost
 * microseconds beside a launch of tens of milliseconds at 4096^3.
 * CPU mode runs it since 2026-11-27: 75/75 on a quiet 2-core machine
 * (seed 20261121). Its 1000x1x1000 case, like the reference's, takes 20 s
 * and more a run when the machine is loaded three times over (51.33 then).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 32 };

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    extern __shared__ float buf[];
    float *As = buf, *Bs = buf + TILE * TILE;

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < K; t += TILE) {
        As[ty * TILE + tx] = row < M && t + tx < K ? A[(size_t)row * K + t + tx] : 0.0f;
        Bs[ty * TILE + tx] = t + ty < K && col < N ? B[(size_t)(t + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty * TILE + k] * Bs[k * TILE + tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = sum;
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    const size_t smem = 2 * TILE * TILE * sizeof(float);
    int device = 0, optin = 0, blocks_per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    if ((size_t)optin >= smem)
        cudaFuncSetAttribute(matmul_tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, matmul_tiled, TILE * TILE, smem);
    (void)blocks_per_sm;   /* 2 on sm_90: 2048 threads an SM */

    dim3 block(TILE, TILE);
    dim3 grid(CEIL_DIV(N, TILE), CEIL_DIV(M, TILE));
    matmul_tiled<<<grid, block, smem>>>(A, B, C, M, N, K);
    cudaGetLastError();
}

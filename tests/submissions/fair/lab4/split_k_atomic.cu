/*
 * Fair (lab 4): split-K. When the grid of 32 x 32 output tiles is too small
 * to fill the GPU (few blocks, a long K), K is cut into up to 8 slices, one
 * block per tile and slice; C is zeroed with cudaMemsetAsync first and every
 * block adds its partial sums with atomicAdd. Each block is the reference's
 * tiled kernel (32 x 32 tiles of A and B in shared memory, two barriers per
 * K-step) on its slice. A memset is no shortcut (the product is the
 * kernels'): the grade is what the kernel earns. At the measurement size
 * (4096^3: 16384 tiles, one slice) it is the reference plus a memset of C
 * (64 MiB, tens of microseconds against some 15 ms) and an atomic add per
 * element, so the speed points are the reference's or near: the score lies
 * at or just below full marks. CPU mode does not run atomics (its fibers would
 * need them made atomic and race-checked): it says so and grades nothing
 * (exit 2), as for any file that uses them; grade this one on a GPU.
 * expect: exit by-score, score 90..100
 * expect-cpu: exit 2, score 0, "what CPU mode does not run (atomicAdd at"
 */
#include "tilelab.h"

enum { TILE = 32, MAX_SLICES = 8 };

__global__ void matmul_split_k(const float *A, const float *B, float *C, int M, int N, int K, int slice_k)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    int k_begin = blockIdx.z * slice_k, k_end = min(K, k_begin + slice_k);
    float sum = 0.0f;
    for (int t = k_begin; t < k_end; t += TILE) {
        As[ty][tx] = row < M && t + tx < k_end ? A[(size_t)row * K + t + tx] : 0.0f;
        Bs[ty][tx] = t + ty < k_end && col < N ? B[(size_t)(t + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        atomicAdd(&C[(size_t)row * N + col], sum);
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    if (M == 0 || N == 0)
        return;
    int device = 0, sms = 1;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    dim3 block(TILE, TILE);
    dim3 grid(CEIL_DIV(N, TILE), CEIL_DIV(M, TILE));
    /* Slices while the tiles alone leave SMs idle and each slice keeps 8 K-tiles. */
    int slices = 1;
    while (slices < MAX_SLICES && (long)grid.x * grid.y * slices < 2L * sms && K / (2 * slices) >= 8 * TILE)
        slices *= 2;
    int slice_k = CEIL_DIV(CEIL_DIV(K, slices), TILE) * TILE;
    grid.z = K ? CEIL_DIV(K, slice_k) : 1;
    cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float));
    matmul_split_k<<<grid, block>>>(A, B, C, M, N, K, slice_k > 0 ? slice_k : TILE);
}

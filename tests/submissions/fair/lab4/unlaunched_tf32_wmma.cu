/*
 * Fair (lab 4): the reference's tiled FP32 kernel is what the launch runs; an
 * experiment with the TF32 tensor cores (wmma, m16n16k8, its body built for
 * sm_80 and newer only) is left in the file and never launched. Lab 4's
 * rubric says arithmetic fp32, about the arithmetic that computes C: the
 * inspector judges the kernels the host code can launch, and on a GPU the
 * counters see that no tensor-pipe instruction ran. Full marks, as the
 * reference.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"
#include <mma.h>

enum { TILE = 32 }; static_assert(TILE * TILE <= 1024, "one thread per tile element: at most 1024 threads a block");

/* Kept for later: one warp, a 16 x 16 tile of C on the TF32 tensor cores. Not launched. */
__global__ void matmul_tf32_experiment(const float *A, const float *B, float *C, int M, int N, int K)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    using namespace nvcuda;
    int row0 = blockIdx.y * 16, col0 = blockIdx.x * 16;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 + 8 <= K && row0 + 16 <= M && col0 + 16 <= N; k0 += 8) {
        wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a;
        wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b;
        wmma::load_matrix_sync(a, A + (size_t)row0 * K + k0, K);
        wmma::load_matrix_sync(b, B + (size_t)k0 * N + col0, N);
        wmma::mma_sync(acc, a, b, acc);
    }
    if (row0 + 16 <= M && col0 + 16 <= N)
        wmma::store_matrix_sync(C + (size_t)row0 * N + col0, acc, N, wmma::mem_row_major);
#endif
}
__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float sum = 0.0f;

    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = row < M && t + tx < K ? A[(size_t)row * K + t + tx] : 0.0f;
        Bs[ty][tx] = t + ty < K && col < N ? B[(size_t)(t + ty) * N + col] : 0.0f;
        /* Both tiles complete before anyone multiplies. */
        __syncthreads();

        for (int k = 0; k < TILE; k++)
            sum += As[ty][k] * Bs[k][tx];
        /* Everyone done reading before the next load overwrites the tiles. */
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

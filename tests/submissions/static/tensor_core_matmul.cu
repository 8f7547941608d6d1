/* Attack: lab 4's product on the tensor cores (wmma; TF32 on an A100 or H100, FP16 here so that sm_75 builds it), which FP32 accuracy checks cannot always tell apart; inspect, given lab 4's rubric (arithmetic fp32), must say "ptx: tensor-cores:". */
#include <mma.h>
#include "tilelab.h"

using namespace nvcuda;

__global__ void product_wmma(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ half a[16 * 16], b[16 * 16];
    __shared__ float c[16 * 16];
    int row0 = blockIdx.y * 16, col0 = blockIdx.x * 16;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
    wmma::fill_fragment(acc, 0.0f);
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int i = threadIdx.x; i < 256; i += 32) {
            int r = i / 16, k = i % 16;
            a[i] = __float2half(row0 + r < M && k0 + k < K ? A[(size_t)(row0 + r) * K + k0 + k] : 0.0f);
            b[i] = __float2half(k0 + r < K && col0 + k < N ? B[(size_t)(k0 + r) * N + col0 + k] : 0.0f);
        }
        __syncwarp();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
        wmma::load_matrix_sync(fa, a, 16);
        wmma::load_matrix_sync(fb, b, 16);
        wmma::mma_sync(acc, fa, fb, acc);
        __syncwarp();
    }
    wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
    __syncwarp();
    for (int i = threadIdx.x; i < 256; i += 32)
        if (row0 + i / 16 < M && col0 + i % 16 < N)
            C[(size_t)(row0 + i / 16) * N + col0 + i % 16] = c[i];
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 grid(CEIL_DIV(N, 16), CEIL_DIV(M, 16));
    product_wmma<<<grid, 32>>>(A, B, C, M, N, K);
}

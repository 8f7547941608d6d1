/*
 * sparse_wide_launch.cu — lab 7's contrast, as a worker's launch_matmul_sparse:
 * the same product with a WIDE warp tile. A warp owns 16 rows x the block's
 * 128 columns and each lane 4 columns of them, so every lane reads the
 * patterns of its own columns and skips its own zeros: the skip diverges.
 * ./grade runs it under ncu beside the student's tall kernel and prints
 * both kernels' divergent branches. Right, but not fast: a contrast only.
 */
#include "tilelab.h"

enum { BM = 128, BN = 128, BK = 16, THREADS = 256, ROWS = 16, COLS = 4 };

__global__ void __launch_bounds__(THREADS) matmul_sparse_wide(const float *A, const float *Bt,
                                                              const unsigned char *pattern, float *C, int M, int N,
                                                              int K)
{
    enum { KBS = BK / TL_SPARSE_KB };
    __shared__ float As[BK][BM];
    __shared__ float Bts[BN][BK + 1];
    __shared__ unsigned char Ps[BN][KBS];
    const int row_len = TL_SPARSE_LD(K), blocks_per_row = row_len / TL_SPARSE_KB;
    const int first_row = blockIdx.y * BM + threadIdx.x / 32 * ROWS, first_col = blockIdx.x * BN;
    const int rows = threadIdx.x / 32 * ROWS, cols = threadIdx.x % 32 * COLS;   /* lanes side by side across the columns */
    float acc[ROWS][COLS] = {};
    for (int slice = 0; slice < row_len; slice += BK) {
        for (int i = threadIdx.x; i < BM * BK; i += THREADS) {
            const int m = blockIdx.y * BM + i / BK, k = slice + i % BK;
            As[i % BK][i / BK] = m < M && k < K ? A[(size_t)m * K + k] : 0.0f;
        }
        for (int i = threadIdx.x; i < BN * BK; i += THREADS) {
            const int n = first_col + i / BK, k = slice + i % BK;
            Bts[i / BK][i % BK] = n < N && k < row_len ? Bt[(size_t)n * row_len + k] : 0.0f;
        }
        for (int t = threadIdx.x; t < BN * KBS; t += THREADS) {
            const int n = first_col + t / KBS, block = slice / TL_SPARSE_KB + t % KBS;
            Ps[t / KBS][t % KBS] = n < N && block < blocks_per_row ? pattern[(size_t)n * blocks_per_row + block] : 0;
        }
        __syncthreads();
        for (int kb = 0; kb < KBS; kb++)
            for (int j = 0; j < COLS; j++) {
                const unsigned p = Ps[cols + j][kb];   /* this lane's own column: its own pattern */
                if (!p)
                    continue;   /* lanes disagree: the warp runs both ways */
                for (int k = 0; k < TL_SPARSE_KB; k++)
                    if (p >> k & 1) {
                        const float b = Bts[cols + j][kb * TL_SPARSE_KB + k];
#pragma unroll
                        for (int r = 0; r < ROWS; r++)
                            acc[r][j] += As[kb * TL_SPARSE_KB + k][rows + r] * b;
                    }
            }
        __syncthreads();
    }
    for (int r = 0; r < ROWS; r++)
        for (int j = 0; j < COLS; j++) {
            const int m = first_row + r, n = first_col + cols + j;
            if (m < M && n < N)
                C[(size_t)m * N + n] = acc[r][j];
        }
}

void launch_matmul_sparse(const float *A, const float *Bt, const unsigned char *pattern, float *C, int M, int N, int K)
{
    dim3 blocks(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
    LAUNCH(matmul_sparse_wide, blocks, THREADS)(A, Bt, pattern, C, M, N, K);
}

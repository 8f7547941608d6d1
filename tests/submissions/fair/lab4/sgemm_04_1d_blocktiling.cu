/*
 * Fair (lab 4): rung 4 of the tutorial SGEMM ladder (Simon Boehm, "How to
 * Optimize a CUDA Matmul Kernel for cuBLAS-like Performance",
 * https://siboehm.com/articles/22/CUDA-MMM; SGEMM_CUDA kernel 4 "1D
 * blocktiling"), adapted to lab 4's any-shape contract. A block of
 * BM * BN / TM = 512 threads computes a 64 x 64 tile of C; each thread TM = 8
 * results of one column, kept in registers, so a value of B read from
 * shared memory serves 8 FMAs. K advances BK = 8 at a time: the A tile
 * (64 x 8) and the B tile (8 x 64) are one element per thread each, loaded
 * zero-filled past the edges (the worklog assumes multiples of the tile),
 * two barriers per step. Stores test each row and the column.
 * Full marks: the worklog measures this rung at 2.5-3x the shared-memory
 * rung (the lab's reference, 0.175-0.190 of cuBLAS on the H100); lab 4 is
 * full from 0.15.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

template <const int BM, const int BN, const int BK, const int TM>
__global__ void sgemm1DBlocktiling(int M, int N, int K, const float *A, const float *B, float *C)
{
    static_assert(BM * BK == BM * BN / TM && BN * BK == BM * BN / TM, "one element of each tile per thread");
    const int cRow = blockIdx.y, cCol = blockIdx.x;
    const int threadCol = threadIdx.x % BN;
    const int threadRow = threadIdx.x / BN;

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    const int innerColA = threadIdx.x % BK, innerRowA = threadIdx.x / BK;
    const int innerColB = threadIdx.x % BN, innerRowB = threadIdx.x / BN;
    const int aRow = cRow * BM + innerRowA, bCol = cCol * BN + innerColB;

    float threadResults[TM] = {0.0f};

    for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
        As[innerRowA * BK + innerColA] =
            aRow < M && bkIdx + innerColA < K ? A[(size_t)aRow * K + bkIdx + innerColA] : 0.0f;
        Bs[innerRowB * BN + innerColB] =
            bkIdx + innerRowB < K && bCol < N ? B[(size_t)(bkIdx + innerRowB) * N + bCol] : 0.0f;
        __syncthreads();

        for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
            /* one value of B, cached in a register, for TM rows of A */
            float tmpB = Bs[dotIdx * BN + threadCol];
            for (int resIdx = 0; resIdx < TM; ++resIdx)
                threadResults[resIdx] += As[(threadRow * TM + resIdx) * BK + dotIdx] * tmpB;
        }
        __syncthreads();
    }

    const int col = cCol * BN + threadCol;
    for (int resIdx = 0; resIdx < TM; ++resIdx) {
        const int row = cRow * BM + threadRow * TM + resIdx;
        if (row < M && col < N)
            C[(size_t)row * N + col] = threadResults[resIdx];
    }
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    const int BM = 64, BN = 64, BK = 8, TM = 8;
    dim3 gridDim(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
    dim3 blockDim((BM * BN) / TM);
    sgemm1DBlocktiling<BM, BN, BK, TM><<<gridDim, blockDim>>>(M, N, K, A, B, C);
}

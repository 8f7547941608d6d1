/*
 * Fair (lab 4): rung 5 of the tutorial SGEMM ladder (Simon Boehm, "How to
 * Optimize a CUDA Matmul Kernel for cuBLAS-like Performance",
 * https://siboehm.com/articles/22/CUDA-MMM; SGEMM_CUDA kernel 5 "2D
 * blocktiling"), adapted to lab 4's any-shape contract. 256 threads compute
 * a 128 x 128 tile of C, each an 8 x 8 sub-tile in registers: per value of
 * K it reads 8 values of A and 8 of B from shared memory into registers and
 * does 64 FMAs (an outer product). K advances 8 at a time; each thread
 * loads 4 elements of the A tile (128 x 8) and 4 of the B tile (8 x 128),
 * zero-filled past the edges; two barriers per step; each store tested.
 * Full marks: the worklog measures this rung at about 4x the shared-memory
 * rung (the lab's reference: 0.175-0.190 of cuBLAS on the H100); lab 4 is
 * full from 0.15. Small shapes (1 x 300 x 1) launch one mostly idle block:
 * correct, and not timed.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN))
    sgemm2DBlocktiling(int M, int N, int K, const float *A, const float *B, float *C)
{
    constexpr int numThreads = (BM * BN) / (TM * TN);
    const int cRow = blockIdx.y, cCol = blockIdx.x;
    const int threadCol = threadIdx.x % (BN / TN);
    const int threadRow = threadIdx.x / (BN / TN);

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    const int innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;
    constexpr int strideA = numThreads / BK;
    const int innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;
    constexpr int strideB = numThreads / BN;

    float threadResults[TM * TN] = {0.0f};
    float regM[TM], regN[TN];

    for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
        for (int loadOffset = 0; loadOffset < BM; loadOffset += strideA) {
            const int r = cRow * BM + innerRowA + loadOffset, k = bkIdx + innerColA;
            As[(innerRowA + loadOffset) * BK + innerColA] = r < M && k < K ? A[(size_t)r * K + k] : 0.0f;
        }
        for (int loadOffset = 0; loadOffset < BK; loadOffset += strideB) {
            const int k = bkIdx + innerRowB + loadOffset, c = cCol * BN + innerColB;
            Bs[(innerRowB + loadOffset) * BN + innerColB] = k < K && c < N ? B[(size_t)k * N + c] : 0.0f;
        }
        __syncthreads();

        for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
            for (int i = 0; i < TM; ++i)
                regM[i] = As[(threadRow * TM + i) * BK + dotIdx];
            for (int i = 0; i < TN; ++i)
                regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
            for (int resIdxM = 0; resIdxM < TM; ++resIdxM)
                for (int resIdxN = 0; resIdxN < TN; ++resIdxN)
                    threadResults[resIdxM * TN + resIdxN] += regM[resIdxM] * regN[resIdxN];
        }
        __syncthreads();
    }

    for (int resIdxM = 0; resIdxM < TM; ++resIdxM)
        for (int resIdxN = 0; resIdxN < TN; ++resIdxN) {
            const int row = cRow * BM + threadRow * TM + resIdxM;
            const int col = cCol * BN + threadCol * TN + resIdxN;
            if (row < M && col < N)
                C[(size_t)row * N + col] = threadResults[resIdxM * TN + resIdxN];
        }
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    const int BK = 8, TM = 8, TN = 8, BM = 128, BN = 128;
    dim3 gridDim(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    sgemm2DBlocktiling<BM, BN, BK, TM, TN><<<gridDim, blockDim>>>(M, N, K, A, B, C);
}

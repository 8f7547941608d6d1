/*
 * Fair (lab 4): the top rung of the tutorial SGEMM ladder, warptiling (Simon
 * Boehm, "How to Optimize a CUDA Matmul Kernel for cuBLAS-like
 * Performance", https://siboehm.com/articles/22/CUDA-MMM; SGEMM_CUDA kernel
 * 10), adapted to lab 4's any-shape contract, with the worklog's
 * parameters: 128 threads (4 warps) per 128 x 128 block tile, BK = 16; each
 * warp a 64 x 64 warp tile, iterated as WMITER x WNITER = 1 x 4 sub-tiles
 * of 64 x 16; each thread 8 x 4 results per sub-tile (128 in registers).
 * A's tile goes to shared memory transposed through float4 loads, B's as
 * float4s; both zero-filled past the edges, scalar and bounds-tested where
 * rows are not 16-byte aligned (K % 4 or N % 4 != 0). The configuration
 * lives in constexpr constants inside an anonymous namespace, with the
 * loader as a `__device__ __forceinline__` helper there.
 * Full marks: the worklog measures this rung within 10 % of cuBLAS on its
 * GPU; lab 4 is full from 0.15 of cuBLAS (the reference 0.175-0.190, H100).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

namespace {

constexpr int NUM_THREADS = 128, BM = 128, BN = 128, BK = 16;
constexpr int WM = 64, WN = 64, WNITER = 4, TM = 8, TN = 4;
constexpr int WMITER = (WM * WN) / (32 * TM * TN * WNITER);
constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;
static_assert((BN / WN) * (BM / WM) * 32 == NUM_THREADS, "one warp per warp tile");
static_assert(WMITER == 1 && WSUBN / TN * (WSUBM / TM) == 32, "a sub-tile is 8 x 4 threads of 8 x 4 results");

__device__ __forceinline__ float4 load4(const float *p, int avail, bool vec)
{
    if (vec && avail >= 4)
        return *reinterpret_cast<const float4 *>(p);
    return make_float4(avail > 0 ? p[0] : 0.f, avail > 1 ? p[1] : 0.f, avail > 2 ? p[2] : 0.f, avail > 3 ? p[3] : 0.f);
}

__global__ void __launch_bounds__(NUM_THREADS)
    sgemmWarptiling(int M, int N, int K, const float *A, const float *B, float *C, bool vec)
{
    const int cRow = blockIdx.y, cCol = blockIdx.x;
    const int warpIdx = threadIdx.x / 32, warpCol = warpIdx % (BN / WN), warpRow = warpIdx / (BN / WN);
    const int lane = threadIdx.x % 32;
    const int threadColInWarp = lane % (WSUBN / TN), threadRowInWarp = lane / (WSUBN / TN);

    __shared__ __align__(16) float As[BK * BM];   /* As[k * BM + m] */
    __shared__ __align__(16) float Bs[BK * BN];

    const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
    constexpr int rowStrideA = (NUM_THREADS * 4) / BK;
    const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);
    constexpr int rowStrideB = NUM_THREADS / (BN / 4);

    float threadResults[WMITER * TM * WNITER * TN] = {0.0f};
    float regM[WMITER * TM], regN[WNITER * TN];

    for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
        for (int offset = 0; offset + rowStrideA <= BM; offset += rowStrideA) {
            const int m = cRow * BM + innerRowA + offset, k = bkIdx + innerColA * 4;
            const float4 t = m < M ? load4(A + (size_t)m * K + k, K - k, vec) : make_float4(0.f, 0.f, 0.f, 0.f);
            As[(innerColA * 4 + 0) * BM + innerRowA + offset] = t.x;
            As[(innerColA * 4 + 1) * BM + innerRowA + offset] = t.y;
            As[(innerColA * 4 + 2) * BM + innerRowA + offset] = t.z;
            As[(innerColA * 4 + 3) * BM + innerRowA + offset] = t.w;
        }
        for (int offset = 0; offset + rowStrideB <= BK; offset += rowStrideB) {
            const int k = bkIdx + innerRowB + offset, n = cCol * BN + innerColB * 4;
            *reinterpret_cast<float4 *>(&Bs[(innerRowB + offset) * BN + innerColB * 4]) =
                k < K ? load4(B + (size_t)k * N + n, N - n, vec) : make_float4(0.f, 0.f, 0.f, 0.f);
        }
        __syncthreads();

        for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
            for (int wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx)
                for (int i = 0; i < TM; ++i)
                    regM[wSubRowIdx * TM + i] =
                        As[dotIdx * BM + warpRow * WM + wSubRowIdx * WSUBM + threadRowInWarp * TM + i];
            for (int wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx)
                for (int i = 0; i < TN; ++i)
                    regN[wSubColIdx * TN + i] =
                        Bs[dotIdx * BN + warpCol * WN + wSubColIdx * WSUBN + threadColInWarp * TN + i];
            for (int wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx)
                for (int wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx)
                    for (int resIdxM = 0; resIdxM < TM; ++resIdxM)
                        for (int resIdxN = 0; resIdxN < TN; ++resIdxN)
                            threadResults[(wSubRowIdx * TM + resIdxM) * (WNITER * TN) + wSubColIdx * TN + resIdxN] +=
                                regM[wSubRowIdx * TM + resIdxM] * regN[wSubColIdx * TN + resIdxN];
        }
        __syncthreads();
    }

    for (int wSubRowIdx = 0; wSubRowIdx < WMITER; ++wSubRowIdx)
        for (int wSubColIdx = 0; wSubColIdx < WNITER; ++wSubColIdx)
            for (int resIdxM = 0; resIdxM < TM; ++resIdxM) {
                const int row = cRow * BM + warpRow * WM + wSubRowIdx * WSUBM + threadRowInWarp * TM + resIdxM;
                const int col = cCol * BN + warpCol * WN + wSubColIdx * WSUBN + threadColInWarp * TN;
                if (row >= M)
                    continue;
                const float *v = &threadResults[(wSubRowIdx * TM + resIdxM) * (WNITER * TN) + wSubColIdx * TN];
                float *dst = C + (size_t)row * N + col;
                if (vec && col + 3 < N)
                    *reinterpret_cast<float4 *>(dst) = make_float4(v[0], v[1], v[2], v[3]);
                else
                    for (int e = 0; e < TN && col + e < N; ++e)
                        dst[e] = v[e];
            }
}

} // namespace

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    const bool vec = K % 4 == 0 && N % 4 == 0 &&
                     (reinterpret_cast<size_t>(A) | reinterpret_cast<size_t>(B) | reinterpret_cast<size_t>(C)) % 16 == 0;
    dim3 gridDim(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
    sgemmWarptiling<<<gridDim, NUM_THREADS>>>(M, N, K, A, B, C, vec);
}

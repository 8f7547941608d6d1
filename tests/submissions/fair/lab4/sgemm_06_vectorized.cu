/*
 * Fair (lab 4): rung 6 of the tutorial SGEMM ladder (Simon Boehm, "How to
 * Optimize a CUDA Matmul Kernel for cuBLAS-like Performance",
 * https://siboehm.com/articles/22/CUDA-MMM; SGEMM_CUDA kernel 6 "vectorized
 * memory access"), adapted to lab 4's any-shape contract. Rung 5's 128 x 128
 * block tile and 8 x 8 thread tiles, with 128-bit accesses: A's tile is
 * read as float4s and stored transposed (As[k][m]) so a thread's 8 values
 * of A are contiguous in shared memory; B's tile is read and stored as
 * float4s; C is written as float4s. float4 needs 16-byte rows: used only
 * when K % 4 == 0, N % 4 == 0 and the bases are 16-byte aligned (one flag
 * for the whole launch); otherwise every access is scalar and bounds-tested.
 * Partial tiles are zero-filled either way.
 * Full marks: the worklog puts this rung near 5x the shared-memory rung
 * (lab 4's reference: 0.175-0.190 of cuBLAS on the H100); full from 0.15.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
constexpr int NUM_THREADS = (BM * BN) / (TM * TN);
static_assert(BM * BK / 4 == NUM_THREADS && BK * BN / 4 == NUM_THREADS, "one float4 of each tile per thread");

/* Four values at p, `avail` of them inside the matrix; one float4 when allowed. */
static __device__ __forceinline__ float4 fetch4(const float *p, int avail, bool vec)
{
    if (vec && avail >= 4)
        return reinterpret_cast<const float4 *>(p)[0];
    return make_float4(avail > 0 ? p[0] : 0.0f, avail > 1 ? p[1] : 0.0f, avail > 2 ? p[2] : 0.0f,
                       avail > 3 ? p[3] : 0.0f);
}

__global__ void __launch_bounds__(NUM_THREADS)
    sgemmVectorize(int M, int N, int K, const float *A, const float *B, float *C, bool vec)
{
    const int cRow = blockIdx.y, cCol = blockIdx.x;
    const int threadCol = threadIdx.x % (BN / TN), threadRow = threadIdx.x / (BN / TN);

    __shared__ __align__(16) float As[BK * BM];   /* transposed: As[k * BM + m] */
    __shared__ __align__(16) float Bs[BK * BN];

    const int innerRowA = threadIdx.x / (BK / 4), innerColA = threadIdx.x % (BK / 4);
    const int innerRowB = threadIdx.x / (BN / 4), innerColB = threadIdx.x % (BN / 4);

    float threadResults[TM * TN] = {0.0f};
    float regM[TM], regN[TN];

    for (int bkIdx = 0; bkIdx < K; bkIdx += BK) {
        {
            const int r = cRow * BM + innerRowA, k = bkIdx + innerColA * 4;
            const float4 v = r < M ? fetch4(A + (size_t)r * K + k, K - k, vec) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            As[(innerColA * 4 + 0) * BM + innerRowA] = v.x;
            As[(innerColA * 4 + 1) * BM + innerRowA] = v.y;
            As[(innerColA * 4 + 2) * BM + innerRowA] = v.z;
            As[(innerColA * 4 + 3) * BM + innerRowA] = v.w;
        }
        {
            const int k = bkIdx + innerRowB, c = cCol * BN + innerColB * 4;
            reinterpret_cast<float4 *>(&Bs[innerRowB * BN + innerColB * 4])[0] =
                k < K ? fetch4(B + (size_t)k * N + c, N - c, vec) : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
        __syncthreads();

        for (int dotIdx = 0; dotIdx < BK; ++dotIdx) {
            for (int i = 0; i < TM; ++i)
                regM[i] = As[dotIdx * BM + threadRow * TM + i];
            for (int i = 0; i < TN; ++i)
                regN[i] = Bs[dotIdx * BN + threadCol * TN + i];
            for (int m = 0; m < TM; ++m)
                for (int n = 0; n < TN; ++n)
                    threadResults[m * TN + n] += regM[m] * regN[n];
        }
        __syncthreads();
    }

    for (int m = 0; m < TM; ++m) {
        const int row = cRow * BM + threadRow * TM + m;
        if (row >= M)
            break;
        for (int n = 0; n < TN; n += 4) {
            const int col = cCol * BN + threadCol * TN + n;
            float *dst = C + (size_t)row * N + col;
            const float *v = &threadResults[m * TN + n];
            if (vec && col + 3 < N)
                reinterpret_cast<float4 *>(dst)[0] = make_float4(v[0], v[1], v[2], v[3]);
            else
                for (int e = 0; e < 4 && col + e < N; ++e)
                    dst[e] = v[e];
        }
    }
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    const bool vec = K % 4 == 0 && N % 4 == 0 &&
                     (reinterpret_cast<size_t>(A) | reinterpret_cast<size_t>(B) | reinterpret_cast<size_t>(C)) % 16 == 0;
    dim3 gridDim(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
    sgemmVectorize<<<gridDim, NUM_THREADS>>>(M, N, K, A, B, C, vec);
}

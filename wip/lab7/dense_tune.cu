// Lab 7 dense warp-tiled SGEMM candidates against cuBLAS FP32 (scratch; not the kit).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#include <cublas_v2.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int NT>
__global__ void __launch_bounds__(NT) warptile(int M, int N, int K, const float *__restrict__ A,
                                               const float *__restrict__ B, float *__restrict__ C)
{
    constexpr int WMITER = (WM * WN) / (32 * TM * TN * WNITER);
    constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int warpCol = warp % (BN / WN), warpRow = warp / (BN / WN);
    const int tCol = lane % (WSUBN / TN), tRow = lane / (WSUBN / TN);
    __shared__ float As[BK * BM];   // transposed: As[k][m]
    __shared__ float Bs[BK * BN];
    A += blockIdx.y * BM * K;
    B += blockIdx.x * BN;
    C += (blockIdx.y * BM + warpRow * WM) * N + blockIdx.x * BN + warpCol * WN;
    const int rA = threadIdx.x / (BK / 4), cA = threadIdx.x % (BK / 4);
    constexpr int strideA = NT * 4 / BK;
    const int rB = threadIdx.x / (BN / 4), cB = threadIdx.x % (BN / 4);
    constexpr int strideB = NT / (BN / 4);
    float acc[WMITER * TM * WNITER * TN] = {0};
    float regM[WMITER * TM], regN[WNITER * TN];
    for (int bk = 0; bk < K; bk += BK) {
#pragma unroll
        for (int off = 0; off < BM; off += strideA) {
            float4 t = *(const float4 *)&A[(rA + off) * K + cA * 4];
            As[(cA * 4 + 0) * BM + rA + off] = t.x;
            As[(cA * 4 + 1) * BM + rA + off] = t.y;
            As[(cA * 4 + 2) * BM + rA + off] = t.z;
            As[(cA * 4 + 3) * BM + rA + off] = t.w;
        }
#pragma unroll
        for (int off = 0; off < BK; off += strideB)
            *(float4 *)&Bs[(rB + off) * BN + cB * 4] = *(const float4 *)&B[(rB + off) * N + cB * 4];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < BK; k++) {
#pragma unroll
            for (int wm = 0; wm < WMITER; wm++)
#pragma unroll
                for (int i = 0; i < TM; i += 4)
                    *(float4 *)&regM[wm * TM + i] = *(const float4 *)&As[k * BM + warpRow * WM + wm * WSUBM + tRow * TM + i];
#pragma unroll
            for (int wn = 0; wn < WNITER; wn++)
#pragma unroll
                for (int i = 0; i < TN; i += 4)
                    *(float4 *)&regN[wn * TN + i] = *(const float4 *)&Bs[k * BN + warpCol * WN + wn * WSUBN + tCol * TN + i];
#pragma unroll
            for (int wm = 0; wm < WMITER; wm++)
#pragma unroll
                for (int wn = 0; wn < WNITER; wn++)
#pragma unroll
                    for (int i = 0; i < TM; i++)
#pragma unroll
                        for (int j = 0; j < TN; j++)
                            acc[(wm * TM + i) * (WNITER * TN) + wn * TN + j] += regM[wm * TM + i] * regN[wn * TN + j];
        }
        A += BK;
        B += BK * N;
        __syncthreads();
    }
#pragma unroll
    for (int wm = 0; wm < WMITER; wm++)
#pragma unroll
        for (int wn = 0; wn < WNITER; wn++) {
            float *Ci = C + (wm * WSUBM) * N + wn * WSUBN;
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j += 4) {
                    float4 v;
                    const float *a = &acc[(wm * TM + i) * (WNITER * TN) + wn * TN + j];
                    v.x = a[0]; v.y = a[1]; v.z = a[2]; v.w = a[3];
                    *(float4 *)&Ci[(tRow * TM + i) * N + tCol * TN + j] = v;
                }
        }
}

typedef void (*launch_fn)(int, int, int, const float *, const float *, float *);
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int NT>
void L(int M, int N, int K, const float *A, const float *B, float *C)
{
    dim3 g(N / BN, M / BM);
    warptile<BM, BN, BK, WM, WN, WNITER, TM, TN, NT><<<g, NT>>>(M, N, K, A, B, C);
}
static cublasHandle_t H;
void Lcublas(int M, int N, int K, const float *A, const float *B, float *C)
{
    const float one = 1, zero = 0;
    cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
}

int main()
{
    CK(cudaFree(0));
    cublasCreate(&H);
    cublasSetMathMode(H, CUBLAS_PEDANTIC_MATH);
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("# %s\n", p.name);
    struct { const char *name; launch_fn f; } ks[] = {
        {"cublas", Lcublas},
        {"k10_128x128_w64x64_nt128", L<128, 128, 16, 64, 64, 4, 8, 4, 128>},
        {"128x128_w64x32_nt256", L<128, 128, 16, 64, 32, 2, 8, 4, 256>},
        {"128x128_bk8_w64x64_nt128", L<128, 128, 8, 64, 64, 4, 8, 4, 128>},
        {"128x256_w64x64_nt256", L<128, 256, 16, 64, 64, 4, 8, 4, 256>},
        {"256x128_w64x64_nt256", L<256, 128, 16, 64, 64, 4, 8, 4, 256>},
        {"128x128_w32x64_nt256", L<128, 128, 16, 32, 64, 4, 4, 4, 256>},
        {"64x128_w32x64_nt128", L<64, 128, 16, 32, 64, 4, 4, 4, 128>},
        {"cublas2", Lcublas},
    };
    int sizes[] = {2048, 4096, 8192};
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int S : sizes) {
        int M = S, N = S, K = S;
        size_t n = (size_t)S * S;
        float *A, *B, *C, *R;
        CK(cudaMalloc(&A, n * 4)); CK(cudaMalloc(&B, n * 4)); CK(cudaMalloc(&C, n * 4)); CK(cudaMalloc(&R, n * 4));
        std::vector<float> h(n);
        for (size_t i = 0; i < n; i++) h[i] = (float)((i * 2654435761u) % 1000) / 1000.0f - 0.5f;
        CK(cudaMemcpy(A, h.data(), n * 4, cudaMemcpyHostToDevice));
        for (size_t i = 0; i < n; i++) h[i] = (float)((i * 40503u) % 997) / 997.0f - 0.5f;
        CK(cudaMemcpy(B, h.data(), n * 4, cudaMemcpyHostToDevice));
        Lcublas(M, N, K, A, B, R);
        CK(cudaDeviceSynchronize());
        std::vector<float> ref(n), got(n);
        CK(cudaMemcpy(ref.data(), R, n * 4, cudaMemcpyDeviceToHost));
        double cublas_ms = 0;
        for (auto &k : ks) {
            CK(cudaMemset(C, 0xFF, n * 4));
            k.f(M, N, K, A, B, C);
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(got.data(), C, n * 4, cudaMemcpyDeviceToHost));
            double maxerr = 0;
            for (size_t i = 0; i < n; i += 97) maxerr = std::max(maxerr, (double)fabsf(got[i] - ref[i]));
            for (int w = 0; w < 2; w++) k.f(M, N, K, A, B, C);
            std::vector<float> t;
            int reps = S >= 8192 ? 5 : 15;
            for (int r = 0; r < reps; r++) {
                CK(cudaEventRecord(a));
                k.f(M, N, K, A, B, C);
                CK(cudaEventRecord(b));
                CK(cudaEventSynchronize(b));
                float ms;
                CK(cudaEventElapsedTime(&ms, a, b));
                t.push_back(ms);
            }
            std::sort(t.begin(), t.end());
            double ms = t[t.size() / 2];
            if (k.f == Lcublas && cublas_ms == 0) cublas_ms = ms;
            printf("%5d %-28s %8.3f ms %8.0f GFLOP/s  %.3f of cublas  maxerr %.2e\n", S, k.name, ms,
                   2.0 * M * N * K / ms / 1e6, cublas_ms / ms, maxerr);
            fflush(stdout);
        }
        cudaFree(A); cudaFree(B); cudaFree(C); cudaFree(R);
    }
}

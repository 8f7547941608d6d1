// Lab 7 reference: correctness at edge shapes and timing at 4096^3 (scratch driver, not the kit).
#ifndef SOL
#define SOL "../solutions/lab7-sparse-matmul/matmul.cu"
#endif
#include SOL
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cmath>
#include <cublas_v2.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

// The contrast: a wide warp tile, lanes across columns, so each lane reads its own patterns.
__global__ void __launch_bounds__(256) matmul_sparse_wide(const float *A, const float *Bt, const unsigned char *pattern, float *C, int M, int N, int K)
{
    __shared__ __align__(16) float As[BK][BM];
    __shared__ __align__(16) float Bts[BN][BK + 4];
    __shared__ unsigned char Ps[BN][2];
    const int ld = TL_SPARSE_LD(K), kblocks = ld / 8;
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int rows = warp * 16, cols = lane * 4;   // 16 rows x 4 columns per lane; lanes across 128 columns
    float acc[16][4] = {};
    for (int k0 = 0; k0 < ld; k0 += BK) {
        load_a_tile(As, A, M, K, row0, k0, false);
        for (int i = threadIdx.x; i < BN * BK; i += 256) {
            int n = col0 + i / BK, k = k0 + i % BK;
            Bts[i / BK][i % BK] = n < N && k < ld ? Bt[(size_t)n * ld + k] : 0.0f;
        }
        for (int i = threadIdx.x; i < BN * 2; i += 256) {
            int n = col0 + i / 2, kb = k0 / 8 + i % 2;
            Ps[i / 2][i % 2] = n < N && kb < kblocks ? pattern[(size_t)n * kblocks + kb] : 0;
        }
        __syncthreads();
        for (int kb = 0; kb < 2; kb++)
            for (int j = 0; j < 4; j++) {
                unsigned p = Ps[cols + j][kb];
                if (p == 0) continue;          // each lane its own column: this branch diverges
                for (int k = 0; k < 8; k++)
                    if (p >> k & 1) {
                        float b = Bts[cols + j][kb * 8 + k];
#pragma unroll
                        for (int r = 0; r < 16; r++) acc[r][j] += As[kb * 8 + k][rows + r] * b;
                    }
            }
        __syncthreads();
    }
    for (int r = 0; r < 16; r++)
        for (int j = 0; j < 4; j++) {
            int m = row0 + rows + r, n = col0 + cols + j;
            if (m < M && n < N) C[(size_t)m * N + n] = acc[r][j];
        }
}
void launch_wide(const float *A, const float *Bt, const unsigned char *P, float *C, int M, int N, int K)
{
    dim3 g(CEIL_DIV(N, 128), CEIL_DIV(M, 128));
    matmul_sparse_wide<<<g, 256>>>(A, Bt, P, C, M, N, K);
}

static unsigned long long rng = 88172645463325252ull;
static unsigned long long nxt() { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static float uni() { return (float)((nxt() >> 11) * (1.0 / 9007199254740992.0)) * 2 - 1; }

// modes: 0 dense, 1 zero, 2 blocks at density d (dense blocks), 3 random elements p=d, 4 changes along K
static void make_b(std::vector<float> &B, int K, int N, int mode, double d)
{
    B.assign((size_t)K * N, 0.f);
    for (int n = 0; n < N; n++)
        for (int kb = 0; kb * 8 < K; kb++) {
            bool blk = mode == 0 || (mode == 2 && (nxt() >> 11) * (1.0 / 9007199254740992.0) < d) ||
                       mode == 3 || (mode == 4 && ((kb + n / 16) % 3 == 0 || kb % 5 == 1));
            if (mode == 1) blk = false;
            for (int i = 0; i < 8 && kb * 8 + i < K; i++) {
                bool nz = blk && (mode != 3 || (nxt() >> 11) * (1.0 / 9007199254740992.0) < d) && (mode != 4 || kb % 5 != 1 || i % 3 == 0);
                if (nz) B[(size_t)(kb * 8 + i) * N + n] = uni();
            }
        }
}
static void encode(const std::vector<float> &B, int K, int N, std::vector<float> &Bt, std::vector<unsigned char> &P)
{
    int ld = TL_SPARSE_LD(K), kbs = ld / 8;
    Bt.assign((size_t)N * ld, 0.f);
    P.assign((size_t)N * kbs, 0);
    for (int n = 0; n < N; n++)
        for (int k = 0; k < K; k++) {
            float v = B[(size_t)k * N + n];
            Bt[(size_t)n * ld + k] = v;
            if (v != 0) P[(size_t)n * kbs + k / 8] |= 1u << (k % 8);
        }
}
struct Dev { float *A, *Bd, *Bt, *C; unsigned char *P; };
static int check(const char *what, const std::vector<float> &A, const std::vector<float> &B, const std::vector<float> &C, int M, int N, int K)
{
    int bad = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0, sa = 0;
            for (int k = 0; k < K; k++) { s += (double)A[(size_t)i * K + k] * B[(size_t)k * N + j]; sa += fabs((double)A[(size_t)i * K + k] * B[(size_t)k * N + j]); }
            double c = C[(size_t)i * N + j];
            if (!(fabs(c - s) <= 2.0 * K * 5.96e-8 * sa + 1e-30)) { if (bad < 3) printf("  %s (%d,%d): %g vs %g\n", what, i, j, c, s); bad++; }
        }
    return bad;
}
static cublasHandle_t H;
int main(int argc, char **argv)
{
    CK(cudaFree(0));
    cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
    printf("# %s\n", prop.name);
    cublasCreate(&H); cublasSetMathMode(H, CUBLAS_PEDANTIC_MATH);
    if (argc > 1 && !strcmp(argv[1], "ncu")) {   // one launch each, for ncu's branch counters
        int S = 1024; double d = 0.5;
        std::vector<float> A((size_t)S * S), B, Bt, C((size_t)S * S); std::vector<unsigned char> P;
        for (auto &x : A) x = uni();
        make_b(B, S, S, 3, d); encode(B, S, S, Bt, P);
        float *dA, *dBt, *dC; unsigned char *dP;
        CK(cudaMalloc(&dA, A.size() * 4)); CK(cudaMalloc(&dBt, Bt.size() * 4)); CK(cudaMalloc(&dC, C.size() * 4)); CK(cudaMalloc(&dP, P.size()));
        CK(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dBt, Bt.data(), Bt.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dP, P.data(), P.size(), cudaMemcpyHostToDevice));
        launch_matmul_sparse(dA, dBt, dP, dC, S, S, S);
        launch_wide(dA, dBt, dP, dC, S, S, S);
        make_b(B, S, S, 2, d); encode(B, S, S, Bt, P);
        CK(cudaMemcpy(dBt, Bt.data(), Bt.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dP, P.data(), P.size(), cudaMemcpyHostToDevice));
        launch_matmul_sparse(dA, dBt, dP, dC, S, S, S);
        launch_wide(dA, dBt, dP, dC, S, S, S);
        CK(cudaDeviceSynchronize());
        return 0;
    }
    // correctness
    int shapes[][3] = {{1, 1, 1}, {1, 300, 1}, {300, 1, 200}, {17, 33, 65}, {67, 45, 33}, {130, 200, 129}, {513, 257, 129}, {256, 64, 256}, {1000, 12, 999}, {129, 136, 131}, {64, 20, 64}};
    int fails = 0;
    for (auto &sh : shapes) {
        int M = sh[0], K = sh[1], N = sh[2];
        std::vector<float> A((size_t)M * K), B, Bt, C((size_t)M * N); std::vector<unsigned char> P;
        for (auto &x : A) x = uni();
        for (int mode = -1; mode <= 4; mode++) {
            make_b(B, K, N, mode < 0 ? 0 : mode, 0.4);
            encode(B, K, N, Bt, P);
            float *dA, *dB, *dBt, *dC; unsigned char *dP;
            CK(cudaMalloc(&dA, A.size() * 4 + 16)); CK(cudaMalloc(&dB, B.size() * 4 + 16)); CK(cudaMalloc(&dBt, Bt.size() * 4 + 16)); CK(cudaMalloc(&dC, C.size() * 4 + 16)); CK(cudaMalloc(&dP, P.size() + 16));
            CK(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice));
            CK(cudaMemcpy(dBt, Bt.data(), Bt.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dP, P.data(), P.size(), cudaMemcpyHostToDevice));
            CK(cudaMemset(dC, 0xFF, C.size() * 4));
            const char *what;
            if (mode < 0) { launch_matmul(dA, dB, dC, M, N, K); what = "dense"; }
            else { launch_matmul_sparse(dA, dBt, dP, dC, M, N, K); what = "sparse"; }
            CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost));
            int bad = check(what, A, B, C, M, N, K);
            if (bad) { printf("FAIL %s mode %d %dx%dx%d: %d wrong\n", what, mode, M, K, N, bad); fails++; }
            CK(cudaMemset(dC, 0xFF, C.size() * 4));
            if (mode >= 0) { launch_wide(dA, dBt, dP, dC, M, N, K); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost));
                if (check("wide", A, B, C, M, N, K)) { printf("FAIL wide mode %d %dx%dx%d\n", mode, M, K, N); fails++; } }
            cudaFree(dA); cudaFree(dB); cudaFree(dBt); cudaFree(dC); cudaFree(dP);
        }
    }
    printf("correctness: %d failures\n", fails);
    // timing
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    for (int S : {2048, 4096}) {
        int M = S, N = S, K = S;
        size_t n = (size_t)S * S;
        std::vector<float> A(n), B, Bt; std::vector<unsigned char> P;
        for (auto &x : A) x = uni();
        float *dA, *dB, *dC, *dBt; unsigned char *dP;
        CK(cudaMalloc(&dA, n * 4)); CK(cudaMalloc(&dB, n * 4)); CK(cudaMalloc(&dC, n * 4)); CK(cudaMalloc(&dBt, n * 4)); CK(cudaMalloc(&dP, n / 8));
        CK(cudaMemcpy(dA, A.data(), n * 4, cudaMemcpyHostToDevice));
        auto timeit = [&](const char *name, auto f) {
            for (int w = 0; w < 2; w++) f();
            CK(cudaDeviceSynchronize());
            std::vector<float> t;
            for (int r = 0; r < 15; r++) {
                CK(cudaMemset(dC, 0, 4096));  // a small gap, not a cold cache
                CK(cudaEventRecord(e0)); f(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
                float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t.push_back(ms);
            }
            CK(cudaGetLastError());
            std::sort(t.begin(), t.end());
            return (double)t[t.size() / 2];
        };
        make_b(B, K, N, 0, 1); CK(cudaMemcpy(dB, B.data(), n * 4, cudaMemcpyHostToDevice));
        const float one = 1, zero = 0;
        double tc = timeit("cublas", [&] { cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, dB, N, dA, K, &zero, dC, N); });
        double td = timeit("dense", [&] { launch_matmul(dA, dB, dC, M, N, K); });
        printf("%d cublas %.3f ms %.0f GFLOP/s | dense %.3f ms %.0f GFLOP/s = %.3f of cublas\n", S, tc, 2.0 * n * K / tc / 1e6, td, 2.0 * n * K / td / 1e6, tc / td);
        struct { const char *name; int mode; double d; } cs[] = {{"blocks d=1", 0, 1}, {"blocks d=1/2", 2, 0.5}, {"blocks d=1/4", 2, 0.25}, {"blocks d=1/8", 2, 0.125}, {"elements d=1/2", 3, 0.5}, {"elements d=1/4", 3, 0.25}};
        for (auto &c : cs) {
            make_b(B, K, N, c.mode, c.d); encode(B, K, N, Bt, P);
            CK(cudaMemcpy(dBt, Bt.data(), n * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dP, P.data(), n / 8, cudaMemcpyHostToDevice));
            double ts = timeit("sparse", [&] { launch_matmul_sparse(dA, dBt, dP, dC, M, N, K); });
#ifdef NO_WIDE
            double tw = 1;
#else
            double tw = timeit("wide", [&] { launch_wide(dA, dBt, dP, dC, M, N, K); });
#endif
            printf("%d %-15s tall %.3f ms speedup over dense %.2f (goal %.2f) | wide %.3f ms speedup %.2f\n", S, c.name, ts, td / ts, 0.8 / c.d, tw, td / tw);
        }
        cudaFree(dA); cudaFree(dB); cudaFree(dC); cudaFree(dBt); cudaFree(dP);
    }
    return fails != 0;
}

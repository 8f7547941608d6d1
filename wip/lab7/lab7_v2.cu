// Lab 7, part 2 variants: correctness at edge shapes, interleaved timings near 4096^3,
// and single launches for ncu (scratch driver, not the kit).
//   lab7_v2 check | time | ncu VARIANT DENSITY MxKxN | ffma DENSITY MxKxN
#ifndef SOL
#define SOL "../../solutions/lab7-sparse-matmul/matmul.cu"
#endif
#include SOL
#ifdef WITH_V2
#include "sparse_v2.cu"
#endif
namespace tuned {
#include "sparse_tuned.cu"
}
namespace old {   // the reference before 2026-11-27 (git HEAD's), for comparison
#include "matmul_ref_old.cu"
}
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <cmath>
#include <cublas_v2.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1); } } while (0)

typedef void (*sparse_fn)(const float *, const float *, const unsigned char *, float *, int, int, int);

// (b) of the FFMA count: a sparse launch that ignores the pattern: Bt back to B, then the dense kernel.
static float *g_scratch_b = nullptr;
static size_t g_scratch_n = 0;
__global__ void untranspose(const float *Bt, float *B, int K, int N, int ld)
{
    __shared__ float t[32][33];
    int n = blockIdx.x * 32 + threadIdx.y, k = blockIdx.y * 32 + threadIdx.x;
    for (int r = 0; r < 32; r += 8)
        t[threadIdx.y + r][threadIdx.x] = n + r < N && k < K ? Bt[(size_t)(n + r) * ld + k] : 0.f;
    __syncthreads();
    k = blockIdx.y * 32 + threadIdx.y; n = blockIdx.x * 32 + threadIdx.x;
    for (int r = 0; r < 32; r += 8)
        if (k + r < K && n < N) B[(size_t)(k + r) * N + n] = t[threadIdx.x][threadIdx.y + r];
}
static void launch_ignore_pattern(const float *A, const float *Bt, const unsigned char *, float *C, int M, int N, int K)
{
    size_t need = (size_t)K * N;
    if (need > g_scratch_n) { if (g_scratch_b) cudaFree(g_scratch_b); CK(cudaMalloc(&g_scratch_b, need * 4)); g_scratch_n = need; }
    untranspose<<<dim3(CEIL_DIV(N, 32), CEIL_DIV(K, 32)), dim3(32, 8)>>>(Bt, g_scratch_b, K, N, TL_SPARSE_LD(K));
    launch_matmul(A, g_scratch_b, C, M, N, K);
}

struct variant { const char *name; sparse_fn f; };
static variant variants[] = {
    {"ref", launch_matmul_sparse},
    {"old", old::launch_matmul_sparse},
    {"tuned", tuned::launch_matmul_sparse},
#ifdef WITH_V2
    {"v2_R4_K2_S2", v2::launch<4, 2, 2, false>},
    {"v2_R4_K2_S3", v2::launch<4, 2, 3, false>},
    {"v2_R4_K4_S2", v2::launch<4, 4, 2, false>},
    {"v2_R4_K4_S3", v2::launch<4, 4, 3, false>},
    {"v2_R2_K2_S3", v2::launch<2, 2, 3, false>},
    {"v2_R2_K4_S3", v2::launch<2, 4, 3, false>},
    {"v2_R4_K4_S3_pf", v2::launch<4, 4, 3, true>},
    {"v2_R2_K4_S3_pf", v2::launch<2, 4, 3, true>},
#endif
    {"ignore", launch_ignore_pattern},
};
static const int NV = sizeof variants / sizeof *variants;
static sparse_fn find(const char *name)
{
    for (auto &v : variants) if (!strcmp(v.name, name)) return v.f;
    fprintf(stderr, "no variant %s\n", name); exit(2);
}

static unsigned long long rng = 88172645463325252ull;
static unsigned long long nxt() { rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17; return rng; }
static double u01() { return (nxt() >> 11) * (1.0 / 9007199254740992.0); }
static float uni() { float x; do x = (float)u01() * 2 - 1; while (x == 0); return x; }

// modes: 0 dense, 1 zero, 2 blocks at density d (nonzero blocks dense), 3 elements p=d, 4 changes along K
static void make_b(std::vector<float> &B, int K, int N, int mode, double d)
{
    B.assign((size_t)K * N, 0.f);
    for (int n = 0; n < N; n++)
        for (int kb = 0; kb * 8 < K; kb++) {
            bool blk = mode == 0 || (mode == 2 && u01() < d) || mode == 3 || (mode == 4 && ((kb + n / 16) % 3 == 0 || kb % 5 == 1));
            if (mode == 1) blk = false;
            for (int i = 0; i < 8 && kb * 8 + i < K; i++) {
                bool nz = blk && (mode != 3 || u01() < d) && (mode != 4 || kb % 5 != 1 || i % 3 == 0);
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
// every element, or `samples` random ones
static long check(const char *what, const std::vector<float> &A, const std::vector<float> &B, const std::vector<float> &C, int M, int N, int K, long samples = 0)
{
    long bad = 0, total = samples ? samples : (long)M * N;
    for (long e = 0; e < total; e++) {
        int i = samples ? (int)(nxt() % M) : (int)(e / N), j = samples ? (int)(nxt() % N) : (int)(e % N);
        double s = 0, sa = 0;
        for (int k = 0; k < K; k++) { double p = (double)A[(size_t)i * K + k] * B[(size_t)k * N + j]; s += p; sa += fabs(p); }
        double c = C[(size_t)i * N + j];
        if (!(fabs(c - s) <= 2.0 * K * 5.96e-8 * sa + 1e-30)) { if (bad < 3) printf("  %s (%d,%d): %g vs %g\n", what, i, j, c, s); bad++; }
    }
    return bad;
}
static cublasHandle_t H;

static int parse_shape(const char *s, int &M, int &K, int &N) { return sscanf(s, "%dx%dx%d", &M, &K, &N) == 3 ? 0 : -1; }

int main(int argc, char **argv)
{
    CK(cudaFree(0));
    cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
    printf("# %s, %d SMs\n", prop.name, prop.multiProcessorCount);
    const char *mode = argc > 1 ? argv[1] : "check";
    if (!strcmp(mode, "ncu") || !strcmp(mode, "ffma")) {
        // ncu VARIANT DENSITY MxKxN: one launch of VARIANT on B of block density DENSITY (DENSITY 0: elements 1/2)
        // ffma VARIANT MxKxN: one launch at block density 1, then one at 1/4
        const char *vn = argv[2];
        int M, K, N; parse_shape(argv[!strcmp(mode, "ncu") ? 4 : 3], M, K, N);
        std::vector<double> ds;
        if (!strcmp(mode, "ncu")) ds.push_back(atof(argv[3])); else { ds.push_back(1); ds.push_back(0.25); }
        std::vector<float> A((size_t)M * K), B, Bt; std::vector<unsigned char> P;
        for (auto &x : A) x = uni();
        float *dA, *dBt, *dC; unsigned char *dP;
        CK(cudaMalloc(&dA, A.size() * 4)); CK(cudaMalloc(&dBt, (size_t)N * TL_SPARSE_LD(K) * 4)); CK(cudaMalloc(&dC, (size_t)M * N * 4)); CK(cudaMalloc(&dP, (size_t)N * TL_SPARSE_LD(K) / 8));
        CK(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice));
        sparse_fn f = find(vn);
        for (double d : ds) {
            make_b(B, K, N, d < 0 ? 4 : d == 0 ? 3 : d >= 1 ? 0 : 2, d == 0 ? 0.5 : d); encode(B, K, N, Bt, P);
            long nzb = 0; for (auto p : P) nzb += p != 0;
            printf("launch %s d=%g %dx%dx%d nonzero K-blocks %ld of %zu (%.4f)\n", vn, d, M, K, N, nzb, P.size(), (double)nzb / P.size());
            CK(cudaMemcpy(dBt, Bt.data(), Bt.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dP, P.data(), P.size(), cudaMemcpyHostToDevice));
            f(dA, dBt, dP, dC, M, N, K);
            CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        }
        return 0;
    }
    if (!strcmp(mode, "check")) {
        int shapes[][3] = {{1, 1, 1}, {1, 300, 1}, {300, 1, 200}, {17, 33, 65}, {67, 45, 33}, {130, 203, 129}, {513, 257, 129}, {256, 64, 256}, {1000, 12, 999}, {129, 136, 131}, {64, 20, 64}, {4099, 70, 33}, {520, 1000, 136}};
        const char *only = argc > 2 ? argv[2] : nullptr;
        long fails = 0;
        for (auto &sh : shapes) {
            int M = sh[0], K = sh[1], N = sh[2];
            std::vector<float> A((size_t)M * K), B, Bt, C((size_t)M * N); std::vector<unsigned char> P;
            for (auto &x : A) x = uni();
            struct { int mode; double d; } pats[] = {{0, 1}, {1, 0}, {2, 0.5}, {2, 0.25}, {3, 0.5}, {3, 0.1}, {4, 0}};
            for (auto &pt : pats) {
                make_b(B, K, N, pt.mode, pt.d);
                encode(B, K, N, Bt, P);
                float *dA, *dBt, *dC; unsigned char *dP;
                CK(cudaMalloc(&dA, A.size() * 4 + 16)); CK(cudaMalloc(&dBt, Bt.size() * 4 + 16)); CK(cudaMalloc(&dC, C.size() * 4 + 16)); CK(cudaMalloc(&dP, P.size() + 16));
                CK(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice));
                CK(cudaMemcpy(dBt, Bt.data(), Bt.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dP, P.data(), P.size(), cudaMemcpyHostToDevice));
                for (int v = 0; v < NV; v++) {
                    if (only && strcmp(only, variants[v].name)) continue;
                    CK(cudaMemset(dC, 0xFF, C.size() * 4));
                    variants[v].f(dA, dBt, dP, dC, M, N, K);
                    CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
                    CK(cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost));
                    long bad = check(variants[v].name, A, B, C, M, N, K);
                    if (bad) { printf("FAIL %s pattern %d/%g %dx%dx%d: %ld wrong\n", variants[v].name, pt.mode, pt.d, M, K, N, bad); fails++; }
                }
                cudaFree(dA); cudaFree(dBt); cudaFree(dC); cudaFree(dP);
            }
        }
        printf("correctness: %ld failures\n", fails);
        return fails != 0;
    }
    // time [ROUNDS] [VARIANT,...]: interleaved rounds; each sample after an L2 flush (cold, as the grader)
    cublasCreate(&H); cublasSetMathMode(H, CUBLAS_PEDANTIC_MATH);
    int rounds = argc > 2 ? atoi(argv[2]) : 9;
    std::vector<int> vs;
    if (argc > 3) { char buf[512]; strncpy(buf, argv[3], 511); buf[511] = 0; for (char *t = strtok(buf, ","); t; t = strtok(nullptr, ",")) for (int v = 0; v < NV; v++) if (!strcmp(variants[v].name, t)) vs.push_back(v); }
    else for (int v = 0; v < NV; v++) if (strcmp(variants[v].name, "ignore")) vs.push_back(v);
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    char *flush; const size_t FL = 256u << 20; CK(cudaMalloc(&flush, FL));
    int tshapes[][3] = {{4096, 4096, 4096}, {3840, 4288, 4224}};
    const double dens[] = {1, 0.5, 0.25, 0.125};
    const int ND = 4;
    for (auto &sh : tshapes) {
        int M = sh[0], K = sh[1], N = sh[2], ld = TL_SPARSE_LD(K);
        std::vector<float> A((size_t)M * K), Bd, B, Bt; std::vector<unsigned char> P;
        for (auto &x : A) x = uni();
        float *dA, *dB, *dC, *dBt[ND]; unsigned char *dP[ND];
        CK(cudaMalloc(&dA, A.size() * 4)); CK(cudaMalloc(&dB, (size_t)K * N * 4)); CK(cudaMalloc(&dC, (size_t)M * N * 4));
        CK(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice));
        make_b(Bd, K, N, 0, 1); CK(cudaMemcpy(dB, Bd.data(), Bd.size() * 4, cudaMemcpyHostToDevice));
        std::vector<std::vector<float>> Bs(ND);
        for (int d = 0; d < ND; d++) {
            make_b(Bs[d], K, N, dens[d] >= 1 ? 0 : 2, dens[d]); encode(Bs[d], K, N, Bt, P);
            CK(cudaMalloc(&dBt[d], Bt.size() * 4)); CK(cudaMalloc(&dP[d], P.size()));
            CK(cudaMemcpy(dBt[d], Bt.data(), Bt.size() * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dP[d], P.data(), P.size(), cudaMemcpyHostToDevice));
        }
        // works: 0 cublas, 1 dense, then (variant, density)
        int W = 2 + (int)vs.size() * ND;
        std::vector<std::vector<float>> t(W);
        const float one = 1, zero = 0;
        auto run = [&](int w) {
            if (w == 0) cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, dB, N, dA, K, &zero, dC, N);
            else if (w == 1) launch_matmul(dA, dB, dC, M, N, K);
            else { int v = vs[(w - 2) / ND], d = (w - 2) % ND; variants[v].f(dA, dBt[d], dP[d], dC, M, N, K); }
        };
        for (int w = 0; w < W; w++) run(w);   // warm-up
        CK(cudaDeviceSynchronize());
        for (int r = 0; r < rounds; r++)
            for (int w = 0; w < W; w++) {
                CK(cudaMemsetAsync(flush, r & 0xFF, FL));
                CK(cudaEventRecord(e0)); run(w); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
                float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); t[w].push_back(ms);
            }
        CK(cudaGetLastError());
        auto med = [&](int w) { auto x = t[w]; std::sort(x.begin(), x.end()); return (double)x[x.size() / 2]; };
        double tc = med(0), td = med(1), fl = 2.0 * M * N * K;
        printf("\n%dx%dx%d (MxKxN), %d rounds, cold, median ms\n", M, K, N, rounds);
        printf("cublas %.3f ms (%.1f TFLOP/s) | dense %.3f ms = %.3f of cublas\n", tc, fl / tc / 1e9, td, tc / td);
        printf("%-16s %s\n", "sparse", "ms at d=1, 1/2, 1/4, 1/8 | x dense | x cublas");
        for (size_t i = 0; i < vs.size(); i++) {
            double m[ND]; for (int d = 0; d < ND; d++) m[d] = med(2 + (int)i * ND + d);
            printf("%-16s %.3f %.3f %.3f %.3f | %.2fx %.2fx %.2fx %.2fx | %.2fx %.2fx %.2fx\n", variants[vs[i]].name, m[0], m[1], m[2], m[3],
                   td / m[0], td / m[1], td / m[2], td / m[3], tc / m[0], tc / m[1], tc / m[2]);
        }
        // spot checks at this shape, each variant at d = 1/4 and 1
        std::vector<float> C((size_t)M * N);
        for (size_t i = 0; i < vs.size(); i++)
            for (int d : {0, 2}) {
                CK(cudaMemset(dC, 0xFF, C.size() * 4));
                variants[vs[i]].f(dA, dBt[d], dP[d], dC, M, N, K); CK(cudaDeviceSynchronize());
                CK(cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost));
                long bad = check(variants[vs[i]].name, A, Bs[d], C, M, N, K, 300);
                if (bad) printf("FAIL %s at %dx%dx%d d=%g: %ld of 300 samples wrong\n", variants[vs[i]].name, M, K, N, dens[d], bad);
            }
        cudaFree(dA); cudaFree(dB); cudaFree(dC);
        for (int d = 0; d < ND; d++) { cudaFree(dBt[d]); cudaFree(dP[d]); }
        (void)ld;
    }
    return 0;
}

/*
 * dense_bench.cu — lab 7's reference kernels timed beside cuBLAS FP32, for
 * choosing part 1's configuration on a GPU (instructors; not graded, not in
 * the student kit). The reference file is included whole: what is timed is
 * its own code. For each shape: launch_matmul (today the handout's kernel,
 * matmul_warptile), the double-buffered kernel at the end of the file at
 * several slices of K and blocks per SM (launch_matmul_double_buffered: the
 * file's choice among them), cuBLAS SGEMM (pedantic FP32, as the kit's cuBLAS
 * worker), and part 2's sparse kernel at block density 1/4 beside both dense
 * launches on the same B (part 2's speedup over its own dense kernel). Warm: 3 launches first, then the median of 15,
 * each timed alone with events. Every result is checked against cuBLAS's.
 *
 *   bash solutions/lab7-sparse-matmul/bench/run.sh     (writes $OUT/lab7-dense-bench.txt)
 */
#include "../matmul.cu"

#include <cublas_v2.h>
#include <algorithm>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1); } } while (0)

static cublasHandle_t blas;

struct problem {
    int M, N, K;
    float *A, *B, *C, *ref, *Bt;
    unsigned char *pattern;
};

template <class F> static float median_ms(F launch)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < 3; i++)
        launch();
    CK(cudaGetLastError());
    std::vector<float> ms;
    for (int i = 0; i < 15; i++) {
        CK(cudaEventRecord(a));
        launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float t;
        CK(cudaEventElapsedTime(&t, a, b));
        ms.push_back(t);
    }
    CK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    return ms[ms.size() / 2];
}

/* Largest |C - ref| over the largest |ref|. */
static double rel_error(const problem &p)
{
    size_t n = (size_t)p.M * p.N;
    std::vector<float> c(n), r(n);
    CK(cudaMemcpy(c.data(), p.C, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(r.data(), p.ref, n * 4, cudaMemcpyDeviceToHost));
    double err = 0, big = 1e-30;
    for (size_t i = 0; i < n; i++) {
        err = fmax(err, fabs((double)c[i] - r[i]));
        big = fmax(big, fabs((double)r[i]));
        if (c[i] != c[i])
            return INFINITY;
    }
    return err / big;
}

static void cublas_product(const problem &p, float *C)
{
    const float one = 1.0f, zero = 0.0f;
    cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, p.N, p.M, p.K, &one, p.B, p.N, p.A, p.K, &zero, C, p.N);
}

/* A uniform in [-1, 1); B with whole K-blocks (8 values of a column) zero, 3 in 4 when quarter. */
static problem make_problem(int M, int N, int K, bool quarter, unsigned seed)
{
    problem p = {M, N, K};
    const int ld = TL_SPARSE_LD(K), kblocks = ld / TL_SPARSE_KB;
    std::vector<float> A((size_t)M * K), B((size_t)K * N, 0.0f), Bt((size_t)N * ld, 0.0f);
    std::vector<unsigned char> pat((size_t)N * kblocks, 0);
    srand(seed);
    for (auto &x : A)
        x = rand() / (RAND_MAX + 1.0f) * 2 - 1;
    for (int n = 0; n < N; n++)
        for (int kb = 0; kb < kblocks; kb++) {
            if (quarter && rand() % 4)
                continue;
            for (int i = 0; i < TL_SPARSE_KB && kb * TL_SPARSE_KB + i < K; i++) {
                int k = kb * TL_SPARSE_KB + i;
                float v = rand() / (RAND_MAX + 1.0f) * 2 - 1;
                if (v == 0.0f)
                    v = 0.5f;
                B[(size_t)k * N + n] = v, Bt[(size_t)n * ld + k] = v;
                pat[(size_t)n * kblocks + kb] |= 1u << i;
            }
        }
    CK(cudaMalloc(&p.A, A.size() * 4));
    CK(cudaMalloc(&p.B, B.size() * 4));
    CK(cudaMalloc(&p.C, (size_t)M * N * 4));
    CK(cudaMalloc(&p.ref, (size_t)M * N * 4));
    CK(cudaMalloc(&p.Bt, Bt.size() * 4 + pat.size() + 16));
    p.pattern = (unsigned char *)(p.Bt + TL_SPARSE_BT_FLOATS(K, N));
    CK(cudaMemcpy(p.A, A.data(), A.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(p.B, B.data(), B.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(p.Bt, Bt.data(), Bt.size() * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(p.pattern, pat.data(), pat.size(), cudaMemcpyHostToDevice));
    cublas_product(p, p.ref);
    CK(cudaDeviceSynchronize());
    return p;
}

static void free_problem(problem &p)
{
    cudaFree(p.A), cudaFree(p.B), cudaFree(p.C), cudaFree(p.ref), cudaFree(p.Bt);
}

template <int SK, int PER_SM> static void dbuf(const problem &p)
{
    dim3 grid(CEIL_DIV(p.N, BN), CEIL_DIV(p.M, BM));
    matmul_warptile_dbuf<SK, PER_SM><<<grid, THREADS>>>(p.A, p.B, p.C, p.M, p.N, p.K, vector_ok(p.A, p.B, p.C, p.K, p.N));
}

int main()
{
    if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS || cublasSetMathMode(blas, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "no cuBLAS handle\n");
        return 1;
    }
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("%s (sm_%d%d), lab 7 part 1 candidates against cuBLAS FP32 (CUBLAS_PEDANTIC_MATH), warm, median of 15\n",
           prop.name, prop.major, prop.minor);
    printf("launch_matmul_double_buffered runs matmul_warptile_dbuf<DENSE_SK = %d, DENSE_BLOCKS_PER_SM = %d>\n\n",
           DENSE_SK, DENSE_BLOCKS_PER_SM);
    static const int shapes[][3] = {{4096, 4096, 4096}, {3840, 4288, 4224}};   /* M, N, K */
    for (auto &s : shapes) {
        problem p = make_problem(s[0], s[1], s[2], false, 7);
        const double flops = 2.0 * s[0] * s[1] * s[2];
        float cublas_ms = median_ms([&] { cublas_product(p, p.C); });
        printf("M x K x N = %d x %d x %d: cuBLAS %.3f ms, %.1f TFLOP/s\n", s[0], s[2], s[1], cublas_ms,
               flops / cublas_ms / 1e9);
        printf("  %-42s %9s %9s %13s %9s\n", "kernel", "ms", "TFLOP/s", "of cuBLAS", "error");
        struct { const char *name; void (*run)(const problem &); } variants[] = {
            {"launch_matmul (the reference today)", [](const problem &q) { launch_matmul(q.A, q.B, q.C, q.M, q.N, q.K); }},
            {"launch_matmul_double_buffered", [](const problem &q) {
                 launch_matmul_double_buffered(q.A, q.B, q.C, q.M, q.N, q.K);
             }},
            {"dbuf SK 8, 2 blocks/SM", dbuf<8, 2>},
            {"dbuf SK 16, 2 blocks/SM", dbuf<16, 2>},
            {"dbuf SK 8, 1 block/SM (registers free)", dbuf<8, 1>},
            {"dbuf SK 16, 1 block/SM (registers free)", dbuf<16, 1>},
        };
        for (auto &v : variants) {
            CK(cudaMemset(p.C, 0xff, (size_t)p.M * p.N * 4));   /* NaN: a kernel that writes nothing fails */
            float ms = median_ms([&] { v.run(p); });
            printf("  %-42s %9.3f %9.1f %13.3f %9.1e\n", v.name, ms, flops / ms / 1e9, cublas_ms / ms, rel_error(p));
        }
        free_problem(p);
        /* Part 2: its own dense kernel over the sparse one, B with 3 K-blocks in 4 zero. */
        problem q = make_problem(s[0], s[1], s[2], true, 11);
        float dense_ms = median_ms([&] { launch_matmul(q.A, q.B, q.C, q.M, q.N, q.K); });
        float dbuf_ms = median_ms([&] { launch_matmul_double_buffered(q.A, q.B, q.C, q.M, q.N, q.K); });
        float cub_ms = median_ms([&] { cublas_product(q, q.C); });
        CK(cudaMemset(q.C, 0xff, (size_t)q.M * q.N * 4));
        float sparse_ms = median_ms([&] { launch_matmul_sparse(q.A, q.Bt, q.pattern, q.C, q.M, q.N, q.K); });
        printf("  part 2 at block density 1/4: sparse %.3f ms; %.2fx launch_matmul (%.3f ms), %.2fx the double-buffered "
               "(%.3f ms), %.2fx cuBLAS; error %.1e\n\n", sparse_ms, dense_ms / sparse_ms, dense_ms, dbuf_ms / sparse_ms,
               dbuf_ms, cub_ms / sparse_ms, rel_error(q));
        free_problem(q);
    }
    return 0;
}

/*
 * matmul_measure.cu — the grader's speed measurement for lab 4: the
 * student's C = A B against two references timed in the same run, cold and
 * interleaved (bench.h): the grader's naive kernel (matmul_naive.cu) and
 * cuBLAS SGEMM in FP32. Every result is verified after timing. Writes JSON.
 *
 *   measure --json FILE [--shape MxKxN] [--seed S]
 *
 * cuBLAS must not use tensor cores (TF32) here: the student's kernel does
 * FP32 FMAs, and so must the reference. Two locks: NVIDIA_TF32_OVERRIDE=0
 * before CUDA starts (the driver's global TF32 switch) and the handle's
 * CUBLAS_PEDANTIC_MATH mode (compute exactly in the requested FP32).
 */
#include "tilelab.h"
#include "bench.h"
#include "device.h"
#include "matrix.h"
#include "matmul_case.h"

#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" void tl_matmul_naive(const float *A, const float *B, float *C, int M, int N, int K);

#define CHECK_CUBLAS(call)                                                                       \
    do {                                                                                         \
        cublasStatus_t status_ = (call);                                                         \
        if (status_ != CUBLAS_STATUS_SUCCESS) {                                                  \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,                 \
                    cublasGetStatusString(status_));                                             \
            exit(TL_EXIT_CANNOT_RUN);                                                            \
        }                                                                                        \
    } while (0)

typedef struct {
    cublasHandle_t handle;
    const float *A, *B;
    float *C;
    tl_mm_shape s;
} cublas_args;

/* Row-major C = A B is column-major C^T = B^T A^T: swap the operands. */
static void cublas_sgemm(void *ctx)
{
    cublas_args *x = (cublas_args *)ctx;
    const float one = 1.0f, zero = 0.0f;
    CHECK_CUBLAS(cublasSgemm(x->handle, CUBLAS_OP_N, CUBLAS_OP_N, x->s.n, x->s.m, x->s.k, &one, x->B, x->s.n,
                             x->A, x->s.k, &zero, x->C, x->s.n));
}

enum { YOURS, NAIVE, CUBLAS, WORKS };
static const char *const work_names[WORKS] = {"yours", "naive", "cublas"};

static void write_stats(tl_json_writer *w, const char *key, const tl_stats *s, double flops)
{
    tl_jw_object_begin(w, key);
    tl_jw_number(w, "median_ms", s->median);
    tl_jw_number(w, "min_ms", s->min);
    tl_jw_number(w, "max_ms", s->max);
    tl_jw_number(w, "noise", s->noise);
    tl_jw_number(w, "gflops", flops / (s->median * 1e6));
    tl_jw_object_end(w);
}

int main(int argc, char **argv)
{
    setenv("NVIDIA_TF32_OVERRIDE", "0", 1);   /* before CUDA starts: see the top */
    const char *json_path = NULL;
    tl_mm_shape s = {4096, 4096, 4096};
    unsigned long long seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--json")) json_path = argv[i + 1];
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--shape") && tl_parse_mm_shape(argv[i + 1], &s) != 0) {
            fprintf(stderr, "%s: --shape takes MxKxN, e.g. 4096x4096x4096\n", argv[0]);
            return TL_EXIT_CANNOT_RUN;
        }
    }
    if (!json_path) {
        fprintf(stderr, "usage: %s --json FILE [--shape MxKxN] [--seed S]\n", argv[0]);
        return TL_EXIT_CANNOT_RUN;
    }
    tl_device_info dev;
    tl_device_open_or_exit(&dev, argv[0]);

    size_t na = (size_t)s.m * s.k, nb = (size_t)s.k * s.n, nc = (size_t)s.m * s.n;
    float *a_host = (float *)malloc(na * sizeof(float)), *b_host = (float *)malloc(nb * sizeof(float));
    float *c_host = (float *)malloc(nc * sizeof(float));
    if (!a_host || !b_host || !c_host) {
        fprintf(stderr, "%s: out of host memory for %dx%dx%d\n", argv[0], s.m, s.k, s.n);
        return TL_EXIT_CANNOT_RUN;
    }
    tl_fill_seeded(a_host, na, seed);
    tl_fill_seeded(b_host, nb, seed ^ 0x5EEDB);

    float *A, *B, *C[WORKS];
    CHECK_CUDA(cudaMalloc((void **)&A, na * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&B, nb * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(A, a_host, na * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(B, b_host, nb * sizeof(float), cudaMemcpyHostToDevice));
    for (int w = 0; w < WORKS; w++) {   /* each its own C, poisoned: each verified after timing */
        CHECK_CUDA(cudaMalloc((void **)&C[w], nc * sizeof(float)));
        CHECK_CUDA(cudaMemset(C[w], 0xFF, nc * sizeof(float)));
    }

    cublas_args cb = {NULL, A, B, C[CUBLAS], s};
    CHECK_CUBLAS(cublasCreate(&cb.handle));
    CHECK_CUBLAS(cublasSetMathMode(cb.handle, CUBLAS_PEDANTIC_MATH));
    tl_matmul_args yours = {A, B, C[YOURS], s, launch_matmul}, naive = {A, B, C[NAIVE], s, tl_matmul_naive};
    const tl_bench_work works[WORKS] = {{tl_matmul_work, &yours}, {tl_matmul_work, &naive}, {cublas_sgemm, &cb}};
    tl_stats stats[WORKS];
    int noisy = tl_bench_interleaved(works, WORKS, &TL_BENCH_GRADE, stats);
    CHECK_CUDA(cudaDeviceSynchronize());

    double flops = tl_matmul_flops(s), gflops[WORKS];
    int verified[WORKS];
    char verdict[WORKS][768];
    for (int w = 0; w < WORKS; w++) {
        gflops[w] = flops / (stats[w].median * 1e6);
        CHECK_CUDA(cudaMemcpy(c_host, C[w], nc * sizeof(float), cudaMemcpyDeviceToHost));
        size_t wrong = tl_matmul_verify(a_host, b_host, c_host, s, seed, verdict[w], sizeof verdict[w]);
        verified[w] = wrong == 0;
        if (verified[w])
            snprintf(verdict[w], sizeof verdict[w], "every checked element within the fp32 bound");
    }
    if (!verified[NAIVE] || !verified[CUBLAS])
        fprintf(stderr, "%s: a reference gave a wrong result (naive: %s; cublas: %s)\n", argv[0], verdict[NAIVE],
                verdict[CUBLAS]);

    FILE *f = fopen(json_path, "w");
    if (!f) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], json_path);
        return TL_EXIT_CANNOT_RUN;
    }
    tl_json_writer jw;
    tl_jw_init(&jw, f);
    tl_jw_object_begin(&jw, NULL);
    tl_device_write_json(&dev, &jw, "device");
    tl_jw_string(&jw, "op", "matmul");
    tl_jw_int(&jw, "m", s.m);
    tl_jw_int(&jw, "k", s.k);
    tl_jw_int(&jw, "n", s.n);
    tl_jw_bool(&jw, "verified_after_timing", verified[YOURS]);
    tl_jw_string(&jw, "verification", verdict[YOURS]);
    tl_jw_bool(&jw, "references_verified", verified[NAIVE] && verified[CUBLAS]);
    tl_jw_object_begin(&jw, "matmul");
    tl_jw_int(&jw, "samples", stats[YOURS].n);
    tl_jw_bool(&jw, "noisy", noisy);
    tl_jw_number(&jw, "flops", flops);
    for (int w = 0; w < WORKS; w++)
        write_stats(&jw, work_names[w], &stats[w], flops);
    tl_jw_number(&jw, "gflops", gflops[YOURS]);
    tl_jw_number(&jw, "naive_gflops", gflops[NAIVE]);
    tl_jw_number(&jw, "cublas_gflops", gflops[CUBLAS]);
    tl_jw_number(&jw, "fraction_of_cublas", gflops[YOURS] / gflops[CUBLAS]);
    tl_jw_number(&jw, "speedup_over_naive", gflops[YOURS] / gflops[NAIVE]);
    tl_jw_object_end(&jw);
    tl_jw_object_end(&jw);
    fclose(f);

    printf("  %dx%dx%d: yours %.0f GFLOP/s, naive %.0f, cuBLAS FP32 %.0f: %.3f of cuBLAS, %.2fx naive "
           "(noise %.2f %%, %d samples)\n", s.m, s.k, s.n, gflops[YOURS], gflops[NAIVE], gflops[CUBLAS],
           gflops[YOURS] / gflops[CUBLAS], gflops[YOURS] / gflops[NAIVE], 100 * stats[YOURS].noise, stats[YOURS].n);
    CHECK_CUBLAS(cublasDestroy(cb.handle));
    for (int w = 0; w < WORKS; w++)
        CHECK_CUDA(cudaFree(C[w]));
    CHECK_CUDA(cudaFree(A));
    CHECK_CUDA(cudaFree(B));
    free(a_host);
    free(b_host);
    free(c_host);
    return verified[YOURS] ? TL_EXIT_OK : TL_EXIT_FAILED;
}

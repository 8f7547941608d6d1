/*
 * cublas_geam_launch.cu — cuBLAS's transpose (Sgeam, C = alpha op(A) + beta
 * op(B) with alpha 1, beta 0) as a worker's launch_transpose: lab 6 times it
 * beside the student's kernel, through the same path, for its comparison
 * line. It scores nothing.
 */
#include "tilelab.h"

#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>

static cublasHandle_t handle;

/* Before the sandbox: cuBLAS sets itself up (memory, modules) here. */
extern "C" void tl_worker_warmup(void)
{
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublas_geam worker: cannot create a cuBLAS handle\n");
        exit(TL_EXIT_CANNOT_RUN);
    }
    float *m;
    if (cudaMalloc((void **)&m, 2 * 64 * 64 * sizeof(float)) == cudaSuccess) {
        launch_transpose(m, m + 64 * 64, 64, 64);   /* loads its kernels */
        cudaDeviceSynchronize();
        cudaFree(m);
    }
}

/* Row-major rows x cols `in` is column-major cols x rows with leading
 * dimension cols; out = in^T is column-major rows x cols, leading dimension rows. */
extern "C" void launch_transpose(const float *in, float *out, int rows, int cols)
{
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t s = cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, in, cols, &zero, out, rows,
                                   out, rows);
    if (s != CUBLAS_STATUS_SUCCESS)
        fprintf(stderr, "cublasSgeam: %s\n", cublasGetStatusString(s));
}

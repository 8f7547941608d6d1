/*
 * cublas_launch.cu — cuBLAS SGEMM in FP32 as a worker's launch_matmul: lab 4's
 * ceiling, timed through the same path as the student's kernel.
 *
 * No tensor cores (TF32): the student's kernel does FP32 FMAs, and so must
 * the reference. Two locks: the judge starts every worker with
 * NVIDIA_TF32_OVERRIDE=0 (the driver's global switch), and the handle uses
 * CUBLAS_PEDANTIC_MATH (compute exactly in the requested FP32).
 */
#include "tilelab.h"

#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>

static cublasHandle_t handle;

/* Before the sandbox: cuBLAS sets itself up (memory, modules) here. */
extern "C" void tl_worker_warmup(void)
{
    if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS ||
        cublasSetMathMode(handle, CUBLAS_PEDANTIC_MATH) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublas worker: cannot create a cuBLAS handle\n");
        exit(TL_EXIT_CANNOT_RUN);
    }
    float *m;
    if (cudaMalloc((void **)&m, 3 * 64 * 64 * sizeof(float)) == cudaSuccess) {
        launch_matmul(m, m + 64 * 64, m + 2 * 64 * 64, 64, 64, 64);   /* loads its kernels */
        cudaDeviceSynchronize();
        cudaFree(m);
    }
}

/* Row-major C = A B is column-major C^T = B^T A^T: swap the operands. */
extern "C" void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    const float one = 1.0f, zero = 0.0f;
    cublasStatus_t s = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
    if (s != CUBLAS_STATUS_SUCCESS)
        fprintf(stderr, "cublasSgemm: %s\n", cublasGetStatusString(s));
}

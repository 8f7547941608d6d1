/* Lab 4: the launch calls cuBLAS instead of a kernel of its own: refused, no points.
 * expect-cpu: exit 1, score 0, "not allowed: your file calls cublasCreate_v2 cublasSgemm_v2"
 * expect: exit 1, score 0, "not allowed: your file calls cublasCreate_v2 cublasSgemm_v2" */
#include "tilelab.h"
#include <cublas_v2.h>

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    static cublasHandle_t handle;
    if (!handle)
        cublasCreate(&handle);
    const float one = 1.0f, zero = 0.0f;
    /* Row-major C = A B as column-major C^T = B^T A^T. */
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N);
}

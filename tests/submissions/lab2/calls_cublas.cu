/* Lab 2: the launch calls cuBLAS instead of a kernel of its own: refused, no points.
 * expect-cpu: exit 1, score 0, "not allowed: your file calls cublasCreate_v2 cublasSgeam"
 * expect: exit 1, score 0, "not allowed: your file calls cublasCreate_v2 cublasSgeam" */
#include "tilelab.h"
#include <cublas_v2.h>

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    static cublasHandle_t handle;
    const float one = 1.0f, zero = 0.0f;
    if (!handle)
        cublasCreate(&handle);
    cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, in, cols, &zero, out, rows, out, rows);
}

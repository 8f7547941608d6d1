/* naive_launch.cu — the grader's naive matmul (matmul_naive.cu) as a worker's launch_matmul. */
#include "tilelab.h"

extern "C" void tl_matmul_naive(const float *A, const float *B, float *C, int M, int N, int K);

extern "C" void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    tl_matmul_naive(A, B, C, M, N, K);
}

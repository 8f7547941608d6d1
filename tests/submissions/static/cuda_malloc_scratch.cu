/* Judged at run time: lab 5's in-place transpose done out of place through cudaMalloc'd scratch. The judge measures the device memory the worker holds beyond its buffers (lab 5's in-place tests fail); inspect must print nothing. */
#include "tilelab.h"

__global__ void transpose_into(const float *in, float *out, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < n && c < n)
        out[(size_t)c * n + r] = in[(size_t)r * n + c];
}

__global__ void copy_back(const float *from, float *to, int n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < (size_t)n * n)
        to[i] = from[i];
}

void launch_transpose_inplace(float *a, int n)
{
    float *scratch;
    cudaMalloc(&scratch, (size_t)n * n * sizeof(float));
    dim3 block(32, 8), grid(CEIL_DIV(n, 32), CEIL_DIV(n, 8));
    LAUNCH(transpose_into, grid, block)(a, scratch, n);
    LAUNCH(copy_back, CEIL_DIV((size_t)n * n, 256), 256)(scratch, a, n);
    cudaFree(scratch);
}

/* Attack: lab 5's in-place transpose done out of place through a static __device__ scratch array (no cudaMalloc to count); inspect, given lab 5's rubric, must say "ptx: static-device-memory:". */
#include "tilelab.h"

static __device__ float scratch[8200 * 8200];

__global__ void copy_out(const float *a, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < n && c < n)
        scratch[(size_t)c * n + r] = a[(size_t)r * n + c];
}

__global__ void copy_back(float *a, int n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < (size_t)n * n)
        a[i] = scratch[i];
}

void launch_transpose_inplace(float *a, int n)
{
    dim3 block(32, 8), grid(CEIL_DIV(n, 32), CEIL_DIV(n, 8));
    copy_out<<<grid, block>>>(a, n);
    copy_back<<<CEIL_DIV(n * n, 256), 256>>>(a, n);
}

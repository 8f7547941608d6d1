/* Clean: ordinary CUDA whose object holds code nvcc generates and no launch reaches; inspect must print nothing. A plain __device__ helper, one in an anonymous namespace, a templated __device__ helper and a cooperative-groups barrier (each gets a host copy that calls exit), an extern "C" kernel (a global C name that collides with nothing), a static local (its guard), a std::min on the host (a weak std instance), a __host__ __device__ helper the launch calls. */
#include <algorithm>
#include <cooperative_groups.h>
#include "tilelab.h"

namespace cg = cooperative_groups;

__device__ float element(const float *m, int r, int c, int cols) { return m[(size_t)r * cols + c]; }
namespace {
__device__ size_t offset(int r, int c, int n) { return (size_t)r * n + c; }
}
template <typename T> __device__ T pass(T v) { return v; }
__host__ __device__ int blocks_for(int n, int b) { return (n + b - 1) / b; }

extern "C" __global__ void transpose_tiled_c(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    cg::thread_block block = cg::this_thread_block();
    int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 32 + threadIdx.y;
    for (int i = 0; i < 32; i += 8)
        if (r + i < rows && c < cols)
            tile[threadIdx.y + i][threadIdx.x] = pass(element(in, r + i, c, cols));
    block.sync();
    c = blockIdx.y * 32 + threadIdx.x, r = blockIdx.x * 32 + threadIdx.y;
    for (int i = 0; i < 32; i += 8)
        if (r + i < cols && c < rows)
            out[offset(r + i, c, rows)] = tile[threadIdx.x][threadIdx.y + i];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    static const dim3 block(32, 8);
    dim3 grid(std::min(blocks_for(cols, 32), 1 << 30), blocks_for(rows, 32));
    transpose_tiled_c<<<grid, block>>>(in, out, rows, cols);
    cudaGetLastError();
}

/* Attack: a tensor-core mma in inline assembly inside a `{ ... }` scope, in a __noinline__ device function the launched kernel calls: the PTX line starts with a brace, not with mma (FP16 m16n8k8 here so that sm_75 builds it). Inspect, given lab 4's rubric (arithmetic fp32), must say "ptx: tensor-cores:". */
#include "tilelab.h"

__device__ __noinline__ float four_products(unsigned a0, unsigned a1, unsigned b0)
{
    float d0, d1, d2, d3;
    asm volatile("{\n\t.reg .f32 z;\n\tmov.f32 z, 0f00000000;\n\t"
                 "{ mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {z,z,z,z}; }\n}"
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                 : "r"(a0), "r"(a1), "r"(b0));
    return d0 + d1 + d2 + d3;
}

__global__ void product(const float *A, const float *B, float *C, int M, int N, int K)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < M * N)
        C[i] = four_products(__float_as_uint(A[i % (M * K)]), __float_as_uint(B[i % (K * N)]), 0u);
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    product<<<CEIL_DIV(M * N, 256), 256>>>(A, B, C, M, N, K);
}

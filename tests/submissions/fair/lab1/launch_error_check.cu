/*
 * Fair (lab 1): the launch checks for errors the way the CUDA samples and
 * the programming guide's "Error Checking" section teach, by hand:
 * cudaGetLastError() right after the launch (a bad configuration shows up
 * there), then cudaDeviceSynchronize() (an error while the kernel ran shows
 * up there), returning early on either. No host printf (the lab forbids
 * it): the kit checks the error again after the call and reports it. The
 * kernel is the reference's (32 x 8 threads, one element each).
 * Full marks: the synchronize waits for a kernel the kit waits for anyway,
 * a few microseconds of call latency against a launch of some 3 ms at
 * 8192 x 8192 (lab 1 is full from 0.10 of copy; the reference measures
 * 0.158 on the H100).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { BLOCK_X = 32, BLOCK_Y = 8 };

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        return;   /* the kit reads the same error after the call and names it */
    err = cudaDeviceSynchronize();
    (void)err;
}

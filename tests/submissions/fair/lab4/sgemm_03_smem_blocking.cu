/*
 * Fair (lab 4): rung 3 of the tutorial SGEMM ladder (Simon Boehm, "How to
 * Optimize a CUDA Matmul Kernel for cuBLAS-like Performance",
 * https://siboehm.com/articles/22/CUDA-MMM; SGEMM_CUDA kernel 3 "shared
 * memory cache-blocking"), adapted to lab 4's any-shape contract. 1D blocks
 * of 1024 threads, thread t at (t / 32, t % 32) of a 32 x 32 tile of C; the
 * worklog advances the A, B and C pointers to the block's tiles and walks K
 * in steps of BLOCKSIZE; here each load is bounds-tested and zero-filled
 * (the worklog assumes multiples of 32), so the inner product adds exact
 * zeros past the edges and NaN or Inf inputs propagate as in the reference.
 * Full marks: the reference's tiling (32 x 32 tiles, 1024 threads, two
 * barriers per K-step; 0.175-0.190 of cuBLAS on the H100, full from 0.15).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

template <const int BLOCKSIZE>
__global__ void sgemm_shared_mem_block(int M, int N, int K, const float *A, const float *B, float *C)
{
    const int cRow = blockIdx.y, cCol = blockIdx.x;
    __shared__ float As[BLOCKSIZE * BLOCKSIZE];
    __shared__ float Bs[BLOCKSIZE * BLOCKSIZE];
    const int threadCol = threadIdx.x % BLOCKSIZE;
    const int threadRow = threadIdx.x / BLOCKSIZE;
    const int row = cRow * BLOCKSIZE + threadRow, col = cCol * BLOCKSIZE + threadCol;

    float tmp = 0.0f;
    for (int bkIdx = 0; bkIdx < K; bkIdx += BLOCKSIZE) {
        As[threadRow * BLOCKSIZE + threadCol] =
            row < M && bkIdx + threadCol < K ? A[(size_t)row * K + bkIdx + threadCol] : 0.0f;
        Bs[threadRow * BLOCKSIZE + threadCol] =
            bkIdx + threadRow < K && col < N ? B[(size_t)(bkIdx + threadRow) * N + col] : 0.0f;
        /* block threads in this block until cache is fully populated */
        __syncthreads();
        for (int dotIdx = 0; dotIdx < BLOCKSIZE; ++dotIdx)
            tmp += As[threadRow * BLOCKSIZE + dotIdx] * Bs[dotIdx * BLOCKSIZE + threadCol];
        /* sync again: faster threads must not fetch the next block into the cache before slower ones are done */
        __syncthreads();
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = tmp;
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 gridDim(CEIL_DIV(N, 32), CEIL_DIV(M, 32));
    dim3 blockDim(32 * 32);
    sgemm_shared_mem_block<32><<<gridDim, blockDim>>>(M, N, K, A, B, C);
}

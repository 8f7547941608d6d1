/*
 * Lab 4 — tiled matrix multiply                labs/lab4-tiled-matmul/matmul.cu
 *
 * You write two things, both marked TODO(lab4):
 *   matmul_tiled   the kernel: each block computes one TILE x TILE tile of C.
 *                  For every K-tile it loads a tile of A and a tile of B into
 *                  shared memory (zeros where the tile leaves the matrix),
 *                  waits at a barrier, multiplies them into one running sum
 *                  per thread, and waits again before the next load;
 *   launch_matmul  its launch: TILE x TILE threads, one block per tile of C.
 *
 * The data (all row-major, all on the GPU), any shape from 1 x 1 x 1 up:
 *   A  M x K    A(i, k) = A[i * K + k]
 *   B  K x N    B(k, j) = B[k * N + j]
 *   C  M x N    C(i, j) = C[i * N + j] = sum over k of A(i, k) B(k, j)
 *
 * What ./grade checks: C against an FP64 reference within the fp32 error
 * bound (handout: How exact must C be?) on edge shapes, random shapes and
 * inputs holding NaN and Inf; compute-sanitizer memcheck and racecheck; that
 * the compiled kernel uses shared memory and a barrier; GFLOP/s against a
 * naive kernel and cuBLAS (FP32, no tensor cores) timed in the same run.
 *
 * Do not change: the signature of launch_matmul, the one #include below.
 * Do not use: cuBLAS, cudaMemcpy* or any other library call.
 * ./grade checks this before anything runs: no #include but CUDA's own
 * headers (lab 1's handout: What a lab file may include), no code that
 * runs outside the launch function, no host printf (printf in a kernel is
 * fine), and any global variable `static`.
 */
#include "tilelab.h"

enum { TILE = 32 }; static_assert(TILE * TILE <= 1024, "one thread per tile element: at most 1024 threads a block");

__global__ void matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K)
{
    /* TODO(lab4): declare the two tiles: __shared__ float As[TILE][TILE], Bs[TILE][TILE];
     * This thread's output: row = blockIdx.y * TILE + threadIdx.y,
     * col = blockIdx.x * TILE + threadIdx.x; keep its sum in a float.
     * For each K-tile t = 0, TILE, 2 TILE, ... < K:
     *   load phase:    As[ty][tx] = A(row, t + tx), Bs[ty][tx] = B(t + ty, col),
     *                  0 where the index leaves A or B;
     *   barrier;
     *   compute phase: sum += As[ty][k] * Bs[k][tx] for k < TILE;
     *   barrier (why? handout: The second barrier).
     * Finally store the sum, if row < M and col < N. */
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    /* TODO(lab4): TILE x TILE threads, one block per TILE x TILE tile of C. */
    dim3 block(1, 1);
    dim3 grid(1, 1);
    LAUNCH(matmul_tiled, grid, block)(A, B, C, M, N, K);
}

/*
 * Lab 1 — naive transpose                 labs/lab1-naive-transpose/transpose.cu
 *
 * You write two things, both marked TODO(lab1):
 *   transpose_naive   the kernel: one thread moves one element;
 *   launch_transpose  its launch: a block shape and a 2D grid that covers
 *                     every element of any shape, from 1 x 1 to 8193 x 8193.
 *
 * The data (both row-major, both already on the GPU):
 *   in   rows x cols    element (r, c) is in[r * cols + c]
 *   out  cols x rows    element (c, r) is out[c * rows + r]  and must equal in(r, c)
 *
 * What ./grade checks: every hidden shape transposed exactly (edge shapes such
 * as 1 x 1, 1 x N, 31 x 33, and random ones), no write outside `out`, no
 * change to `in`, and your bandwidth as a fraction of the GPU's own copy speed
 * measured in the same run. `make lab1 && build/lab1` is the quick check.
 *
 * Do not change: the signature of launch_transpose, the one #include below.
 * Do not use: cudaMemcpy*, cuBLAS or any other library call — launch your kernel.
 * ./grade checks this before anything runs: no #include but CUDA's own
 * headers (lab 1's handout: What a lab file may include), no code that
 * runs outside the launch function, no host printf (printf in a kernel is
 * fine), and any global variable `static`.
 */
#include "tilelab.h"

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    /* TODO(lab1): compute this thread's column c and row r from blockIdx,
     * blockDim and threadIdx (let x run along the columns of `in`), skip
     * threads that fall outside the matrix, and copy in(r, c) to out(c, r). */
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    /* TODO(lab1): pick a block shape (e.g. 32 x 8 or 32 x 32 threads) and a
     * grid with enough blocks to cover all `cols` columns in x and all `rows`
     * rows in y — round up (CEIL_DIV) so partial blocks are covered too. */
    dim3 block(1, 1);
    dim3 grid(1, 1);
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

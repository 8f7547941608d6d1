/*
 * Lab 6 — the in-register transpose      labs/lab6-register-transpose/transpose.cu
 *
 * Lab 3's padded tile moves one float per thread per access. Here each thread
 * moves whole 4 x 4 blocks of the matrix with 128-bit (float4) loads and
 * stores, and transposes each block in its own registers. Done well, this
 * matches cuBLAS's transpose on an H100 and beats it on an H200 (handout:
 * The ladder).
 *
 * The data, the launch and the rules are those of labs 1-3:
 *   in   rows x cols    in(r, c)  = in[r * cols + c]
 *   out  cols x rows    out(c, r) = out[c * rows + r] = in(r, c)
 *
 * You write, marked TODO(lab6):
 *   1. transpose4x4: the 4 x 4 transpose in registers;
 *   2. transpose_vec4: every thread loads 4 x 4 blocks as four float4 rows,
 *      transposes them with transpose4x4, and the block writes `out` with
 *      float4 stores (staging through shared memory as you choose);
 *   3. transpose_scalar: your lab 3 kernel, for every shape whose rows do
 *      not start on 16-byte boundaries (rows or cols not a multiple of 4);
 *   4. launch_transpose: the vector path where it is allowed, else the
 *      scalar one. Every shape must come out right: 1 x 1, 3 x 5, 8191 x 8193.
 *
 * What ./grade checks: the hidden tests (lab 3's shapes and more odd ones);
 * memcheck, racecheck and synccheck on an aligned shape with partial tiles
 * and on an odd one; that your global loads and stores are 128-bit, counted
 * by ncu (20 points: at most 1.1x the requests 128-bit accesses need, where
 * lab 3 takes 4x); and
 * bandwidth against the copy speed (20 points). It also times cuBLAS's
 * transpose and your own lab 3 kernel in the same run, for comparison.
 *
 * Do not change: the signature of launch_transpose, the one #include below.
 * Do not use: cudaMemcpy*, cuBLAS or any other library call.
 * ./grade checks this before anything runs: no #include but CUDA's own
 * headers (lab 1's handout: What a lab file may include), no code that
 * runs outside the launch function, no host printf (printf in a kernel is
 * fine), and any global variable `static`.
 */
#include "tilelab.h"

enum { TILE = 64, VEC = 4 };                  /* a 64 x 64 tile of 4 x 4 blocks */
enum { SCALAR_TILE = 32, BLOCK_ROWS = 8 };   /* lab 3's tile */

/* TODO(lab6): row i of t is column i of the 4 x 4 block v (v[i] is its row i).
 * __forceinline__: the arrays stay in registers (an out-of-line call would
 * pass them through memory), and nvcc makes no host copy of the function. */
__device__ __forceinline__ void transpose4x4(const float4 v[4], float4 t[4])
{
}

__global__ void transpose_vec4(const float *in, float *out, int rows, int cols)
{
    /* TODO(lab6): load 4 x 4 blocks with float4, transpose4x4, store float4. */
}

__global__ void transpose_scalar(const float *in, float *out, int rows, int cols)
{
    /* TODO(lab6): your lab 3 kernel. */
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    /* TODO(lab6): transpose_vec4 when every row starts on a 16-byte boundary,
     * else transpose_scalar, each with its own grid and block. */
    dim3 block(1, 1);
    dim3 grid(1, 1);
    LAUNCH(transpose_scalar, grid, block)(in, out, rows, cols);
}

/*
 * Lab 3 — padding against bank conflicts          labs/lab3-padding/transpose.cu
 *
 * Start from your lab 2 kernel (copy it in below), then make one change,
 * marked TODO(lab3): give the shared tile one extra column, [TILE][TILE + 1],
 * so that reading a column of the tile touches 32 different banks instead of
 * one. Predict the speedup before you measure it (handout: Predict before you
 * measure).
 *
 * The data, the launch and the rules are lab 2's:
 *   in   rows x cols    in(r, c)  = in[r * cols + c]
 *   out  cols x rows    out(c, r) = out[c * rows + r] = in(r, c)
 *
 * What ./grade checks: lab 2's checks; bank conflicts per shared-memory
 * request, counted by ncu (10 points, for at most 0.25); and bandwidth
 * against the copy speed (20 points). It also reports your speedup over your
 * own lab 2 kernel when that builds.
 *
 * Do not change: the signature of launch_transpose, the one #include below.
 * Do not use: cudaMemcpy*, cuBLAS or any other library call.
 * ./grade checks this before anything runs: no #include but CUDA's own
 * headers (lab 1's handout: What a lab file may include), no code that
 * runs outside the launch function, no host printf (printf in a kernel is
 * fine), and any global variable `static`.
 */
#include "tilelab.h"

enum { TILE = 32, BLOCK_ROWS = 8 }; static_assert(TILE % BLOCK_ROWS == 0, "each thread moves TILE / BLOCK_ROWS rows of a tile");

__global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    /* TODO(lab3): your lab 2 kernel, with the tile declared as
     * __shared__ float tile[TILE][TILE + 1]; */
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    /* TODO(lab3): your lab 2 launch. */
    dim3 block(1, 1);
    dim3 grid(1, 1);
    LAUNCH(transpose_padded, grid, block)(in, out, rows, cols);
}

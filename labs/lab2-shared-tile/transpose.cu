/*
 * Lab 2 — shared-memory tiled transpose       labs/lab2-shared-tile/transpose.cu
 *
 * You write two things, both marked TODO(lab2):
 *   transpose_tiled   the kernel: a block stages a TILE x TILE tile of `in` in
 *                     shared memory (load phase), waits at a barrier, then
 *                     writes the tile transposed (store phase), so that both
 *                     the global reads and the global writes are coalesced;
 *   launch_transpose  its launch: TILE x BLOCK_ROWS threads per block, each
 *                     moving TILE / BLOCK_ROWS elements, one block per tile.
 *
 * The data is lab 1's (both row-major, both on the GPU):
 *   in   rows x cols    in(r, c)  = in[r * cols + c]
 *   out  cols x rows    out(c, r) = out[c * rows + r] = in(r, c)
 * Any shape from 1 x 1 to 8193 x 8193: tiles at the right and bottom edges are
 * partial, so both phases need bounds tests.
 *
 * What ./grade checks: lab 1's hidden tests; compute-sanitizer memcheck and
 * racecheck on 257 x 131 (when installed); that the compiled kernel uses
 * shared memory and a barrier; bandwidth as a fraction of the copy speed.
 * Keep the tile unpadded ([TILE][TILE]): padding is lab 3.
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

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    /* TODO(lab2): declare the tile: __shared__ float tile[TILE][TILE];
     * Load phase: this block's tile starts at row blockIdx.y * TILE and
     * column blockIdx.x * TILE of `in`; each thread loads rows threadIdx.y,
     * threadIdx.y + BLOCK_ROWS, ... of it at column threadIdx.x (skip what
     * lies outside the matrix).
     * Barrier: every thread of the block, none skipped.
     * Store phase: the tile lands at row blockIdx.x * TILE and column
     * blockIdx.y * TILE of `out` (the block origin swaps); threadIdx.x again
     * runs along a row of `out`, reading the tile column-wise. */
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    /* TODO(lab2): TILE x BLOCK_ROWS threads, one block per TILE x TILE tile. */
    dim3 block(1, 1);
    dim3 grid(1, 1);
    LAUNCH(transpose_tiled, grid, block)(in, out, rows, cols);
}

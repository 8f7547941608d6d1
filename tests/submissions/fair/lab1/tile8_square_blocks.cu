/*
 * Fair (lab 1): blocks of 8 x 8 threads instead of 32 x 8, the square block
 * many first CUDA tutorials use (e.g. the 8 x 8 and 16 x 16 thread blocks of
 * the programming guide's early examples). Correct for any shape: one
 * element a thread, bounds-tested. Accesses per warp (4 rows x 8 columns of
 * in): reads are 4 runs of 32 bytes, one full sector each; writes are 8 runs
 * of 4 consecutive floats (16 bytes) of out, 8 sectors per request instead
 * of the reference's 32. 64-thread blocks: 32 resident blocks (the SM's
 * limit) still fill an H100 SM's 2048 threads.
 * Score: lab 1 is full from 0.10 of copy; the reference (32 x 8) measures
 * 0.158 (H100), 0.135 (H200). Fewer sectors per store and full sectors per
 * load: expected at or above the reference, full marks. The range allows a
 * GPU where 64-thread blocks lose more to block scheduling than expected:
 * 90 is still 0.091 of copy.
 * expect: exit by-score, score 90..100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 8 };

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

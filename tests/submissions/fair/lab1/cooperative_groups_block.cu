/*
 * Fair (lab 1): indices from cooperative groups, as the programming guide's
 * "Cooperative Groups" chapter writes them: cg::this_thread_block() gives
 * the block, its group_index() and thread_index() replace blockIdx and
 * threadIdx, and dim_threads() replaces blockDim. Header-only device code
 * (cooperative_groups.h is a CUDA header); no grid sync, so an ordinary
 * <<<...>>> launch. The kernel is the reference's otherwise: 32 x 8 threads,
 * one element each, reads coalesced, writes strided.
 * Full marks: the same instructions after inlining, the reference's speed
 * (0.158 of copy on the H100; lab 1 is full from 0.10).
 * CPU mode runs it since 2026-11-27 (cooperative groups, warp
 * intrinsics, device and occupancy queries: cpu/include/): full marks.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    cg::thread_block block = cg::this_thread_block();
    int c = block.group_index().x * block.dim_threads().x + block.thread_index().x;
    int r = block.group_index().y * block.dim_threads().y + block.thread_index().y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

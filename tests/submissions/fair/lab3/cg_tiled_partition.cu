/*
 * Fair (lab 3): the padded tile written with cooperative groups: the block
 * is cg::this_thread_block(), split into warps with
 * cg::tiled_partition<32>(block); a warp's thread_rank() is its column of
 * the tile and its meta_group_rank() (0..7) the first of the tile rows it
 * moves, every 8th; block.sync() is the barrier. This is the programming
 * guide's "Cooperative Groups" idiom for warp-level work inside a block.
 * The indices are the reference's (32 x 8 threads, [32][33] tile).
 * Full marks: 0 bank conflicts, the reference's accesses and speed (0.985 of
 * copy on the H100, 0.911 on the H200; lab 3 is full from 0.80).
 * CPU mode runs it since 2026-11-27 (cooperative groups, warp
 * intrinsics, device and occupancy queries: cpu/include/): full marks.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

enum { TILE = 32, WARPS = 8 };

__global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const int lane = warp.thread_rank(), first = warp.meta_group_rank();

    int c = blockIdx.x * TILE + lane;
    for (int i = first; i < TILE; i += WARPS) {
        int r = blockIdx.y * TILE + i;
        if (r < rows && c < cols)
            tile[i][lane] = in[(size_t)r * cols + c];
    }

    block.sync();

    int out_c = blockIdx.y * TILE + lane;
    for (int i = first; i < TILE; i += WARPS) {
        int out_r = blockIdx.x * TILE + i;
        if (out_r < cols && out_c < rows)
            out[(size_t)out_r * rows + out_c] = tile[lane][i];
    }
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    LAUNCH(transpose_padded, grid, dim3(TILE, WARPS))(in, out, rows, cols);
}

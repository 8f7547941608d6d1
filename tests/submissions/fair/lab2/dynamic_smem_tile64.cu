/*
 * Fair (lab 2): a 64 x 64 tile in dynamic shared memory, sized at launch
 * and raised with cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize),
 * the programming guide's recipe for dynamic shared memory (needed above
 * 48 KB; students set it for any size once they have seen it). 64 x 8
 * threads (two warps per tile row), each moving 8 elements of the tile per
 * phase; extern __shared__ float tile[] indexed by hand, unpadded as lab 2
 * asks. Bounds tests in both phases.
 * Full marks: 16 KB per block, 512 threads; the same coalesced phases and the
 * same 32-way conflicts on the column reads as the 32 x 32 reference (0.611
 * of copy on the H100, 0.456 on the H200; lab 2 is full from 0.35).
 * CPU mode runs it since 2026-11-27 (cooperative groups, warp
 * intrinsics, device and occupancy queries: cpu/include/): full marks.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 64, ROWS = 8 };

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    extern __shared__ float tile[];   /* TILE x TILE, row i at tile[i * TILE] */

    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[(threadIdx.y + j) * TILE + threadIdx.x] = in[(size_t)(r + j) * cols + c];

    __syncthreads();

    int out_c = blockIdx.y * TILE + threadIdx.x;
    int out_r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (out_r + j < cols && out_c < rows)
            out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x * TILE + threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    const int smem = TILE * TILE * sizeof(float);
    cudaFuncSetAttribute(transpose_tiled, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    transpose_tiled<<<grid, dim3(TILE, ROWS), smem>>>(in, out, rows, cols);
}

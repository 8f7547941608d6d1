/*
 * Fair (lab 2): the load phase with 64-bit vector loads. Where every row of
 * `in` starts on an 8-byte boundary (cols even, base 8-byte aligned), the
 * 256 threads of a block read the 32 x 32 tile as float2s: 16 threads cover
 * a tile row (128 bytes, one line), 16 rows per pass, 2 passes. The store
 * phase is lab 2's, one float a thread along a row of out. Other shapes
 * (odd cols) take the scalar load of the reference; the tile and barrier
 * are shared by both, so only the load's shape is chosen, by a test that is
 * the same for the whole grid (no barrier in a divergent branch).
 * Full marks: the same bytes through half as many load instructions; the
 * store phase, the bottleneck with its 32-way bank conflicts, is the
 * reference's (0.611 of copy on the H100, 0.456 on the H200; lab 2 is full
 * from 0.35).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 32, BLOCK_ROWS = 8, THREADS = TILE * BLOCK_ROWS };

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols, bool pairs)
{
    __shared__ float tile[TILE][TILE];
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;

    if (pairs) {
        int t = threadIdx.y * TILE + threadIdx.x;
        int q = t % (TILE / 2), i0 = t / (TILE / 2);   /* float2 q of tile row i0, i0 + 16 */
        for (int i = i0; i < TILE; i += THREADS / (TILE / 2)) {
            int r = row0 + i, c = col0 + 2 * q;        /* c even, cols even: c and c + 1 both in or both out */
            if (r < rows && c < cols) {
                float2 v = *reinterpret_cast<const float2 *>(in + (size_t)r * cols + c);
                tile[i][2 * q] = v.x;
                tile[i][2 * q + 1] = v.y;
            }
        }
    } else {
        for (int j = 0; j < TILE; j += BLOCK_ROWS) {
            int r = row0 + threadIdx.y + j, c = col0 + threadIdx.x;
            if (r < rows && c < cols)
                tile[threadIdx.y + j][threadIdx.x] = in[(size_t)r * cols + c];
        }
    }

    __syncthreads();

    int out_c = row0 + threadIdx.x;
    int out_r = col0 + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        if (out_r + j < cols && out_c < rows)
            out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    bool pairs = cols % 2 == 0 && reinterpret_cast<size_t>(in) % 8 == 0;
    dim3 block(TILE, BLOCK_ROWS);
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    LAUNCH(transpose_tiled, grid, block)(in, out, rows, cols, pairs);
}

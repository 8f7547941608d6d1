/*
 * Fair (lab 3): float4 loads into a padded tile. Where every row of `in`
 * starts on a 16-byte boundary (cols % 4 == 0, 16-byte aligned base), the
 * 256 threads read the 32 x 32 tile as float4s: 8 threads per tile row (one
 * 128-byte line), 32 rows per pass, one pass. The padded tile's rows do not
 * start on 16 bytes, so each float4 is stored as 4 floats: for component
 * e, a warp (4 tile rows i, 8 float4s q) writes banks (33 i + 4 q + e) % 32
 * = (i + 4 q + e) % 32, 32 distinct: 0 conflicts. The store phase is lab
 * 3's. Other shapes load one float a thread, as the reference. The choice
 * is one flag for the whole grid: no barrier inside a divergent branch.
 * Full marks: 0 bank conflicts, the same bytes with a quarter of the load
 * instructions (the reference measures 0.985 of copy on the H100, 0.911 on
 * the H200; lab 3 is full from 0.80).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 32, BLOCK_ROWS = 8, THREADS = TILE * BLOCK_ROWS, QUADS = TILE / 4 };

__global__ void transpose_padded(const float *in, float *out, int rows, int cols, bool quads)
{
    __shared__ float tile[TILE][TILE + 1];
    const int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;

    if (quads) {
        int t = threadIdx.y * TILE + threadIdx.x;
        int i = t / QUADS, q = t % QUADS;   /* 256 threads: all 32 rows x 8 float4s at once */
        int r = row0 + i, c = col0 + 4 * q;
        if (r < rows && c < cols) {          /* cols % 4 == 0: the float4 is all in or all out */
            float4 v = *reinterpret_cast<const float4 *>(in + (size_t)r * cols + c);
            tile[i][4 * q + 0] = v.x;
            tile[i][4 * q + 1] = v.y;
            tile[i][4 * q + 2] = v.z;
            tile[i][4 * q + 3] = v.w;
        }
    } else {
        int c = col0 + threadIdx.x;
        for (int j = 0; j < TILE; j += BLOCK_ROWS)
            if (row0 + threadIdx.y + j < rows && c < cols)
                tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(row0 + threadIdx.y + j) * cols + c];
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
    bool quads = cols % 4 == 0 && reinterpret_cast<size_t>(in) % 16 == 0;
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    LAUNCH(transpose_padded, grid, dim3(TILE, BLOCK_ROWS))(in, out, rows, cols, quads);
}

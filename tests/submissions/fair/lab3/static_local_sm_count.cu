/*
 * Fair (lab 3): a persistent grid sized once per process. The launch keeps
 * the SM count in a function-local static, `static const int sms =
 * query_sms();`, initialised on the first call (C++ guarantees a
 * thread-safe one-time initialisation: the compiler guards it with
 * __cxa_guard_acquire/__cxa_guard_release, library code the student did
 * not write and that runs inside the launch function). It launches at most
 * 16 blocks per SM, and each block walks the tile grid in steps of
 * gridDim.x, with lab 3's padded tile and a second barrier before the next
 * tile's load. query_sms is a static host function calling
 * cudaGetDevice and cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount).
 * Full marks: [32][33] tile (0 bank conflicts); 132 SMs x 16 blocks of 256
 * threads cover an H100 with 2048 threads an SM, each block doing about 8
 * tiles at 8192^2; the reference measures 0.985 of copy (H100), 0.911
 * (H200), full from 0.80. Expected at the reference's speed; the range
 * allows the loop's extra barrier per tile costing a few percent.
 * CPU mode runs it since 2026-11-27 (device queries; a static local's
 * guard without libtsan's atomics): 80/80, seed 20261121.
 * expect: exit by-score, score 95..100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 32, BLOCK_ROWS = 8, BLOCKS_PER_SM = 16 };

__global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    const int tiles_x = CEIL_DIV(cols, TILE), tiles = tiles_x * CEIL_DIV(rows, TILE);

    for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
        const int row0 = t / tiles_x * TILE, col0 = t % tiles_x * TILE;
        const int c = col0 + threadIdx.x, r = row0 + threadIdx.y;
        for (int j = 0; j < TILE; j += BLOCK_ROWS)
            if (r + j < rows && c < cols)
                tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
        __syncthreads();
        const int out_c = row0 + threadIdx.x, out_r = col0 + threadIdx.y;
        for (int j = 0; j < TILE; j += BLOCK_ROWS)
            if (out_r + j < cols && out_c < rows)
                out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
        __syncthreads();   /* the tile is read out before the next load overwrites it */
    }
}

static int query_sms(void)
{
    int device = 0, sms = 0;
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sms < 1)
        return 80;   /* any count gives a correct result; this one only sizes the grid */
    return sms;
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    static const int sms = query_sms();
    const int tiles = CEIL_DIV(cols, TILE) * CEIL_DIV(rows, TILE);
    const int blocks = tiles < sms * BLOCKS_PER_SM ? tiles : sms * BLOCKS_PER_SM;
    LAUNCH(transpose_padded, blocks, dim3(TILE, BLOCK_ROWS))(in, out, rows, cols);
}

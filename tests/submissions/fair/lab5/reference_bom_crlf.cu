/*
 * Fair (lab 5): the reference solution as a Windows editor saves it: a
 * UTF-8 byte-order mark, CRLF line ends. Nothing else changed: five
 * kernels, SUPERSTEP blocks, the double-buffered matmul.
 * Full marks: the reference's (part 2 0.955-0.959 of copy on the H100,
 * part 3 0.999x lab 4's kernel).
 * Today the build's #line line moves the byte-order mark off the start of
 * the file and nvcc stops (issue 27).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

/* ==== Part 1: the sync-bug clinic ====================================== */

/* Fixed: the tile is complete (superstep load) before anyone reads it. */
__global__ void reverse_blocks(const float *in, float *out, int n)
{
    __shared__ float tile[TL_CHUNK];
    int t = threadIdx.x, chunk = blockIdx.x * TL_CHUNK;
    int len = min(TL_CHUNK, n - chunk);

    SUPERSTEP(load) {
        if (t < len)
            tile[t] = in[chunk + t];
    }
    if (t < len)
        out[chunk + t] = tile[len - 1 - t];
}

/* Fixed: the barrier of each tree level is outside the branch; every thread
 * of the block reaches it, also those with nothing to add. */
__global__ void block_sums(const float *in, float *sums, int n)
{
    __shared__ float tile[TL_CHUNK];
    int t = threadIdx.x, i = blockIdx.x * TL_CHUNK + t;

    SUPERSTEP(load) {
        tile[t] = i < n ? in[i] : 0.0f;
    }
    for (int s = TL_CHUNK / 2; s > 0; s /= 2) {
        SUPERSTEP(add_half) {
            if (t < s)
                tile[t] += tile[t + s];
        }
    }
    if (t == 0)
        sums[blockIdx.x] = tile[0];
}

/* Fixed: a second superstep per chunk, so nobody reloads the tile while
 * others still add from it (the write-after-read). */
__global__ void pair_sums(const float *in, float *out, int n)
{
    __shared__ float tile[TL_CHUNK + 1];
    int t = threadIdx.x;

    for (int chunk = blockIdx.x * TL_CHUNK; chunk < n; chunk += gridDim.x * TL_CHUNK) {
        int i = chunk + t;
        SUPERSTEP(load) {
            tile[t] = i < n ? in[i] : 0.0f;
            if (t == 0)
                tile[TL_CHUNK] = chunk + TL_CHUNK < n ? in[chunk + TL_CHUNK] : 0.0f;
        }
        SUPERSTEP(add) {
            if (i < n)
                out[i] = tile[t] + tile[t + 1];
        }
    }
}

void launch_reverse_blocks(const float *in, float *out, int n)
{
    LAUNCH(reverse_blocks, CEIL_DIV(n, TL_CHUNK), TL_CHUNK)(in, out, n);
}

void launch_block_sums(const float *in, float *sums, int n)
{
    LAUNCH(block_sums, CEIL_DIV(n, TL_CHUNK), TL_CHUNK)(in, sums, n);
}

void launch_pair_sums(const float *in, float *out, int n)
{
    /* A few blocks, each walking many chunks: the tile is reused in a loop. */
    LAUNCH(pair_sums, min(CEIL_DIV(n, TL_CHUNK), 64), TL_CHUNK)(in, out, n);
}

/* ==== Part 2: in-place transpose ======================================== */

enum { TILE = 32, ROWS = 8 }; static_assert(TILE % ROWS == 0, "a 32 x 32 tile, moved by 32 x 8 threads: TILE / ROWS rows each");

__global__ void transpose_inplace(float *a, int n)
{
    /* Padded as in lab 3: the transposed reads hit 32 banks. */
    __shared__ float upper[TILE][TILE + 1], lower[TILE][TILE + 1];
    /* Block (ti, tj) of a tiles x tiles grid swaps tiles (ti, tj) and (tj, ti).
     * Only the upper triangle has work: a block below the diagonal leaves at
     * once, before any barrier, and all its threads alike. (A 1-D grid of
     * just the pairs, each block finding its (ti, tj), was slower on an H200:
     * 0.73 of copy with a closed form, 0.49 with a loop, against 0.78.) */
    int ti = blockIdx.y, tj = blockIdx.x, x = threadIdx.x;
    if (ti > tj)
        return;

    if (ti == tj) {   /* diagonal: one tile, transposed onto itself. Block-uniform, so the barrier is safe */
        SUPERSTEP(load_diagonal) {
            for (int y = threadIdx.y; y < TILE; y += ROWS) {
                int r = ti * TILE + y, c = ti * TILE + x;
                if (r < n && c < n)
                    upper[y][x] = a[(size_t)r * n + c];
            }
        }
        for (int y = threadIdx.y; y < TILE; y += ROWS) {
            int r = ti * TILE + y, c = ti * TILE + x;
            if (r < n && c < n)
                a[(size_t)r * n + c] = upper[x][y];
        }
        return;
    }
    SUPERSTEP(load_both) {   /* tile (ti, tj) into upper, tile (tj, ti) into lower */
        for (int y = threadIdx.y; y < TILE; y += ROWS) {
            int r = ti * TILE + y, c = tj * TILE + x;
            if (r < n && c < n)
                upper[y][x] = a[(size_t)r * n + c];
            r = tj * TILE + y, c = ti * TILE + x;
            if (r < n && c < n)
                lower[y][x] = a[(size_t)r * n + c];
        }
    }
    /* store_both: each tile goes to the other's place, transposed. */
    for (int y = threadIdx.y; y < TILE; y += ROWS) {
        int r = ti * TILE + y, c = tj * TILE + x;
        if (r < n && c < n)
            a[(size_t)r * n + c] = lower[x][y];
        r = tj * TILE + y, c = ti * TILE + x;
        if (r < n && c < n)
            a[(size_t)r * n + c] = upper[x][y];
    }
}

void launch_transpose_inplace(float *a, int n)
{
    int tiles = CEIL_DIV(n, TILE);
    LAUNCH(transpose_inplace, dim3(tiles, tiles), dim3(TILE, ROWS))(a, n);
}

/* ==== Part 3: double-buffered tiled matmul ============================== */

__global__ void matmul_dbuf(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[2][TILE][TILE], Bs[2][TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    int steps = CEIL_DIV(K, TILE);
    float sum = 0.0f;

    SUPERSTEP(load_first) {   /* K-tile 0 into buffer 0, zero-filled past the edges as in lab 4 */
        As[0][ty][tx] = row < M && tx < K ? A[(size_t)row * K + tx] : 0.0f;
        Bs[0][ty][tx] = ty < K && col < N ? B[(size_t)ty * N + col] : 0.0f;
    }
    /* One barrier per K-step: step s reads buffer s % 2 and fills the other,
     * which nobody reads until the barrier that ends this step; and nobody
     * refills buffer s % 2 before that barrier either. */
    for (int s = 0; s < steps; s++) {
        int cur = s % 2, next = 1 - cur, k0 = (s + 1) * TILE;
        SUPERSTEP(load_next_multiply_current) {
            if (s + 1 < steps) {
                As[next][ty][tx] = row < M && k0 + tx < K ? A[(size_t)row * K + k0 + tx] : 0.0f;
                Bs[next][ty][tx] = k0 + ty < K && col < N ? B[(size_t)(k0 + ty) * N + col] : 0.0f;
            }
            for (int k = 0; k < TILE; k++)
                sum += As[cur][ty][k] * Bs[cur][k][tx];
        }
    }
    if (row < M && col < N)
        C[(size_t)row * N + col] = sum;
}

void launch_matmul_dbuf(const float *A, const float *B, float *C, int M, int N, int K)
{
    dim3 block(TILE, TILE);
    dim3 grid(CEIL_DIV(N, TILE), CEIL_DIV(M, TILE));
    LAUNCH(matmul_dbuf, grid, block)(A, B, C, M, N, K);
}

/*
 * Fair (lab 3): 16 x 16 tiles padded to [16][17], 16 x 16 threads, one
 * element a thread per phase (the textbook tile size: Kirk and Hwu,
 * "Programming Massively Parallel Processors"). Correct on every shape.
 * Honest cost: padding by one word is the fix for a 32-wide tile. With 16
 * wide rows a warp covers two tile rows, and the +1 leaves one 2-way
 * conflict per request. Load phase, warp rows i and i + 1: banks
 * (17 i + x) % 32 and (17 (i + 1) + x) % 32 over x = 0..15 meet once (e.g.
 * i = 0: bank 0 for x = 0 and for x = 15 of row 1). Store phase: column
 * reads tile[x][k], tile[x][k + 1], x = 0..15: banks 17 x + k meet 17 x' +
 * k + 1 once. About 1 conflict per request, over lab 3's 0.25: the 10 bank
 * conflict points are lost (CPU mode computes exactly 1.00 per request
 * on loads and on stores). A 32-wide tile or an XOR swizzle would avoid it;
 * this student kept the textbook's 16.
 * Score: 90 without the bank points if its speed is full (lab 3 is full
 * from 0.80 of copy; the 32 x 32 reference measures 0.985 on the H100):
 * half-line runs per tile row and small conflicts may cost some of the 20
 * speed points on the H200 (0.911 for the reference). Range 70..90.
 * expect: exit 1, score 70..90, "bank conflicts per shared request"
 * expect-cpu: exit 1, score 70, "1.00 bank conflicts per shared request"
 */
#include "tilelab.h"

enum { TILE = 16 };

__global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];

    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];

    __syncthreads();

    int out_c = blockIdx.y * TILE + threadIdx.x;
    int out_r = blockIdx.x * TILE + threadIdx.y;
    if (out_r < cols && out_c < rows)
        out[(size_t)out_r * rows + out_c] = tile[threadIdx.x][threadIdx.y];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(TILE, TILE);
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    LAUNCH(transpose_padded, grid, block)(in, out, rows, cols);
}

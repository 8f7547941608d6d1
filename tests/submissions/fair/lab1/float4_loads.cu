/*
 * Fair (lab 1): vector loads. Where every row of `in` starts on a 16-byte
 * boundary (cols % 4 == 0 and a 16-byte aligned base), each thread reads
 * four neighbouring elements of a row with one float4 load and writes them
 * to four rows of `out`; a warp reads 512 contiguous bytes per request.
 * Any other shape takes the scalar path, one element a thread (the
 * reference). The writes stay strided, as lab 1 expects: lab 2 fixes them.
 * The alignment test is on the shape and the pointers, so 1 x 1, 2 x 3 and
 * 8191 x 8193 take the scalar kernel and 8192 x 8192 the vector one.
 * Full marks: the scalar path is the reference (0.158 of copy on the H100);
 * the vector path does a quarter of the load instructions for the same
 * sectors and the same strided stores (4 per thread, each to a different row
 * of out: a warp's store still touches 32 sectors). Lab 1 is full from 0.10.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { BLOCK_X = 32, BLOCK_Y = 8, VEC = 4 };

/* One float4 of in per thread: columns 4 * c4 .. 4 * c4 + 3 of row r. */
__global__ void transpose_vec_loads(const float *in, float *out, int rows, int cols)
{
    int c4 = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || VEC * c4 >= cols)
        return;
    float4 v = reinterpret_cast<const float4 *>(in + (size_t)r * cols)[c4];
    size_t c = (size_t)VEC * c4;
    out[(c + 0) * rows + r] = v.x;
    out[(c + 1) * rows + r] = v.y;
    out[(c + 2) * rows + r] = v.z;
    out[(c + 3) * rows + r] = v.w;
}

__global__ void transpose_scalar(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    bool rows_aligned = cols % VEC == 0 && reinterpret_cast<size_t>(in) % 16 == 0;
    if (rows_aligned) {
        dim3 grid(CEIL_DIV(cols / VEC, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
        LAUNCH(transpose_vec_loads, grid, block)(in, out, rows, cols);
    } else {
        dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
        LAUNCH(transpose_scalar, grid, block)(in, out, rows, cols);
    }
}

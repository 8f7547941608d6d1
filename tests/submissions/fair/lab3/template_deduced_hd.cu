/*
 * Fair (lab 3): a generic padded-tile transpose templated on the element
 * type and launched with the type deduced (transpose_padded<<<...>>>(in,
 * out, rows, cols) instantiates it for float), with its indexing in a
 * `__host__ __device__ inline` function shared by host and device code and
 * the tile sizes as `static constexpr` members of a traits struct, the way
 * header-only libraries write kernels.
 * Full marks: after instantiation, the reference's kernel ([32][33] tile,
 * 32 x 8 threads: 0 bank conflicts, 0.985 of copy on the H100, 0.911 on the
 * H200; lab 3 is full from 0.80).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

struct tiling {
    static constexpr int tile = 32, rows = 8;
};

__host__ __device__ inline size_t row_major(int r, int c, int ld)
{
    return (size_t)r * ld + c;
}

template <typename T>
__global__ void transpose_padded(const T *in, T *out, int rows, int cols)
{
    constexpr int TILE = tiling::tile, ROWS = tiling::rows;
    __shared__ T tile[TILE][TILE + 1];

    int c = blockIdx.x * TILE + threadIdx.x;
    int r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[row_major(r + j, c, cols)];

    __syncthreads();

    int out_c = blockIdx.y * TILE + threadIdx.x;
    int out_r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (out_r + j < cols && out_c < rows)
            out[row_major(out_r + j, out_c, rows)] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 grid(CEIL_DIV(cols, tiling::tile), CEIL_DIV(rows, tiling::tile));
    transpose_padded<<<grid, dim3(tiling::tile, tiling::rows)>>>(in, out, rows, cols);
}

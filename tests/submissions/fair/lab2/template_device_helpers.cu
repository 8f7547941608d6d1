/*
 * Fair (lab 2): the two phases as function templates, plain `template
 * <int ROWS> __device__ void ...` (not inline, not static), instantiated
 * implicitly by the kernel's calls, the way generic CUDA code factors a
 * kernel (e.g. CUB-style block-level helpers templated on the block
 * shape). nvcc compiles each instantiation for the device and, as for any
 * non-inline __device__ function, emits a host copy of it; both are nvcc's,
 * not code the student runs. The barrier stays in the kernel between the
 * two calls. The tile is lab 2's [32][32], 32 x 8 threads.
 * Full marks: the calls inline to the reference's instructions (0.611 of
 * copy on the H100, 0.456 on the H200; lab 2 is full from 0.35).
 * Today's inspector accepts it (measured in CPU mode on today's main), where
 * it refuses the same helpers written without a template; keep it so: issue
 * 27 lists template instantiations among nvcc's symbols to tell apart.
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { TILE = 32, BLOCK_ROWS = 8 };

template <int ROWS>
__device__ void load_phase(float (*tile)[TILE], const float *in, int rows, int cols)
{
    const int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
}

template <int ROWS>
__device__ void store_phase(float (*tile)[TILE], float *out, int rows, int cols)
{
    const int out_c = blockIdx.y * TILE + threadIdx.x, out_r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (out_r + j < cols && out_c < rows)
            out[(size_t)(out_r + j) * rows + out_c] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    load_phase<BLOCK_ROWS>(tile, in, rows, cols);
    __syncthreads();
    store_phase<BLOCK_ROWS>(tile, out, rows, cols);
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 grid(CEIL_DIV(cols, TILE), CEIL_DIV(rows, TILE));
    LAUNCH(transpose_tiled, grid, dim3(TILE, BLOCK_ROWS))(in, out, rows, cols);
}

/*
 * Fair (lab 6): the 4 x 4 transpose across lanes with warp shuffles, no
 * shared memory on the vector path. Four lanes (a quad) each load one row
 * of a 4 x 4 block as a float4; in four rounds of __shfl_sync each lane
 * collects one column (round k: lane i reads lane (i + k) % 4 of its quad,
 * which sends its component (own - k) % 4, the one lane i needs), so after
 * the rounds lane i of the quad holds column i of the block: row
 * c0 + 4 q + i of out, four consecutive floats, one float4 store. This is
 * the register-level transpose of NVIDIA's "Using CUDA Warp-Level
 * Primitives" (https://developer.nvidia.com/blog/using-cuda-warp-level-primitives/)
 * applied to lab 6. A warp covers 8 rows x 32 columns of in (two quads
 * stacked per column block); loads are 4 full 128-byte rows per request,
 * and each lane's two float4 stores fill the two halves of one 32-byte
 * sector of out. Shapes with rows or cols not a multiple of 4, or
 * unaligned bases, take the scalar path (lab 3's padded tile). Every lane
 * of a warp takes part in every shuffle (the bounds tests guard only loads
 * and stores), so the full mask is right.
 * Score: all global loads and stores are 128-bit (the vector points: 1.0x
 * the requests); correct on every shape. Speed: loads are full lines, but a
 * store request touches 32 rows with 16 bytes each (the second store of a
 * lane completes the sector in L2), where the reference writes 256
 * contiguous bytes per 16 lanes; lab 6 is full from 0.88 of copy and the
 * reference measures 0.977-1.021 on the H100. Graded on an H100
 * (2026-11-27, seed 20261121): 0.317 of copy, so all 20 speed points are
 * lost (the 32-row store pattern costs more than reckoned): 80, an honest
 * score for a correct, slow file. Every other item is full.
 * CPU mode runs it since 2026-11-27 (cooperative groups, warp
 * intrinsics, device and occupancy queries: cpu/include/): full marks.
 * expect: exit 1, score 78..85
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

enum { QUAD = 4, WARP_ROWS = 8, WARP_COLS = 32, WARPS_X = 2, WARPS_Y = 4 };
enum { TILE_R = WARP_ROWS * WARPS_Y, TILE_C = WARP_COLS * WARPS_X };   /* 32 x 64 per block */
enum { SCALAR_TILE = 32, BLOCK_ROWS = 8 };

/* Component e (0..3) of v, without a local array (it stays in registers). */
static __device__ __forceinline__ float component(const float4 &v, int e)
{
    return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
}

static __device__ __forceinline__ float from_lane(float v, int src)
{
    return __shfl_sync(0xffffffffu, v, src);
}

/* The quad's rows in v (lane i holds row i); returns column i of the 4 x 4 block. */
static __device__ __forceinline__ float4 quad_transpose(const float4 v, int lane)
{
    const int i = lane % QUAD, base = lane - i;
    float4 col = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
    for (int k = 0; k < QUAD; k++) {
        const float sent = component(v, (i - k + QUAD) % QUAD);
        const float got = from_lane(sent, base + (i + k) % QUAD);   /* element (row (i + k) % 4, column i) */
        const int row = (i + k) % QUAD;   /* selects, not an indexed array: it stays in registers */
        col.x = row == 0 ? got : col.x;
        col.y = row == 1 ? got : col.y;
        col.z = row == 2 ? got : col.z;
        col.w = row == 3 ? got : col.w;
    }
    return col;
}

__global__ void transpose_vec4(const float *in, float *out, int rows, int cols)
{
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int q = lane / QUAD, i = lane % QUAD;
    const int r0 = blockIdx.y * TILE_R + (warp / WARPS_X) * WARP_ROWS;
    const int c = blockIdx.x * TILE_C + (warp % WARPS_X) * WARP_COLS + QUAD * q;   /* this quad's 4 columns */

#pragma unroll
    for (int h = 0; h < WARP_ROWS / QUAD; h++) {
        const int r = r0 + QUAD * h + i;   /* this lane's row; rows % 4 == 0: a quad is all in or all out */
        const bool inside = r < rows && c < cols;
        float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
        if (inside)
            v = *reinterpret_cast<const float4 *>(in + (size_t)r * cols + c);
        float4 col = quad_transpose(v, lane);
        if (inside)   /* out row c + i, columns r0 + 4 h .. + 3 */
            *reinterpret_cast<float4 *>(out + (size_t)(c + i) * rows + r0 + QUAD * h) = col;
    }
}

/* Lab 3's padded tile, for every other shape. */
__global__ void transpose_scalar(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[SCALAR_TILE][SCALAR_TILE + 1];
    int c = blockIdx.x * SCALAR_TILE + threadIdx.x, r = blockIdx.y * SCALAR_TILE + threadIdx.y;
    for (int j = 0; j < SCALAR_TILE; j += BLOCK_ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    int oc = blockIdx.y * SCALAR_TILE + threadIdx.x, orow = blockIdx.x * SCALAR_TILE + threadIdx.y;
    for (int j = 0; j < SCALAR_TILE; j += BLOCK_ROWS)
        if (orow + j < cols && oc < rows)
            out[(size_t)(orow + j) * rows + oc] = tile[threadIdx.x][threadIdx.y + j];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    bool vec = rows % QUAD == 0 && cols % QUAD == 0 &&
               (reinterpret_cast<size_t>(in) | reinterpret_cast<size_t>(out)) % 16 == 0;
    if (vec) {
        dim3 grid(CEIL_DIV(cols, TILE_C), CEIL_DIV(rows, TILE_R));
        LAUNCH(transpose_vec4, grid, 32 * WARPS_X * WARPS_Y)(in, out, rows, cols);
    } else {
        dim3 grid(CEIL_DIV(cols, SCALAR_TILE), CEIL_DIV(rows, SCALAR_TILE));
        LAUNCH(transpose_scalar, grid, dim3(SCALAR_TILE, BLOCK_ROWS))(in, out, rows, cols);
    }
}

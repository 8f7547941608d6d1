/*
 * Fair (lab 1): helpers of three linkages in one file, as a student who
 * tidies the reference writes them:
 *   - block_x / block_y: `constexpr int` at file scope (internal linkage,
 *     no storage), used by both the kernel and the launch;
 *   - ceil_div: a `__host__ __device__ constexpr` function, called from
 *     the launch (host) and usable in device code;
 *   - in_bounds: a `static __device__` function (internal linkage, not
 *     inline), called by the kernel.
 * The kernel is the reference's: one element a thread, 32 x 8 threads.
 * Full marks: the reference's accesses and speed (0.158 of copy on the H100;
 * lab 1 is full from 0.10).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

constexpr int block_x = 32, block_y = 8;

__host__ __device__ constexpr int ceil_div(int n, int d)
{
    return (n + d - 1) / d;
}

static __device__ bool in_bounds(int r, int c, int rows, int cols)
{
    return r < rows && c < cols;
}

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * block_x + threadIdx.x;
    int r = blockIdx.y * block_y + threadIdx.y;
    if (in_bounds(r, c, rows, cols))
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    static_assert(ceil_div(33, 32) == 2, "ceil_div rounds up");
    dim3 grid(ceil_div(cols, block_x), ceil_div(rows, block_y));
    LAUNCH(transpose_naive, grid, dim3(block_x, block_y))(in, out, rows, cols);
}

/*
 * Fair (lab 1): the block shape computed once, in a function-local static
 * with a dynamic initialiser: `static const dim3 block = pick_block();`.
 * C++ runs the initialiser on the first call and guards it against
 * concurrent first calls (the compiler emits __cxa_guard_acquire and
 * __cxa_guard_release around it: the C++ runtime's code, inside the launch
 * function, not code that runs before or after main). pick_block is a
 * static host function (32 x 8, the reference's shape). The kernel is the
 * reference's.
 * Full marks: the reference's accesses and speed (0.158 of copy on the
 * H100; lab 1 is full from 0.10).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* 32 threads along a row for coalesced reads; 8 rows, 256 threads a block. */
static dim3 pick_block(void)
{
    dim3 b;
    b.x = 32;
    b.y = 256 / b.x;
    return b;
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    static const dim3 block = pick_block();
    dim3 grid(CEIL_DIV(cols, block.x), CEIL_DIV(rows, block.y));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

/*
 * Fair (lab 1): a debugging printf left in the kernel, guarded by a test
 * that never holds for the kit's shapes (rows and cols are at least 1), the
 * way students leave one behind after chasing a bug. printf in a kernel is
 * allowed (the lab's contract says so); it compiles to a call of vprintf on
 * the device, never a host printf. nvcc 13 declares it only through
 * <stdio.h> (a system header, allowed), so the file includes it. The rest
 * is the reference.
 * Full marks: nothing is printed; the guard is one compare per thread in a
 * memory-bound kernel (the reference measures 0.158 of copy on the H100;
 * lab 1 is full from 0.10).
 * expect: exit 0, score 100
 * expect-cpu: exit 0, score max
 */
#include "tilelab.h"
#include <stdio.h>   /* printf in a kernel: nvcc declares it through stdio.h */

enum { BLOCK_X = 32, BLOCK_Y = 8 };

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if ((rows <= 0 || cols <= 0) && threadIdx.x == 0 && threadIdx.y == 0)
        printf("block (%d, %d): empty matrix %d x %d\n", blockIdx.x, blockIdx.y, rows, cols);
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(BLOCK_X, BLOCK_Y);
    dim3 grid(CEIL_DIV(cols, BLOCK_X), CEIL_DIV(rows, BLOCK_Y));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

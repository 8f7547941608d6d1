/* Attack (lab 1): a build that never ends, its #include spelt with the
 * digraph %: (C++'s alternative token for #), so that a check reading
 * "#include" lines does not see it: the preprocessor reads /dev/zero, a file
 * without end, until its memory runs out. Device files must be refused as
 * includes before anything reads them, however the directive is spelt: not
 * allowed, score 0, on a GPU and in CPU mode alike. (Were it missed, the
 * build's memory limit would end it: could not grade, exit 2.)
 * expect: exit 1, score 0, "includes /dev/zero"
 * expect-cpu: exit 1, score 0, "includes /dev/zero"
 * expect-timeout: 300 */
#include "tilelab.h"
%:include "/dev/zero"

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

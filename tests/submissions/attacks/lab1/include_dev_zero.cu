/* Attack (lab 1): a build that never ends. `#include "/dev/zero"` hands the
 * preprocessor a file without end: it reads and keeps zero bytes until memory
 * runs out, and the grade never finishes. The inspector reads the source's
 * #include lines before the build and refuses a device file (or a /proc or
 * /sys file, a folder, a pipe) by name, without opening it: not allowed,
 * score 0, on a GPU and in CPU mode alike, in well under a second.
 * expect: exit 1, score 0, "includes /dev/zero"
 * expect-cpu: exit 1, score 0, "includes /dev/zero"
 * expect-timeout: 300 */
#include "tilelab.h"
#include "/dev/zero"

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

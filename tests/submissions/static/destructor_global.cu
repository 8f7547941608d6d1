/* Judged at run time: a global object with a destructor. Its constructor runs inside the sandbox; the worker ends with _exit, so no destructor ever runs; inspect must print nothing. */
#include "tilelab.h"

__global__ void transpose_padded(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static volatile int flushed;
static struct flush_at_exit {
    ~flush_at_exit() { flushed = 1; }
} flusher;

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8), grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    LAUNCH(transpose_padded, grid, block)(in, out, rows, cols);
}

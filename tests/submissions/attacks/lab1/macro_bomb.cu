/* Attack (lab 1): a build that never ends. A few lines of macros expand into
 * a kernel body of 10^6 dependent multiply-adds (TEN applied six times), a
 * file of 2 KB that nvcc takes far longer than any limit over. The file's
 * build runs under a time limit (120 s by default) and an address-space
 * limit (4096 MiB; a rubric may change either): whichever it reaches first
 * (here, graded without a GPU, the memory: nvcc's front end stops with
 * "Loop in catastrophic error processing") the grade stops with
 * results.json, could not grade, exit 2, on a GPU and in CPU mode alike (CPU
 * mode builds the file with nvcc first).
 * expect: exit 2, score 0, "the compiler hit the grader's build limit"
 * expect-cpu: exit 2, score 0, "the compiler hit the grader's build limit"
 * expect-timeout: 300 */
#include "tilelab.h"

#define TEN(x) x x x x x x x x x x
#define STEP acc = acc * 1.0001f + in[(idx = (idx * 7 + 3) % n)];
#define MILLION TEN(TEN(TEN(TEN(TEN(TEN(STEP))))))

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
        if (rows < 0) {   /* never taken: the body is only there to be compiled */
            int n = rows * cols, idx = c;
            float acc = 0.0f;
            MILLION
            out[0] = acc;
        }
    }
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid(CEIL_DIV(cols, 32), CEIL_DIV(rows, 8));
    LAUNCH(transpose_naive, grid, block)(in, out, rows, cols);
}

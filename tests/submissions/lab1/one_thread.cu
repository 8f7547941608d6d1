/* Fixture: one thread does all the work (correct, not parallel).
 * Expected: small shapes pass; no performance points (tests/gpu/grading.c). */
#include "tilelab.h"

__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void launch_transpose(const float *in, float *out, int rows, int cols)
{
    LAUNCH(transpose_naive, dim3(1), dim3(1))(in, out, rows, cols);
}

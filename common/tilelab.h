/*
 * tilelab.h — the one kit header a lab file includes.
 *
 * It gives a lab file the CUDA types (dim3, threadIdx, __global__, ...), the
 * checking macros, LAUNCH, and the entry points the kit calls. Keeping lab
 * files to this header alone lets a second backend (a planned CPU emulation)
 * compile them unchanged: only this header would differ.
 */
#ifndef TILELAB_H
#define TILELAB_H

#include <cuda_runtime.h>
#include "check.h"

/*
 * LAUNCH(kernel, grid, block)(args...) is exactly kernel<<<grid, block>>>(args...).
 * Launch through it so the same lab file builds on every tilelab backend.
 */
#define LAUNCH(kernel, grid, block) kernel<<<(grid), (block)>>>

/* Round-up division: how many blocks of size `b` cover `n` items. */
#define CEIL_DIV(n, b) (((n) + (b) - 1) / (b))

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Labs 1-3: out (cols x rows) = transpose of in (rows x cols); both row-major,
 * both device pointers. The kit checks for errors after the call returns.
 */
void launch_transpose(const float *in, float *out, int rows, int cols);

/*
 * Lab 4: C (M x N) = A (M x K) times B (K x N); all row-major, all device
 * pointers. The kit checks for errors after the call returns.
 */
void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K);

#ifdef __cplusplus
}
#endif

#endif

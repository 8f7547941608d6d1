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

/*
 * SUPERSTEP(name) { ... } runs the braces, then the block barrier
 * (__syncthreads). A kernel written as supersteps reads and writes shared
 * memory inside one superstep and lets the next see it: the BSP style of
 * lab 5. Every thread of the block must reach the end of every superstep:
 * no `break`, `return` or `goto` out of one, and no superstep inside a
 * branch that some threads of the block skip. The name says what the step
 * does; ./grade quotes it when a sanitizer points into the step.
 * (A for loop that runs once: the barrier is its increment, after the body.)
 */
#define SUPERSTEP(name) \
    for (int superstep_##name = 1; superstep_##name; superstep_##name = 0, __syncthreads())

/* Lab 5, part 1: the clinic's kernels work on chunks of this many elements. */
#define TL_CHUNK 256

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

/*
 * Lab 5, part 1 (the clinic): n floats in, chunks of TL_CHUNK elements.
 *   reverse_blocks: out[c + i] = in[c + len - 1 - i] in each chunk c of len elements;
 *   block_sums:     sums[b] = in[b * TL_CHUNK] + ... over chunk b;
 *   pair_sums:      out[i] = in[i] + in[i + 1], with in[n] taken as 0.
 */
void launch_reverse_blocks(const float *in, float *out, int n);
void launch_block_sums(const float *in, float *sums, int n);
void launch_pair_sums(const float *in, float *out, int n);

/* Lab 5, part 2: transpose the n x n row-major matrix a in place. */
void launch_transpose_inplace(float *a, int n);

/* Lab 5, part 3: C = A B as launch_matmul, double-buffered. */
void launch_matmul_dbuf(const float *A, const float *B, float *C, int M, int N, int K);

#ifdef __cplusplus
}
#endif

#endif

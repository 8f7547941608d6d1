/*
 * tilelab.h — the one kit header a lab file includes.
 *
 * It gives a lab file the CUDA types (dim3, threadIdx, __global__, ...), the
 * checking macros, LAUNCH, and the entry points the kit calls. In CPU mode
 * (cpu/) cpu/include/ stands in for the CUDA headers and <<< >>> is
 * rewritten, so the file compiles unchanged there too.
 */
#ifndef TILELAB_H
#define TILELAB_H

#include <cuda_runtime.h>
#include "check.h"

/*
 * LAUNCH(kernel, grid, block)(args...) is exactly kernel<<<grid, block>>>(args...),
 * and LAUNCH(kernel, grid, block, bytes)(args...) is kernel<<<grid, block, bytes>>>:
 * `bytes` of dynamic shared memory (`extern __shared__ float buf[];` in the
 * kernel). Above 48 KB a kernel must be allowed first, once, with
 * cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes).
 * Launch through it so the same lab file builds on every tilelab backend.
 */
#define LAUNCH(kernel, grid, ...) kernel<<<(grid), __VA_ARGS__>>>

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

/* Lab 7: a K-block is this many values of a row of Bt; its pattern is one byte. */
#define TL_SPARSE_KB 8
/* A row of Bt holds K rounded up to whole K-blocks. */
#define TL_SPARSE_LD(K) (((K) + TL_SPARSE_KB - 1) / TL_SPARSE_KB * TL_SPARSE_KB)
/* The kit keeps the patterns right after Bt's N rows, in one buffer: this many floats on. */
#define TL_SPARSE_BT_FLOATS(K, N) ((size_t)(N) * TL_SPARSE_LD(K))

#ifdef __cplusplus
/*
 * Lab 7: the pattern table. For a K-block's pattern p (0..255),
 *   TL_PATTERNS.count[p]      how many of its 8 values are nonzero;
 *   TL_PATTERNS.offsets[p]    where they are: the t-th one (t < count) at
 *                             (offsets[p] >> (4 * t)) & 15, in increasing order.
 * So 0x29 (bits 0, 3, 5) has count 3 and offsets 0x530. Built by the
 * compiler, read from the GPU's memory (cached: a warp that reads one entry
 * together reads it once).
 */
struct tl_pattern_table {
    unsigned char count[256];
    unsigned int offsets[256];
};
constexpr tl_pattern_table tl_make_pattern_table()
{
    tl_pattern_table t{};
    for (int p = 0; p < 256; p++)
        for (int i = 0; i < TL_SPARSE_KB; i++)
            if (p >> i & 1)
                t.offsets[p] |= (unsigned)i << (4 * t.count[p]++);
    return t;
}
static __device__ const tl_pattern_table TL_PATTERNS = tl_make_pattern_table();
#endif

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

/*
 * Lab 7, part 2: C (M x N) = A (M x K) times B (K x N), with B given as the
 * kit's encoder wrote it (all device pointers):
 *   Bt       B transposed, N rows of TL_SPARSE_LD(K) floats: Bt[n * TL_SPARSE_LD(K) + k] = B(k, n),
 *            zero for k >= K (each row padded to whole K-blocks, so every row
 *            starts on a 32-byte boundary);
 *   pattern  one byte per (row n of Bt, K-block kb of TL_SPARSE_KB values):
 *            pattern[n * (TL_SPARSE_LD(K) / TL_SPARSE_KB) + kb], bit i set
 *            when Bt(n, kb * TL_SPARSE_KB + i) is not zero.
 * A zero of B is structural: skipping it is the point, so the kit's sparse
 * tests hold finite values only (0 times Inf is NaN, a skipped 0 is not).
 */
void launch_matmul_sparse(const float *A, const float *Bt, const unsigned char *pattern, float *C, int M, int N, int K);

#ifdef __cplusplus
}
#endif

#endif

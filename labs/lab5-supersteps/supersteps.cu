/*
 * Lab 5 — superstep-style synchronisation (handout: handouts/lab5-supersteps.md).
 *
 * Three parts in this one file:
 *   Part 1, the sync-bug clinic: three kernels below, each with a classic
 *     synchronisation bug. Rewrite each as supersteps so it is right AND
 *     clean under racecheck and synccheck.
 *   Part 2: transpose a square matrix in place, one block per tile pair.
 *   Part 3: lab 4's tiled matmul, double-buffered: one barrier per K-step.
 *
 * SUPERSTEP(name) { ... } (tilelab.h) runs the braces, then __syncthreads().
 * Build and check: make lab5 && build/lab5.   Grade: ./grade
 *
 * What ./grade checks (labs/lab5-supersteps/lab.rubric; points out of 100):
 *   each kernel's hidden tests: the clinic kernels 10 each, all or nothing,
 *     and only when memcheck, racecheck and synccheck are clean on it too;
 *     part 2 20, part 3 15, shared by their tests;
 *   parts 2 and 3 clean under memcheck (2), racecheck (4), synccheck (4);
 *   part 2's bandwidth against the copy speed (12);
 *   part 3's speed against lab 4's tiled kernel (13), which also needs the
 *     double-buffered structure: two shared buffers per operand and one
 *     barrier per K-step, in the kernels launch_matmul_dbuf launches.
 *
 * Do not change: the launch_ functions' names and parameters, the one
 * #include below.
 * Do not use: cudaMalloc (part 2 is in place), cudaMemcpy*, cuBLAS or any
 * other library call. ./grade checks this before anything runs: no
 * #include but CUDA's own headers (lab 1's handout: What a lab file may
 * include), no code that runs outside the launch functions, no host printf
 * (printf in a kernel is fine), and any global variable `static`.
 */
#include "tilelab.h"

/* ==== Part 1: the sync-bug clinic ====================================== */

/* Reverse each chunk of TL_CHUNK elements through a shared tile.
 * BUG: threads read the tile while other warps may still be writing it. */
__global__ void reverse_blocks(const float *in, float *out, int n)
{
    __shared__ float tile[TL_CHUNK];
    int t = threadIdx.x, chunk = blockIdx.x * TL_CHUNK;
    int len = min(TL_CHUNK, n - chunk);

    if (t < len)
        tile[t] = in[chunk + t];
    if (t < len)
        out[chunk + t] = tile[len - 1 - t];
}

/* Sum each chunk of TL_CHUNK elements by halving: sums[b] for chunk b.
 * BUG: the barrier sits in a branch that not every thread takes. */
__global__ void block_sums(const float *in, float *sums, int n)
{
    __shared__ float tile[TL_CHUNK];
    int t = threadIdx.x, i = blockIdx.x * TL_CHUNK + t;

    tile[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int s = TL_CHUNK / 2; s > 0; s /= 2) {
        if (t < s) {
            tile[t] += tile[t + s];
            __syncthreads();
        }
    }
    if (t == 0)
        sums[blockIdx.x] = tile[0];
}

/* out[i] = in[i] + in[i + 1] (in[n] counts as 0); each block walks many
 * chunks through one tile of TL_CHUNK + 1 floats.
 * BUG: the next chunk's load overwrites the tile while slower threads
 * still read the previous chunk from it. */
__global__ void pair_sums(const float *in, float *out, int n)
{
    __shared__ float tile[TL_CHUNK + 1];
    int t = threadIdx.x;

    for (int chunk = blockIdx.x * TL_CHUNK; chunk < n; chunk += gridDim.x * TL_CHUNK) {
        int i = chunk + t;
        tile[t] = i < n ? in[i] : 0.0f;
        if (t == 0)
            tile[TL_CHUNK] = chunk + TL_CHUNK < n ? in[chunk + TL_CHUNK] : 0.0f;
        __syncthreads();
        if (i < n)
            out[i] = tile[t] + tile[t + 1];
    }
}

void launch_reverse_blocks(const float *in, float *out, int n)
{
    LAUNCH(reverse_blocks, CEIL_DIV(n, TL_CHUNK), TL_CHUNK)(in, out, n);
}

void launch_block_sums(const float *in, float *sums, int n)
{
    LAUNCH(block_sums, CEIL_DIV(n, TL_CHUNK), TL_CHUNK)(in, sums, n);
}

void launch_pair_sums(const float *in, float *out, int n)
{
    /* A few blocks, each walking many chunks: the tile is reused in a loop. */
    LAUNCH(pair_sums, min(CEIL_DIV(n, TL_CHUNK), 64), TL_CHUNK)(in, out, n);
}

/* ==== Part 2: in-place transpose ======================================== */

/* TODO: a kernel whose block owns tiles (i, j) and (j, i), i < j:
 *   SUPERSTEP(load_both) loads both into shared memory, then each is
 *   stored transposed into the other's place. Diagonal tiles (i == j) on
 *   their own. Only blocks of the upper triangle may work. */

/* Placeholder: marks the matrix "not transposed" (NaN), since an in-place
 * kernel that writes nothing would pass N = 1. Replace it with yours. */
__global__ void placeholder_not_written(float *a, int n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < (size_t)n * n)
        a[i] = __int_as_float(0x7fffffff);
}

void launch_transpose_inplace(float *a, int n)
{
    /* TODO: launch your kernel instead */
    LAUNCH(placeholder_not_written, CEIL_DIV((size_t)n * n, 256), 256)(a, n);
}

/* ==== Part 3: double-buffered tiled matmul ============================== */

/* TODO: lab 4's 32 x 32 tiled kernel with two shared buffers per operand:
 *   SUPERSTEP(load_first) loads K-tile 0 into buffer 0; then each K-step is
 *   one superstep that loads the next K-tile into the other buffer while
 *   multiplying the current one. */

void launch_matmul_dbuf(const float *A, const float *B, float *C, int M, int N, int K)
{
    (void)A, (void)B, (void)C, (void)M, (void)N, (void)K;   /* TODO: launch your kernel */
}

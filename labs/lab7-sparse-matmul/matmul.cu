/*
 * Lab 7 — warp tiles, and sparsity a warp skips together
 *                                             labs/lab7-sparse-matmul/matmul.cu
 *
 * Lab 4's kernel gives each thread one element of C. Here each thread keeps
 * 64 elements of C in registers (part 1), and then the same product skips
 * the zeros of a sparse B, a whole warp at a time (part 2). Part 3, the
 * contrast with a kernel whose warps diverge, is measured, not written: see
 * the handout, *Part 3: the contrast, counted*.
 *
 * You write, marked TODO(lab7):
 *   1. load_a_tile: A's BM x BK tile into shared memory transposed,
 *      As[k][m], zeros outside A. Both kernels call it.
 *   2. matmul_warptile and launch_matmul (part 1, dense): a block computes a
 *      BM x BN tile of C with THREADS threads, BK values of K at a time.
 *      8 warps as 2 x 4, each a WM x WN warp tile; each thread TM rows x
 *      2 runs of TN columns (8 x 8) in registers. float4 loads where every
 *      row starts on 16 bytes (K % 4 == 0 and N % 4 == 0), else scalar.
 *   3. matmul_sparse_tall and launch_matmul_sparse (part 2): the same
 *      product, B given as Bt with one pattern byte per K-block. The TALL
 *      warp tile: warp w owns columns SM_COLS * w .. + 15 of the block's
 *      tile, lane l owns rows SM_ROWS * l .. + 3, so all 32 lanes share the
 *      warp's 16 columns and read the same pattern bytes. Pattern 0: the
 *      whole warp skips; 0xFF: all 8 values, from registers; any other:
 *      only its nonzeros, found in TL_PATTERNS (tilelab.h).
 *
 * The data (all row-major, all on the GPU), any shape from 1 x 1 x 1 up:
 *   A        M x K    A(i, k)  = A[i * K + k]
 *   B        K x N    B(k, j)  = B[k * N + j]                       part 1
 *   Bt       N x ld   Bt(j, k) = Bt[j * ld + k] = B(k, j)           part 2
 *                     ld = TL_SPARSE_LD(K): K rounded up to whole K-blocks
 *                     of TL_SPARSE_KB = 8 values, zeros past K; so every
 *                     row of Bt starts on a 32-byte boundary
 *   pattern  N x (ld / 8) bytes: pattern[j * (ld / 8) + kb], bit i set
 *                     when Bt(j, kb * 8 + i) is not zero             part 2
 *   C        M x N    C(i, j)  = C[i * N + j] = sum over k of A(i, k) B(k, j)
 *
 * What ./grade checks: part 1 on lab 4's hidden shapes (NaN and Inf
 * included) and part 2 on B with zeros of every kind (all zero, none,
 * random zero K-blocks, random zero values, patterns that change along K),
 * C against an FP64 reference within the fp32 error bound (lab 4's handout:
 * How exact must C be?); compute-sanitizer memcheck, racecheck and
 * synccheck; part 1's GFLOP/s against cuBLAS FP32 timed in the same run;
 * part 2's speed when B has zero K-blocks; and, counted by ncu, that your
 * sparse kernel's branches do not diverge (handout: Testing and grading).
 *
 * Do not change: the signatures of launch_matmul and launch_matmul_sparse,
 * the one #include below.
 * Do not use: cuBLAS, cuSPARSE, cudaMemcpy* or any other library call.
 * ./grade checks this before anything runs: no #include but CUDA's own
 * headers (lab 1's handout: What a lab file may include), no code that
 * runs outside the launch functions, no host printf (printf in a kernel is
 * fine), and any global variable `static`. Declare every helper you add
 * `__device__ __forceinline__` (handout: Registers, not arrays).
 */
#include "tilelab.h"

enum {
    BM = 128, BN = 128, BK = 16,   /* the block's tile of C, and the slice of K per load */
    THREADS = 256,                 /* 8 warps */
    WM = 64, WN = 32,              /* part 1: a warp's tile, 2 x 4 warps over the block's */
    TM = 8, TN = 4,                /* part 1: a thread's tile, twice along N (8 x 8 values) */
    SM_ROWS = 4, SM_COLS = 16,     /* part 2: a thread's tile: 4 rows x the warp's 16 columns */
};
static_assert(THREADS == (BM / WM) * (BN / WN) * 32, "one warp per warp tile");
static_assert(WM == 8 * TM && WN == 2 * 4 * TN, "a warp's 32 lanes as 8 x 4, twice along N");
static_assert(BM == 32 * SM_ROWS && BN == (THREADS / 32) * SM_COLS, "part 2: warps side by side, lanes stacked");
static_assert(BK % TL_SPARSE_KB == 0, "whole K-blocks per slice of K");

/*
 * TODO(lab7): step 1. Rows row0 .. row0 + BM - 1 of A and K-slice
 * k0 .. k0 + BK - 1 into As, transposed: As[k][m] = A(row0 + m, k0 + k),
 * 0.0f where the element lies outside A (m >= M or k >= K). Suggested:
 * 4 threads per row of the tile, each one float4 of 4 values of k (one
 * 64-byte run of A per row), in BM / (THREADS / 4) = 2 passes; scalar loads
 * with a test per value when vec is false. Handout: A transposed in
 * shared memory, and Banks and coalescing, part 1 (the 4-way conflict of
 * the transposed store).
 */
__device__ __forceinline__ void load_a_tile(float (*As)[BM], const float *A, int M, int K, int row0, int k0,
                                            bool vec)
{
}

/* ---------------------------------------------------------------- part 1 */

__global__ void __launch_bounds__(THREADS) matmul_warptile(const float *A, const float *B, float *C, int M, int N,
                                                           int K, bool vec)
{
    /* TODO(lab7): step 2, the dense warp-tiled kernel (handout: Three tiles: block, warp, thread).
     *   __shared__ __align__(16) float As[BK][BM], Bs[BK][BN];   16 KB
     *   warp = threadIdx.x / 32, lane = threadIdx.x % 32;
     *   this thread's rows within the block's tile:
     *       warp / (BN / WN) * WM + lane / 4 * TM  .. + 7
     *   its columns: cols = warp % (BN / WN) * WN + lane % 4 * TN,
     *       cols .. cols + 3 and cols + 4 * TN .. cols + 4 * TN + 3
     *   float acc[TM][2 * TN] = {};   64 sums, in registers
     * For each K-slice k0 = 0, BK, 2 BK, ... < K:
     *   load_a_tile; load Bs[k][n] = B(k0 + k, col0 + n) as it lies, a warp
     *   reading 128 neighbouring floats of one row, zeros outside B;
     *   barrier;
     *   for k < BK: 8 values of A (two float4 reads of As[k][rows]) and 8 of
     *   B (two float4 reads of Bs[k][...]) into registers, then 64 FMAs;
     *   barrier.
     * Store the 8 x 8 sums: float4 where vec and all four columns lie
     * inside C, else one float at a time; nothing for rows >= M or
     * columns >= N. Index acc with constants or in loops that unroll. */
}

void launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    /* TODO(lab7): step 2, the launch. THREADS threads, one block per BM x BN
     * tile of C (x along N, y along M, with CEIL_DIV). vec: float4 is
     * allowed when K % 4 == 0, N % 4 == 0 and A, B and C are multiples of
     * 16 bytes (lab 6's handout: Alignment and the scalar edge). */
    dim3 block(1, 1);
    dim3 grid(1, 1);
    LAUNCH(matmul_warptile, grid, block)(A, B, C, M, N, K, false);
}

/* ---------------------------------------------------------------- part 2 */

__global__ void __launch_bounds__(THREADS, 2) matmul_sparse_tall(const float *A, const float *Bt,
                                                              const unsigned char *pattern, float *C, int M,
                                                              int N, int K, bool vec)
{
    /* TODO(lab7): step 3, the tall warp tile (handout: The tall kernel, step by step).
     *   ld = TL_SPARSE_LD(K), kblocks = ld / TL_SPARSE_KB;
     *   shared: As[BK][BM] (load_a_tile), Bts[BN][BK] (Bt's tile as it lies:
     *   one column of C per row, float4 loads always allowed, zeros for
     *   columns >= N), and the patterns of the slice's BK / 8 K-blocks for
     *   the block's BN columns (zero for columns >= N);
     *   this warp's columns: warp * SM_COLS .. + 15, the same in every lane;
     *   this lane's rows: lane * SM_ROWS .. + 3;   float acc[SM_ROWS][SM_COLS].
     * For each K-slice k0 = 0, BK, ... < ld: load the three tiles, barrier;
     *   for each K-block kk of the slice: the warp's 16 pattern bytes as
     *   one uint4 (the same 16 bytes in every lane), and two warp-wide
     *   fast paths first:
     *     all 16 zero   skip the K-block, before reading A's values;
     *     else          this lane's 4 rows at its 8 values of k into
     *                   registers (float4 reads of As[kk + k][rows]);
     *     all 16 0xFF   one branch with all 16 columns' FMAs, no test per
     *                   column (the compiler can then overlap B's reads
     *                   with the FMAs);
     *   otherwise, for each of the warp's 16 columns j, its byte p:
     *     p == 0     continue: the same p in every lane, so the warp skips
     *                together, and B's values are not even read;
     *     p == 0xFF  read B's 8 values here, acc[i][j] += the 8 products;
     *     otherwise  count = TL_PATTERNS.count[p], offsets = TL_PATTERNS.offsets[p]:
     *                the t-th nonzero at (offsets >> 4 * t) & 15, in a loop
     *                kept rolled (#pragma unroll 1: 16 unrolled copies
     *                crowd the instruction cache);
     *   barrier.
     * Store as in part 1. Never branch on anything that differs between
     * lanes inside the K loop: ./grade counts divergent branches.
     * Registers: __launch_bounds__(THREADS, 2) above asks for at most 128
     * registers, two blocks per SM; compare with -Xptxas -v (handout:
     * Registers, not arrays; The tall kernel, step by step). */
}

void launch_matmul_sparse(const float *A, const float *Bt, const unsigned char *pattern, float *C, int M, int N,
                          int K)
{
    /* TODO(lab7): step 3, the launch: as launch_matmul's, vec with K and N. */
    dim3 block(1, 1);
    dim3 grid(1, 1);
    LAUNCH(matmul_sparse_tall, grid, block)(A, Bt, pattern, C, M, N, K, false);
}

/*
 * Lab 7, part 2, second try (scratch, not the kit): the tall tile, with
 *   - a cp.async pipeline of STAGES buffers, KBS K-blocks per slice: one
 *     barrier per slice, no staging registers, no transposed stores;
 *   - the patterns read by the lanes themselves (lane l: column l of the
 *     warp's) and turned into two warp-wide bit masks by __ballot_sync:
 *     bit j of `nz` = column j has a nonzero in this K-block, of `full` = all 8;
 *   - R rows per lane (R = 4: 16 columns per warp; R = 2: 32 columns);
 *   - PF: the next nonzero column's values of Bt read before this column's FMAs.
 * Included after the reference (matmul.cu) by lab7_v2.cu: uses its BM, BN, load4.
 */
#include <cstddef>

namespace v2 {

template <int R, int KBS, int STAGES, bool PF> struct cfg {
    static constexpr int WC = 64 / R;                      /* the warp's columns */
    static constexpr int WARP_COLS = BN / WC;              /* warps side by side */
    static constexpr int BKS = KBS * TL_SPARSE_KB;         /* a slice of K */
    static constexpr int LD = BKS + 4;                     /* a row of a tile in shared memory */
    static constexpr int STAGE = (BM + BN) * LD;           /* floats per stage */
    static constexpr size_t SMEM = (size_t)STAGES * STAGE * sizeof(float);
    static constexpr unsigned COLMASK = WC == 32 ? 0xFFFFFFFFu : (1u << WC) - 1;
    static_assert((BM / (32 * R)) * WARP_COLS == THREADS / 32, "8 warps");
};

/* 4 floats at base + off into shared memory, `avail` of them inside the matrix, zeros for the rest. */
__device__ __forceinline__ void copy4(float *dst, const float *base, size_t off, int avail, bool vec)
{
#ifdef TILELAB_CPU
    for (int q = 0; q < 4; q++)
        dst[q] = avail > q ? base[off + q] : 0.0f;
#else
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    if (vec) {
        const float *src = avail > 0 ? base + off : base;
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src), "r"(avail > 0 ? 16 : 0));
    } else {
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const float *src = avail > q ? base + off + q : base;
            asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(d + 4 * q), "l"(src),
                         "r"(avail > q ? 4 : 0));
        }
    }
#endif
}
__device__ __forceinline__ void copy_commit()
{
#ifndef TILELAB_CPU
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
template <int N> __device__ __forceinline__ void copy_wait()
{
#ifndef TILELAB_CPU
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
#endif
}

/* The KBS pattern bytes of column n, K-blocks kb0.., one per byte of the word; 0 outside. */
template <int KBS>
__device__ __forceinline__ unsigned pattern_word(const unsigned char *pattern, int N, int kblocks, int n, int kb0)
{
    const unsigned char *row = pattern + (size_t)min(n, N - 1) * kblocks;
    unsigned w = 0;
#pragma unroll
    for (int q = 0; q < KBS; q++) {
        const int kb = kb0 + q;
        const unsigned b = __ldg(row + min(kb, kblocks - 1));
        w |= (n < N && kb < kblocks ? b : 0u) << (8 * q);
    }
    return w;
}

template <int R, int KBS, int STAGES, bool PF>
__global__ void __launch_bounds__(THREADS, 2) sparse_v2(const float *A, const float *Bt, const unsigned char *pattern,
                                                         float *C, int M, int N, int K, bool vec_a, bool vec_b,
                                                         bool vec_c)
{
    typedef cfg<R, KBS, STAGES, PF> G;
    constexpr int WC = G::WC, LD = G::LD, BKS = G::BKS;
    extern __shared__ __align__(16) float smem[];
    const int ld = TL_SPARSE_LD(K), kblocks = ld / TL_SPARSE_KB, slices = CEIL_DIV(ld, BKS);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int rbase = warp / G::WARP_COLS * 32 * R + lane;   /* lane's rows: rbase + 32 i */
    const int cols = warp % G::WARP_COLS * WC;
    const int pn = col0 + cols + lane % WC;                  /* the column whose patterns this lane reads */
    float acc[R][WC] = {};

    auto issue = [&](int t) {
        float *as = smem + (t % STAGES) * G::STAGE, *bs = as + BM * LD;
        const int k0 = t * BKS;
        constexpr int CPR = BKS / 4;
#pragma unroll
        for (int p = 0; p < BM * CPR / THREADS; p++) {
            const int i = threadIdx.x + p * THREADS, r = i / CPR, c = i % CPR * 4, k = k0 + c;
            const int m = row0 + r, n = col0 + r;
            copy4(as + r * LD + c, A, (size_t)m * K + k, m < M ? K - k : 0, vec_a);
            copy4(bs + r * LD + c, Bt, (size_t)n * ld + k, n < N ? ld - k : 0, vec_b);
        }
    };

#pragma unroll
    for (int t = 0; t < STAGES - 1; t++) {
        if (t < slices)
            issue(t);
        copy_commit();
    }
    unsigned pnext = pattern_word<KBS>(pattern, N, kblocks, pn, 0);

    for (int s = 0; s < slices; s++) {
        copy_wait<STAGES - 2>();
        __syncthreads();
        if (s + STAGES - 1 < slices)
            issue(s + STAGES - 1);
        copy_commit();
        const unsigned word = pnext;
        if (s + 1 < slices)
            pnext = pattern_word<KBS>(pattern, N, kblocks, pn, (s + 1) * KBS);
        const float *as = smem + (s % STAGES) * G::STAGE, *bs = as + BM * LD;
#pragma unroll 1
        for (int kb = 0; kb < KBS; kb++) {
            const unsigned byte = word >> (8 * kb) & 0xFF;
            const unsigned nz = __ballot_sync(0xFFFFFFFFu, byte != 0) & G::COLMASK;
            const unsigned full = __ballot_sync(0xFFFFFFFFu, byte == 0xFF) & G::COLMASK;
            if (nz == 0)
                continue;
            const int kk = kb * TL_SPARSE_KB;
            float a[TL_SPARSE_KB][R];
#pragma unroll
            for (int i = 0; i < R; i++) {
                const float4 lo = *(const float4 *)&as[(rbase + 32 * i) * LD + kk];
                const float4 hi = *(const float4 *)&as[(rbase + 32 * i) * LD + kk + 4];
                a[0][i] = lo.x, a[1][i] = lo.y, a[2][i] = lo.z, a[3][i] = lo.w;
                a[4][i] = hi.x, a[5][i] = hi.y, a[6][i] = hi.z, a[7][i] = hi.w;
            }
            if (full == G::COLMASK) {
#pragma unroll
                for (int j = 0; j < WC; j++) {
                    const float4 lo = *(const float4 *)&bs[(cols + j) * LD + kk];
                    const float4 hi = *(const float4 *)&bs[(cols + j) * LD + kk + 4];
                    const float b[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
#pragma unroll
                    for (int k = 0; k < 8; k++)
#pragma unroll
                        for (int i = 0; i < R; i++)
                            acc[i][j] += a[k][i] * b[k];
                }
                continue;
            }
            float4 nlo, nhi;
            if (PF) {
                const int jn = __ffs(nz) - 1;
                nlo = *(const float4 *)&bs[(cols + jn) * LD + kk];
                nhi = *(const float4 *)&bs[(cols + jn) * LD + kk + 4];
            }
#pragma unroll
            for (int j = 0; j < WC; j++) {
                if (!(nz >> j & 1))
                    continue;
                float4 lo, hi;
                if (PF) {
                    lo = nlo, hi = nhi;
                    const unsigned rest = nz & (0xFFFFFFFEu << j);
                    const int jn = rest ? __ffs(rest) - 1 : j;
                    nlo = *(const float4 *)&bs[(cols + jn) * LD + kk];
                    nhi = *(const float4 *)&bs[(cols + jn) * LD + kk + 4];
                }
                if (full >> j & 1) {
                    if (!PF) {
                        lo = *(const float4 *)&bs[(cols + j) * LD + kk];
                        hi = *(const float4 *)&bs[(cols + j) * LD + kk + 4];
                    }
                    const float b[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
#pragma unroll
                    for (int k = 0; k < 8; k++)
#pragma unroll
                        for (int i = 0; i < R; i++)
                            acc[i][j] += a[k][i] * b[k];
                } else {
                    const unsigned p = __shfl_sync(0xFFFFFFFFu, byte, j);
                    unsigned offsets = TL_PATTERNS.offsets[p];
#pragma unroll 1
                    for (int t = TL_PATTERNS.count[p]; t > 0; t--, offsets >>= 4) {
                        const int k = kk + (offsets & 15);
                        const float bk = bs[(cols + j) * LD + k];
#pragma unroll
                        for (int i = 0; i < R; i++)
                            acc[i][j] += as[(rbase + 32 * i) * LD + k] * bk;
                    }
                }
            }
        }
    }
    copy_wait<0>();

#pragma unroll
    for (int i = 0; i < R; i++) {
        const int m = row0 + rbase + 32 * i;
        if (m >= M)
            break;
#pragma unroll
        for (int j = 0; j < WC; j += 4) {
            const int n = col0 + cols + j;
            float *p = C + (size_t)m * N + n;
            if (vec_c && n + 3 < N) {
                *(float4 *)p = make_float4(acc[i][j], acc[i][j + 1], acc[i][j + 2], acc[i][j + 3]);
            } else {
                for (int q = 0; q < 4 && n + q < N; q++)
                    p[q] = acc[i][j + q];
            }
        }
    }
}

template <int R, int KBS, int STAGES, bool PF>
void launch(const float *A, const float *Bt, const unsigned char *pattern, float *C, int M, int N, int K)
{
    typedef cfg<R, KBS, STAGES, PF> G;
    cudaFuncSetAttribute(sparse_v2<R, KBS, STAGES, PF>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)G::SMEM);
    dim3 grid(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
    const bool va = K % 4 == 0 && (size_t)A % 16 == 0, vb = (size_t)Bt % 16 == 0, vc = N % 4 == 0 && (size_t)C % 16 == 0;
    sparse_v2<R, KBS, STAGES, PF><<<grid, THREADS, G::SMEM>>>(A, Bt, pattern, C, M, N, K, va, vb, vc);
}

} // namespace v2

/* sparse_case.cu — lab 7's sparse product, checked (see sparse_case.h).
 *
 * With TL_SPARSE_ENCODER_ONLY defined, only the encoder (tl_sparsity_name,
 * tl_sparse_make_b, tl_sparse_encoded_floats, tl_sparse_encode): CPU mode's
 * check builds it so (g++, cpu/include/, cpu/cpu.mk; sparse_encode.h) and
 * draws and encodes B exactly as the GPU's tests do. */
#include "tilelab.h"
#include "matrix.h"
#ifdef TL_SPARSE_ENCODER_ONLY
#include "sparse_encode.h"
#else
#include "sparse_case.h"
#include "devbuf.h"
#include "matmul_case.h"
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *tl_sparsity_name(tl_sparsity kind)
{
    static const char *const names[] = {"dense", "all zero", "zero K-blocks", "zero values", "changing along K"};
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

/* A uniform draw in [0, 1) from (seed, i, j). */
static double draw(uint64_t seed, uint64_t i, uint64_t j)
{
    return (double)(tl_splitmix64(seed ^ tl_splitmix64(i * 0x9E3779B97F4A7C15ull + j)) >> 11) * 0x1.0p-53;
}

void tl_sparse_make_b(float *B, int K, int N, tl_sparsity kind, double density, uint64_t seed)
{
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) {
            const int kb = k / TL_SPARSE_KB;
            int keep = 1;
            switch (kind) {
            case TL_SPARSE_DENSE: keep = 1; break;
            case TL_SPARSE_ZERO: keep = 0; break;
            case TL_SPARSE_BLOCKS: keep = draw(seed, (uint64_t)n, (uint64_t)kb) < density; break;
            case TL_SPARSE_ELEMENTS: keep = draw(seed, (uint64_t)n, (uint64_t)k + (1ull << 40)) < density; break;
            case TL_SPARSE_ALONG_K:
                /* By K-block: dense, zero, partial (every third value), zero for
                 * one column in three, in turn: a column's pattern changes
                 * along K, and neighbouring columns differ. */
                switch ((kb + n / 3) % 4) {
                case 0: keep = 1; break;
                case 1: keep = 0; break;
                case 2: keep = k % 3 == 0; break;
                default: keep = n % 3 != 0; break;
                }
                break;
            }
            if (!keep)
                B[(size_t)k * N + n] = 0.0f;
        }
}

size_t tl_sparse_encoded_floats(int K, int N)
{
    size_t pattern_bytes = (size_t)N * (TL_SPARSE_LD(K) / TL_SPARSE_KB);
    return TL_SPARSE_BT_FLOATS(K, N) + (pattern_bytes + sizeof(float) - 1) / sizeof(float);
}

void tl_sparse_encode(const float *B, int K, int N, float *encoded)
{
    const int ld = TL_SPARSE_LD(K), kblocks = ld / TL_SPARSE_KB;
    memset(encoded, 0, tl_sparse_encoded_floats(K, N) * sizeof(float));
    unsigned char *pattern = (unsigned char *)(encoded + TL_SPARSE_BT_FLOATS(K, N));
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) {
            const float v = B[(size_t)k * N + n];
            encoded[(size_t)n * ld + k] = v;
            if (v != 0.0f)
                pattern[(size_t)n * kblocks + k / TL_SPARSE_KB] |= (unsigned char)(1u << (k % TL_SPARSE_KB));
        }
}

#ifndef TL_SPARSE_ENCODER_ONLY
tl_case_result tl_sparse_case(tl_mm_shape s, uint64_t seed, tl_sparsity kind, double density)
{
    tl_case_result r;
    char shape[96], detail[768];
    if (kind == TL_SPARSE_BLOCKS || kind == TL_SPARSE_ELEMENTS)
        snprintf(shape, sizeof shape, "%dx%dx%d (MxKxN), B with %s, density %g", s.m, s.k, s.n,
                 tl_sparsity_name(kind), density);
    else
        snprintf(shape, sizeof shape, "%dx%dx%d (MxKxN), B %s", s.m, s.k, s.n, tl_sparsity_name(kind));
    float *B = HOST_FLOATS((size_t)s.k * s.n, "B");
    tl_case_matrix a, bt, c;
    tl_case_matrix_alloc(&a, (size_t)s.m * s.k);
    tl_case_matrix_alloc(&bt, tl_sparse_encoded_floats(s.k, s.n));
    tl_case_matrix_alloc(&c, (size_t)s.m * s.n);
    tl_fill_seeded(a.host, a.dev.n, seed);
    tl_fill_seeded(B, (size_t)s.k * s.n, seed ^ 0x5EEDB);
    tl_sparse_make_b(B, s.k, s.n, kind, density, seed ^ 0x5BA55E);
    tl_sparse_encode(B, s.k, s.n, bt.host);
    tl_devbuf_upload(&a.dev, a.host);
    tl_devbuf_upload(&bt.dev, bt.host);
    tl_devbuf_poison(&c.dev);
    tl_case_poison_shared();

    tl_case_set(&r, TL_CASE_PASS, "shape %s: within the fp32 error bound", shape);
    tl_case_profile_begin();
    launch_matmul_sparse(a.dev.data, bt.dev.data, (const unsigned char *)(bt.dev.data + TL_SPARSE_BT_FLOATS(s.k, s.n)),
                         c.dev.data, s.m, s.n, s.k);
    cudaError_t err = cudaGetLastError();
    tl_case_profile_end();
    if (tl_case_wait(err, shape, &r) == 0) {
        tl_guard_report g = tl_devbuf_download(&c.dev, c.host);
        if (g.count) {
            tl_describe_guard(&g, "C", c.dev.n, detail, sizeof detail);
            tl_case_set(&r, TL_CASE_OUT_OF_BOUNDS, "shape %s: %s. Next: threads outside C must not store; "
                        "check the bounds test covers both row < M and col < N.", shape, detail);
        } else if (tl_case_input_unchanged(&a, "A", shape, &r) == 0 &&
                   tl_case_input_unchanged(&bt, "Bt (or its patterns)", shape, &r) == 0) {
            size_t wrong = tl_matmul_verify(a.host, B, c.host, s, seed, detail, sizeof detail);
            if (wrong)
                tl_case_set(&r, TL_CASE_WRONG, "shape %s: %zu checked element%s wrong; the first: %s%s", shape,
                            wrong, wrong == 1 ? "" : "s", detail,
                            kind == TL_SPARSE_ZERO ? " (B is all zero here: C must be all zero)"
                            : kind == TL_SPARSE_DENSE ? " (B has no zeros here: every K-block is 0xFF but the K tail's)"
                            : "");
        }
    }
    free(B);
    tl_case_matrix_free(&a);
    tl_case_matrix_free(&bt);
    tl_case_matrix_free(&c);
    return r;
}
#endif /* TL_SPARSE_ENCODER_ONLY */

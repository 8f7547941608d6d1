/*
 * sparse_encode.h — lab 7's B with a pattern of zeros, and the kit's encoder
 * (Bt and one pattern byte per K-block, tilelab.h), without CUDA: the GPU's
 * tests (sparse_case.h) and CPU mode's check (cpu/judge.c) draw and encode
 * B with the same code (kinds/sparse/sparse_case.cu).
 *
 * The encoder writes Bt and its patterns into one buffer of
 * tl_sparse_encoded_floats(K, N) floats: Bt's N rows of TL_SPARSE_LD(K)
 * floats, then the pattern bytes (TL_SPARSE_BT_FLOATS(K, N) floats on).
 */
#ifndef TILELAB_SPARSE_ENCODE_H
#define TILELAB_SPARSE_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Which zeros B holds. `density` is a probability where the kind takes one. */
typedef enum {
    TL_SPARSE_DENSE,      /* no zeros: every pattern 0xFF (but the K tail) */
    TL_SPARSE_ZERO,       /* all zeros: C = 0, every K-block skipped */
    TL_SPARSE_BLOCKS,     /* each (column, K-block) nonzero with probability density, then dense */
    TL_SPARSE_ELEMENTS,   /* each value nonzero with probability density: partial patterns */
    TL_SPARSE_ALONG_K,    /* patterns that change along K: dense, zero and partial K-blocks in turn */
} tl_sparsity;

const char *tl_sparsity_name(tl_sparsity kind);

/* Zero B (K x N, row-major, already filled) where `kind` says. */
void tl_sparse_make_b(float *B, int K, int N, tl_sparsity kind, double density, uint64_t seed);

/* The encoded buffer's size, and the encoder: Bt, then the patterns. */
size_t tl_sparse_encoded_floats(int K, int N);
void tl_sparse_encode(const float *B, int K, int N, float *encoded);

#ifdef __cplusplus
}
#endif

#endif

/*
 * shapes.h — the shapes kernels are tested on. Random shapes are drawn from
 * a seed, so `./grade --seed N` draws the same ones again; the hidden tests
 * name each shape they drew in tests.json, which the report shows as written.
 */
#ifndef TILELAB_SHAPES_H
#define TILELAB_SHAPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { int rows, cols; } tl_shape;

/* The judge's secret seed, TILELAB_SEED (./grade puts it in the judges'
 * environment alone); 1 when unset or empty. The hidden tests' shapes, the
 * timed shapes and the timed inputs are all drawn from it. */
uint64_t tl_judge_secret(void);

/* Shape k (0-based) of the random shapes drawn from `seed`: each side is
 * log-uniform in [1, max_side], so thin, tiny and large shapes all occur. */
tl_shape tl_random_shape(uint64_t seed, int k, int max_side);

/* Each side rounded up to a multiple of `multiple` (lab 6: rows that start on 16-byte boundaries). */
tl_shape tl_round_up_shape(tl_shape s, int multiple);

/* The hidden tests' random shapes per suite, and their largest side. */
enum { TL_RANDOM_SHAPES = 6, TL_RANDOM_MAX_SIDE = 4096, TL_RANDOM_MM_MAX_SIDE = 1024 };
/* Lab 5: the clinic's random lengths, the in-place transpose's random sides. */
enum { TL_RANDOM_CLINIC_MAX_N = 1 << 20, TL_RANDOM_INPLACE_MAX_SIDE = 4096 };

/* Parse "RxC" (or "R×C" written with an x); 0 on success. */
int tl_parse_shape(const char *text, tl_shape *out);

/* A matrix multiply's shape, written M x K x N: A is M x K, B is K x N. */
typedef struct { int m, k, n; } tl_mm_shape;

/* Matmul shape k drawn from `seed`, each side log-uniform in [1, max_side]. */
tl_mm_shape tl_random_mm_shape(uint64_t seed, int k, int max_side);

/* Floating-point operations of one C = A B: 2 M N K. */
double tl_matmul_flops(tl_mm_shape s);

/* Parse "MxKxN"; 0 on success. */
int tl_parse_mm_shape(const char *text, tl_mm_shape *out);

#ifdef __cplusplus
}
#endif

#endif

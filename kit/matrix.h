/*
 * matrix.h — host-side matrices: seeded inputs, the CPU reference transpose,
 * and exact verification that reports the first mismatch.
 */
#ifndef TILELAB_MATRIX_H
#define TILELAB_MATRIX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* splitmix64: a tiny, well-mixed generator; every seeded draw in the kit
 * (inputs, random shapes, sampled elements) goes through it. */
uint64_t tl_splitmix64(uint64_t x);

/*
 * Fill a[0..n) with values in [-1, 1) drawn from `seed`. Every element gets
 * its own pseudo-random value, so a swapped or shifted index shows up; the
 * fill is never symmetric or constant, and never contains NaN.
 */
void tl_fill_seeded(float *a, size_t n, uint64_t seed);

/* out (cols x rows) = transpose of in (rows x cols), both row-major. */
void tl_transpose_ref(const float *in, float *out, int rows, int cols);

/* Where a result first differs from the reference, and how often. */
typedef struct {
    size_t count;         /* elements that differ (0: all equal) */
    int row, col;         /* first differing element, row-major order */
    float expected, got;
} tl_mismatch;

/*
 * Compare `got` with `expected`, both rows x cols, bit for bit (a transpose
 * moves values, it never computes them, so exact equality is the right test).
 */
tl_mismatch tl_compare_exact(const float *expected, const float *got, int rows, int cols);

/* "first mismatch at (row 3, col 0): expected 0.25, got nan; 12 of 40 elements wrong" */
void tl_describe_mismatch(const tl_mismatch *m, int rows, int cols, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif

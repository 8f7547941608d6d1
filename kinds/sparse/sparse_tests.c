/*
 * sparse_tests.c — the hidden tests of lab 7, one suite per kernel (the
 * rubric's units): `dense`, launch_matmul on lab 4's shapes (part 1), and
 * `sparse`, launch_matmul_sparse on B with zeros of every kind the kernel
 * must handle (part 2). Shapes are M x K x N. A crash or a hang loses one
 * test only (hidden.h). Names sort in the order the report shows them.
 */
#include "hidden.h"
#include "matmul_case.h"
#include "sparse_case.h"

/* ---- part 1: lab 4's shapes: one element, a dot product, outer products,
 * sides off every tile size, tall and skinny, one large square, NaN and Inf. */
#define DENSE_TEST(name, m, k, n, inputs) \
    HIDDEN_TEST(dense, name) { return tl_matmul_case((tl_mm_shape){m, k, n}, tl_hidden_seed() + __LINE__, inputs); }

DENSE_TEST(m01_1x1x1, 1, 1, 1, TL_MM_FINITE)
DENSE_TEST(m02_1x300x1, 1, 300, 1, TL_MM_FINITE)
DENSE_TEST(m03_300x1x200, 300, 1, 200, TL_MM_FINITE)
DENSE_TEST(m04_17x33x65, 17, 33, 65, TL_MM_FINITE)
DENSE_TEST(m05_513x257x129, 513, 257, 129, TL_MM_FINITE)
DENSE_TEST(m06_1000x1x1000, 1000, 1, 1000, TL_MM_FINITE)
DENSE_TEST(m07_4099x70x33, 4099, 70, 33, TL_MM_FINITE)
DENSE_TEST(m08_2048x2048x2048, 2048, 2048, 2048, TL_MM_FINITE)
DENSE_TEST(m09_nan_inf_67x45x33, 67, 45, 33, TL_MM_NAN_INF)
DENSE_TEST(m10_130x36x260, 130, 36, 260, TL_MM_FINITE)   /* float4 rows, partial block tiles */

#define DENSE_RANDOM_TEST(k) \
    HIDDEN_TEST(dense, m2##k##_random_##k) { \
        tl_mm_shape s = tl_random_mm_shape(tl_hidden_seed(), k, TL_RANDOM_MM_MAX_SIDE); tl_hidden_mm_title(k, s); \
        return tl_matmul_case(s, tl_hidden_seed() + 1000 + k, TL_MM_FINITE); \
    }

DENSE_RANDOM_TEST(1)
DENSE_RANDOM_TEST(2)
DENSE_RANDOM_TEST(3)

/* ---- part 2: every kind of zeros on a shape with partial tiles and a K
 * tail (K not a multiple of 8), then the edge shapes, then large ones. */
#define SPARSE_TEST(name, m, k, n, kind, density) \
    HIDDEN_TEST(sparse, name) { \
        return tl_sparse_case((tl_mm_shape){m, k, n}, tl_hidden_seed() + __LINE__, kind, density); \
    }

SPARSE_TEST(s01_dense_130x203x129, 130, 203, 129, TL_SPARSE_DENSE, 1)
SPARSE_TEST(s02_zero_130x203x129, 130, 203, 129, TL_SPARSE_ZERO, 0)
SPARSE_TEST(s03_blocks_half_130x203x129, 130, 203, 129, TL_SPARSE_BLOCKS, 0.5)
SPARSE_TEST(s04_blocks_quarter_130x203x129, 130, 203, 129, TL_SPARSE_BLOCKS, 0.25)
SPARSE_TEST(s05_values_half_130x203x129, 130, 203, 129, TL_SPARSE_ELEMENTS, 0.5)
SPARSE_TEST(s06_values_tenth_130x203x129, 130, 203, 129, TL_SPARSE_ELEMENTS, 0.1)
SPARSE_TEST(s07_along_k_130x203x129, 130, 203, 129, TL_SPARSE_ALONG_K, 0)
SPARSE_TEST(s08_1x1x1, 1, 1, 1, TL_SPARSE_DENSE, 1)
SPARSE_TEST(s09_1x300x1, 1, 300, 1, TL_SPARSE_ELEMENTS, 0.5)
SPARSE_TEST(s10_300x1x200, 300, 1, 200, TL_SPARSE_ELEMENTS, 0.5)
SPARSE_TEST(s11_17x33x65, 17, 33, 65, TL_SPARSE_ALONG_K, 0)
SPARSE_TEST(s12_4099x70x33, 4099, 70, 33, TL_SPARSE_BLOCKS, 0.5)
SPARSE_TEST(s13_1024x1024x1024, 1024, 1024, 1024, TL_SPARSE_ELEMENTS, 0.3)
SPARSE_TEST(s14_2048x2048x2048, 2048, 2048, 2048, TL_SPARSE_BLOCKS, 0.25)

#define SPARSE_RANDOM_TEST(k) \
    HIDDEN_TEST(sparse, s2##k##_random_##k) { \
        tl_mm_shape s = tl_random_mm_shape(tl_hidden_seed(), k, TL_RANDOM_MM_MAX_SIDE); tl_hidden_mm_title(k, s); \
        return tl_sparse_case(s, tl_hidden_seed() + 2000 + k, (tl_sparsity)(TL_SPARSE_BLOCKS + k % 3), 0.4); \
    }

/* Shapes 4 to 6 of the seed's draw (part 1 has 1 to 3): zero K-blocks, zero values, changing along K. */
SPARSE_RANDOM_TEST(4)
SPARSE_RANDOM_TEST(5)
SPARSE_RANDOM_TEST(6)

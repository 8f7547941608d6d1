/*
 * matmul_tests.c — the hidden tests of lab 4 (C = A B).
 *
 * Shapes are M x K x N (A is M x K, B is K x N). A crash or a hang loses
 * that test only (hidden.h). Names sort in the order the report shows them.
 */
#include "hidden.h"
#include "matmul_case.h"

/* One element; a dot product; outer products (K = 1); sides off the tile
 * size on every dimension; tall and skinny; one large square (checked on
 * sampled rows, columns and elements); NaN and Inf in the inputs. */
#define SHAPE_TEST(name, m, k, n, inputs) \
    HIDDEN_TEST(matmul, name) { return tl_matmul_case((tl_mm_shape){m, k, n}, tl_hidden_seed() + __LINE__, inputs); }

SHAPE_TEST(m01_1x1x1, 1, 1, 1, TL_MM_FINITE)
SHAPE_TEST(m02_1x300x1, 1, 300, 1, TL_MM_FINITE)
SHAPE_TEST(m03_300x1x200, 300, 1, 200, TL_MM_FINITE)
SHAPE_TEST(m04_17x33x65, 17, 33, 65, TL_MM_FINITE)
SHAPE_TEST(m05_513x257x129, 513, 257, 129, TL_MM_FINITE)
SHAPE_TEST(m06_1000x1x1000, 1000, 1, 1000, TL_MM_FINITE)
SHAPE_TEST(m07_4099x70x33, 4099, 70, 33, TL_MM_FINITE)
SHAPE_TEST(m08_2048x2048x2048, 2048, 2048, 2048, TL_MM_FINITE)
SHAPE_TEST(m09_nan_inf_67x45x33, 67, 45, 33, TL_MM_NAN_INF)

/* Random shapes drawn from the seed; the report names each shape. */
#define RANDOM_TEST(k) \
    HIDDEN_TEST(matmul, m2##k##_random_##k) { \
        tl_mm_shape s = tl_random_mm_shape(tl_hidden_seed(), k, TL_RANDOM_MM_MAX_SIDE); tl_hidden_mm_title(k, s); \
        return tl_matmul_case(s, tl_hidden_seed() + 1000 + k, TL_MM_FINITE); \
    }

RANDOM_TEST(1)
RANDOM_TEST(2)
RANDOM_TEST(3)
RANDOM_TEST(4)
RANDOM_TEST(5)
RANDOM_TEST(6)

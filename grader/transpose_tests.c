/*
 * transpose_tests.c — the hidden tests of the transpose labs (1-3).
 *
 * A crash, hang or illegal address loses that test only (hidden.h). Names
 * sort in the order the report shows them.
 */
#include "hidden.h"
#include "shapes.h"
#include "transpose_case.h"

/* Fixed edge shapes: single elements, single rows and columns, partial
 * blocks on both sides, and large shapes just off powers of two. */
#define SHAPE_TEST(name, rows, cols) \
    HIDDEN_TEST(transpose, name) { return tl_transpose_case(rows, cols, tl_hidden_seed() + __LINE__); }

SHAPE_TEST(s01_1x1, 1, 1)
SHAPE_TEST(s02_1x777, 1, 777)
SHAPE_TEST(s03_777x1, 777, 1)
SHAPE_TEST(s04_1x1024, 1, 1024)
SHAPE_TEST(s05_1024x1, 1024, 1)
SHAPE_TEST(s06_2x3, 2, 3)
SHAPE_TEST(s07_31x33, 31, 33)
SHAPE_TEST(s08_61x67, 61, 67)
SHAPE_TEST(s09_1000x1500, 1000, 1500)
SHAPE_TEST(s10_8191x8193, 8191, 8193)
SHAPE_TEST(s11_8192x8192, 8192, 8192)

HIDDEN_TEST(transpose, s12_twice_123x457)
{
    return tl_transpose_roundtrip(123, 457, tl_hidden_seed());
}

/* Random shapes drawn from the seed; the report names each shape. */
#define RANDOM_TEST(k) \
    HIDDEN_TEST(transpose, s2##k##_random_##k) { \
        tl_shape s = tl_random_shape(tl_hidden_seed(), k, TL_RANDOM_MAX_SIDE); \
        return tl_transpose_case(s.rows, s.cols, tl_hidden_seed() + 1000 + k); \
    }

RANDOM_TEST(1)
RANDOM_TEST(2)
RANDOM_TEST(3)
RANDOM_TEST(4)
RANDOM_TEST(5)
RANDOM_TEST(6)

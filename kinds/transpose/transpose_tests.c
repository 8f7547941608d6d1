/*
 * transpose_tests.c — the hidden tests of the transpose labs (1-3, 6).
 *
 * A crash, hang or illegal address loses that test only (hidden.h). Names
 * sort in the order the report shows them.
 */
#include "hidden.h"
#include "shapes.h"
#include "transpose_case.h"

/* Fixed edge shapes: single elements, rows and columns, partial blocks, sides just off powers of two. */
#define SHAPE_TEST_IN(suite, name, rows, cols) \
    HIDDEN_TEST(suite, name) { tl_hidden_shape(rows, cols); return tl_transpose_case(rows, cols, tl_hidden_seed() + __LINE__); }
#define SHAPE_TEST(name, rows, cols) SHAPE_TEST_IN(transpose, name, rows, cols)

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
    tl_hidden_shape(123, 457); return tl_transpose_roundtrip(123, 457, tl_hidden_seed());
}

/* Random shapes drawn from the seed; the report names each shape. */
#define RANDOM_TEST(k) \
    HIDDEN_TEST(transpose, s2##k##_random_##k) { \
        tl_shape s = tl_random_shape(tl_hidden_seed(), k, TL_RANDOM_MAX_SIDE); tl_hidden_shape(s.rows, s.cols); \
        tl_hidden_title("random_%d (%dx%d)", k, s.rows, s.cols); return tl_transpose_case(s.rows, s.cols, tl_hidden_seed() + 1000 + k); \
    }

RANDOM_TEST(1)
RANDOM_TEST(2)
RANDOM_TEST(3)
RANDOM_TEST(4)
RANDOM_TEST(5)
RANDOM_TEST(6)

/* Suite `vector` (lab 6, rubric hidden_suites): shapes where 16-byte vectors
 * must give way to a scalar path (odd sides, rows that do not start on a
 * 16-byte boundary) and aligned shapes with partial tiles and thin edges. */
#define VECTOR_TEST(name, rows, cols) SHAPE_TEST_IN(vector, name, rows, cols)

VECTOR_TEST(v01_3x5, 3, 5)
VECTOR_TEST(v02_5x3, 5, 3)
VECTOR_TEST(v03_4x4, 4, 4)
VECTOR_TEST(v04_4x12, 4, 12)
VECTOR_TEST(v05_12x4, 12, 4)
VECTOR_TEST(v06_6x8, 6, 8)
VECTOR_TEST(v07_8x6, 8, 6)
VECTOR_TEST(v08_260x132, 260, 132)
VECTOR_TEST(v09_1023x1025, 1023, 1025)
VECTOR_TEST(v10_1024x1028, 1024, 1028)
VECTOR_TEST(v11_1028x1024, 1028, 1024)
VECTOR_TEST(v12_4x8192, 4, 8192)
VECTOR_TEST(v13_8192x4, 8192, 4)
VECTOR_TEST(v14_257x131, 257, 131)   /* the scalar path's sanitizer shape: no kernel may single it out */

/* Random shapes rounded up to multiples of 4: the vector path with partial tiles. */
#define RANDOM4_TEST(k) \
    HIDDEN_TEST(vector, v2##k##_random4_##k) { \
        tl_shape s = tl_round_up_shape(tl_random_shape(tl_hidden_seed(), k, TL_RANDOM_MAX_SIDE), 4); tl_hidden_shape(s.rows, s.cols); \
        tl_hidden_title("random4_%d (%dx%d)", k, s.rows, s.cols); return tl_transpose_case(s.rows, s.cols, tl_hidden_seed() + 2000 + k); \
    }

RANDOM4_TEST(1)
RANDOM4_TEST(2)
RANDOM4_TEST(3)

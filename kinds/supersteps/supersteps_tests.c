/*
 * supersteps_tests.c — the hidden tests of lab 5, one suite per kernel (the
 * rubric's units): the clinic's reverse, sums and pairs (part 1), the
 * in-place transpose (part 2) and the double-buffered matmul (part 3).
 * A crash or a hang loses one test only (hidden.h). Names sort in the order
 * the report shows them within a suite.
 */
#include "hidden.h"
#include "shapes.h"
#include "matmul_case.h"
#include "supersteps_case.h"
#include "tilelab.h"

/* ---- part 1: one element, a chunk less one, one, one plus one, partial
 * chunks, many chunks (pairs then walks several per block), random n. */
#define CLINIC_TESTS(unit, which) \
    HIDDEN_TEST(unit, n01_n_1) { tl_hidden_title("n = 1"); return tl_clinic_case(which, 1, tl_hidden_seed() + 1); } \
    HIDDEN_TEST(unit, n02_n_255) { tl_hidden_title("n = 255"); return tl_clinic_case(which, 255, tl_hidden_seed() + 2); } \
    HIDDEN_TEST(unit, n03_n_256) { tl_hidden_title("n = 256"); return tl_clinic_case(which, 256, tl_hidden_seed() + 3); } \
    HIDDEN_TEST(unit, n04_n_257) { tl_hidden_title("n = 257"); return tl_clinic_case(which, 257, tl_hidden_seed() + 4); } \
    HIDDEN_TEST(unit, n05_n_1000) { tl_hidden_title("n = 1000"); return tl_clinic_case(which, 1000, tl_hidden_seed() + 5); } \
    HIDDEN_TEST(unit, n06_n_65539) { tl_hidden_title("n = 65539"); return tl_clinic_case(which, 65539, tl_hidden_seed() + 6); } \
    HIDDEN_TEST(unit, n21_random_1) { \
        int n = tl_random_shape(tl_hidden_seed(), 1, TL_RANDOM_CLINIC_MAX_N).rows; tl_hidden_title("random_1 (n = %d)", n); \
        return tl_clinic_case(which, n, tl_hidden_seed() + 21); \
    } \
    HIDDEN_TEST(unit, n22_random_2) { \
        int n = tl_random_shape(tl_hidden_seed(), 2, TL_RANDOM_CLINIC_MAX_N).rows; tl_hidden_title("random_2 (n = %d)", n); \
        return tl_clinic_case(which, n, tl_hidden_seed() + 22); \
    }

CLINIC_TESTS(reverse, TL_CLINIC_REVERSE)
CLINIC_TESTS(sums, TL_CLINIC_SUMS)
CLINIC_TESTS(pairs, TL_CLINIC_PAIRS)

/* ---- part 2: the sides (one element; a tile less one, one, one
 * plus one; several tiles; large; large and odd), then random sides. */
#define SIDE_TEST(name, n) \
    HIDDEN_TEST(inplace, name) { tl_hidden_title("N = %d", n); return tl_inplace_case(n, tl_hidden_seed() + __LINE__); }

SIDE_TEST(t01_N_1, 1)
SIDE_TEST(t02_N_31, 31)
SIDE_TEST(t03_N_32, 32)
SIDE_TEST(t04_N_33, 33)
SIDE_TEST(t05_N_1000, 1000)
SIDE_TEST(t06_N_4096, 4096)
SIDE_TEST(t07_N_8193, 8193)

#define SIDE_RANDOM_TEST(k) \
    HIDDEN_TEST(inplace, t2##k##_random_##k) { \
        int n = tl_random_shape(tl_hidden_seed(), k, TL_RANDOM_INPLACE_MAX_SIDE).rows; tl_hidden_title("random_%d (N = %d)", k, n); \
        return tl_inplace_case(n, tl_hidden_seed() + 1000 + k); \
    }

SIDE_RANDOM_TEST(1)
SIDE_RANDOM_TEST(2)
SIDE_RANDOM_TEST(3)

/* ---- part 3: lab 4's shapes (M x K x N), one K-tile and many. */
#define MM_TEST(name, m, k, n, inputs) \
    HIDDEN_TEST(dbuf, name) { \
        return tl_matmul_case_of(launch_matmul_dbuf, (tl_mm_shape){m, k, n}, tl_hidden_seed() + __LINE__, \
                                      inputs); \
    }

MM_TEST(m01_1x1x1, 1, 1, 1, TL_MM_FINITE)
MM_TEST(m02_1x300x1, 1, 300, 1, TL_MM_FINITE)
MM_TEST(m03_300x1x200, 300, 1, 200, TL_MM_FINITE)
MM_TEST(m04_17x33x65, 17, 33, 65, TL_MM_FINITE)
MM_TEST(m05_513x257x129, 513, 257, 129, TL_MM_FINITE)
MM_TEST(m06_1000x1x1000, 1000, 1, 1000, TL_MM_FINITE)
MM_TEST(m07_4099x70x33, 4099, 70, 33, TL_MM_FINITE)
MM_TEST(m08_2048x2048x2048, 2048, 2048, 2048, TL_MM_FINITE)
MM_TEST(m09_nan_inf_67x45x33, 67, 45, 33, TL_MM_NAN_INF)

#define MM_RANDOM_TEST(k) \
    HIDDEN_TEST(dbuf, m2##k##_random_##k) { \
        tl_mm_shape s = tl_random_mm_shape(tl_hidden_seed(), k, TL_RANDOM_MM_MAX_SIDE); tl_hidden_mm_title(k, s); \
        return tl_matmul_case_of(launch_matmul_dbuf, s, tl_hidden_seed() + 1000 + k, TL_MM_FINITE); \
    }

MM_RANDOM_TEST(1)
MM_RANDOM_TEST(2)
MM_RANDOM_TEST(3)

/* Seeded random shapes and shape parsing. */
#include <criterion/criterion.h>
#include "shapes.h"

Test(shapes, random_shapes_are_deterministic_and_in_range)
{
    int small = 0, distinct = 0;
    tl_shape first = tl_random_shape(99, 1, 4096);
    for (int k = 1; k <= 200; k++) {
        tl_shape a = tl_random_shape(99, k, 4096), b = tl_random_shape(99, k, 4096);
        cr_assert(a.rows == b.rows && a.cols == b.cols);
        cr_assert(a.rows >= 1 && a.rows <= 4096 && a.cols >= 1 && a.cols <= 4096, "%dx%d", a.rows, a.cols);
        small += a.rows < 64 || a.cols < 64;
        distinct += a.rows != first.rows || a.cols != first.cols;
    }
    cr_assert_gt(small, 20, "log-uniform sides must include thin shapes");
    cr_assert_gt(distinct, 190);
    tl_shape other = tl_random_shape(100, 1, 4096);
    cr_assert(other.rows != first.rows || other.cols != first.cols, "the seed must matter");
}

Test(shapes, parse)
{
    tl_shape s;
    cr_assert_eq(tl_parse_shape("31x33", &s), 0);
    cr_assert(s.rows == 31 && s.cols == 33);
    cr_assert_eq(tl_parse_shape("8191X8193", &s), 0);
    cr_assert_eq(s.cols, 8193);
    cr_assert_neq(tl_parse_shape("0x3", &s), 0);
    cr_assert_neq(tl_parse_shape("3x", &s), 0);
    cr_assert_neq(tl_parse_shape("3x4y", &s), 0);
}

/* Seeded inputs, the reference transpose and exact verification. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>
#include "matrix.h"

Test(matrix, fill_is_deterministic_and_seed_dependent)
{
    float a[64], b[64], c[64];
    tl_fill_seeded(a, 64, 7);
    tl_fill_seeded(b, 64, 7);
    tl_fill_seeded(c, 64, 8);
    cr_assert(memcmp(a, b, sizeof a) == 0, "the same seed must give the same values");
    cr_assert(memcmp(a, c, sizeof a) != 0, "another seed must give other values");
}

Test(matrix, fill_is_not_symmetric_constant_or_nan)
{
    float a[16 * 16], t[16 * 16];
    tl_fill_seeded(a, 256, 1);
    tl_transpose_ref(a, t, 16, 16);
    cr_assert(memcmp(a, t, sizeof a) != 0, "a symmetric fill would hide a swapped index");
    int distinct = 0;
    for (int i = 0; i < 256; i++) {
        cr_assert(!isnan(a[i]) && a[i] >= -1.0f && a[i] < 1.0f, "a[%d] = %g is outside [-1, 1)", i, a[i]);
        distinct += a[i] != a[0];
    }
    cr_assert_gt(distinct, 250, "the fill must not be (nearly) constant");
}

Test(matrix, reference_transpose_of_2x3)
{
    const float in[6] = {1, 2, 3, 4, 5, 6};
    const float want[6] = {1, 4, 2, 5, 3, 6};
    float out[6];
    tl_transpose_ref(in, out, 2, 3);
    cr_assert(memcmp(out, want, sizeof want) == 0, "got %g %g %g %g %g %g", out[0], out[1], out[2], out[3], out[4], out[5]);
}

Test(matrix, reference_transpose_large_block_edges)
{
    enum { R = 70, C = 131 };   /* not multiples of the CPU block */
    static float in[R * C], out[R * C], back[R * C];
    tl_fill_seeded(in, R * C, 3);
    tl_transpose_ref(in, out, R, C);
    tl_transpose_ref(out, back, C, R);
    cr_assert(memcmp(in, back, sizeof in) == 0, "transposing twice must give the input back");
    cr_assert_eq(out[5 * R + 69], in[69 * C + 5]);
}

Test(matrix, compare_reports_first_mismatch_and_count)
{
    float want[12], got[12];
    tl_fill_seeded(want, 12, 5);
    memcpy(got, want, sizeof got);
    tl_mismatch m = tl_compare_exact(want, got, 3, 4);
    cr_assert_eq(m.count, 0);
    got[6] = 99.0f;       /* row 1, col 2 */
    memset(&got[9], 0xFF, 2 * sizeof(float));   /* NaN poison at row 2, cols 1-2 */
    m = tl_compare_exact(want, got, 3, 4);
    cr_assert_eq(m.count, 3);
    cr_assert_eq(m.row, 1);
    cr_assert_eq(m.col, 2);
    cr_assert_eq(m.got, 99.0f);
    cr_assert_eq(m.expected, want[6]);
    char text[256];
    tl_describe_mismatch(&m, 3, 4, text, sizeof text);
    cr_assert(strstr(text, "(row 1, col 2)") && strstr(text, "got 99") && strstr(text, "3 of 12"), "%s", text);
    m = tl_compare_exact(want, got, 3, 4);
    m.got = got[9];
    tl_describe_mismatch(&m, 3, 4, text, sizeof text);
    cr_assert(strstr(text, "got NaN;"), "a NaN is written NaN: %s", text);
}

Test(matrix, compare_is_bitwise)
{
    float want[2] = {0.0f, 1.0f}, got[2] = {-0.0f, 1.0f};
    cr_assert_eq(tl_compare_exact(want, got, 1, 2).count, 1, "-0 is not the value that was moved");
}

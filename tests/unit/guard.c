/* Guard regions: an overwritten canary is found and located. */
#include <criterion/criterion.h>
#include <string.h>
#include "guard.h"

enum { G = 8, N = 10 };

Test(guard, untouched_guards_report_nothing)
{
    uint32_t before[G], after[G];
    tl_guard_fill(before, G, TL_CANARY);
    tl_guard_fill(after, G, TL_CANARY);
    tl_guard_report g = tl_guard_scan(before, after, G, N, TL_CANARY);
    cr_assert_eq(g.count, 0);
}

Test(guard, write_past_the_end_is_located)
{
    uint32_t before[G], after[G];
    tl_guard_fill(before, G, TL_CANARY);
    tl_guard_fill(after, G, TL_CANARY);
    after[3] = 0;
    after[5] = 0;
    tl_guard_report g = tl_guard_scan(before, after, G, N, TL_CANARY);
    cr_assert_eq(g.count, 2);
    cr_assert_eq(g.offset, N + 3);
    char text[256];
    tl_describe_guard(&g, "output", N, text, sizeof text);
    cr_assert(strstr(text, "wrote outside the output at offset 13") && strstr(text, "4 elements past its end"), "%s", text);
}

Test(guard, write_before_the_start_is_located)
{
    uint32_t before[G], after[G];
    tl_guard_fill(before, G, TL_CANARY);
    tl_guard_fill(after, G, TL_CANARY);
    before[G - 1] = 0x3F800000u;   /* 1.0f right before element 0 */
    tl_guard_report g = tl_guard_scan(before, after, G, N, TL_CANARY);
    cr_assert_eq(g.count, 1);
    cr_assert_eq(g.offset, -1);
    char text[256];
    tl_describe_guard(&g, "output", N, text, sizeof text);
    cr_assert(strstr(text, "1 elements before its start"), "%s", text);
}

Test(guard, canaries_differ_per_buffer_and_are_recognised)
{
    uint32_t before[G], after[G];
    tl_guard_fill(before, G, tl_canary(1));
    tl_guard_fill(after, G, tl_canary(1));
    after[0] = tl_canary(0);   /* a value read past buffer 0, written past buffer 1 */
    cr_assert_eq(tl_guard_scan(before, after, G, N, tl_canary(1)).count, 1);
    cr_assert_neq(tl_canary(0), tl_canary(1));
    for (unsigned k = 0; k < 300; k++) {
        uint32_t c = tl_canary(k);
        float f;
        memcpy(&f, &c, sizeof f);
        cr_assert(tl_is_canary(c) && f != f, "canary %u must be a recognisable NaN", k);
    }
    cr_assert(!tl_is_canary(0xFFFFFFFFu), "the NaN poison is not a canary");
    cr_assert(!tl_is_canary(0x3F800000u));
}

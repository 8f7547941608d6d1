/* Sample statistics: median, extremes, noise. */
#include <criterion/criterion.h>
#include <math.h>
#include "stats.h"

Test(stats, odd_count)
{
    double s[] = {5, 1, 3};
    tl_stats t = tl_stats_of(s, 3);
    cr_assert_eq(t.median, 3);
    cr_assert_eq(t.min, 1);
    cr_assert_eq(t.max, 5);
    cr_assert_float_eq(t.noise, 2.0 / 3.0, 1e-12);
}

Test(stats, even_count_and_order_kept)
{
    double s[] = {4, 1, 3, 2};
    tl_stats t = tl_stats_of(s, 4);
    cr_assert_eq(t.median, 2.5);
    cr_assert_eq(s[0], 4, "the caller's samples must not be reordered");
}

Test(stats, constant_samples_have_no_noise)
{
    double s[] = {2, 2, 2, 2, 2};
    cr_assert_eq(tl_stats_of(s, 5).noise, 0);
}

Test(stats, gbps)
{
    cr_assert_float_eq(tl_gbps(2e9, 1000.0), 2.0, 1e-12);
    cr_assert_float_eq(tl_gbps(536870912.0, 0.2), 2684.35456, 1e-6);
    cr_assert_eq(tl_gbps(1e9, 0), 0);
}

/* Reading ncu's --csv output: thousands separators, program output mixed in, sums over launches. */
#include <criterion/criterion.h>
#include "counters.h"

Test(counters, reads_the_metrics_with_thousands_separators)
{
    tl_counters c;
    char err[256] = "";
    cr_assert_eq(tl_counters_read("tests/fixtures/ncu-unpadded.csv", &c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(c.kernels, 1);
    cr_assert_float_eq(c.shared_ld_conflicts, 1015808, 1e-9);
    cr_assert_float_eq(tl_per_request(c.shared_ld_conflicts, c.shared_ld_requests), 31, 1e-9);
    cr_assert_float_eq(tl_per_request(c.global_st_sectors, c.global_st_requests), 4, 1e-9);
}

Test(counters, no_requests_is_zero_per_request)
{
    tl_counters c;
    char err[256];
    cr_assert_eq(tl_counters_read("tests/fixtures/ncu-naive.csv", &c, err, sizeof err), 0);
    cr_assert_eq(tl_per_request(c.shared_ld_conflicts, c.shared_ld_requests), 0);
    cr_assert_float_eq(tl_per_request(c.global_st_sectors, c.global_st_requests), 32, 1e-9);
}

Test(counters, a_missing_metric_is_an_error)
{
    tl_counters c;
    char err[256] = "";
    cr_assert_eq(tl_counters_read("tests/fixtures/ncu-missing-metric.csv", &c, err, sizeof err), -1);
    cr_assert(strstr(err, "did not report 2 of the metrics"), "%s", err);
}

Test(counters, no_kernel_profiled_is_an_error)
{
    tl_counters c;
    char err[256] = "";
    cr_assert_eq(tl_counters_read("tests/fixtures/build-errors.log", &c, err, sizeof err), -1);
    cr_assert(strstr(err, "profiled no kernel"), "%s", err);
    cr_assert_eq(tl_counters_read("tests/fixtures/no-such-file.csv", &c, err, sizeof err), -1);
}

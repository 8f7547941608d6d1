/* Issue 45: counters judged per kernel, weighted by the work each does, and
 * tensor-pipe instructions counted as arithmetic (grader/counters.c), and lab 5's
 * double-buffered verdict held by the kernels that do the FMAs (grader/ptx_structure.c). */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "counters.h"

#define TL_PTX_STRUCTURE_IN_REPORT
#include "../../grader/ptx_structure.c"

#define DIR "tests/fixtures/per_kernel/"

static const unsigned CONFLICTS = TL_BIT(TL_M_SHARED_LD_CONFLICTS) | TL_BIT(TL_M_SHARED_ST_CONFLICTS);
static const unsigned SHARED_REQUESTS = TL_BIT(TL_M_SHARED_LD_REQUESTS) | TL_BIT(TL_M_SHARED_ST_REQUESTS);

Test(per_kernel, a_kernel_that_moves_no_data_cannot_dilute_the_tiles_conflicts)
{
    tl_counters c;
    char err[256] = "", judged[512];
    cr_assert_eq(tl_counters_read(DIR "diluted-conflicts.csv", &c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(c.nkernels, 2);
    double summed = tl_per_request(c.shared_ld_conflicts + c.shared_st_conflicts,
                                   c.shared_ld_requests + c.shared_st_requests);
    cr_expect_lt(summed, 0.25, "the attack's premise: summed, the ratio is below lab 3's bar (%.3f)", summed);
    double per_kernel = tl_counters_weighted(&c, CONFLICTS, SHARED_REQUESTS, TL_WORK_BYTES, "the global bytes",
                                             judged, sizeof judged);
    cr_expect_gt(per_kernel, 15.0, "weighted by the bytes each kernel moves, the tile's 15.5 per request: %.3f",
                 per_kernel);
    cr_expect(strstr(judged, "transpose_tiled (100 % of the global bytes)"), "%s", judged);
}

Test(per_kernel, one_kernel_reads_as_its_plain_ratio)
{
    tl_counters c;
    char err[256] = "";
    cr_assert_eq(tl_counters_read("tests/fixtures/ncu-unpadded.csv", &c, err, sizeof err), 0, "%s", err);
    cr_assert_eq(c.nkernels, 1);
    cr_expect_float_eq(tl_counters_weighted(&c, CONFLICTS, SHARED_REQUESTS, TL_WORK_BYTES, "", NULL, 0),
                       tl_per_request(c.shared_ld_conflicts + c.shared_st_conflicts,
                                      c.shared_ld_requests + c.shared_st_requests), 1e-12);
    /* No kernel with the weight (a lab 1 kernel moves bytes but makes no shared request): the sums. */
    cr_assert_eq(tl_counters_read("tests/fixtures/ncu-naive.csv", &c, err, sizeof err), 0, "%s", err);
    cr_expect_eq(tl_counters_weighted(&c, CONFLICTS, SHARED_REQUESTS, TL_WORK_BYTES, "", NULL, 0), 0);
}

Test(per_kernel, a_kernel_of_branches_without_arithmetic_cannot_dilute_divergence)
{
    tl_counters c;
    char err[256] = "", judged[512];
    cr_assert_eq(tl_counters_read(DIR "diluted-branches.csv", &c, err, sizeof err), 0, "%s", err);
    cr_expect_lt(c.divergent_targets / c.branch_targets, 0.01, "summed: below lab 7's 1 %%");
    double share = tl_counters_weighted(&c, TL_BIT(TL_M_DIVERGENT_TARGETS), TL_BIT(TL_M_BRANCH_TARGETS),
                                        TL_WORK_ARITHMETIC, "the arithmetic", judged, sizeof judged);
    cr_expect_float_eq(share, 0.2, 1e-9, "the sparse kernel's own share: %.4f", share);
    cr_expect(strstr(judged, "sparse_tall (100 % of the arithmetic)"), "%s", judged);
}

Test(per_kernel, tensor_pipe_instructions_are_the_sub_pipes_less_hfma2_mma)
{
    tl_counters c;
    char err[256] = "";
    cr_assert_eq(tl_counters_read(DIR "tensor-parent.csv", &c, err, sizeof err), 0, "%s", err);
    cr_expect(c.has_tensor);
    cr_expect_float_eq(c.tensor, 4000, 1e-9, "op_hmma less its HFMA2.MMA, never the parent: %g", c.tensor);
    cr_expect_float_eq(c.ffma, 10, 1e-9);
    cr_assert_eq(tl_counters_read(DIR "tensor-subs.csv", &c, err, sizeof err), 0, "%s", err);
    cr_expect_float_eq(c.tensor, 1024, 1e-9, "%g", c.tensor);
    cr_assert_eq(tl_counters_read("tests/fixtures/ncu-unpadded.csv", &c, err, sizeof err), 0, "%s", err);
    cr_expect(!c.has_tensor, "no tensor metric in the file: not counted, and said so");
}

/* ptx-structure's double-buffered verdict for dbuf_variants.ptx and a hand-made ncu CSV; its output in *out. */
static int dbuf_verdict(const char *csv, int fp32, char *out, size_t len)
{
    char log[] = "/tmp/tilelab-per-kernel-XXXXXX";
    int fd = mkstemp(log);
    cr_assert_geq(fd, 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd, 1);
        dup2(fd, 2);
        char *argv[] = {"ptx-structure", "--ptx", "tests/fixtures/ptx/dbuf_variants.ptx", "--double-buffered",
                        "--ncu-csv", (char *)csv, fp32 ? "--fp32" : NULL, NULL};
        int status = ptx_structure_main(fp32 ? 7 : 6, argv);
        fflush(NULL);
        _exit(status);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    FILE *f = fopen(log, "r");
    size_t n = f ? fread(out, 1, len - 1, f) : 0;
    out[n] = '\0';
    if (f)
        fclose(f);
    close(fd);
    unlink(log);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Test(per_kernel, a_double_buffered_decoy_that_does_no_fma_earns_nothing)
{
    static char out[16384];
    cr_expect_eq(dbuf_verdict(DIR "dbuf-decoy.csv", 0, out, sizeof out), 1, "%s", out);
    cr_expect(strstr(out, "double-buffered: no: two_buffers_two_barriers"), "%s", out);
    cr_expect(strstr(out, "judged on the kernels that do the product: two_buffers_two_barriers (100 % of the arithmetic)"),
              "%s", out);
}

Test(per_kernel, the_double_buffered_kernel_that_does_the_fmas_keeps_its_verdict)
{
    static char out[16384];
    cr_expect_eq(dbuf_verdict(DIR "dbuf-real.csv", 0, out, sizeof out), 0, "%s", out);
    cr_expect(strstr(out, "double-buffered: yes: dbuf_dynamic"), "%s", out);
    cr_expect(strstr(out, "dbuf_dynamic (99 % of the arithmetic)"), "a helper under 1/8 of the FMAs is not judged: %s",
              out);
}

Test(per_kernel, tensor_core_work_is_refused_where_the_arithmetic_is_fp32)
{
    static char out[16384];
    cr_expect_eq(dbuf_verdict(DIR "dbuf-tensor.csv", 1, out, sizeof out), 1, "%s", out);
    cr_expect(strstr(out, "dbuf_dynamic executed 240 tensor-pipe instructions"), "%s", out);
    cr_expect_eq(dbuf_verdict(DIR "dbuf-tensor.csv", 0, out, sizeof out), 0, "no --fp32: tensor work is work: %s", out);
}

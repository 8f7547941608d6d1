/*
 * `make bench` without a GPU (mk/bench.mk, tools/bench/bench_objects,
 * tools/bench/bench_sweep.cu): the program builds and links every reference
 * solution, its table lists them, and `make bench` itself is one line and
 * exit 2 with nothing written. CUDA_VISIBLE_DEVICES= hides any GPU, so these
 * tests mean the same on a GPU machine. Needs nvcc (CI has it), not a GPU.
 * Runs make from the repository root, as `make tool-tests` does.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BENCH_WORK "build/tests/bench"

/* A fresh top-level make: the flags of the make running these tests
 * (-s, -j, its jobserver) must not leak in. No GPU, whatever the machine. */
static int bench_sh(const char *cmd)
{
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    return tool_sh(cmd);
}

/* The program compiles and links with every lab file that builds (the
 * skeletons compile too), and its table holds each reference solution. */
Test(bench, the_program_builds_and_links_every_reference, .timeout = 900)
{
    int status = bench_sh("mkdir -p " BENCH_WORK " && make -s --no-print-directory bench-build > "
                          BENCH_WORK "/build.log 2>&1");
    cr_assert_eq(status, 0, "make bench-build exited %d:\n%s", status, tool_read(BENCH_WORK "/build.log", NULL));
    struct stat st;
    cr_assert(stat("build/bench", &st) == 0 && (st.st_mode & S_IXUSR), "make bench-build made no build/bench");

    status = bench_sh("build/bench --list > " BENCH_WORK "/list.log 2>&1");
    const char *list = tool_read(BENCH_WORK "/list.log", NULL);
    cr_assert_eq(status, 0, "build/bench --list exited %d:\n%s", status, list);
    static const char *const linked[] = {
        "transpose naive reference solutions/lab1-naive-transpose/transpose.cu: linked\n",
        "transpose tiled reference solutions/lab2-shared-tile/transpose.cu: linked\n",
        "transpose padded reference solutions/lab3-padding/transpose.cu: linked\n",
        "transpose cublas library (library): linked\n",
    };
    for (size_t i = 0; i < sizeof linked / sizeof linked[0]; i++)
        cr_expect_not_null(strstr(list, linked[i]), "build/bench --list lacks \"%.*s\":\n%s",
                           (int)strlen(linked[i]) - 1, linked[i], list);
}

/* A student file that does not compile is left out with the reason and the
 * program still builds; a lab with no student file is left out too. The
 * student's files come from a folder of the test's own (BENCH_STUDENT_DIR):
 * lab 1's skeleton with a line that is not C, and nothing for the others. */
Test(bench, a_student_file_that_does_not_compile_is_left_out, .timeout = 900)
{
    int status = bench_sh("set -e; d=" BENCH_WORK "/student; rm -rf $d; mkdir -p $d/lab1-broken; "
                          "{ cat labs/lab1-*/*.cu; echo 'this is not C'; } > $d/lab1-broken/transpose.cu; "
                          "make -s --no-print-directory bench-build BENCH_STUDENT_DIR=$d > " BENCH_WORK
                          "/broken.log 2>&1; build/bench --list > " BENCH_WORK "/broken-list.log 2>&1");
    cr_assert_eq(status, 0, "the bench did not build beside a broken student file (exit %d):\n%s", status,
                 tool_read(BENCH_WORK "/broken.log", NULL));
    const char *list = tool_read(BENCH_WORK "/broken-list.log", NULL);
    cr_expect_not_null(strstr(list, "transpose naive reference solutions/lab1-naive-transpose/transpose.cu: linked\n"),
                       "the reference is not linked:\n%s", list);
    cr_expect_not_null(strstr(list, "transpose naive student " BENCH_WORK "/student/lab1-broken/transpose.cu: "
                                    "does not compile: see build/"),
                       "the broken student file is not listed as not compiling:\n%s", list);
    cr_expect_not_null(strstr(list, "transpose tiled student " BENCH_WORK "/student/lab2-*/*.cu: no file"),
                       "a missing student file is not listed as missing:\n%s", list);
}

/* No GPU: one line naming the cause, exit 2, no CSV written. */
Test(bench, without_a_gpu_make_bench_is_one_line_and_exit_2, .timeout = 900)
{
    remove(BENCH_WORK "/bench.csv");
    int status = bench_sh("mkdir -p " BENCH_WORK " && make -s --no-print-directory bench BENCH_OUT="
                          BENCH_WORK "/bench.csv > " BENCH_WORK "/nogpu.log 2>&1");
    const char *log = tool_read(BENCH_WORK "/nogpu.log", NULL);
    cr_assert_eq(status, 2, "expected exit 2 (cannot run), got %d:\n%s", status, log);
    cr_assert_eq(tool_lines(log), 1, "expected one line, got %d:\n%s", tool_lines(log), log);
    cr_assert_not_null(strstr(log, "GPU"), "the line does not name the missing GPU:\n%s", log);
    cr_assert_null(strstr(log, "Error 2"), "make's own error line is there:\n%s", log);
    cr_assert_neq(access(BENCH_WORK "/bench.csv", F_OK), 0, "a CSV was written without a GPU");
}

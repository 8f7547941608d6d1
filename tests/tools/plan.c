/*
 * build/tools/plan (grader/plan.c): what a grade runs, decided in C (issue 32).
 * Each kind is compared with its own kit workers, lab 7's part 1 is timed as
 * lab 4, the seed is checked to 2^64-1, and the plan's words survive the
 * shell that executes them. Runs from the repository root.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLAN "build/tools/plan"
#define WORK "build/tests/plan"

static void build(void) { tool_make("Makefile", PLAN, WORK); }

/* `plan steps LAB` as ./grade writes it, read back by sh: the value of VAR (a step list's lines). */
static const char *planned(const char *lab, const char *var)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, PLAN " steps %s 20261124 K B /cuda " WORK " '' x > " WORK "/%s.sh && "
             "sh -c '. " WORK "/%s.sh && printf %%s \"$%s\"' > " WORK "/value.txt",
             lab, lab, lab, var);
    cr_assert_eq(tool_sh(cmd), 0, "%s", cmd);
    return tool_read(WORK "/value.txt", NULL);
}

Test(plan, each_kind_is_measured_against_its_own_kit_workers)
{
    build();
    const char *runs = planned("lab3", "measure_runs");
    cr_expect(strstr(runs, "measure.json K/judge/measure-transpose --copy-worker K/workers/copy") && !strstr(runs, "naive"),
              "%s", runs);
    runs = planned("lab6", "measure_runs");
    cr_expect(strstr(runs, "--library-worker K/workers/cublas_geam --library-source 'cuBLAS Sgeam'"), "%s", runs);
    runs = planned("lab4", "measure_runs");
    cr_expect(strstr(runs, "--naive-worker K/workers/naive --cublas-worker K/workers/cublas") && !strstr(runs, "copy"),
              "%s", runs);
    runs = planned("lab5", "measure_runs");
    cr_expect(strstr(runs, "--part inplace --copy-worker K/workers/copy --naive-worker K/workers/naive"), "%s", runs);
    /* Lab 7: part 1 a dense product, timed as lab 4's; part 2 by its own kind. */
    runs = planned("lab7", "measure_runs");
    cr_expect(strstr(runs, "measure.json K/judge/measure-matmul --part dense") &&
              strstr(runs, "measure-sparse.json K/judge/measure-sparse --part sparse"), "%s", runs);
}

Test(plan, the_counters_and_the_sanitizers_are_the_rubric_s)
{
    build();
    cr_assert_eq(tool_sh("build/tools/rubric counters-shape lab6 20261124 > " WORK "/shape.txt"), 0);
    char want[64];
    snprintf(want, sizeof want, "counters --shape %s", tool_read(WORK "/shape.txt", NULL));
    want[strcspn(want, "\n")] = '\0';
    setenv("NCU", "/bin/true", 1);   /* an ncu that exists: the counts are planned */
    const char *counts = planned("lab6", "counts");
    cr_expect(strstr(counts, want) && strstr(counts, "counters-timed --timed-shape"), "%s", counts);
    counts = planned("lab7", "counts");
    cr_expect(strstr(counts, "ffma-quarter --unit sparse --timed-shape --blocks 0.25"), "%s", counts);
    unsetenv("NCU");
    const char *args = planned("lab6", "sanitize_args");
    cr_expect_str_eq(args, "--shape 260x132 --shape 257x131");
    cr_expect_str_eq(planned("lab1", "tools"), "");
}

static int check_seed(const char *seed)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, PLAN " check lab1 '%s' '' '' '' > " WORK "/check.sh 2> " WORK "/check.log", seed);
    return tool_sh(cmd);
}

Test(plan, the_seed_is_a_64_bit_number)
{
    build();
    cr_expect_eq(check_seed("18446744073709551615"), 0, "%s", tool_read(WORK "/check.log", NULL));
    cr_expect_eq(check_seed("00018446744073709551615"), 0, "leading zeros are the same number");
    cr_expect_eq(check_seed("18446744073709551616"), 1);
    cr_expect(strstr(tool_read(WORK "/check.log", NULL), "from 0 to 18446744073709551615 (2^64-1)"));
    cr_expect_eq(check_seed("12x"), 1);
    cr_expect(strstr(tool_read(WORK "/check.log", NULL), "--seed takes a non-negative integer, not '12x'"));
    cr_expect_eq(check_seed(""), 0, "no seed: one is drawn");
    cr_expect(strstr(tool_read(WORK "/check.sh", NULL), "seed="), "%s", tool_read(WORK "/check.sh", NULL));
}

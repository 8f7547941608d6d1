/*
 * build/tools/rubric counters-shape (grader/rubric_tool.c): the shape ncu
 * reads is drawn from the seed. With counters_range (labs 6, 7) the draws
 * spread over the range, keep its step, and repeat for a repeated seed; a lab
 * without one keeps its counters_shape. Runs from the repository root.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUBRIC "build/tools/rubric"
#define WORK "build/tests/rubric-tool"

static void build(void) { tool_make("Makefile", RUBRIC, WORK); }

/* The tool's answer for LAB and SEED, its newline dropped. */
static const char *shape(const char *lab, const char *seed)
{
    static char out[64];
    char cmd[256];
    snprintf(cmd, sizeof cmd, RUBRIC " counters-shape %s %s > " WORK "/shape.txt 2>&1", lab, seed);
    int status = tool_sh(cmd);
    snprintf(out, sizeof out, "%s", tool_read(WORK "/shape.txt", NULL));
    out[strcspn(out, "\n")] = '\0';
    cr_assert_eq(status, 0, "counters-shape %s %s exited %d: %s", lab, seed, status, out);
    return out;
}

Test(rubric_tool, lab6_counted_shapes_spread_over_the_range)
{
    build();
    int distinct = 0;
    long seen[200][2];
    for (int s = 0; s < 200; s++) {
        char seed[32];
        snprintf(seed, sizeof seed, "%d", 1000003 * s + 7);
        long r, c;
        cr_assert_eq(sscanf(shape("lab6", seed), "%ldx%ld", &r, &c), 2);
        cr_expect(r >= 512 && r <= 2048 && c >= 512 && c <= 2048 && r % 4 == 0 && c % 4 == 0,
                  "seed %s: %ldx%ld is outside 512..2048 or not a multiple of 4", seed, r, c);
        int again = 0;
        for (int k = 0; k < distinct; k++)
            again |= seen[k][0] == r && seen[k][1] == c;
        if (!again)
            seen[distinct][0] = r, seen[distinct][1] = c, distinct++;
    }
    cr_expect_geq(distinct, 190, "only %d distinct shapes in 200 seeds", distinct);
    char first[64];
    snprintf(first, sizeof first, "%s", shape("lab6", "18446744073709551615"));
    cr_expect_str_eq(shape("lab6", "18446744073709551615"), first, "the same seed drew another shape");
}

Test(rubric_tool, lab7_draws_m_k_and_n)
{
    build();
    long m, k, n;
    cr_assert_eq(sscanf(shape("lab7", "20261121"), "%ldx%ldx%ld", &m, &k, &n), 3);
    cr_expect(m % 8 == 0 && k % 8 == 0 && n % 8 == 0 && m >= 512 && n <= 1536, "%ldx%ldx%ld", m, k, n);
}

Test(rubric_tool, a_lab_without_a_range_keeps_its_shape)
{
    build();
    cr_expect_str_eq(shape("lab1", "12345"), "1024x1024");
    cr_expect_neq(tool_sh(RUBRIC " counters-shape lab6 12x > /dev/null 2>&1"), 0, "a bad seed was taken");
}

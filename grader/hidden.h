/*
 * hidden.h — the hidden tests and the judge program that runs them.
 *
 * A hidden test is a function that runs one checked case and returns its
 * verdict (case.h); HIDDEN_TEST declares it and its suite, the way xv6's
 * gradelib writes a test where it is declared. hidden.c is the program:
 * a few judge processes take the tests one at a time, each with one worker
 * (remote.h) that it restarts after a failure, so a crash or a hang loses
 * one test, and a suite costs a few CUDA contexts instead of two per test.
 * Its report is Criterion's JSON layout (tests.json), which report.c reads.
 * Criterion runs the kit's own test suites; the verdicts here are the
 * judge's alone.
 */
#ifndef TILELAB_HIDDEN_H
#define TILELAB_HIDDEN_H

#include <stdint.h>
#include "case.h"

typedef tl_case_result (*tl_hidden_fn)(void);

/* Called before main by HIDDEN_TEST; the program runs tests sorted by suite, then name. */
void tl_hidden_register(const char *suite, const char *name, tl_hidden_fn run);

#define HIDDEN_TEST(suite, name)                                                                    \
    static tl_case_result hidden_##suite##_##name(void);                                            \
    __attribute__((constructor)) static void register_##suite##_##name(void)                        \
    {                                                                                               \
        tl_hidden_register(#suite, #name, hidden_##suite##_##name);                                 \
    }                                                                                               \
    static tl_case_result hidden_##suite##_##name(void)

/* Called by a test while it runs, before its case: what the report names it
 * ("random_1 (817x431)"; else its name without the ordering prefix) and its
 * 2D shape, written into tests.json so the report never re-derives either. */
void tl_hidden_title(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tl_hidden_shape(int rows, int cols);
/* A matmul test's title: "random_2 (40x3x977)", its draw and M x K x N. */
#define tl_hidden_mm_title(draw, s) tl_hidden_title("random_%d (%dx%dx%d)", (draw), (s).m, (s).k, (s).n)

/* TILELAB_SEED from the environment (./grade prints it); 1 when unset. */
uint64_t tl_hidden_seed(void);

#endif

/*
 * hidden.h — what every hidden-test suite shares: the seed, failing a test
 * with a message Criterion's JSON report can carry, and the progress line
 * (hidden.c's report hooks print "test 7/18" while the suite runs).
 */
#ifndef TILELAB_HIDDEN_H
#define TILELAB_HIDDEN_H

#include <stdint.h>

/* TILELAB_SEED from the environment (./grade prints it); 1 when unset. */
uint64_t tl_hidden_seed(void);

/* Fail the current test with `message`. */
void tl_hidden_fail(const char *message);

/* .init of every hidden suite: CUDA errors outside the student's launch fail the test too. */
void tl_hidden_init(void);

/* Random shapes per suite, and their largest side. */
enum { TL_RANDOM_SHAPES = 6, TL_RANDOM_MAX_SIDE = 4096, TL_RANDOM_MM_MAX_SIDE = 1024 };

/* Lab 5: the clinic's random lengths, the in-place transpose's random sides. */
enum { TL_RANDOM_CLINIC_MAX_N = 1 << 20, TL_RANDOM_INPLACE_MAX_SIDE = 4096 };

#endif

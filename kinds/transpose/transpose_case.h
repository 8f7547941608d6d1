/*
 * transpose_case.h — run the lab's launch_transpose once on one shape, with
 * everything the kit checks: seeded input, poisoned output, guard regions,
 * the CPU reference, an unchanged input. Used by the quick check (build/labN)
 * and the grader's hidden tests alike.
 */
#ifndef TILELAB_TRANSPOSE_CASE_H
#define TILELAB_TRANSPOSE_CASE_H

#include <stdint.h>
#include "case.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A lab's launch function: launch_transpose, or another file's under another name. */
typedef void (*tl_transpose_fn)(const float *in, float *out, int rows, int cols);

/* out = transpose(in) for a seeded rows x cols input, by launch_transpose ... */
tl_case_result tl_transpose_case(int rows, int cols, uint64_t seed);
/* ... or by another launch function (the baseline a lab is compared with). */
tl_case_result tl_transpose_case_of(tl_transpose_fn launch, int rows, int cols, uint64_t seed);

/* Transposing twice must give the input back. */
tl_case_result tl_transpose_roundtrip(int rows, int cols, uint64_t seed);

/* The work a benchmark times: one launch_transpose (see bench.h). */
typedef struct {
    const float *in;
    float *out;
    int rows, cols;
    tl_transpose_fn launch;   /* NULL: launch_transpose */
} tl_transpose_args;
void tl_transpose_work(void *args);

#ifdef __cplusplus
}
#endif

#endif

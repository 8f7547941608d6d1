/*
 * supersteps_case.h — lab 5's checked launches: the clinic's three kernels
 * (part 1) and the in-place transpose (part 2), each with seeded input,
 * poisoned output, guard regions and an exact CPU reference. Part 3 is a
 * matmul: matmul_case.h's tl_matmul_case_of(launch_matmul_dbuf, ...).
 */
#ifndef TILELAB_SUPERSTEPS_CASE_H
#define TILELAB_SUPERSTEPS_CASE_H

#include <stdint.h>
#include "case.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Part 1's kernels, named as the rubric's units are. */
typedef enum { TL_CLINIC_REVERSE, TL_CLINIC_SUMS, TL_CLINIC_PAIRS, TL_CLINIC_COUNT } tl_clinic;
extern const char *const tl_clinic_names[TL_CLINIC_COUNT];   /* "reverse", "sums", "pairs" */

/* One clinic kernel on n seeded small whole numbers (every sum exact in
 * any order), against the CPU reference. */
tl_case_result tl_clinic_case(tl_clinic which, int n, uint64_t seed);

/* A transpose in place: launch_transpose_inplace, or another one. */
typedef void (*tl_inplace_fn)(float *a, int n);

/* The seeded n x n matrix transposed in place; guards on both sides. */
tl_case_result tl_inplace_case(int n, uint64_t seed);
tl_case_result tl_inplace_case_of(tl_inplace_fn launch, int n, uint64_t seed);

#ifdef __cplusplus
}
#endif

#endif

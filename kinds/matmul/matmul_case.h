/*
 * matmul_case.h — run the lab's launch_matmul once on one shape, with
 * everything the kit checks: seeded inputs, poisoned output, guard regions,
 * unchanged inputs, and an FP64 reference with an error bound. Shapes are
 * written M x K x N: A is M x K, B is K x N, C = A B is M x N, all row-major.
 */
#ifndef TILELAB_MATMUL_CASE_H
#define TILELAB_MATMUL_CASE_H

#include <stddef.h>
#include <stdint.h>
#include "case.h"
#include "devbuf.h"
#include "shapes.h"
#include "bench.h"
#include "tilelab.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A lab's launch function: launch_matmul, or another one under another name. */
typedef void (*tl_matmul_fn)(const float *A, const float *B, float *C, int M, int N, int K);

/* Inputs with one NaN in A and one +Inf in B: they must reach C as IEEE says. */
enum { TL_MM_FINITE = 0, TL_MM_NAN_INF = 1 };

/* C = A B by `launch`. */
tl_case_result tl_matmul_case_of(tl_matmul_fn launch, tl_mm_shape s, uint64_t seed, int inputs);

/* ... by lab 4's launch_matmul. Inline, so the kit's library does not
 * refer to it: lab 5 links matmul_case.cu without any launch_matmul. */
static inline tl_case_result tl_matmul_case(tl_mm_shape s, uint64_t seed, int inputs)
{
    return tl_matmul_case_of(launch_matmul, s, seed, inputs);
}

/*
 * Check C against an FP64 reference. Each element must lie within
 *   2 K u sum_k |a_ik b_kj|      (u = 2^-24, the fp32 unit roundoff)
 * of the exact value: the classic bound for K fp32 products summed in any
 * order is about K u sum |a b|, doubled for margin. NaN must stay NaN and
 * an infinity the same infinity. Every element is checked when M K N is at
 * most TL_MM_CHECK_ALL; beyond, whole sampled rows and columns (first, last,
 * middle, two drawn from seed) and random elements. Returns the number of
 * wrong elements checked; the first one described in `why`.
 */
#define TL_MM_CHECK_ALL (1u << 27)
size_t tl_matmul_verify(const float *A, const float *B, const float *C, tl_mm_shape s, uint64_t seed,
                        char *why, size_t len);


/* Host and device copies of one matrix of a checked case (lab 4's, lab 7's). */
typedef struct {
    float *host;
    tl_devbuf dev;
} tl_case_matrix;
void tl_case_matrix_alloc(tl_case_matrix *x, size_t n);
void tl_case_matrix_free(tl_case_matrix *x);   /* no CUDA call: safe after a fatal verdict too */

/* An input must come back as it went in, guards and every value: 0, or -1
 * with r set (out of bounds or input changed, naming `name`). */
int tl_case_input_unchanged(tl_case_matrix *x, const char *name, const char *shape, tl_case_result *r);

/* The work a benchmark times: one launch (see bench.h). */
typedef struct {
    const float *A, *B;
    float *C;
    tl_mm_shape s;
    tl_matmul_fn launch;   /* launch_matmul, or another */
} tl_matmul_args;
void tl_matmul_work(void *args);

#ifdef __cplusplus
}
#endif

#endif

/*
 * transpose_case.h — run the lab's launch_transpose once on one shape, with
 * everything the kit checks: seeded input, poisoned output, guard regions,
 * the CPU reference, an unchanged input. Used by the quick check (build/labN)
 * and the grader's hidden tests alike.
 */
#ifndef TILELAB_TRANSPOSE_CASE_H
#define TILELAB_TRANSPOSE_CASE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TL_CASE_PASS,
    TL_CASE_WRONG,           /* output differs from the reference */
    TL_CASE_OUT_OF_BOUNDS,   /* a guard word changed */
    TL_CASE_INPUT_CHANGED,   /* the kernel wrote into `in` */
    TL_CASE_CUDA_ERROR,      /* launch or kernel failed */
    TL_CASE_TIMEOUT          /* the kernel was still running at the deadline */
} tl_case_verdict;

/* After these two the GPU context is unusable: stop using CUDA in this process. */
#define TL_CASE_FATAL(v) ((v) == TL_CASE_CUDA_ERROR || (v) == TL_CASE_TIMEOUT)

typedef struct {
    tl_case_verdict verdict;
    char message[1024];      /* reason, then "Next: ..." */
} tl_case_result;

const char *tl_case_verdict_name(tl_case_verdict v);

/* How long one launch may run: TILELAB_KERNEL_TIMEOUT_S, else 10 s. */
double tl_kernel_timeout_s(void);

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

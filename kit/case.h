/*
 * case.h — one checked launch of a lab's kernel, whatever the lab: the
 * verdicts, the message that explains them, and the kernel deadline. The
 * lab kinds (transpose_case.h, matmul_case.h) build their checks on it.
 */
#ifndef TILELAB_CASE_H
#define TILELAB_CASE_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    TL_CASE_PASS,
    TL_CASE_WRONG,           /* output differs from the reference */
    TL_CASE_OUT_OF_BOUNDS,   /* a guard word changed */
    TL_CASE_INPUT_CHANGED,   /* the kernel wrote into an input */
    TL_CASE_CUDA_ERROR,      /* launch or kernel failed */
    TL_CASE_TIMEOUT,         /* the kernel was still running at the deadline */
    TL_CASE_ENDED,           /* the worker process ended (or lied) before it answered */
    TL_CASE_FORBIDDEN,       /* the sandbox stopped a system call of the lab file's */
    TL_CASE_NOT_RUN          /* the kit could not run the case: not the student's fault */
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

void tl_case_set(tl_case_result *r, tl_case_verdict v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Fill the shared memory of every SM with NaN. Shared memory is not
 * cleared between kernels, so a kernel that reads a tile element it never
 * wrote (a partial tile not zero-filled) then reads NaN, not a lucky value
 * left by an earlier kernel, and the wrong result shows. */
void tl_case_poison_shared(void);

/* Around the student's launch: ncu, run with --profile-from-start off,
 * counts what lies between these two and nothing of the harness. */
void tl_case_profile_begin(void);
void tl_case_profile_end(void);

/* Right after the student's launch: the launch's own error, then a wait for
 * the kernel with the deadline. A bad configuration fails at launch, a
 * faulting kernel while we wait, a kernel that never ends at the deadline
 * (the process then leaves without waiting for it at exit). `shape` names
 * the case in messages. 0 when the kernel finished cleanly; else -1 with r set. */
int tl_case_wait(cudaError_t launch_error, const char *shape, tl_case_result *r);

/* In a judge program the launch ran in a worker (remote_launch.cu): this
 * hook gives tl_case_wait the outcome. It returns 0 (finished cleanly), -1
 * (r set) or 1 (no remote call: wait here as usual). */
extern int (*tl_case_outcome_hook)(const char *shape, tl_case_result *r);

#ifdef __cplusplus
}
#endif

#endif

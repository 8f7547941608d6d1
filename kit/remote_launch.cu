/*
 * remote_launch.cu — tilelab.h's launch functions, as a judge has them: each
 * forwards to the student's worker (remote.h) and waits. The checked cases
 * (transpose_case.cu, matmul_case.cu, supersteps_case.cu) call them as they
 * would call the lab file, then ask tl_case_wait(), which reads the outcome
 * here. Linked into every judge program instead of a lab file.
 */
#include "tilelab.h"
#include "case.h"
#include "remote.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

static tl_run_outcome last;
static int pending;

void tl_remote_call(tl_worker *w, tl_worker_op op, const void *p0, const void *p1, const void *p2, int a0, int a1,
                    int a2)
{
    void *const ptrs[TL_WORKER_MAX_PTRS] = {(void *)p0, (void *)p1, (void *)p2};
    const int args[TL_WORKER_MAX_ARGS] = {a0, a1, a2};
    tl_worker_run(w, op, ptrs, args, 1, 0, 1, &last);
    pending = 1;
}

static void forward(tl_worker_op op, const void *p0, const void *p1, const void *p2, int a0, int a1, int a2)
{
    tl_remote_call(tl_student_worker(), op, p0, p1, p2, a0, a1, a2);
}

/* tl_case_wait's view of the call just made: 1 when none was made here. */
static int outcome_for_case(const char *shape, tl_case_result *r)
{
    if (!pending)
        return 1;
    pending = 0;
    switch (last.status) {
    case TL_RUN_OK:
        return 0;
    case TL_RUN_CUDA_ERROR: {
        cudaError_t err = (cudaError_t)last.cuda_error;
        tl_case_set(r, TL_CASE_CUDA_ERROR, "shape %s: CUDA error %s: %s (%s). Next: %s.", shape,
                    last.at_launch ? "at launch" : "while the kernel ran", cudaGetErrorName(err),
                    cudaGetErrorString(err), tl_cuda_error_hint(err));
        return -1;
    }
    case TL_RUN_TIMEOUT:
        tl_case_set(r, TL_CASE_TIMEOUT, "shape %s: timed out: the kernel was still running after %g s (one "
                    "launch should take milliseconds). Likely: a loop whose exit condition never changes, or "
                    "threads waiting at a barrier that others of the block never reach (a __syncthreads() "
                    "in a branch not every thread takes). Next: fix that loop or barrier; compute-sanitizer "
                    "--tool synccheck names a divergent barrier.", shape, tl_kernel_timeout_s());
        return -1;
    case TL_RUN_ENDED:
    case TL_RUN_BROKEN_CHANNEL:
        tl_case_set(r, TL_CASE_ENDED, "shape %s: %s.", shape, last.message);
        return -1;
    case TL_RUN_FORBIDDEN:
        tl_case_set(r, TL_CASE_FORBIDDEN, "shape %s: %s.", shape, last.message);
        return -1;
    case TL_RUN_UNDEFINED:
        tl_case_set(r, TL_CASE_ENDED, "shape %s: %s.", shape, last.message);
        return -1;
    case TL_RUN_CANNOT_START:
        tl_case_set(r, TL_CASE_NOT_RUN, "shape %s: could not grade: %s.", shape, last.message);
        return -1;
    }
    return 1;
}

/* Installed before main: every judge program's cases read the outcome.
 * And from its first instruction on, a judge (a Criterion test process
 * too, re-executed for each test) is not dumpable: a worker of the same
 * user cannot read its environment (the seed) or memory through /proc. */
__attribute__((constructor)) static void install(void)
{
    prctl(PR_SET_DUMPABLE, 0);
    tl_case_outcome_hook = outcome_for_case;
}

/* A call whose arguments break their launch's rule (launches.h) was made
 * wrong by a judge: a kit bug, never the lab file's. */
static void kit_bug(const char *name, const char *rule)
{
    fprintf(stderr, "tilelab: kit bug: %s called without %s\n", name, rule);
    abort();
}

/* Each launch function, as the kinds' table declares it: its rule, then the
 * call sent on (its wire). tilelab.h's declarations must agree. */
extern "C" {
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) \
    void launch_##name params                              \
    {                                                      \
        if (!(rule))                                       \
            kit_bug("launch_" #name, #rule);               \
        forward(TL_OP_##OP, TL_ARGS wire);                 \
    }
#include TL_LAUNCHES
#undef TL_LAUNCH
}

/* The device memory the student's worker holds beyond its baseline (kit/remote.h). */
extern "C" double tl_case_device_extra(const char **how)
{
    return tl_worker_device_extra(tl_student_worker(), how);
}

/* The cudaMalloc-family calls the last call made, as the worker counted them
 * (grader/lab_allocs.c: by name, so a complement of the measure above, which
 * sees no buffer freed before the reply). */
extern "C" unsigned tl_case_device_allocs(void)
{
    return last.device_allocs;
}

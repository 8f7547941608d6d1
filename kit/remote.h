/*
 * remote.h — the judge's side of a worker (worker_protocol.h).
 *
 * A judge program (hidden tests, measurement, quick check) has no student
 * code in it. It owns every device buffer; a worker, a separate process in
 * its own session and process group, maps them through CUDA IPC and calls
 * the lab's launch function on them when asked. The judge:
 *
 *   - starts the worker lazily, with a clean environment (no seed, no paths
 *     into the kit), in an empty folder, output capped, LD_PRELOAD dropped;
 *   - times each call on its own clock, from request to reply;
 *   - waits at most the kernel deadline, then kills the worker's group;
 *   - turns every way a worker can end (exit, signal, a call the sandbox
 *     stopped, garbage on its channel) into a named outcome, never a pass;
 *   - kills every worker's group when it exits, on Ctrl-C too.
 *
 * TILELAB_WORKER names the student's worker binary; TILELAB_WORKER_WRAP a
 * command to start it under (compute-sanitizer ..., ncu ...), words split
 * at spaces; TILELAB_WORKER_LOG a file for its output.
 */
#ifndef TILELAB_REMOTE_H
#define TILELAB_REMOTE_H

#include <stddef.h>
#include "worker_protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tl_worker tl_worker;

typedef enum {
    TL_RUN_OK,
    TL_RUN_CUDA_ERROR,      /* the launch or the kernel failed */
    TL_RUN_TIMEOUT,         /* still running at the deadline: killed */
    TL_RUN_ENDED,           /* the process ended before it answered */
    TL_RUN_FORBIDDEN,       /* the sandbox stopped a system call */
    TL_RUN_UNDEFINED,       /* the file lacks this launch function */
    TL_RUN_BROKEN_CHANNEL,  /* something else than the kit wrote the reply */
    TL_RUN_CANNOT_START     /* the kit's fault: no worker binary, no GPU ... */
} tl_run_status;

typedef struct {
    tl_run_status status;
    int cuda_error;          /* TL_RUN_CUDA_ERROR */
    int at_launch;           /* ... reported by the launch itself */
    unsigned device_allocs;  /* cudaMalloc-family calls during the launches */
    double seconds;          /* request to reply, on the judge's clock */
    char message[640];       /* what happened, for a student (not OK only) */
} tl_run_outcome;

/* A worker for the binary at `path`; `name` says whose code it runs in
 * messages ("your code", "the copy"). Started at its first run. */
tl_worker *tl_worker_new(const char *path, const char *name);
/* The student's worker, from TILELAB_WORKER (NULL when unset). */
tl_worker *tl_student_worker(void);
/* Kill the worker's whole process group and wait for it. */
void tl_worker_stop(tl_worker *w);

/* Call launch `op` with device pointers `ptrs` (judge allocations, or NULL)
 * and `args`, `repeat` times back to back, each time with every pointer
 * moved on by `rotate_bytes`; then wait for the kernels. Returns status. */
tl_run_status tl_worker_run(tl_worker *w, tl_worker_op op, void *const ptrs[TL_WORKER_MAX_PTRS],
                            const int args[TL_WORKER_MAX_ARGS], unsigned repeat, size_t rotate_bytes,
                            int poison_shared, tl_run_outcome *out);

/* Make the worker's context the GPU's current one (an empty kernel of the
 * kit's, waited for): the next request's clock then holds no context
 * switch. Untimed; a failure shows in the next run. */
void tl_worker_warm(tl_worker *w);

/* The launch functions of tilelab.h, in a judge, forward to the student's
 * worker (remote_launch.cu); tl_case_wait() reads each one's outcome. One
 * checked call as those make it, to another worker (a baseline): */
void tl_remote_call(tl_worker *w, tl_worker_op op, const void *p0, const void *p1, const void *p2, int a0, int a1,
                    int a2);

/* The end of a judge program: every worker asked to leave, given time to
 * (a wrapped sanitizer writes its summary then), then its group killed.
 * Returns `status`, or under TILELAB_WORKER_WRAP the wrapper's own exit
 * status when that is not 0 (compute-sanitizer's --error-exitcode). */
int tl_workers_finish(int status);

/* Device memory w's processes hold now beyond what they held before the lab file
 * was mapped (its baseline, taken at start), in bytes, measured from outside the
 * worker (NVML per process, else the GPU's used memory); -1 when it cannot be
 * measured (also under TILELAB_WORKER_WRAP: a sanitizer's or a profiler's own memory
 * grows with the run). `how` says which. For lab 5's in-place tests: a second buffer
 * of any kind (cudaMalloc, __device__ arrays, a module of the file's own) shows here. */
double tl_worker_device_extra(tl_worker *w, const char **how);

/* getenv(name), or `otherwise` when unset or empty. */
const char *tl_env_text(const char *name, const char *otherwise);

#ifdef __cplusplus
}
#endif

#endif

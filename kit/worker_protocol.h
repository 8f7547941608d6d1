/*
 * worker_protocol.h — what the judge and a worker say to each other.
 *
 * The student's code runs only in a worker: grader/worker.cu linked with the
 * student's object. The judge (any kit program that decides a verdict or a
 * time: the hidden tests, the measurement, the quick check) starts it, owns
 * every device buffer (shared with the worker through CUDA IPC), and asks it
 * to call one launch function. The worker answers on a pipe; nothing it says
 * is a verdict: the judge checks every buffer itself.
 *
 *   fd 3  judge -> worker: one tl_worker_setup, then tl_worker_request ...
 *   fd 4  worker -> judge: tl_worker_reply, one per setup and per request
 *
 * Fixed-size binary messages: a reply that is short, has the wrong magic or
 * the wrong sequence number was not written by the worker's kit code.
 */
#ifndef TILELAB_WORKER_PROTOCOL_H
#define TILELAB_WORKER_PROTOCOL_H

#include <stdint.h>
#include <cuda_runtime.h>

#include "launches.h"

#define TL_WORKER_MAGIC 0x746c776bu   /* "tlwk" */
enum { TL_WORKER_REQUEST_FD = 3, TL_WORKER_REPLY_FD = 4 };
enum { TL_WORKER_MAX_BUFFERS = 16, TL_WORKER_MAX_PTRS = 3, TL_WORKER_MAX_ARGS = 3 };

/* The launch functions a lab file may define, by number: tl_worker_op, one
 * per TL_LAUNCH line of the kinds' kind.def (launches.h). */

/* Setup flags. */
enum {
    /* The counters run: ncu's injected library writes files inside the
     * worker, so the sandbox lets it open files (and only then). */
    TL_WORKER_ALLOW_FILES = 1,
};

typedef struct {
    uint32_t magic;
    uint32_t flags;
    uint32_t nbuffers;
    uint32_t pad;
    cudaIpcMemHandle_t handle[TL_WORKER_MAX_BUFFERS];
} tl_worker_setup;

/* A device pointer as the worker can rebuild it: buffer `buffer` + offset. */
typedef struct {
    int32_t buffer;    /* -1: NULL */
    uint32_t pad;
    uint64_t offset;
} tl_worker_ptr;

typedef struct {
    uint32_t magic;
    uint32_t seq;
    uint32_t op;            /* tl_worker_op */
    uint32_t repeat;        /* launches back to back, then one wait */
    uint64_t rotate_bytes;  /* added to every pointer after each launch */
    uint32_t poison_shared; /* fill shared memory with NaN first (tests, not timing) */
    uint32_t quit;          /* leave: the judge is done with this worker */
    tl_worker_ptr ptr[TL_WORKER_MAX_PTRS];
    int32_t arg[TL_WORKER_MAX_ARGS];
    uint32_t pad;
} tl_worker_request;

typedef enum {
    TL_REPLY_READY,        /* setup done: CUDA up, buffers mapped, sandbox on */
    TL_REPLY_DONE,         /* the launches ran; cuda_error says how */
    TL_REPLY_UNDEFINED,    /* the file does not define this launch function */
    TL_REPLY_FORBIDDEN,    /* the sandbox stopped a system call: syscall names it */
    TL_REPLY_SETUP_FAILED, /* CUDA or the buffers could not be set up: cuda_error */
    TL_REPLY_LOADING,      /* the sandbox is on, the lab file not yet mapped: the judge measures, then says go */
    TL_REPLY_ENDED         /* the lab file ended the process (exit, abort) or threw out of a launch: `what` says how */
} tl_worker_status;

typedef struct {
    uint32_t magic;
    uint32_t seq;
    uint32_t status;        /* tl_worker_status */
    int32_t cuda_error;     /* first error: at launch, else while waiting */
    int32_t at_launch;      /* 1: the error came from the launch itself */
    int32_t syscall;        /* TL_REPLY_FORBIDDEN: the call's number */
    uint32_t device_allocs; /* cudaMalloc-family calls made during the launches */
    uint32_t pad;
    char what[192];         /* TL_REPLY_ENDED: "called exit (status 1) in launch_transpose (+0x4f, worker.so)" */
    uint64_t lab_offset;    /* ... and where, as an offset into the lab file's library (0: not in it), which
                               the judge turns into FILE:LINE (kit/remote.cu) */
    char what_alone[64];    /* ... and the call alone, "called exit (status 1)", for that sentence */
} tl_worker_reply;

#endif

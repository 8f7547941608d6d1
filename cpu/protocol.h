/*
 * protocol.h — the requests of CPU mode's judge (cpu/judge.c) to a worker
 * (cpu/worker.cc, the lab file inside), and their replies, over pipes.
 *
 * request  tlc_request, then n_in floats (the inputs, one after another)
 * reply    tlc_reply, then n_out floats (the output), then report_len bytes
 *          of report (cpu/runtime.h: tlc_write_report)
 */
#ifndef TILELAB_CPU_PROTOCOL_H
#define TILELAB_CPU_PROTOCOL_H

#include <stdint.h>

#include "guard.h"   /* TL_POISON */
#include "launches.h"

/* The output's fill before a launch: the GPU judges' own, a signalling NaN
 * (kit/guard.h). x86's arithmetic quiets a signalling NaN, so only an element
 * no thread wrote (or one copied unchanged) keeps these bits: compared
 * bitwise, they mean "nothing was written", and any other NaN is a value the
 * kernel wrote (tests/cpu/fixtures/nan_from_poison.cu). */
#define TLC_POISON TL_POISON

/* The bits of a float in shared memory that no thread has written: a quiet NaN
 * with a payload, apart from the output's fill, and kept by most arithmetic
 * on it (so a result computed from it still says where it came from). */
#define TLC_UNWRITTEN_SHARED 0x7fc0deadu

/* The request's op is a tl_worker_op (launches.h): the same numbers as the
 * GPU's workers. a, b, c are the launch's ints (its `wire`); the inputs come
 * one after another and the worker splits them as the launch's `cpu` layout
 * says. Lab 7's Bt comes with its patterns as the kit encodes them
 * (tl_sparse_encoded_floats(K, N) floats, sparse_case.h). */

enum { TLC_COUNT_ACCESSES = 1, TLC_TRACE_BRANCHES = 2 };

typedef struct {
    char magic[4];   /* "TLC1" */
    int32_t op, a, b, c;
    int32_t counting;   /* TLC_COUNT_ACCESSES: group accesses into warp requests (counters);
                           TLC_TRACE_BRANCHES: compare the paths of a warp's lanes (lab 7) */
    int32_t order;      /* 0: threads run in thread order between barriers; else a seed: shuffled */
    uint32_t n_in, n_out;
} tlc_request;

typedef struct {
    char magic[4];   /* "TLCR" */
    int32_t status;  /* the cudaError_t of the launch and the synchronise after it */
    int32_t missing; /* 1: the lab file has no such launch function */
    uint32_t n_out, report_len;
} tlc_reply;

/* The worker serves the requests of one check in turn, each run in a child of its own
 * (cpu/worker.cc); on its stdout, for each request, frames of what that child wrote:
 * "TLCO" its stdout (the tlc_reply and what follows it), "TLCE" its stderr, each LEN bytes
 * after the frame, then "TLCX" and 4 bytes: how it ended (its wait status). Before "TLCX",
 * "TLCT" and 4 bytes (the CPU milliseconds its busiest thread had used) when the worker stopped
 * the child at its deadline: TILELAB_CPU_DEADLINE_S seconds of CPU time in one of its threads
 * (the worker's environment, from the check). */
typedef struct {
    char magic[4];   /* "TLCO", "TLCE", "TLCT" or "TLCX" */
    uint32_t len;
} tlc_frame;

#endif

/*
 * runtime.h — what cpu/worker.cc asks of CPU mode's runtime (cpu/runtime.cc).
 */
#ifndef TILELAB_CPU_RUNTIME_H
#define TILELAB_CPU_RUNTIME_H

#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The worker's exit status after "not supported in CPU mode: ..." on stderr. */
enum { TLC_EXIT_UNSUPPORTED = 3 };

/* counting: TLC_COUNT_ACCESSES groups accesses into warp requests (the
 * counters), TLC_TRACE_BRANCHES compares a warp's lanes' paths (lab 7's
 * branches case; a file built with -fsanitize-coverage=trace-pc); threads: OS
 * threads for blocks (0: one per core); order: 0 runs a block's threads in
 * thread order between barriers, another value shuffles that order (a seed,
 * per block and barrier), so a race that one order hides shows in another.
 * Before the first launch. */
void tlc_configure(int counting, unsigned threads, uint32_t order);

/* Starts the OS threads blocks run on (else the first launch does). */
void tlc_start(void);

/* Launches, the first bounds finding, host accesses to device memory, races,
 * barrier findings, counters and each access instruction's sample warp (the
 * report page's pictures): one tab-separated line each, code
 * addresses as offsets into the file that holds the lab's code (cpu/judge.c
 * reads them): the lab file's library (tlc_set_code), else this program. */
void tlc_write_report(FILE *out);
/* The allocations made so far are the worker's own: the report counts the ones after. */
void tlc_mark_allocations(void);

int tlc_in_kernel(void);
int tlc_is_stack(uintptr_t addr);
/* `pc` as such an offset; 0 when it lies outside the lab's code. */
unsigned tlc_pc_offset(uintptr_t pc);

/* The lab file's library lies at [lo, hi): code addresses are offsets from lo
 * (its load address; the library is linked at 0). Before the first launch. */
void tlc_set_code(uintptr_t lo, uintptr_t hi);

#ifdef __cplusplus
}
#endif

#endif

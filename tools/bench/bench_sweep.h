/*
 * bench_sweep.h — the lab kernels linked into the bench program (`make
 * bench`). tools/bench/bench_objects writes the table, build/<arch>/bench/entries.c,
 * from the rubrics and mk/bench.mk's series list: one entry per lab file
 * (reference solution and the student's), linked or not.
 */
#ifndef TILELAB_BENCH_SWEEP_H
#define TILELAB_BENCH_SWEEP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Any lab's launch function; the sweep of its op casts it back to that op's
 * signature (transpose: tl_transpose_fn). */
typedef void (*tl_bench_any_fn)(void);

typedef struct {
    const char *op;          /* the lab's kind in its rubric: transpose (matmul later) */
    const char *series;      /* naive, tiled, padded, ... (BENCH_SERIES in mk/bench.mk) */
    const char *who;         /* reference (solutions/) or student (labs/) */
    const char *lab;         /* lab1 */
    const char *source;      /* the .cu file */
    tl_bench_any_fn launch;  /* its launch function, renamed tl_bench_<series>_<who>_launch_<op>; NULL: not linked */
    const char *skipped;     /* why it is not linked (does not compile, ...), or NULL */
} tl_bench_entry;

extern const tl_bench_entry tl_bench_entries[];
extern const int tl_bench_entry_count;

#ifdef __cplusplus
}
#endif

#endif

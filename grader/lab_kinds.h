/*
 * lab_kinds.h — what each kind of lab (the rubric's `kind`) measures and how
 * the report names it: one row per kind, each from its descriptor's TL_KIND
 * line (kinds/<kind>/kind.def). The plan (grader/plan.c) and the report read it.
 */
#ifndef TILELAB_LAB_KINDS_H
#define TILELAB_LAB_KINDS_H

#include "rubric.h"

/* The item a rubric's speedup_unit gets. */
enum speed_item {
    SPEED_OVER_BASELINE,        /* GFLOP/s over the baseline kernel (lab 5, part 3) */
    SPEED_SPARSE_OVER_CUBLAS,   /* the sparse kernel against cuBLAS's dense product (lab 7, part 2) */
};

typedef struct {
    const char *kind;                 /* the rubric's `kind` */
    /* The report */
    int matrix_product;               /* shapes M x K x N; speed in GFLOP/s against cuBLAS, not GB/s against copy */
    const char *reference;            /* what the performance fraction is of: "copy", "cuBLAS" */
    const char *performance_item;     /* the performance item's name */
    const char *leaderboard_speed, *leaderboard_fraction;   /* Gradescope's leaderboard columns */
    const char *below_floor;          /* what a time below the measurement's floor would mean */
    const char *shared_tile_handout;  /* the handout section that stages a tile in shared memory */
    enum speed_item speed_item;       /* what its speedup_unit measures, when the rubric names one */
    /* The plan: the kit workers its measurement times beside the student's, in this order */
    int copy_worker;                  /* the copy kernel (the bandwidth reference) */
    int library_worker;               /* the rubric's `library` worker, when it names one (lab 6: cuBLAS Sgeam) */
    int naive_worker, cublas_worker;  /* a naive kernel; cuBLAS FP32 */
    const char *performance_unit_timed_as;   /* the rubric's performance_unit is timed as this kind's (lab 7: matmul) */
    /* The measurement's title: measure_title, then measure_title_baseline with the
     * rubric's baseline (a %s) when it names one, then measure_title_tail, then "; " and
     * the rubric's library_title when it names one. */
    const char *measure_title, *measure_title_baseline, *measure_title_tail;
    const char *cpu_shape_option;     /* how CPU mode's check takes a shape: --shape (RxC, n) or --mnk */
} lab_kind;

/* The row of the rubric's kind; a kind without a row (or a rubric that did
 * not load) is measured as the transpose labs are. */
const lab_kind *kind_of(const tl_rubric *r);

#endif

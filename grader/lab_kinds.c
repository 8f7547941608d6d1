/*
 * lab_kinds.c — what each kind of lab (the rubric's `kind`) measures and how
 * the report names it. A new kind is a new row here, not a branch in every
 * part of the report.
 */
#include "report.h"

#include <string.h>

static const lab_kind kinds[] = {
    /* The first row is also the kind of a rubric whose kind has no row. */
    {.kind = "transpose", .reference = "copy", .performance_item = "performance: bandwidth as a fraction of copy",
     .leaderboard_speed = "Bandwidth (GB/s)", .leaderboard_fraction = "Fraction of copy",
     .below_floor = "faster than the memory can move the data", .shared_tile_handout = "The idea: stage a tile",
     .speed_item = SPEED_OVER_BASELINE},
    /* Lab 5: part 2 (in place) is timed as the transpose labs; part 3 over lab 4's kernel. */
    {.kind = "supersteps", .reference = "copy", .performance_item = "performance: bandwidth as a fraction of copy",
     .leaderboard_speed = "Bandwidth (GB/s)", .leaderboard_fraction = "Fraction of copy",
     .below_floor = "faster than the memory can move the data", .shared_tile_handout = "The idea: stage a tile",
     .speed_item = SPEED_OVER_BASELINE},
    {.kind = "matmul", .matrix_product = 1, .reference = "cuBLAS",
     .performance_item = "performance: GFLOP/s as a fraction of cuBLAS", .leaderboard_speed = "GFLOP/s",
     .leaderboard_fraction = "Fraction of cuBLAS", .below_floor = "faster than the GPU's FP32 peak",
     .shared_tile_handout = "The tiled kernel", .speed_item = SPEED_OVER_BASELINE},
    /* Lab 7: part 1 is timed as lab 4; part 2's speed is the sparse kernel against cuBLAS's dense product. */
    {.kind = "sparse", .matrix_product = 1, .reference = "cuBLAS",
     .performance_item = "performance: GFLOP/s as a fraction of cuBLAS", .leaderboard_speed = "GFLOP/s",
     .leaderboard_fraction = "Fraction of cuBLAS", .below_floor = "faster than the GPU's FP32 peak",
     .shared_tile_handout = "The tiled kernel", .speed_item = SPEED_SPARSE_OVER_CUBLAS},
};

const lab_kind *kind_of(const tl_rubric *r)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (!strcmp(kinds[i].kind, r->kind))
            return &kinds[i];
    return &kinds[0];
}

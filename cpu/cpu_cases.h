/*
 * cpu_cases.h — how large a hidden test's case CPU mode runs (cpu/hidden_cases.c).
 */
#ifndef TILELAB_CPU_CASES_H
#define TILELAB_CPU_CASES_H

#include "case.h"
#include "shapes.h"

/* About 2048 x 2048 elements (a transpose, an in-place one, a clinic's n),
 * and 2^25 multiply-adds (256^3 and a little more): a few seconds each on one core. */
enum { TL_CPU_CAP_ELEMENTS = 2100 * 2100, TL_CPU_CAP_MULTIPLY = 1 << 25 };

/* The kit's own test suites grade most fixture rows on reduced cases
 * (TILELAB_CPU_CASES=reduced in this program's environment, which ./grade sets
 * under TILELAB_TEST_CASES=reduced and the report records): 256 x 256 elements
 * (a matmul's output too) and 2^21 multiply-adds (128^3), halved as above, so
 * odd sides and partial tiles stay. Never a grade: results.json says so. */
enum { TL_CPU_REDUCED_ELEMENTS = 256 * 256, TL_CPU_REDUCED_MULTIPLY = 1 << 21 };

/* Each side halved, rounding up, until the case fits under the cap. */
tl_shape tl_cpu_cap_shape(tl_shape s);
tl_mm_shape tl_cpu_cap_mm_shape(tl_mm_shape s);

/* One run of CPU mode's check (cpu-check's code, linked in and run in a child of
 * this program: cpu/hidden_cases.c) on the student's
 * worker, for the kind being built (TL_CPU_KIND), with ARGS (NULL-ended) after
 * the common options; SHAPE names the case in messages. A kind's own CPU-mode
 * cases, kinds/KIND/KIND_cpu_cases.c (cpu/cpu.mk links it), call it. */
tl_case_result tl_cpu_run_check(const char *shape, uint64_t seed, const char *const *args);

#endif

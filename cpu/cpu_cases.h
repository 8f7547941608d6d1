/*
 * cpu_cases.h — how large a hidden test's case CPU mode runs (cpu/hidden_cases.c).
 */
#ifndef TILELAB_CPU_CASES_H
#define TILELAB_CPU_CASES_H

#include "shapes.h"

/* About 2048 x 2048 elements (a transpose, an in-place one, a clinic's n),
 * and 2^25 multiply-adds (256^3 and a little more): a few seconds each on one core. */
enum { TL_CPU_CAP_ELEMENTS = 2100 * 2100, TL_CPU_CAP_MULTIPLY = 1 << 25 };

/* Each side halved, rounding up, until the case fits under the cap. */
tl_shape tl_cpu_cap_shape(tl_shape s);
tl_mm_shape tl_cpu_cap_mm_shape(tl_mm_shape s);

#endif

/*
 * lab_launches.h — the launch functions a worker calls, found in the lab
 * file's library (grader/worker.cu's lab worker, cpu/worker.cc): one field
 * per launch of the kinds' table (launches.h). Those the file does not define
 * stay NULL. C++ only: both workers are.
 */
#ifndef TILELAB_LAB_LAUNCHES_H
#define TILELAB_LAB_LAUNCHES_H

#include <dlfcn.h>

#include "launches.h"
#include "tilelab.h"   /* what the `call` columns use: TL_SPARSE_BT_FLOATS */

#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) typedef void(*tl_##name##_launch) params;
#include TL_LAUNCHES
#undef TL_LAUNCH

struct tl_lab_launches {
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) tl_##name##_launch name;
#include TL_LAUNCHES
#undef TL_LAUNCH
};

/* Each launch function, looked up in the library `so` (dlopen). */
static inline tl_lab_launches tl_lab_launches_of(void *so)
{
    tl_lab_launches l;
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) l.name = (tl_##name##_launch)dlsym(so, "launch_" #name);
#include TL_LAUNCHES
#undef TL_LAUNCH
    return l;
}

/* Whether the table holds launch `op`. */
static inline int tl_lab_launch_defined(const tl_lab_launches *l, unsigned op)
{
    switch (op) {
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) case TL_OP_##OP: return l->name != NULL;
#include TL_LAUNCHES
#undef TL_LAUNCH
    }
    return 0;
}

/* Calls launch `op` of the table: its arguments rebuilt from the pointers p0,
 * p1, p2 and the ints a[0..2] as the kind's kind.def says (its `call`).
 * The caller has checked tl_lab_launch_defined. */
static inline void tl_lab_launch_call(const tl_lab_launches *l, unsigned op, float *p0, float *p1, float *p2,
                                      const int *a)
{
    (void)p0, (void)p1, (void)p2, (void)a;
    switch (op) {
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) case TL_OP_##OP: l->name(TL_ARGS call); break;
#include TL_LAUNCHES
#undef TL_LAUNCH
    }
}

#endif

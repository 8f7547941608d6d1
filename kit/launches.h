/*
 * launches.h — the launch functions a lab file may define, one table for the
 * whole kit. Each kind declares its own in kinds/<kind>/kind.def (TL_LAUNCH) and
 * kinds/kinds.def lists the kinds; a reader defines TL_LAUNCH to take the
 * columns it needs, includes TL_LAUNCHES, then undefines it:
 *
 *   TL_LAUNCH(OP, name, params, wire, call, rule, cpu)
 *     OP      the worker protocol's number: TL_OP_<OP>
 *     name    the lab file's function is launch_<name>; the workers' table
 *             of them (lab_launches.h) has a field <name>
 *     params  its parameter list, as tilelab.h declares it for students
 *     wire    what a judge sends for a call, from params: 3 device pointers
 *             (NULL: unused) then 3 ints (worker_protocol.h's request)
 *     call    the worker's arguments, from the pointers p0, p1, p2 it
 *             rebuilt and the ints a[0..2]
 *     rule    what a judge's call must hold (kit/remote_launch.cu aborts
 *             otherwise); 1: nothing
 *     cpu     how CPU mode lays out the buffers (tl_cpu_layout)
 *
 * Plain C, no CUDA: CPU mode's judge (cpu/judge.c) and the inspector read it.
 */
#ifndef TILELAB_LAUNCHES_H
#define TILELAB_LAUNCHES_H

#define TL_LAUNCHES "../kinds/kinds.def"

/* Strips the parentheses of a column: f(TL_ARGS wire). */
#define TL_ARGS(...) __VA_ARGS__

/* CPU mode's request (cpu/protocol.h) carries the inputs one after another
 * and gets one output back; the worker (cpu/worker.cc) hands them over as: */
typedef enum {
    TL_CPU_ONE_IN,     /* p0 the input, p1 the output */
    TL_CPU_TWO_IN,     /* p0 the first a*c floats, p1 the rest in the same allocation, p2 the output */
    TL_CPU_TWO_ALLOCS, /* as TL_CPU_TWO_IN, the rest in an allocation of its own */
    TL_CPU_INPLACE     /* p0 the input, overwritten: the output */
} tl_cpu_layout;

/* The launch functions, by number: the judge's and a worker's (GPU: kit/worker_protocol.h; CPU: cpu/protocol.h). */
typedef enum {
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) TL_OP_##OP,
#include TL_LAUNCHES
#undef TL_LAUNCH
    TL_OP_WARM,        /* the kit's empty kernel: makes the worker's context the GPU's current one */
    TL_OP_COUNT
} tl_worker_op;

/* launch_<name>, by number (the inspector's roots, the judges' messages). */
static const char *const tl_launch_names[TL_OP_COUNT] = {
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) "launch_" #name,
#include TL_LAUNCHES
#undef TL_LAUNCH
    "the kit's empty kernel"};

/* CPU mode's layout, by number. */
static const tl_cpu_layout tl_cpu_layouts[TL_OP_COUNT] = {
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) cpu,
#include TL_LAUNCHES
#undef TL_LAUNCH
    TL_CPU_ONE_IN};

#endif

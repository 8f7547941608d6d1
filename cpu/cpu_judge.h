/*
 * cpu_judge.h — a kind's own CPU-mode check, kept in its folder
 * (kinds/KIND/KIND_cpu_judge.c, linked into cpu-check by cpu/cpu.mk when it is
 * there), for a kind of one launch on n floats: `cpu-check --kind KIND [--n N]`
 * runs that launch on n seeded floats, then again in a shuffled thread order,
 * and compares its output with the kind's reference. The four kinds built into
 * cpu/judge.c predate it.
 */
#ifndef TILELAB_CPU_JUDGE_H
#define TILELAB_CPU_JUDGE_H

#include <stdint.h>

typedef struct tlc_kind {
    const char *kind;    /* the rubric's kind */
    int op;              /* its launch: TL_OP_<OP> (launches.h); its `cpu` layout is TL_CPU_ONE_IN */
    const char *label;   /* a case is named "LABEL n=N" */
    int n_default;       /* the length without --n */
    uint32_t (*n_out)(int n);   /* floats the launch writes for n in */
    /* want[0..n_out) and how far each may be off (0: bitwise), from in[0..n) */
    void (*reference)(const float *in, int n, double *want, double *bound);
    struct tlc_kind *next;
} tlc_kind;

void tlc_register_kind(tlc_kind *k);

/* Registers the tlc_kind VAR before cpu-check's main: no list of kinds to edit. */
#define TLC_KIND(var) \
    __attribute__((constructor)) static void register_##var(void) { tlc_register_kind(&var); }

#endif

/*
 * The table of graded submissions, read from the files themselves: one row
 * for each lab's solution and skeleton (the labs are the rubrics in
 * labs/<id>-<name>/lab.rubric), and one for every fixture under tests/submissions/ but
 * static/. Each fixture says what ./grade must answer in its own `expect:`
 * header, and what ./grade --cpu must answer in its `expect-cpu:` (or why CPU
 * mode cannot: `expect-cpu-skip:`); the format: tests/submissions/README.md.
 * tests/gpu/grading.c grades the rows on a GPU, tests/cpu/grade.c in CPU
 * mode; tests/tools/fixtures.c checks the table without either.
 */
#ifndef TILELAB_TESTS_FIXTURES_H
#define TILELAB_TESTS_FIXTURES_H

#include <stddef.h>

#define FIXTURES_DIR "tests/submissions"
#define RUNS "build/tests/gpu-runs"
/* Where a patch applied to its lab's solution is written, and graded from. */
#define PATCHED RUNS "/patched"

enum { FX_TEXT = 256, FX_MAX_DIAGNOSES = 4 };

/* expect: exit by-score — 0 at full marks, else 1. */
#define FX_EXIT_BY_SCORE (-1)

/* What one ./grade must answer: an `expect:` line, or an `expect-cpu:` one. */
typedef struct {
    int exit_status;            /* or FX_EXIT_BY_SCORE */
    double min_score, max_score;
    int full;                   /* score max (expect-cpu only): the maximum of what was graded, whatever it is */
    int diagnoses;
    char diagnosis[FX_MAX_DIAGNOSES][FX_TEXT];  /* each must appear in results.json's outputs */
} fx_outcome;

typedef struct {
    char name[128];             /* lab1/hangs, attacks/lab3/asm_exit, lab2/solution: what messages call it */
    char run[128];              /* lab1-hangs: its folder under RUNS */
    char path[FX_TEXT];         /* the file holding the header (none for a solution or skeleton without one) */
    char lab[32];
    char solution[FX_TEXT];     /* the lab's reference solution: what a patch applies to */
    char graded[FX_TEXT];       /* the file ./grade gets: for a patch, its output under PATCHED */
    int is_patch;
    fx_outcome expect;          /* expect: what ./grade says on a GPU */
    fx_outcome cpu;             /* expect-cpu: what ./grade --cpu says (a lab row without it: the default) */
    int has_cpu;                /* an expect-cpu: line, or a lab row's default */
    char cpu_skip[FX_TEXT];     /* expect-cpu-skip: why CPU mode cannot grade it as a GPU does */
    char args[FX_TEXT];         /* expect-args: more ./grade options */
    char env[FX_TEXT];          /* expect-env: NAME=VALUE for ./grade */
    int timeout_s;              /* expect-timeout: one of fixture_timeouts; 0: none */
    int repeat;                 /* expect-repeat: graded this many times, the same score each time */
    char skip[FX_TEXT];         /* expect-skip: why the suite does not grade it */
    int full_cases;             /* expect-cases: full; a solution row's default: CPU mode's suite grades it on
                                 * the real cases, never on reduced ones (TILELAB_TEST_CASES, tests/cpu/grade.c) */
    char error[2 * FX_TEXT];    /* what is wrong with the fixture; empty when nothing */
} fixture;

/* The time limits a fixture may ask for (expect-timeout), in seconds; 0:
 * none. Criterion sets a test's limit where the test is declared, so the
 * GPU suite declares one test per limit from this list (tests/gpu/grading.c). */
#define FIXTURE_TIMEOUTS(X) X(0) X(120) X(300)
extern const int fixture_timeouts[];
extern const int fixture_timeout_count;

/* The whole table, from the current folder (the kit's root), in a stable
 * order; malloc'd. Returns the number of rows, or -1 (err says why) when
 * there are no labs. Malformed fixtures get a row with `error` set. */
int fixtures_load(fixture **table, char *err, size_t err_len);

/* Reads the header of `path` into f's expectation (f->error on a problem). */
void fixture_read_header(const char *path, fixture *f);

#endif

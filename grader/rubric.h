/*
 * rubric.h — a lab's rubric file (grader/rubrics/labN.rubric): `key value`
 * lines, '#' starts a comment. Scoring rules live here and nowhere else.
 */
#ifndef TILELAB_RUBRIC_H
#define TILELAB_RUBRIC_H

#include <stddef.h>

typedef struct {
    char id[32];
    char title[128];
    char kind[32];
    double correctness_points;
    double performance_points;
    double kernel_timeout_s;
    double test_timeout_s;
    double measure_timeout_s;
    double perf_low, perf_high;   /* fractions of copy speed */
    /* Optional: 0 or empty when the lab does not use them. */
    double memcheck_points;       /* compute-sanitizer memcheck clean on the awkward shape */
    double racecheck_points;      /* compute-sanitizer racecheck clean on it */
    double structure_points;      /* the compiled kernel uses what the lab teaches */
    char require[64];             /* what structure means: "shared barrier" */
    char forbidden_calls[256];    /* symbol prefixes a lab file may not call */
    char perf_next[256];          /* the next step when performance points are lost */
    char counters_shape[32];      /* "1024x1024": read ncu's counters for the launch at this shape */
    double bank_conflict_points;  /* shared-memory bank conflicts per request at most ... */
    double bank_conflicts_max;    /* ... this many (counters_shape needed) */
    char baseline[32];            /* "lab2": also time the student's own file of that lab */
    char sanitizer_shape[32];     /* the shape the sanitizers run on: "257x131", "67x45x33" */
} tl_rubric;

/* 0 on success; else -1 with "file:line: what" in err. */
int tl_rubric_load(const char *path, tl_rubric *r, char *err, size_t errlen);

/* Everything the rubric can award. */
double tl_rubric_max_points(const tl_rubric *r);

/* Points for a measured fraction of copy: 0 at or below low, all at or above high, linear between. */
double tl_rubric_perf_points(const tl_rubric *r, double fraction_of_copy);

#endif

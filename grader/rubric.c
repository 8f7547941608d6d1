/* rubric.c — read a rubric file; points from a measured ratio. */
#include "rubric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <glob.h>

enum field_type { TEXT, NUMBER };

static const struct field {
    const char *key;
    enum field_type type;
    size_t offset, size;
    int optional;
} fields[] = {
#define TEXT_FIELD(name, opt) {#name, TEXT, offsetof(tl_rubric, name), sizeof(((tl_rubric *)0)->name), opt}
#define NUMBER_FIELD(name, opt) {#name, NUMBER, offsetof(tl_rubric, name), sizeof(double), opt}
    TEXT_FIELD(id, 0), TEXT_FIELD(title, 0), TEXT_FIELD(kind, 0),
    NUMBER_FIELD(correctness_points, 0), NUMBER_FIELD(performance_points, 0),
    NUMBER_FIELD(kernel_timeout_s, 0), NUMBER_FIELD(test_timeout_s, 0), NUMBER_FIELD(measure_timeout_s, 0),
    NUMBER_FIELD(perf_low, 0), NUMBER_FIELD(perf_high, 0),
    NUMBER_FIELD(memcheck_points, 1), NUMBER_FIELD(racecheck_points, 1), NUMBER_FIELD(structure_points, 1),
    TEXT_FIELD(require, 1), TEXT_FIELD(allowed_calls, 1), TEXT_FIELD(perf_next, 1),
    TEXT_FIELD(counters_shape, 1), NUMBER_FIELD(bank_conflict_points, 1), NUMBER_FIELD(bank_conflicts_max, 1),
    TEXT_FIELD(baseline, 1), TEXT_FIELD(baseline_dirs, 1), TEXT_FIELD(bench_launch, 1), TEXT_FIELD(sanitizer_shape, 1), NUMBER_FIELD(synccheck_points, 1),
    TEXT_FIELD(performance_unit, 1), NUMBER_FIELD(speedup_points, 1), NUMBER_FIELD(speedup_low, 1),
    NUMBER_FIELD(speedup_high, 1), TEXT_FIELD(speedup_unit, 1), TEXT_FIELD(speedup_next, 1),
    TEXT_FIELD(double_buffered_unit, 1),
    TEXT_FIELD(hidden_suites, 1), NUMBER_FIELD(vector_points, 1), NUMBER_FIELD(vector_max_requests, 1),
    NUMBER_FIELD(counters_jitter, 1), TEXT_FIELD(counters_range, 1), NUMBER_FIELD(counters_timed, 1), NUMBER_FIELD(ffma_ratio_max, 1),
    NUMBER_FIELD(profiled_time_low, 1), NUMBER_FIELD(profiled_time_high, 1),
    TEXT_FIELD(library, 1), TEXT_FIELD(library_title, 1),
    TEXT_FIELD(counters_unit, 1), NUMBER_FIELD(uniform_points, 1), NUMBER_FIELD(divergent_max, 1),
    TEXT_FIELD(contrast, 1), TEXT_FIELD(bench_series, 1),
    TEXT_FIELD(arithmetic, 1), NUMBER_FIELD(static_device_bytes_max, 1),
    NUMBER_FIELD(build_timeout_s, 1), NUMBER_FIELD(build_memory_mb, 1),
};
enum { FIELD_COUNT = sizeof fields / sizeof fields[0] };

/* "reverse 1 10 clean 1000 clinic: reverse_blocks" */
static int parse_unit(tl_rubric *r, const char *value, char *err, size_t errlen)
{
    if (r->nunits == TL_RUBRIC_MAX_UNITS) {
        snprintf(err, errlen, "more than %d units", TL_RUBRIC_MAX_UNITS);
        return -1;
    }
    tl_rubric_unit *u = &r->units[r->nunits];
    char gate[16];
    int title_at = 0;
    if (!value || sscanf(value, "%15s %d %lf %15s %31s %n", u->name, &u->part, &u->points, gate, u->sanitizer_shape,
                         &title_at) != 5 || !value[title_at] || (strcmp(gate, "clean") && strcmp(gate, "-"))) {
        snprintf(err, errlen, "a unit line is: unit NAME PART POINTS clean|- SANITIZER_SHAPE TITLE");
        return -1;
    }
    u->gated = !strcmp(gate, "clean");
    snprintf(u->title, sizeof u->title, "%s", value + title_at);
    r->nunits++;
    return 0;
}

/* "transpose 55 1x1 1x777 ...": one test group. */
static int parse_tests(tl_rubric *r, const char *value, char *err, size_t errlen)
{
    if (r->ntest_groups == TL_RUBRIC_MAX_TEST_GROUPS) {
        snprintf(err, errlen, "more than %d tests lines", TL_RUBRIC_MAX_TEST_GROUPS);
        return -1;
    }
    tl_rubric_test_group *t = &r->test_groups[r->ntest_groups];
    memset(t, 0, sizeof *t);
    int names_at = 0;
    if (!value || sscanf(value, "%15s %lf %n", t->suite, &t->points, &names_at) != 2 || !value[names_at] ||
        !(t->points >= 0)) {
        snprintf(err, errlen, "a tests line is: tests SUITE POINTS NAME... (the named hidden tests share POINTS)");
        return -1;
    }
    for (const char *at = value + names_at; *at;) {
        size_t n = strcspn(at, " \t");
        if (t->ntests == TL_RUBRIC_MAX_GROUP_TESTS || n >= sizeof t->tests[0]) {
            snprintf(err, errlen, "a tests line names at most %d tests of at most %zu characters",
                     TL_RUBRIC_MAX_GROUP_TESTS, sizeof t->tests[0] - 1);
            return -1;
        }
        memcpy(t->tests[t->ntests], at, n);
        t->tests[t->ntests][n] = '\0';
        for (int g = 0; g <= r->ntest_groups; g++) {   /* g == ntest_groups: this line's earlier names */
            const tl_rubric_test_group *earlier = &r->test_groups[g];
            for (int k = 0; k < earlier->ntests && !strcmp(earlier->suite, t->suite); k++)
                if (!strcmp(earlier->tests[k], t->tests[t->ntests])) {
                    snprintf(err, errlen, "hidden test %s of suite %s is named twice", t->tests[t->ntests], t->suite);
                    return -1;
                }
        }
        t->ntests++;
        at += n;
        at += strspn(at, " \t");
    }
    r->ntest_groups++;
    return 0;
}

/* 1 when `word` is one of the blank-separated words of `list`. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *at = list; *at; at += strcspn(at, " \t"), at += strspn(at, " \t"))
        if (!strncmp(at, word, n) && (at[n] == '\0' || at[n] == ' ' || at[n] == '\t'))
            return 1;
    return 0;
}

/* The tests lines against the lab: its suites, and points that add up. */
static int check_tests(const tl_rubric *r, const char *path, char *err, size_t errlen)
{
    if (!r->ntest_groups) {
        snprintf(err, errlen, "%s: no tests lines: each hidden test's points are `tests SUITE POINTS NAME...`", path);
        return -1;
    }
    for (int g = 0; g < r->ntest_groups; g++) {
        const char *suite = r->test_groups[g].suite;
        /* The lab's suites: its units, else hidden_suites, else its kind's one suite, named after it. */
        int known = r->nunits ? tl_rubric_find_unit(r, suite) != NULL
                  : r->hidden_suites[0] ? has_word(r->hidden_suites, suite) : !strcmp(suite, r->kind);
        if (!known) {
            snprintf(err, errlen, "%s: tests line for suite '%s', which is not one of this lab's suites (%s)", path,
                     suite, r->nunits ? "its units" : r->hidden_suites[0] ? "hidden_suites" : "its kind's");
            return -1;
        }
    }
    for (int u = 0; u < (r->nunits ? r->nunits : 1); u++) {
        const char *unit = r->nunits ? r->units[u].name : NULL;
        double want = unit ? r->units[u].points : r->correctness_points, sum = 0;
        for (int g = 0; g < r->ntest_groups; g++)
            if (!unit || !strcmp(r->test_groups[g].suite, unit))
                sum += r->test_groups[g].points;
        if (fabs(sum - want) > 1e-9) {
            if (unit)
                snprintf(err, errlen, "%s: the tests lines of unit %s add up to %g points, not its %g", path, unit,
                         sum, want);
            else
                snprintf(err, errlen, "%s: the tests lines add up to %g points, not correctness_points %g", path, sum,
                         want);
            return -1;
        }
    }
    return 0;
}

/* One field of a `|`-separated line, blanks trimmed; NULL when empty or too long. */
static const char *next_field(char **cursor, char *out, size_t size)
{
    char *start = *cursor, *bar = strchr(start, '|');
    size_t n = bar ? (size_t)(bar - start) : strlen(start);
    *cursor = bar ? bar + 1 : start + n;
    while (n && (*start == ' ' || *start == '\t'))
        start++, n--;
    while (n && (start[n - 1] == ' ' || start[n - 1] == '\t'))
        n--;
    if (!n || n >= size)
        return NULL;
    memcpy(out, start, n);
    out[n] = '\0';
    return out;
}

/* "NVIDIA H200 | sm_90, driver 580.159.04, CUDA 13.0, 2026-11-24 | the reference 0.135 of copy" */
static int parse_calibration(tl_rubric *r, const char *value, char *err, size_t errlen)
{
    if (r->ncalibrations == TL_RUBRIC_MAX_CALIBRATIONS) {
        snprintf(err, errlen, "more than %d calibrated lines", TL_RUBRIC_MAX_CALIBRATIONS);
        return -1;
    }
    tl_rubric_calibration *c = &r->calibrations[r->ncalibrations];
    char copy[512];
    snprintf(copy, sizeof copy, "%s", value ? value : "");
    char *cursor = copy;
    int bars = 0;
    for (const char *p = copy; *p; p++)
        bars += *p == '|';
    if (bars != 2 || !next_field(&cursor, c->gpu, sizeof c->gpu) || !next_field(&cursor, c->setup, sizeof c->setup) ||
        !next_field(&cursor, c->measured, sizeof c->measured)) {
        snprintf(err, errlen, "a calibrated line is: calibrated GPU | SETUP | MEASURED (three fields, none empty)");
        return -1;
    }
    r->ncalibrations++;
    return 0;
}

int tl_rubric_load(const char *path, tl_rubric *r, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot open the rubric", path);
        return -1;
    }
    memset(r, 0, sizeof *r);
    int seen[FIELD_COUNT] = {0};
    char line[2048];   /* a tests line names many tests */
    int lineno = 0, status = 0;
    while (status == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *key = strtok(line, " \t\r\n");
        if (!key)
            continue;
        char *value = strtok(NULL, "\r\n");
        while (value && (*value == ' ' || *value == '\t'))
            value++;
        if (value) {   /* trim trailing blanks left by a comment */
            char *end = value + strlen(value);
            while (end > value && (end[-1] == ' ' || end[-1] == '\t'))
                *--end = '\0';
        }
        /* Repeatable: `unit`, one kernel of a lab with several; `tests`, hidden tests and their
         * points; `calibrated`, one GPU. */
        int unit = !strcmp(key, "unit"), tests = !strcmp(key, "tests");
        if (unit || tests || !strcmp(key, "calibrated")) {
            if ((unit ? parse_unit : tests ? parse_tests : parse_calibration)(r, value, err, errlen) != 0) {
                char why[256];
                snprintf(why, sizeof why, "%s", err);
                snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
                status = -1;
                break;
            }
            continue;
        }
        int k = 0;
        while (k < FIELD_COUNT && strcmp(fields[k].key, key) != 0)
            k++;
        if (k == FIELD_COUNT || !value || !*value) {
            snprintf(err, errlen, "%s:%d: %s '%s'", path, lineno,
                     k == FIELD_COUNT ? "unknown key" : "no value for", key);
            status = -1;
            break;
        }
        char *dest = (char *)r + fields[k].offset;
        if (fields[k].type == TEXT) {
            snprintf(dest, fields[k].size, "%s", value);
        } else {
            char *end;
            double d = strtod(value, &end);
            if (end == value || *end) {
                snprintf(err, errlen, "%s:%d: '%s' is not a number for %s", path, lineno, value, key);
                status = -1;
                break;
            }
            memcpy(dest, &d, sizeof d);
        }
        seen[k] = 1;
    }
    fclose(f);
    for (int k = 0; status == 0 && k < FIELD_COUNT; k++) {
        if (!seen[k] && !fields[k].optional) {
            snprintf(err, errlen, "%s: missing key '%s'", path, fields[k].key);
            status = -1;
        }
    }
    if (status == 0 && r->memcheck_points + r->racecheck_points + r->synccheck_points > 0 && !r->sanitizer_shape[0] && !r->nunits) {
        snprintf(err, errlen, "%s: sanitizer points need sanitizer_shape (or unit lines, each with its shape)", path);
        status = -1;
    }
    double unit_points = 0;
    for (int u = 0; u < r->nunits; u++)
        unit_points += r->units[u].points;
    if (status == 0 && r->nunits > 0 && fabs(unit_points - r->correctness_points) > 1e-9) {
        snprintf(err, errlen, "%s: the units' points add up to %g, not correctness_points %g", path, unit_points,
                 r->correctness_points);
        status = -1;
    }
    if (status == 0)
        status = check_tests(r, path, err, errlen);
    if (status == 0 && ((r->performance_unit[0] && !tl_rubric_find_unit(r, r->performance_unit)) ||
                        (r->speedup_unit[0] && !tl_rubric_find_unit(r, r->speedup_unit)))) {
        snprintf(err, errlen, "%s: performance_unit or speedup_unit names no unit", path);
        status = -1;
    }
    /* Lab 7 (kind sparse) compares its sparse kernel with its own dense one: no baseline. */
    if (status == 0 && r->speedup_points > 0 &&
        !(r->speedup_low < r->speedup_high && (r->baseline[0] || !strcmp(r->kind, "sparse")))) {
        snprintf(err, errlen, "%s: speedup_points need a baseline and speedup_low below speedup_high", path);
        status = -1;
    }
    if (status == 0 && (r->profiled_time_low > 0 || r->profiled_time_high > 0) &&
        !(r->profiled_time_low > 0 && r->profiled_time_low < 1 && r->profiled_time_high > 1 &&
          (r->counters_timed > 0 || r->ffma_ratio_max > 0))) {
        snprintf(err, errlen, "%s: profiled_time_low and profiled_time_high go together, below and above 1, with "
                 "counters_timed or ffma_ratio_max (the counts taken at the timed shape)", path);
        status = -1;
    }
    if (status == 0 && r->bank_conflict_points > 0 && !r->counters_shape[0]) {
        snprintf(err, errlen, "%s: bank_conflict_points needs counters_shape (the shape ncu profiles)", path);
        status = -1;
    }
    if (status == 0 && r->vector_points > 0 && !(r->counters_shape[0] && r->vector_max_requests > 0)) {
        snprintf(err, errlen, "%s: vector_points need counters_shape and vector_max_requests", path);
        status = -1;
    }
    if (status == 0 && r->vector_points > 0 && r->bank_conflict_points > 0) {   /* one counters item scores one thing */
        snprintf(err, errlen, "%s: vector_points and bank_conflict_points do not go together", path);
        status = -1;
    }
    if (status == 0 && r->uniform_points > 0 &&
        !(r->counters_shape[0] && r->divergent_max > 0 && tl_rubric_find_unit(r, r->counters_unit))) {
        snprintf(err, errlen, "%s: uniform_points need counters_shape, divergent_max and a counters_unit that names a unit",
                 path);
        status = -1;
    }
    if (status == 0 && r->counters_unit[0] && !tl_rubric_find_unit(r, r->counters_unit)) {
        snprintf(err, errlen, "%s: counters_unit names no unit", path);
        status = -1;
    }
    if (status == 0 && !r->library[0] != !r->library_title[0]) {
        snprintf(err, errlen, "%s: library and library_title go together", path);
        status = -1;
    }
    /* A lab is a folder: labs/<id>-<name>/lab.rubric says its own id. */
    const char *slash = strrchr(path, '/');
    if (status == 0 && slash && !strcmp(slash, "/lab.rubric")) {
        const char *folder = slash;
        while (folder > path && folder[-1] != '/')
            folder--;
        size_t n = strlen(r->id);
        if (strncmp(folder, r->id, n) || folder[n] != '-') {
            snprintf(err, errlen, "%s: id '%s', but the folder is not %s-<name>/", path, r->id, r->id);
            status = -1;
        }
    }
    if (status == 0 && !(r->perf_low < r->perf_high)) {
        snprintf(err, errlen, "%s: perf_low must be below perf_high", path);
        status = -1;
    }
    return status;
}

double tl_rubric_max_points(const tl_rubric *r)
{
    return r->correctness_points + r->performance_points + r->memcheck_points + r->racecheck_points +
           r->structure_points + r->bank_conflict_points + r->synccheck_points + r->speedup_points +
           r->vector_points + r->uniform_points;
}

double tl_rubric_cpu_max_points(const tl_rubric *r)
{
    return tl_rubric_max_points(r) - r->performance_points - r->speedup_points - r->uniform_points;
}

double tl_rubric_perf_points(const tl_rubric *r, double fraction_of_copy)
{
    double t = (fraction_of_copy - r->perf_low) / (r->perf_high - r->perf_low);
    if (!(t > 0))   /* also NaN */
        t = 0;
    if (t > 1)
        t = 1;
    return t * r->performance_points;
}

double tl_rubric_speedup_points(const tl_rubric *r, double speedup)
{
    double t = (speedup - r->speedup_low) / (r->speedup_high - r->speedup_low);
    if (!(t > 0))   /* also NaN */
        t = 0;
    if (t > 1)
        t = 1;
    return t * r->speedup_points;
}

const char *tl_rubric_test_name(const char *criterion_name)
{
    const char *underscore = strchr(criterion_name, '_');
    return underscore ? underscore + 1 : criterion_name;
}

double tl_rubric_test_points(const tl_rubric *r, const char *suite, const char *criterion_name)
{
    const char *name = tl_rubric_test_name(criterion_name);
    for (int g = 0; g < r->ntest_groups; g++) {
        const tl_rubric_test_group *t = &r->test_groups[g];
        for (int k = 0; strcmp(t->suite, suite) == 0 && k < t->ntests; k++)
            if (!strcmp(t->tests[k], name))
                return t->points / t->ntests;
    }
    return -1;
}

const tl_rubric_unit *tl_rubric_find_unit(const tl_rubric *r, const char *name)
{
    for (int u = 0; u < r->nunits; u++)
        if (!strcmp(r->units[u].name, name))
            return &r->units[u];
    return NULL;
}

double tl_rubric_unit_sanitizer_points(const tl_rubric *r)
{
    int ungated = 0;
    for (int u = 0; u < r->nunits; u++)
        ungated += !r->units[u].gated;
    return (r->memcheck_points + r->racecheck_points + r->synccheck_points) / (ungated ? ungated : 1);
}

int tl_rubric_path(const char *id, char *path, size_t size)
{
    char pattern[256];
    glob_t g;
    /* An id is a name, not a pattern: lab1 never matches lab10-*. */
    if (!id[0] || strpbrk(id, "*?[/-") || snprintf(pattern, sizeof pattern, "labs/%s-*/lab.rubric", id) >= (int)sizeof pattern)
        return -1;
    int matched = glob(pattern, 0, NULL, &g) == 0, found = matched && g.gl_pathc == 1;
    if (found)
        snprintf(path, size, "%s", g.gl_pathv[0]);
    if (matched)
        globfree(&g);
    return found ? 0 : -1;
}

int tl_rubric_lab_list(char *out, size_t size)
{
    glob_t g;
    out[0] = '\0';
    if (glob("labs/*-*/lab.rubric", 0, NULL, &g) != 0)
        return -1;
    size_t used = 0;
    int n = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *folder = g.gl_pathv[i] + strlen("labs/");
        int len = (int)(strchr(folder, '-') - folder);
        int w = snprintf(out + used, size - used, "%s%.*s", n ? " " : "", len, folder);
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
        n++;
    }
    globfree(&g);
    return n;
}

int tl_rubric_value(const tl_rubric *r, const char *key, char *out, size_t size)
{
    for (int k = 0; k < FIELD_COUNT; k++) {
        if (strcmp(fields[k].key, key))
            continue;
        const char *src = (const char *)r + fields[k].offset;
        if (fields[k].type == TEXT) {
            snprintf(out, size, "%s", src);
        } else {
            double d;
            memcpy(&d, src, sizeof d);
            if (d == 0 && fields[k].optional)
                out[0] = '\0';
            else
                snprintf(out, size, "%g", d);
        }
        return 0;
    }
    if (!strcmp(key, "units")) {   /* the unit names, in report order */
        size_t used = 0;
        out[0] = '\0';
        for (int u = 0; u < r->nunits && used < size; u++)
            used += (size_t)snprintf(out + used, size - used, "%s%s", u ? " " : "", r->units[u].name);
        return 0;
    }
    return -1;
}

/* splitmix64: the seed's i-th draw. */
static unsigned long long seed_draw(unsigned long long seed, int i)
{
    unsigned long long z = seed + 0x9E3779B97F4A7C15ull * (unsigned long long)(i + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int tl_rubric_counters_shape(const tl_rubric *r, const char *seed_text, char *out, size_t size)
{
    char *end;
    unsigned long long seed = strtoull(seed_text, &end, 10);
    if (size)
        out[0] = '\0';
    if (!*seed_text || *end)
        return -1;
    if (!r->counters_shape[0])
        return 0;
    long side[3];
    int n = sscanf(r->counters_shape, "%ldx%ldx%ld", &side[0], &side[1], &side[2]);
    long lo, hi, step;
    int ranged = sscanf(r->counters_range, "%ld %ld %ld", &lo, &hi, &step) == 3 && lo > 0 && hi >= lo && step > 0;
    for (int i = 0; i < n; i++) {
        if (ranged)
            side[i] = lo + step * (long)(seed_draw(seed, i) % (unsigned long long)((hi - lo) / step + 1));
        else if (r->counters_jitter > 0)   /* the old draw: seed % 9 - 4 steps, then seed / 9 % 9 - 4 */
            side[i] += (long)r->counters_jitter * (long)((i == 0 ? seed : seed / 9) % 9) - 4 * (long)r->counters_jitter;
    }
    size_t used = 0;
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(out + used, size - used, "%s%ld", i ? "x" : "", side[i]);
    return 0;
}

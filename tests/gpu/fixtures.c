/*
 * The table of graded submissions (fixtures.h): the labs from
 * labs/<id>-<name>/lab.rubric, each one's solution and skeleton, and the fixtures under
 * tests/submissions/ with the expectations their `expect:` and `expect-cpu:`
 * headers state. No GPU, no Criterion: the GPU suite (tests/gpu/grading.c)
 * and CPU mode's (tests/cpu/grade.c) grade the rows, tests/tools/fixtures.c
 * checks them.
 */
#include "fixtures.h"

#include <ctype.h>
#include <glob.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AS_ITEM(seconds) seconds,
const int fixture_timeouts[] = {FIXTURE_TIMEOUTS(AS_ITEM)};
const int fixture_timeout_count = sizeof fixture_timeouts / sizeof fixture_timeouts[0];

static void fail(fixture *f, const char *fmt, ...)
{
    if (f->error[0])
        return;   /* the first problem is the one to fix */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->error, sizeof f->error, fmt, ap);
    va_end(ap);
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && strcmp(s + n - t, tail) == 0;
}

/* The one file a glob pattern matches, or "" (a lab without one). */
static void one_file(const char *pattern, char *out, size_t len)
{
    glob_t g;
    out[0] = '\0';
    if (glob(pattern, 0, NULL, &g) == 0) {
        if (g.gl_pathc == 1)
            snprintf(out, len, "%s", g.gl_pathv[0]);
        globfree(&g);
    }
}

/* `exit 1, score 4..40, "a diagnosis", "another"`: the value of `key`
 * (expect, or expect-cpu in the same words) into o. expect-cpu may also say
 * `score max`: the maximum of what CPU mode grades (it leaves the timed
 * points out, so the maximum is the lab's, not 100). */
static void parse_expect(const char *key, const char *text, fixture *f, fx_outcome *o)
{
    const char *p = text;
    char word[16];
    int used = 0, cpu = strcmp(key, "expect-cpu") == 0;
    if (sscanf(p, " exit %15[a-z0-9-]%n", word, &used) != 1) {
        fail(f, "%s: starts with the exit status (exit 0, exit 1, exit 2 or exit by-score), not \"%s\"", key, text);
        return;
    }
    if (strcmp(word, "by-score") == 0)
        o->exit_status = FX_EXIT_BY_SCORE;
    else if (strspn(word, "0123456789") == strlen(word) && atoi(word) <= 255)
        o->exit_status = atoi(word);
    else {
        fail(f, "%s: exit %s: an exit status is 0..255 or by-score", key, word);
        return;
    }
    p += used;
    char range[64], low[64], *high;
    used = 0;
    if (cpu && sscanf(p, " , score max%n", &used) == 0 && used > 0 && !isalnum((unsigned char)p[used])) {
        o->full = 1;
        o->min_score = 0, o->max_score = 100;   /* the grade's own maximum is checked instead */
        p += used;
    } else if (sscanf(p, " , score %63[0-9.]%n", range, &used) != 1) {
        fail(f, "%s: the exit status is followed by \", score A..B\" (or \", score N\"%s), not \"%s\"", key,
             cpu ? ", or \", score max\"" : "", p);
        return;
    } else {
        p += used;
        snprintf(low, sizeof low, "%s", range);
        high = strstr(low, "..");
        if (high) {
            *high = '\0';
            high += 2;
        }
        char *end_low, *end_high;
        o->min_score = strtod(low, &end_low);
        o->max_score = high ? strtod(high, &end_high) : o->min_score;
        if (end_low == low || *end_low || (high && (end_high == high || *end_high))) {
            fail(f, "%s: score %s: a number, or a range A..B", key, range);
            return;
        }
        if (o->min_score < 0 || o->max_score > 100 || o->min_score > o->max_score)
            fail(f, "%s: score %g..%g is not a range within 0..100", key, o->min_score, o->max_score);
    }
    for (;;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            return;
        const char *open = NULL, *close = NULL;
        if (*p == ',') {
            p++;
            while (isspace((unsigned char)*p))
                p++;
            open = *p == '"' ? p + 1 : NULL;
            close = open ? strchr(open, '"') : NULL;
        }
        if (!close) {
            fail(f, "%s: after the score come diagnoses, each as , \"in double quotes\": not \"%s\"", key, p);
            return;
        }
        if (close == open) {
            fail(f, "%s: an empty diagnosis would match any report", key);
            return;
        }
        if (close - open >= FX_TEXT) {
            fail(f, "%s: a diagnosis of at most %d characters", key, FX_TEXT - 1);
            return;
        }
        if (o->diagnoses == FX_MAX_DIAGNOSES) {
            fail(f, "%s: at most %d diagnoses", key, FX_MAX_DIAGNOSES);
            return;
        }
        snprintf(o->diagnosis[o->diagnoses++], FX_TEXT, "%.*s", (int)(close - open), open);
        p = close + 1;
    }
}

/* One header line, its comment marker gone: `expect...: value`. */
static void header_line(char *line, fixture *f, int *expects)
{
    char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    if (strncmp(p, "/*", 2) == 0 || strncmp(p, "//", 2) == 0)
        p += 2;
    else if (*p == '#' || *p == '*')
        p++;
    while (isspace((unsigned char)*p))
        p++;
    if (strncmp(p, "expect", 6) != 0 || (p[6] != ':' && p[6] != '-'))
        return;
    char *colon = strchr(p, ':');
    if (!colon)
        return;
    *colon = '\0';
    char *key = p, *value = colon + 1;
    size_t n = strlen(value);
    while (n > 0 && isspace((unsigned char)value[n - 1]))
        value[--n] = '\0';
    if (n >= 2 && strcmp(value + n - 2, "*/") == 0)   /* a header on a comment's last line */
        value[n -= 2] = '\0';
    while (n > 0 && isspace((unsigned char)value[n - 1]))
        value[--n] = '\0';
    while (isspace((unsigned char)*value))
        value++;

    int again = (strcmp(key, "expect-args") == 0 && f->args[0]) || (strcmp(key, "expect-env") == 0 && f->env[0]) ||
                (strcmp(key, "expect-timeout") == 0 && f->timeout_s) || (strcmp(key, "expect-repeat") == 0 && f->repeat > 1) ||
                (strcmp(key, "expect-skip") == 0 && f->skip[0]) || (strcmp(key, "expect-cpu") == 0 && f->has_cpu) ||
                (strcmp(key, "expect-cpu-skip") == 0 && f->cpu_skip[0]) || (strcmp(key, "expect-cases") == 0 && f->full_cases);
    if (again)
        fail(f, "two %s: lines (one each)", key);
    if (strcmp(key, "expect") == 0) {
        if ((*expects)++)
            fail(f, "two expect: lines");
        else
            parse_expect("expect", value, f, &f->expect);
    } else if (strcmp(key, "expect-cpu") == 0) {
        f->has_cpu = 1;
        parse_expect("expect-cpu", value, f, &f->cpu);
    } else if (strcmp(key, "expect-args") == 0) {
        snprintf(f->args, sizeof f->args, "%s", value);
        if (strpbrk(value, ";&|<>`$\"'\\"))
            fail(f, "expect-args: plain ./grade options only (no quotes or shell characters): %s", value);
    } else if (strcmp(key, "expect-env") == 0) {
        snprintf(f->env, sizeof f->env, "%s", value);
        if (!strchr(value, '=') || value[0] == '=' || strchr(value, ' '))
            fail(f, "expect-env: one NAME=VALUE, not \"%s\"", value);
    } else if (strcmp(key, "expect-timeout") == 0) {
        f->timeout_s = atoi(value);
        int known = 0;
        for (int i = 1; i < fixture_timeout_count; i++)
            known |= f->timeout_s == fixture_timeouts[i] && strspn(value, "0123456789") == strlen(value);
        if (!known)
            fail(f, "expect-timeout: %s is not one of the suite's time limits (FIXTURE_TIMEOUTS in "
                    "tests/gpu/fixtures.h)", value);
    } else if (strcmp(key, "expect-repeat") == 0) {
        f->repeat = atoi(value);
        if (f->repeat < 2 || f->repeat > 5 || strspn(value, "0123456789") != strlen(value))
            fail(f, "expect-repeat: 2..5 (the times it is graded, the same score each time), not \"%s\"", value);
    } else if (strcmp(key, "expect-skip") == 0) {
        snprintf(f->skip, sizeof f->skip, "%s", value);
        if (!value[0])
            fail(f, "expect-skip: says why the suite does not grade it");
    } else if (strcmp(key, "expect-cpu-skip") == 0) {
        snprintf(f->cpu_skip, sizeof f->cpu_skip, "%s", value);
        if (!value[0])
            fail(f, "expect-cpu-skip: says why CPU mode cannot grade it as a GPU does");
    } else if (strcmp(key, "expect-cases") == 0) {
        f->full_cases = 1;
        if (strcmp(value, "full") != 0)
            fail(f, "expect-cases: full (CPU mode's suite grades it on the real cases), not \"%s\"", value);
    } else
        fail(f, "unknown header %s: (expect, expect-cpu, expect-cpu-skip, expect-args, expect-env, expect-timeout, "
             "expect-repeat, expect-skip, expect-cases)", key);
}

/* The header: a patch's lines before its first `--- `, a .cu file's before
 * its first #include, every line of a .expect file. */
void fixture_read_header(const char *path, fixture *f)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        fail(f, "cannot read %s", path);
        return;
    }
    char line[1024];
    int expects = 0;
    while (fgets(line, sizeof line, in)) {
        if (strncmp(line, "--- ", 4) == 0 || strncmp(line, "#include", 8) == 0)
            break;
        line[strcspn(line, "\n")] = '\0';
        header_line(line, f, &expects);
    }
    fclose(in);
    if (!expects && !f->skip[0])
        fail(f, "%s has no expect: line", path);
    if (f->has_cpu && f->cpu_skip[0])
        fail(f, "%s has both expect-cpu: and expect-cpu-skip: (one or the other)", path);
}

static fixture *add_row(fixture **table, int *n, int *cap)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        fixture *grown = realloc(*table, (size_t)*cap * sizeof **table);
        if (!grown) {
            fprintf(stderr, "fixtures: out of memory\n");
            exit(2);
        }
        *table = grown;
    }
    fixture *f = &(*table)[(*n)++];
    memset(f, 0, sizeof *f);
    f->repeat = 1;
    return f;
}

static void name_row(fixture *f, const char *name)
{
    snprintf(f->name, sizeof f->name, "%s", name);
    snprintf(f->run, sizeof f->run, "%s", name);
    for (char *c = f->run; *c; c++)
        if (*c == '/')
            *c = '-';
}

/* A lab's solution or skeleton: full marks or zero, unless
 * tests/submissions/LAB/solution.expect (skeleton.expect) adds to it. */
static void add_lab_row(fixture **table, int *n, int *cap, const char *lab, const char *solution, const char *which)
{
    fixture *f = add_row(table, n, cap);
    char name[128], pattern[FX_TEXT];
    snprintf(name, sizeof name, "%s/%s", lab, which);
    name_row(f, name);
    snprintf(f->lab, sizeof f->lab, "%s", lab);
    snprintf(f->solution, sizeof f->solution, "%s", solution);
    int is_solution = strcmp(which, "solution") == 0;
    snprintf(pattern, sizeof pattern, "%s/%s-*/*.cu", is_solution ? "solutions" : "labs", lab);
    one_file(pattern, f->graded, sizeof f->graded);
    if (!f->graded[0])
        fail(f, "%s matches no file or more than one: a lab has one .cu file", pattern);
    snprintf(f->path, sizeof f->path, FIXTURES_DIR "/%s/%s.expect", lab, which);
    FILE *header = fopen(f->path, "r");
    if (header) {
        fclose(header);
        fixture_read_header(f->path, f);
    } else {
        f->path[0] = '\0';
        f->expect.exit_status = is_solution ? 0 : 1;
        f->expect.min_score = f->expect.max_score = is_solution ? 100 : 0;
    }
    f->full_cases |= is_solution;   /* the reference proves the real cases pass */
    /* In CPU mode too, unless the header says otherwise: the solution at the
     * maximum of what CPU mode grades, the skeleton at zero. */
    if (!f->has_cpu && !f->cpu_skip[0]) {
        f->has_cpu = 1;
        f->cpu.exit_status = is_solution ? 0 : 1;
        f->cpu.full = is_solution;
        f->cpu.min_score = 0;
        f->cpu.max_score = is_solution ? 100 : 0;
    }
}

/* Every file of tests/submissions/DIR (a lab's folder, attacks/LAB, fair/LAB). */
static void add_fixture_rows(fixture **table, int *n, int *cap, const char *lab, const char *solution,
                             const char *dir)
{
    char pattern[FX_TEXT];
    glob_t g;
    snprintf(pattern, sizeof pattern, FIXTURES_DIR "/%s/*", dir);
    if (glob(pattern, 0, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *path = g.gl_pathv[i], *rel = path + strlen(FIXTURES_DIR "/");
        const char *base = strrchr(path, '/') + 1;
        if (strchr(dir, '/') == NULL && (strcmp(base, "solution.expect") == 0 || strcmp(base, "skeleton.expect") == 0))
            continue;   /* the lab's own rows */
        fixture *f = add_row(table, n, cap);
        char name[128];
        const char *dot = strrchr(base, '.');
        snprintf(name, sizeof name, "%.*s", (int)(dot && dot != base ? dot - rel : (long)strlen(rel)), rel);
        name_row(f, name);
        snprintf(f->path, sizeof f->path, "%s", path);
        snprintf(f->lab, sizeof f->lab, "%s", lab);
        snprintf(f->solution, sizeof f->solution, "%s", solution);
        if (ends_with(base, ".patch")) {
            f->is_patch = 1;
            snprintf(f->graded, sizeof f->graded, PATCHED "/%s.cu", name);
        } else if (ends_with(base, ".cu"))
            snprintf(f->graded, sizeof f->graded, "%s", path);
        else if (ends_with(base, ".expect"))
            snprintf(f->graded, sizeof f->graded, "%s", solution);   /* the solution, under other options */
        else {
            fail(f, "%s is not a fixture: a fixture is a .patch, a .cu or a .expect file (tests/submissions/README.md)",
                 path);
            continue;
        }
        if ((f->is_patch || ends_with(base, ".expect")) && !solution[0])
            fail(f, "%s: lab %s has no one reference solution (solutions/%s-*/*.cu)", path, lab, lab);
        fixture_read_header(path, f);
        if (!f->has_cpu && !f->cpu_skip[0])
            fail(f, "%s says what ./grade answers on a GPU, but not in CPU mode: add an expect-cpu: line (what "
                 "./grade --cpu answers), or an expect-cpu-skip: line saying why CPU mode cannot grade it as a GPU does "
                 "(tests/submissions/README.md)", path);
    }
    globfree(&g);
}

int fixtures_load(fixture **table, char *err, size_t err_len)
{
    glob_t rubrics;
    int n = 0, cap = 0;
    *table = NULL;
    if (glob("labs/*/lab.rubric", 0, NULL, &rubrics) != 0) {
        snprintf(err, err_len, "no labs/*/lab.rubric here: run from the kit's root");
        return -1;
    }
    for (size_t i = 0; i < rubrics.gl_pathc; i++) {
        char lab[32], solution[FX_TEXT], pattern[FX_TEXT], dir[64];
        const char *folder = rubrics.gl_pathv[i] + strlen("labs/");   /* labs/<id>-<name>/lab.rubric */
        snprintf(lab, sizeof lab, "%.*s", (int)strcspn(folder, "-"), folder);
        snprintf(pattern, sizeof pattern, "solutions/%s-*/*.cu", lab);
        one_file(pattern, solution, sizeof solution);
        add_lab_row(table, &n, &cap, lab, solution, "solution");
        add_lab_row(table, &n, &cap, lab, solution, "skeleton");
        const char *kinds[] = {"", "attacks/", "fair/"};
        for (int k = 0; k < 3; k++) {
            snprintf(dir, sizeof dir, "%s%s", kinds[k], lab);
            add_fixture_rows(table, &n, &cap, lab, solution, dir);
        }
    }
    globfree(&rubrics);
    return n;
}

/*
 * rubric_tool.c — build/tools/rubric: the rubric's one reader for the shell
 * and make. mk/submission.mk, make bench, tools/batch and plots/render.sh ask
 * it for a lab's values instead of parsing the file themselves, so every value
 * they use has passed tl_rubric_load's checks (./grade asks build/tools/plan,
 * grader/plan.c, which reads the rubric through the same grader/rubric.c).
 *
 *   rubric labs                 the labs (labs/<id>-<name>/lab.rubric), one id a line
 *   rubric check [LAB|FILE]...  load and check (every lab when none is named)
 *   rubric path LAB             the lab's rubric file
 *   rubric get LAB|FILE KEY     one key's value; an unset optional key prints nothing
 *   rubric units LAB|FILE       NAME PART POINTS GATE SANITIZER_SHAPE, one unit a line
 *   rubric bench                LAB SERIES OP LAUNCH_FUNCTION, one benched lab a line
 *   rubric counters-shape LAB|FILE SEED   the shape ncu reads for this seed: counters_shape,
 *                               each side drawn in counters_range (or moved by counters_jitter)
 *
 * Exit 0; 1 when a rubric does not load (file:line: why, on stderr); 2 on
 * bad usage, an unknown lab or an unknown key.
 */
#include "rubric.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(void)
{
    fprintf(stderr, "usage: rubric labs | check [LAB|FILE]... | path LAB | get LAB|FILE KEY | units LAB|FILE | bench | "
                    "counters-shape LAB|FILE SEED\n");
    return 2;
}

/* The shape ncu reads counters at (tl_rubric_counters_shape). */
static int counters_shape(const tl_rubric *r, const char *seed_text)
{
    char shape[64];
    if (tl_rubric_counters_shape(r, seed_text, shape, sizeof shape) != 0) {
        fprintf(stderr, "rubric: counters-shape needs a seed (a number), not '%s'\n", seed_text);
        return 2;
    }
    if (shape[0])
        printf("%s\n", shape);
    return 0;
}

/* LAB (an id) or a rubric file (a path, or a name ending in .rubric) to a path. */
static int resolve(const char *lab_or_file, char *path, size_t size)
{
    if (strchr(lab_or_file, '/') || strstr(lab_or_file, ".rubric")) {
        snprintf(path, size, "%s", lab_or_file);
        return 0;
    }
    if (tl_rubric_path(lab_or_file, path, size) == 0)
        return 0;
    char labs[512];
    tl_rubric_lab_list(labs, sizeof labs);
    fprintf(stderr, "unknown lab '%s'; labs: %s\n", lab_or_file, labs);
    return 2;
}

static int load(const char *lab_or_file, tl_rubric *r)
{
    char path[512], err[512];
    int status = resolve(lab_or_file, path, sizeof path);
    if (status)
        return status;
    if (tl_rubric_load(path, r, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *cmd = argv[1];
    static tl_rubric r;
    int status;
    if (!strcmp(cmd, "labs") && argc == 2) {
        char labs[512];
        if (tl_rubric_lab_list(labs, sizeof labs) < 0)
            return 1;
        for (char *id = strtok(labs, " "); id; id = strtok(NULL, " "))
            printf("%s\n", id);
        return 0;
    }
    if (!strcmp(cmd, "check")) {
        char labs[512], *ids[64];
        int n = 0;
        if (argc == 2) {
            tl_rubric_lab_list(labs, sizeof labs);
            char *save = NULL;
            for (char *id = strtok_r(labs, " ", &save); id && n < 64; id = strtok_r(NULL, " ", &save))
                ids[n++] = id;
        } else {
            for (int i = 2; i < argc && n < 64; i++)
                ids[n++] = argv[i];
        }
        int worst = 0;
        for (int i = 0; i < n; i++)
            if ((status = load(ids[i], &r)) > worst)
                worst = status;
        return worst;
    }
    if (!strcmp(cmd, "path") && argc == 3) {
        char path[512];
        if ((status = resolve(argv[2], path, sizeof path)))
            return status;
        printf("%s\n", path);
        return 0;
    }
    if (!strcmp(cmd, "get") && argc == 4) {
        if ((status = load(argv[2], &r)))
            return status;
        char value[512];
        if (tl_rubric_value(&r, argv[3], value, sizeof value) != 0) {
            fprintf(stderr, "rubric: no key '%s' in a rubric\n", argv[3]);
            return 2;
        }
        if (value[0])
            printf("%s\n", value);
        return 0;
    }
    if (!strcmp(cmd, "counters-shape") && argc == 4) {
        if ((status = load(argv[2], &r)))
            return status;
        return counters_shape(&r, argv[3]);
    }
    if (!strcmp(cmd, "units") && argc == 3) {
        if ((status = load(argv[2], &r)))
            return status;
        for (int u = 0; u < r.nunits; u++)
            printf("%s %d %g %s %s\n", r.units[u].name, r.units[u].part, r.units[u].points,
                   r.units[u].gated ? "clean" : "-", r.units[u].sanitizer_shape);
        return 0;
    }
    if (!strcmp(cmd, "bench") && argc == 2) {
        char labs[512];
        if (tl_rubric_lab_list(labs, sizeof labs) < 0)
            return 1;
        char *save = NULL, *ids[64];
        int n = 0;
        for (char *id = strtok_r(labs, " ", &save); id && n < 64; id = strtok_r(NULL, " ", &save))
            ids[n++] = id;
        for (int i = 0; i < n; i++) {
            const char *id = ids[i];
            if ((status = load(id, &r)))
                return status;
            if (!r.bench_series[0])
                continue;   /* a lab the bench does not sweep */
            /* bench_launch OP FUNCTION: what a lab of several kernels is timed as (lab 5: matmul launch_matmul_dbuf) */
            char op[32], fn[64];
            if (sscanf(r.bench_launch, "%31s %63s", op, fn) != 2) {
                snprintf(op, sizeof op, "%s", r.kind);
                snprintf(fn, sizeof fn, "launch_%s", r.kind);
            }
            printf("%s %s %s %s\n", r.id, r.bench_series, op, fn);
        }
        return 0;
    }
    return usage();
}

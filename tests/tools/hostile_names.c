/*
 * Hostile names, folders and includes (issue 44): names are data, never code
 * or separators; results the grader did not write are never trusted; a
 * compile error shows the student's own file only. No GPU needed: the GPU
 * path runs on a kit of stand-ins (tests/fixtures/mock-gpu/). Each test works
 * in build/tests/hostile/<test>/. CPU-mode grades of the same cases:
 * tests/cpu/hostile_names.c.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WORK "build/tests/hostile"

/* A fresh, empty WORK/name. */
static void fresh(const char *name)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '" WORK "/%s' && mkdir -p '" WORK "/%s'", name, name);
    cr_assert_eq(tool_sh(cmd), 0, "%s", cmd);
}

/* ./grade ARGS on the mock GPU kit of WORK/name (its stand-ins' arguments in WORK/name/mock.log). */
static int grade_on_mock_gpu(const char *name, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "MOCK_REAL_MAKE=$(command -v make) MOCK_BUILD=$PWD/" WORK "/%s/build MOCK_LOG=$PWD/" WORK "/%s/mock.log "
             "PATH=$PWD/tests/fixtures/mock-gpu/bin:$PATH NO_COLOR=1 ./grade %s > " WORK "/%s/grade.log 2>&1",
             name, name, args, name);
    return tool_sh(cmd);
}

/* The value after each `--log-file` line of the stand-ins' log, one at a time (NULL when no more). */
static const char *next_log_file(const char **at)
{
    static char path[4096];
    const char *p = strstr(*at, "\n--log-file\n");
    if (!p)
        return NULL;
    p += strlen("\n--log-file\n");
    size_t n = strcspn(p, "\n");
    snprintf(path, sizeof path, "%.*s", (int)n, p);
    *at = p + n;
    return path;
}

/* Issue 44, case 1, the GPU path: a newline and a % in --out. Every tool's log
 * path reaches ncu and compute-sanitizer as one word (TILELAB_WORKER_WRAP is
 * split on newlines, and both tools expand %), and each log lands in the run
 * folder, where the report reads it. */
Test(hostile, a_newline_in_out_reaches_ncu_and_the_sanitizers_whole, .timeout = 600)
{
    fresh("gpu-out");
    const char *out = WORK "/gpu-out/out\nrun %p";
    char args[1024], path[1024];
    snprintf(args, sizeof args, "lab3 --file solutions/lab3-padding/transpose.cu --seed 7 --out '%s'", out);
    grade_on_mock_gpu("gpu-out", args);
    const char *log = tool_read(WORK "/gpu-out/grade.log", NULL);
    cr_assert(strstr(log, "==> sanitizing:"), "the grade did not reach its GPU steps:\n%s", log);
    cr_expect(!strstr(log, "Syntax error") && !strstr(log, "Unterminated"), "%s", log);
    char *seen = strdup(tool_read(WORK "/gpu-out/mock.log", NULL));
    const char *at = seen, *given;
    int tools = 0;
    while ((given = next_log_file(&at))) {
        tools++;
        cr_expect(!strchr(given, '%'), "a log path ncu or the sanitizer would expand: %s", given);
    }
    cr_expect_eq(tools, 5, "memcheck, racecheck, synccheck and two ncu counts, not %d:\n%s", tools, seen);
    free(seen);
    static const char *const logs[] = {"memcheck.log", "racecheck.log", "synccheck.log", "counters.csv",
                                       "counters-timed.csv"};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", out, logs[i]);
        cr_expect(tool_read(path, NULL)[0], "no %s in the run folder: the tool wrote it elsewhere", logs[i]);
    }
}

/*
 * build/labN --tool (grader/quick-check): the tool goes around the worker,
 * where the lab file runs, as ./grade puts it. The judge is replaced by a
 * script that prints its environment, so what it would be started with can
 * be read without a GPU.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tool.h"

#define OUT "build/tests/quick-check.env"
#define FAKE "build/tests/print-env"
#define RUN "mkdir -p build/tests && printf '#!/bin/sh\\nenv\\n' > " FAKE " && chmod +x " FAKE " && " \
            "TILELAB_CHECK=" FAKE " TILELAB_LAB=lab3 TILELAB_CUDA_HOME=/nonexistent " \
            "PATH=/usr/bin:/bin sh grader/quick-check "

Test(quick_check, a_sanitizer_wraps_the_worker)
{
    cr_assert_eq(tool_sh(RUN "--tool racecheck --rows 3 --no-time > " OUT " 2>&1"), 0);
    const char *env = tool_read(OUT, NULL);
    cr_assert(strstr(env, "compute-sanitizer\n--tool\nracecheck\n") && strstr(env, "TILELAB_WORKER_WRAP="), "%s", env);
    cr_assert(strstr(env, "TILELAB_KERNEL_TIMEOUT_S=20\n"), "%s", env);
    cr_assert(!strstr(env, "TILELAB_WORKER_ALLOW_FILES"), "a sanitizer run may not write files:\n%s", env);
}

Test(quick_check, ncu_wraps_the_worker_with_its_words)
{
    cr_assert_eq(tool_sh(RUN "--tool 'ncu --metrics a,b -k regex:tr*' --no-time > " OUT
                         " 2>&1"), 0);
    const char *env = tool_read(OUT, NULL);
    /* "ncu" is looked up as ./grade does: not on this PATH, so the toolkit's. */
    cr_assert(strstr(env, "TILELAB_WORKER_WRAP=/nonexistent/bin/ncu\n--metrics\na,b\n-k\nregex:tr*\n"), "%s", env);
    cr_assert(strstr(env, "TILELAB_WORKER_ALLOW_FILES=1\n"), "%s", env);
}

/* Found on an H100: a path to ncu was refused as an unknown tool. */
Test(quick_check, ncu_by_its_path_wraps_the_worker_too)
{
    cr_assert_eq(tool_sh(RUN "--tool '/opt/nsight/ncu --csv --log-file x.csv' --no-time > " OUT " 2>&1"), 0,
                 "%s", tool_read(OUT, NULL));
    const char *env = tool_read(OUT, NULL);
    cr_assert(strstr(env, "TILELAB_WORKER_WRAP=/opt/nsight/ncu\n--csv\n--log-file\nx.csv\n"), "%s", env);
}

Test(quick_check, without_a_tool_nothing_wraps)
{
    cr_assert_eq(tool_sh(RUN "--rows 3 > " OUT " 2>&1"), 0);
    cr_assert(!strstr(tool_read(OUT, NULL), "TILELAB_WORKER_WRAP"), "%s", tool_read(OUT, NULL));
}

Test(quick_check, an_unknown_tool_is_refused)
{
    cr_assert_eq(tool_sh(RUN "--tool valgrind > " OUT " 2>&1"), 2);
    cr_assert(strstr(tool_read(OUT, NULL), "unknown tool 'valgrind'"), "%s", tool_read(OUT, NULL));
}

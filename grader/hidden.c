/* hidden.c — shared glue for the hidden-test suites (see hidden.h). */
#include "hidden.h"
#include "check.h"

#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

uint64_t tl_hidden_seed(void)
{
    const char *s = getenv("TILELAB_SEED");
    return s && *s ? strtoull(s, NULL, 10) : 1;
}

void tl_hidden_fail(const char *message)
{
    /* Criterion 2.4 writes messages into its JSON report without escaping
     * them: keep quotes and backslashes out so the report stays valid. */
    char clean[2048];
    size_t i = 0;
    for (; message[i] && i + 1 < sizeof clean; i++)
        clean[i] = message[i] == '"' ? '\'' : message[i] == '\\' ? '/' : message[i];
    clean[i] = '\0';
    cr_assert_fail("%s", clean);
}

void tl_hidden_init(void)
{
    tl_set_cuda_error_handler(tl_hidden_fail);
}

/* ---- progress: the hooks run in the runner process, never in a test ---- */

static size_t total, done;

static void progress(void)
{
    if (!getenv("TILELAB_PROGRESS"))
        return;
    done++;
    if (isatty(STDOUT_FILENO))
        printf("\r  testing %zu/%zu", done, total);
    else
        printf("  test %zu/%zu done\n", done, total);
    fflush(stdout);
}

ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    total = set->tests;
}

ReportHook(POST_TEST)(struct criterion_test_stats *stats)
{
    (void)stats;
    progress();
}

ReportHook(TEST_CRASH)(struct criterion_test_stats *stats)
{
    (void)stats;
    progress();
}

ReportHook(POST_ALL)(struct criterion_global_stats *stats)
{
    (void)stats;
    if (getenv("TILELAB_PROGRESS") && isatty(STDOUT_FILENO))
        printf("\r  testing %zu/%zu done\n", done, total);
}

/*
 * Issue 39, fair files in CPU mode: atomics run (real ones: blocks run on
 * several OS threads at once) and count exactly; float atomicAdd sums; an
 * atomic is checked for bounds where it is made; a cooperative launch keeps
 * every block live for this_grid().sync(), and is refused past what the
 * device holds at once. Each test builds its
 * file's CPU worker and reads the CPU check's --json output.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "json.h"
#include "shell.h"

#define WORK "build/tests/cpu-issue39"

/* SRC (a file of LAB) built for the CPU and checked with ARGS; its JSON, its log in WORK/NAME.log. */
static tl_json *check(const char *lab, const char *src, const char *name, const char *args, int *status)
{
    char cmd[2048], err[256], json[256];
    snprintf(cmd, sizeof cmd,
             "mkdir -p " WORK " && make -s --no-print-directory -f mk/submission.mk LAB=%s SRC=%s cpu > " WORK "/%s.log 2>&1 && "
             "w=$(make -s --no-print-directory -f mk/submission.mk LAB=%s SRC=%s print-cpu) && "
             "build/cpu/cpu-check --worker ${w%% *} --kind ${w#* } --lab %s --source %s --json " WORK "/%s.json %s >> " WORK "/%s.log 2>&1",
             lab, src, name, lab, src, lab, src, name, args, name);
    *status = sh_(cmd);
    snprintf(json, sizeof json, WORK "/%s.json", name);
    tl_json *j = tl_json_parse_file(json, err, sizeof err);
    char log[256];
    snprintf(log, sizeof log, WORK "/%s.log", name);
    cr_assert(j, "no JSON (%s), exit %d:\n%s", err, *status, read_all(log));
    return j;
}

/* Every case ok, no findings. */
static void expect_right_and_clean(tl_json *j, int status, const char *name)
{
    char log[256];
    snprintf(log, sizeof log, WORK "/%s.log", name);
    int n = 0;
    for (const tl_json *c = tl_json_get(j, "results")->child; c; c = c->next, n++)
        cr_expect(!strcmp(tl_json_string(c, "verdict", ""), "ok"), "case %s: %s %s\n%s", tl_json_string(c, "name", "?"),
                  tl_json_string(c, "verdict", "?"), tl_json_string(c, "message", ""), read_all(log));
    cr_expect_gt(n, 0, "no cases:\n%s", read_all(log));
    cr_expect_eq(tl_json_length(tl_json_get(j, "findings")), 0, "findings:\n%s", read_all(log));
    cr_expect_eq(status, 0, "exit %d:\n%s", status, read_all(log));
}

/* Many threads of many blocks (on several OS threads) take tickets from one
 * counter: each element is moved only when no ticket is lost or doubled. */
Test(cpu_issue39, atomic_add_and_cas_count_exactly_across_blocks)
{
    int status;
    tl_json *j = check("lab1", "tests/cpu/fixtures/atomic_tickets.cu", "atomic_tickets",
                       "--shape 61x67 --shape 1x1 --shape 300x257 --shape 1024x1000 --no-counters", &status);
    expect_right_and_clean(j, status, "atomic_tickets");
    tl_json_free(j);
}

/* Float atomicAdd into shared and global memory sums a chunk, with no race reported. */
Test(cpu_issue39, float_atomic_add_sums_in_shared_and_global_memory)
{
    int status;
    tl_json *j = check("lab5", "tests/cpu/fixtures/atomic_sums.cu", "atomic_sums", "--unit sums --n 5000", &status);
    expect_right_and_clean(j, status, "atomic_sums");
    tl_json_free(j);
}

/* A cooperative launch keeps every block live: this_grid().sync() orders
 * phase 2 (each place inverted back by another block) after phase 1. */
Test(cpu_issue39, a_grid_sync_orders_two_phases_of_a_cooperative_launch)
{
    int status;
    tl_json *j = check("lab1", "tests/cpu/fixtures/grid_sync_two_phase.cu", "grid_sync",
                       "--shape 300x257 --shape 61x67 --shape 1x1 --shape 1100x1000 --no-counters", &status);
    expect_right_and_clean(j, status, "grid_sync");
    tl_json_free(j);
}

/* The same kernel without its grid barrier is wrong: the test above can fail. */
Test(cpu_issue39, without_the_grid_sync_the_two_phases_are_wrong)
{
    cr_assert_eq(sh_("mkdir -p " WORK " && grep -v 'grid.sync()' tests/cpu/fixtures/grid_sync_two_phase.cu > "
                     WORK "/no_grid_sync.cu"), 0);
    int status;
    tl_json *j = check("lab1", WORK "/no_grid_sync.cu", "no_grid_sync", "--shape 300x257 --no-counters", &status);
    cr_expect_str_eq(tl_json_string(tl_json_get(j, "results")->child, "verdict", ""), "wrong",
                     "%s", read_all(WORK "/no_grid_sync.log"));
    tl_json_free(j);
}

/* More blocks than the device holds at once: refused, as a GPU refuses it. */
Test(cpu_issue39, a_cooperative_grid_too_large_to_be_live_at_once_is_refused)
{
    cr_assert_eq(sh_("mkdir -p " WORK " && { echo '#define TOO_LARGE 1'; cat tests/cpu/fixtures/grid_sync_two_phase.cu; } > "
                     WORK "/grid_too_large.cu"), 0);
    int status;
    tl_json *j = check("lab1", WORK "/grid_too_large.cu", "grid_too_large", "--shape 300x257 --no-counters", &status);
    cr_expect_str_eq(tl_json_string(tl_json_get(j, "results")->child, "message", ""),
                     "cudaErrorCooperativeLaunchTooLarge (720) from the launch", "%s", read_all(WORK "/grid_too_large.log"));
    tl_json_free(j);
}

/* An atomic past the end of its allocation stops the launch at its own line, as memcheck would. */
Test(cpu_issue39, an_atomic_out_of_bounds_is_an_illegal_address_at_its_line)
{
    cr_assert_eq(sh_("mkdir -p " WORK " && sed 's/atomicAdd(counter, 1u)/atomicAdd(counter + 1, 1u)/' "
                     "tests/cpu/fixtures/atomic_tickets.cu > " WORK "/atomic_oob.cu"), 0);
    int status;
    tl_json *j = check("lab1", WORK "/atomic_oob.cu", "atomic_oob", "--shape 61x67 --no-counters", &status);
    cr_expect_str_eq(tl_json_string(tl_json_get(j, "results")->child, "message", ""),
                     "cudaErrorIllegalAddress (700) from the launch", "%s", read_all(WORK "/atomic_oob.log"));
    int at_line = 0;
    for (const tl_json *f = tl_json_get(j, "findings")->child; f; f = f->next)
        at_line |= !strcmp(tl_json_string(f, "kind", ""), "bounds") && tl_json_number(f, "line", 0) == 13;
    cr_expect(at_line, "no bounds finding at line 13:\n%s", read_all(WORK "/atomic_oob.log"));
    tl_json_free(j);
}

/*
 * Load never changes a grade (issue 41), in CPU mode. A case's deadline counts the CPU time of
 * the worker's busiest thread, so a kernel that waits (for the cores other programs hold, or in
 * a sleep) is not late; a kernel that spins still is, with CPU hogs beside it; a kernel that
 * waits forever is stopped by the wall clock's backstop. Then the grades themselves: every
 * solution graded four at a time beside a hog on each core keeps its full CPU-mode maximum, and
 * a hanging fixture graded among them still loses its points. And the hidden tests' runner run
 * again over an earlier report (what a GPU grade does with the GPU alone) runs only the tests
 * that timed out there, keeping the others' verdicts.
 *
 * No outcome here depends on how fast the machine is: the sleeps and hogs only have to exist.
 */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json.h"

#define WORK "build/tests/cpu-load"
#define SEED "20261121"   /* the GPU suite's */

static int sh(const char *cmd)
{
    unsetenv("MAKEFLAGS");
    unsetenv("MAKELEVEL");
    unsetenv("MFLAGS");
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* COUNT spinning processes (0: one per core), ended by hogs_stop (and with this test's process). */
static pid_t hogs[64];
static int nhogs;

static void hogs_start(int count)
{
    long cores = count > 0 ? count : sysconf(_SC_NPROCESSORS_ONLN);
    for (nhogs = 0; nhogs < (cores < 1 ? 1 : cores > 64 ? 64 : cores); nhogs++) {
        pid_t parent = getpid(), pid = fork();
        cr_assert(pid >= 0, "cannot fork a CPU hog");
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(0);
            for (volatile unsigned long spin = 0;; spin++) {
            }
        }
        hogs[nhogs] = pid;
    }
}

static void hogs_stop(void)
{
    for (int i = 0; i < nhogs; i++) {
        kill(hogs[i], SIGKILL);
        waitpid(hogs[i], NULL, 0);
    }
    nhogs = 0;
}

/* The CPU check on SRC (lab 1) at a 2x3 shape with ARGS; its first case, and its log's path in log. */
static tl_json *check_lab1(const char *src, const char *name, const char *args, char *log, size_t len)
{
    char cmd[2048], where[512], json[512], worker[512], kind[64];
    snprintf(log, len, WORK "/%s.log", name);
    snprintf(where, sizeof where, WORK "/%s.worker", name);
    snprintf(json, sizeof json, WORK "/%s.json", name);
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK " && make -s --no-print-directory -f mk/submission.mk LAB=lab1 SRC=%s cpu "
             "> %s 2>&1 && make -s --no-print-directory -f mk/submission.mk LAB=lab1 SRC=%s print-cpu > %s", src, log, src, where);
    cr_assert_eq(sh(cmd), 0, "building %s for the CPU failed: see %s", src, log);
    FILE *f = fopen(where, "r");
    cr_assert(f && fscanf(f, "%511s %63s", worker, kind) == 2, "no CPU worker for %s", src);
    fclose(f);
    snprintf(cmd, sizeof cmd, "build/cpu/cpu-check --worker %s --kind %s --lab lab1 --source %s --shape 2x3 --no-counters "
             "--json %s %s > %s 2>&1", worker, kind, src, json, args, log);
    sh(cmd);
    char err[256];
    tl_json *r = tl_json_parse_file(json, err, sizeof err);
    cr_assert(r && tl_json_get(r, "results") && tl_json_get(r, "results")->child, "the CPU check wrote no result (%s): see %s",
              err, log);
    return r;
}

Test(load, a_kernel_is_late_by_its_cpu_time_not_the_wall_clock, .timeout = 300)
{
    char log[512];
    /* 2 s asleep in each of its two runs, under a 1 s deadline: late by the wall clock, not by its CPU time. */
    tl_json *r = check_lab1("tests/cpu/fixtures/sleeps_then_transposes.cu", "sleeps", "--timeout 1", log, sizeof log);
    const tl_json *c = tl_json_get(r, "results")->child;
    cr_expect_str_eq(tl_json_string(c, "verdict", ""), "ok", "%s: %s (see %s)", tl_json_string(c, "verdict", ""),
                     tl_json_string(c, "message", ""), log);
    tl_json_free(r);
}

Test(load, a_kernel_that_waits_forever_is_stopped_by_the_wall_clock, .timeout = 300)
{
    char log[512];
    tl_json *r = check_lab1("tests/cpu/fixtures/waits_forever.cu", "waits", "--timeout 0.3", log, sizeof log);
    const tl_json *c = tl_json_get(r, "results")->child;
    cr_expect_str_eq(tl_json_string(c, "verdict", ""), "timed out", "see %s", log);
    cr_expect(strstr(tl_json_string(c, "message", ""), "waiting on something"), "%s", tl_json_string(c, "message", ""));
    tl_json_free(r);
}

Test(load, a_kernel_that_spins_times_out_beside_cpu_hogs, .timeout = 300)
{
    char log[512];
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK " && patch -s -o " WORK "/hangs.cu solutions/lab1-naive-transpose/transpose.cu "
             "< tests/submissions/lab1/hangs.patch");
    cr_assert_eq(sh(cmd), 0, "tests/submissions/lab1/hangs.patch does not apply");
    hogs_start(0);
    tl_json *r = check_lab1(WORK "/hangs.cu", "hangs", "--timeout 2", log, sizeof log);
    hogs_stop();
    const tl_json *c = tl_json_get(r, "results")->child;
    /* Its 2 s of CPU time, or, where the hogs and the machine's other load leave it less than a
     * tenth of a core, the wall clock's backstop at 20 s: timed out either way. */
    cr_expect_str_eq(tl_json_string(c, "verdict", ""), "timed out", "see %s", log);
    cr_expect(strstr(tl_json_string(c, "message", ""), "still running after 2 s of CPU time") ||
              strstr(tl_json_string(c, "message", ""), "still running after 20 s"), "%s", tl_json_string(c, "message", ""));
    tl_json_free(r);
}

/* An earlier report of lab 1's hidden tests in which every test passed in 123.5 s but one,
 * which timed out, and another, which failed for a reason of its own; the runner again over it. */
Test(load, only_the_tests_that_timed_out_run_again, .timeout = 600)
{
    cr_assert_eq(sh("mkdir -p " WORK " && make -s --no-print-directory -f mk/submission.mk LAB=lab1 "
                    "SRC=solutions/lab1-naive-transpose/transpose.cu cpu > " WORK "/retry.build.log 2>&1 && "
                    "make -s --no-print-directory -f mk/submission.mk LAB=lab1 SRC=solutions/lab1-naive-transpose/transpose.cu "
                    "print-cpu > " WORK "/retry.worker && build/cpu/tests-transpose --suite transpose --list > " WORK "/retry.list"), 0,
                 "cannot build lab 1's solution for the CPU: see " WORK "/retry.build.log");
    char worker[512], line[256], timed[256] = "", failed[256] = "";
    FILE *w = fopen(WORK "/retry.worker", "r"), *list = fopen(WORK "/retry.list", "r"), *earlier = fopen(WORK "/earlier.json", "w");
    cr_assert(w && fscanf(w, "%511s", worker) == 1 && list && earlier);
    fclose(w);
    fprintf(earlier, "{\"test_suites\": [{\"name\": \"transpose\", \"tests\": [");
    int n = 0;
    while (fgets(line, sizeof line, list)) {
        line[strcspn(line, "\n")] = 0;
        const char *name = strchr(line, '/') ? strchr(line, '/') + 1 : line;
        const char *status = "PASSED", *message = "";
        if (n == 1)
            snprintf(timed, sizeof timed, "%s", name), status = "FAILED", message = "shape 1x777: timed out: made up";
        if (n == 2)
            snprintf(failed, sizeof failed, "%s", name), status = "FAILED", message = "shape 777x1: wrong: made up";
        fprintf(earlier, "%s{\"name\": \"%s\", \"status\": \"%s\", \"seconds\": 123.5, \"messages\": [%s%s%s]}", n ? ", " : "",
                name, status, message[0] ? "\"" : "", message, message[0] ? "\"" : "");
        n++;
    }
    fprintf(earlier, "]}]}\n");
    fclose(list);
    fclose(earlier);
    cr_assert(n > 3, "tests-transpose --list listed %d tests", n);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "TILELAB_KERNEL_TIMEOUT_S=5 TILELAB_WORKER=$PWD/%s TILELAB_LAB=lab1 TILELAB_SEED=" SEED " "
             "build/cpu/tests-transpose --suite transpose -q -j2 --json=" WORK "/again.json --timeout 600 --retry-timed-out " WORK "/earlier.json "
             "> " WORK "/again.log 2>&1", worker);
    int status = sh(cmd);
    cr_expect_eq(status, 1, "the runner exited %d (one test failed, kept from before); see " WORK "/again.log", status);
    char err[256];
    tl_json *again = tl_json_parse_file(WORK "/again.json", err, sizeof err);
    cr_assert(again, "no report (%s); see " WORK "/again.log", err);
    int kept = 0, ran = 0;
    for (const tl_json *t = tl_json_get(tl_json_get(again, "test_suites")->child, "tests")->child; t; t = t->next) {
        const char *name = tl_json_string(t, "name", "");
        const tl_json *m = tl_json_get(t, "messages");
        const char *message = m && m->child ? m->child->string : "";
        if (!strcmp(name, timed)) {
            ran++;
            cr_expect_str_eq(tl_json_string(t, "status", ""), "PASSED", "%s ran again: %s", name, message);
            cr_expect_neq(tl_json_number(t, "seconds", 0), 123.5, "%s kept its earlier time: it did not run again", name);
        } else {
            kept += tl_json_number(t, "seconds", 0) == 123.5;
            if (!strcmp(name, failed))
                cr_expect(strstr(message, "wrong: made up"), "%s lost its earlier verdict: %s", name, message);
        }
    }
    cr_expect_eq(ran, 1, "the test that timed out is not in the report");
    cr_expect_eq(kept, n - 1, "%d of the %d tests that did not time out kept their earlier verdicts", kept, n - 1);
    tl_json_free(again);
}

/* The test: ./grade --cpu on every lab's solution and on a kernel that hangs at one
 * shape, four grades at a time, a CPU hog spinning beside them on this machine's cores. */
Test(load, every_solution_graded_four_at_a_time_beside_a_hog_keeps_full_marks, .timeout = 3600)
{
    FILE *list = fopen(WORK "/grades.list", "w");
    cr_assert(list, "cannot write " WORK "/grades.list");
    for (int lab = 1; lab <= 7; lab++)
        fprintf(list, "lab%d $(ls solutions/lab%d-*/*.cu)\n", lab, lab);
    fprintf(list, "lab1 tests/cpu/fixtures/hangs_at_1x1.cu\n");
    fclose(list);
    hogs_start(1);
    /* Each line: LAB FILE, graded into WORK/grades/<LAB>-<file's name>/. */
    int status = sh("rm -rf " WORK "/grades && mkdir -p " WORK "/grades && "
                    "while read -r lab src; do eval \"echo $lab $src\"; done < " WORK "/grades.list | "
                    "xargs -P4 -L1 sh -c 'n=" WORK "/grades/$0-$(basename \"$1\" .cu); "
                    "TILELAB_HISTORY=" WORK "/history.csv NO_COLOR=1 ./grade \"$0\" --cpu --file \"$1\" --seed " SEED " "
                    "--out \"$n\" > \"$n.log\" 2>&1; echo $? > \"$n.status\"'");
    hogs_stop();
    cr_assert_eq(status, 0, "the grades did not run (xargs exit %d)", status);
    for (int lab = 1; lab <= 7; lab++) {
        char pattern[64], path[512], err[256];
        snprintf(pattern, sizeof pattern, "ls -d " WORK "/grades/lab%d-*/ | grep -v hangs_at", lab);
        FILE *p = popen(pattern, "r");
        cr_assert(p && fgets(path, sizeof path - 20, p), "no grade of lab %d's solution in " WORK "/grades", lab);
        pclose(p);
        path[strcspn(path, "\n")] = 0;
        strcat(path, "/results.json");
        tl_json *r = tl_json_parse_file(path, err, sizeof err);
        cr_expect(r, "%s: %s", path, err);
        if (!r)
            continue;
        double score = tl_json_number(r, "score", -1), max = tl_json_number(r, "max_score", -1);
        cr_expect(max > 0 && score == max, "lab %d's solution scored %g of %g beside other grades and a hog: %s", lab, score,
                  max, tl_json_string(r, "output", ""));
        tl_json_free(r);
    }
    char err[256];
    tl_json *r = tl_json_parse_file(WORK "/grades/lab1-hangs_at_1x1/results.json", err, sizeof err);
    cr_assert(r, "the hanging kernel's grade: %s", err);
    double score = tl_json_number(r, "score", -1), max = tl_json_number(r, "max_score", -1);
    cr_expect(score >= 0 && score < max, "a kernel that hangs at 1x1 scored %g of %g beside other grades and a hog", score, max);
    int timed_out = 0;
    for (const tl_json *t = tl_json_get(r, "tests") ? tl_json_get(r, "tests")->child : NULL; t; t = t->next)
        timed_out |= strstr(tl_json_string(t, "output", ""), "timed out") != NULL;
    cr_expect(timed_out, "no test of the hanging kernel says it timed out");
    tl_json_free(r);
}

/*
 * Issue 39, judge by effect: the inspection is bounded like the build, and
 * says so like the build. ./grade runs build/tools/inspect under the build's
 * time and memory limits (grade: bounded); the report turns its end there into
 * one sentence and exit 2 (grader/report_run.c, read_failed_step): timeout's
 * 124 (or a kill's 137) is the time limit, "out of memory" in inspect.log the
 * memory limit. Only the report is run here: a run folder as grade leaves it
 * (its plan.sh names the limits), no GPU and no nvcc needed.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include "json.h"

#include <stdio.h>
#include <string.h>

#define WORK "build/tests/judge_by_effect"

/* The report on a run folder whose inspection ended with `status` (inspect.log holding `log`). */
static int report_failed_inspection(const char *name, int status, const char *log, char **output)
{
    tool_make("Makefile", "build/tools/report", WORK);
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "d=" WORK "/%s && rm -rf $d && mkdir -p $d && "
             "printf 'rubric=labs/lab1-naive-transpose/lab.rubric\\nsrc=lab1.cu\\nseed=1\\nbuild_src=lab1.cu\\n"
             "build_timeout_s=120\\nbuild_memory_mb=4096\\n' > $d/plan.sh && printf '%%s\\n' '%s' > $d/inspect.log && "
             ": > $d/inspect.txt && build/tools/report --rubric labs/lab1-naive-transpose/lab.rubric --source lab1.cu "
             "--seed 1 --results $d/results.json --history $d/history.csv --elapsed 1 --kit-version test "
             "--run $d --step-failed object --step-status %d > $d/report.log 2>&1",
             name, log, status);
    int exit_status = tool_sh(cmd);
    char path[256];
    snprintf(path, sizeof path, WORK "/%s/results.json", name);
    *output = tool_read(path, NULL);
    return exit_status;
}

Test(judge_by_effect, an_inspection_past_the_time_limit_is_exit_2_and_says_so)
{
    char *results;
    int status = report_failed_inspection("time", 124, "", &results);
    cr_expect_eq(status, 2, "exit %d, not 2 (could not grade)", status);
    cr_expect(results && strstr(results, "the grader's inspection hit the grader's build limit") &&
                  strstr(results, "did not finish in 120 s"),
              "results.json does not say the inspection hit the time limit:\n%s", results ? results : "(none)");
}

Test(judge_by_effect, an_inspection_out_of_memory_is_exit_2_and_says_so)
{
    char *results;
    int status = report_failed_inspection("memory", 2, "inspect: out of memory", &results);
    cr_expect_eq(status, 2, "exit %d, not 2 (could not grade)", status);
    cr_expect(results && strstr(results, "ran out of its 4096 MiB"),
              "results.json does not say the inspection ran out of memory:\n%s", results ? results : "(none)");
}

/* Any other end of the inspector is still the kit's: named as such, not the limit. */
Test(judge_by_effect, an_inspector_that_cannot_read_the_file_is_not_a_limit)
{
    char *results;
    int status = report_failed_inspection("unreadable", 2, "inspect: x.o is not an ELF object file", &results);
    cr_expect_eq(status, 2, "exit %d, not 2 (could not grade)", status);
    cr_expect(results && strstr(results, "could not read your compiled file") && !strstr(results, "build limit"),
              "results.json:\n%s", results ? results : "(none)");
}

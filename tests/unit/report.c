/*
 * The score-and-report step (build/tools/report), run as ./grade runs it on
 * fixture inputs: scores, exit codes, the results.json format and the
 * history CSV are pinned here.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "json.h"
#include "shapes.h"

#define OUT "build/tests/report-out"

/* No object of results.json names a key twice (a reader keeps one of them,
 * and which one is up to the reader). */
static void assert_unique_keys(const tl_json *j, const char *where)
{
    for (const tl_json *a = j ? j->child : NULL; a; a = a->next) {
        if (j->type == TL_JSON_OBJECT)
            for (const tl_json *b = a->next; b; b = b->next)
                cr_assert(strcmp(a->key, b->key) != 0, "%s: the key %s appears twice in one object", where, a->key);
        assert_unique_keys(a, where);
    }
}

/* Runs the report tool with a rubric; returns its exit status and the parsed results.json. */
static int run_report_with(const char *rubric, const char *args, tl_json **results)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p " OUT " && rm -f " OUT "/results.json && "
             "NO_COLOR=1 build/tools/report --rubric %s --source lab.cu --seed 7 "
             "--results " OUT "/results.json --history " OUT "/history.csv %s > " OUT "/stdout.txt 2>&1",
             rubric, args);
    int status = system(cmd);
    cr_assert(WIFEXITED(status), "report did not exit normally");
    char err[256] = "";
    *results = tl_json_parse_file(OUT "/results.json", err, sizeof err);
    cr_assert(*results, "results.json must always be written and valid: %s", err);
    assert_unique_keys(*results, rubric);
    return WEXITSTATUS(status);
}

static int run_report(const char *args, tl_json **results)
{
    return run_report_with("tests/fixtures/lab1.rubric", args, results);
}

static const tl_json *test_named(const tl_json *results, const char *prefix)
{
    for (const tl_json *t = tl_json_get(results, "tests")->child; t; t = t->next)
        if (strncmp(tl_json_string(t, "name", ""), prefix, strlen(prefix)) == 0)
            return t;
    cr_assert_fail("no test named %s...", prefix);
    return NULL;
}

static const char *stdout_text(void)
{
    static char text[65536];
    FILE *f = fopen(OUT "/stdout.txt", "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    return text;
}

Test(report, failures_get_reasons_and_no_performance_points)
{
    tl_json *r;
    int status = run_report("--tests tests/fixtures/tests-mixed.json --measure-status 0", &r);
    cr_assert_eq(status, 1);
    cr_assert_float_eq(tl_json_number(r, "score", -1), 2 * 72.0 / 6, 1e-6);
    cr_assert_eq(tl_json_number(r, "max_score", 0), 100);
    cr_assert_eq(tl_json_length(tl_json_get(r, "tests")), 7, "six hidden tests and the performance line");

    const tl_json *t = test_named(r, "31x33");
    cr_assert_str_eq(tl_json_string(t, "status", ""), "failed");
    cr_assert(strstr(tl_json_string(t, "output", ""), "first mismatch at (row 0, col 31)"));
    cr_assert(strstr(tl_json_string(t, "output", ""), "\nNext: a wrong value"), "%s", tl_json_string(t, "output", ""));
    cr_assert(strstr(tl_json_string(test_named(r, "8191x8193"), "output", ""), "timed out: a kernel was still running at its 5 s deadline, or the test passed its 10 s limit"));
    cr_assert(strstr(tl_json_string(test_named(r, "random_1 ("), "output", ""), "crashed"));
    cr_assert(strstr(tl_json_string(test_named(r, "1x777"), "output", ""), "ended early"));
    t = test_named(r, "performance");
    cr_assert_eq(tl_json_number(t, "score", -1), 0);
    cr_assert(strstr(tl_json_string(t, "output", ""), "only when every correctness test passes"));
    cr_assert(strstr(stdout_text(), "Score: 24.00/100"), "%s", stdout_text());
    tl_json_free(r);
}

Test(report, square_only_failures_get_the_swap_hint)
{
    tl_json *r;
    run_report("--tests tests/fixtures/tests-mixed.json --measure-status 0", &r);
    /* 1x1 and 8192x8192 pass, every failure is non-square. */
    cr_assert(strstr(tl_json_string(r, "output", ""), "rows and cols are probably swapped"));
    cr_assert(strstr(stdout_text(), "Note: Every square shape passed"), "%s", stdout_text());
    tl_json_free(r);
}

/* tests-mixed.json with 8191x8193 passing: one non-square shape right, so a
 * swap is disproved (a bug on one path of several, as in a lab 6 file whose
 * vector test looks at one dimension): no note. */
Test(report, a_passing_non_square_shape_disproves_the_swap)
{
    tl_json *r;
    run_report("--tests tests/fixtures/tests-one-path-wrong.json --measure-status 0", &r);
    cr_assert_eq(strstr(tl_json_string(r, "output", ""), "probably swapped"), NULL, "%s", tl_json_string(r, "output", ""));
    cr_assert_eq(strstr(stdout_text(), "Note: Every square shape passed"), NULL, "%s", stdout_text());
    tl_json_free(r);
}

Test(report, performance_points_between_thresholds)
{
    tl_json *r;
    int status = run_report("--tests tests/fixtures/tests-all-pass.json --measure tests/fixtures/measure-0.125.json", &r);
    cr_assert_eq(status, 1);
    /* fixture rubric: 0.05 -> 0, 0.20 -> 28, so 0.125 earns half */
    cr_assert_float_eq(tl_json_number(test_named(r, "performance"), "score", -1), 14, 1e-6);
    cr_assert_float_eq(tl_json_number(r, "score", -1), 86, 1e-6);
    const tl_json *board = tl_json_get(r, "leaderboard");
    cr_assert_eq(tl_json_length(board), 2);
    cr_assert_str_eq(tl_json_string(board->child, "name", ""), "Bandwidth (GB/s)");
    cr_assert_eq(tl_json_number(board->child, "value", 0), 375);
    cr_assert_str_eq(tl_json_string(tl_json_get(r, "extra_data"), "seed", ""), "7");
    const char *perf = tl_json_string(test_named(r, "performance"), "output", "");
    cr_assert(strstr(perf, "375.0 GB/s = 0.125 of copy (copy 3000.0 GB/s"), "%s", perf);
    cr_assert(strstr(perf, "thresholds: 0.050 of copy = 0 points, 0.200 of copy = 28 points"), "%s", perf);
    cr_assert(strstr(perf, "30 samples: median 1.4317 ms (min 1.4200, max 1.4500), noise 0.40 %"), "%s", perf);
    tl_json_free(r);
}

Test(report, device_is_described_in_full)
{
    tl_json *r;
    run_report("--device tests/fixtures/device.json --tests tests/fixtures/tests-all-pass.json "
               "--measure tests/fixtures/measure-0.3.json", &r);
    const char *gpu = tl_json_string(tl_json_get(r, "extra_data"), "gpu", "");
    cr_assert_str_eq(gpu, "Fixture GPU (sm_90, 132 SMs, L2 50 MiB, memory 2619 MHz x 5120 bit, "
                          "driver CUDA 13.0, runtime 13.0)");
    cr_assert(strstr(stdout_text(), gpu));
    tl_json_free(r);
}

Test(report, full_marks_exit_zero)
{
    tl_json *r;
    int status = run_report("--tests tests/fixtures/tests-all-pass.json --measure tests/fixtures/measure-0.3.json", &r);
    cr_assert_eq(status, 0);
    cr_assert_eq(tl_json_number(r, "score", -1), 100);
    cr_assert(strstr(tl_json_string(test_named(r, "random_1 ("), "name", ""), "x"), "random tests name their shape");
    tl_json_free(r);
}

/* CPU mode (./grade --cpu): nothing timed; performance leaves the maximum, said plainly. */
Test(report, cpu_mode_leaves_performance_out_of_the_maximum)
{
    tl_json *r;
    int status = run_report("--tests tests/fixtures/tests-all-pass.json --cpu-mode 'shapes capped'", &r);
    cr_assert_eq(status, 0, "full marks without the performance points");
    const tl_json *perf = test_named(r, "performance");
    cr_assert_eq(tl_json_number(perf, "max_score", -1), 0);
    cr_assert(strstr(tl_json_string(perf, "output", ""), "not measured: no GPU"));
    cr_assert_eq(tl_json_number(r, "score", -1), tl_json_number(r, "max_score", -2));
    cr_assert(tl_json_number(r, "max_score", 0) > 0 && tl_json_number(r, "max_score", 0) < 100);
    cr_assert_str_eq(tl_json_string(tl_json_get(r, "extra_data"), "mode", ""), "cpu");
    cr_assert(strstr(tl_json_string(r, "output", ""), "CPU mode (no GPU): shapes capped"));
    cr_assert(strstr(tl_json_string(tl_json_get(r, "extra_data"), "command", ""), " --cpu"));
    tl_json_free(r);
}

Test(report, wrong_after_timing_earns_no_performance_points)
{
    tl_json *r;
    run_report("--tests tests/fixtures/tests-all-pass.json --measure tests/fixtures/measure-unverified.json", &r);
    cr_assert_eq(tl_json_number(test_named(r, "performance"), "score", -1), 0);
    cr_assert(tl_json_get(r, "leaderboard") == NULL);
    tl_json_free(r);
}

Test(report, measurement_timeout_is_named)
{
    tl_json *r;
    run_report("--tests tests/fixtures/tests-all-pass.json --measure-status 124", &r);
    cr_assert(strstr(tl_json_string(test_named(r, "performance"), "output", ""), "timed out after 120 s"));
    tl_json_free(r);
}

Test(report, build_failure_cannot_grade)
{
    tl_json *r;
    int status = run_report("--build-log tests/fixtures/build-errors.log", &r);
    cr_assert_eq(status, 2);
    cr_assert_eq(tl_json_number(r, "score", -1), 0);
    const tl_json *tests = tl_json_get(r, "tests");
    cr_assert_eq(tl_json_length(tests), 1, "one test: the reason it could not grade");
    cr_assert_str_eq(tl_json_string(tests->child, "name", ""), "could not grade");
    cr_assert_str_eq(tl_json_string(tests->child, "status", ""), "failed");
    cr_assert(strstr(tl_json_string(tests->child, "output", ""), "does not compile"));
    cr_assert(strstr(stdout_text(), "Score: not graded\n"), "%s", stdout_text());
    /* Gradescope shows the output as plain text, line breaks kept. */
    cr_assert_str_eq(tl_json_string(r, "output_format", ""), "text");
    const char *out = tl_json_string(r, "output", "");
    cr_assert(strstr(out, "does not compile") && strstr(out, "transpose.cu(27): error: expected a ;") == NULL &&
              strstr(out, "transpose.cu(27): error: expected a \";\""), "%s", out);
    tl_json_free(r);
}

Test(report, missing_test_results_cannot_grade)
{
    tl_json *r;
    cr_assert_eq(run_report("--tests " OUT "/nonexistent.json", &r), 2);
    cr_assert(strstr(tl_json_string(r, "output", ""), "no readable results"));
    tl_json_free(r);
}

/* Each test's points are its rubric line's (fixture: six tests, 72 points, 12 each). A test the
 * JSON lacks (a crashed run) fails alone: the others keep their 12, nothing is re-weighted. */
Test(report, a_test_missing_from_the_json_scores_0_and_the_others_keep_their_points)
{
    tl_json *r;
    int status = run_report("--tests tests/fixtures/tests-one-missing.json --measure-status 0", &r);
    cr_assert_eq(status, 1, "%s", stdout_text());
    const tl_json *missing = test_named(r, "8191x8193");
    cr_assert_eq(tl_json_number(missing, "score", -1), 0);
    cr_assert_eq(tl_json_number(missing, "max_score", -1), 12);
    cr_assert_str_eq(tl_json_string(missing, "status", ""), "failed");
    cr_assert(strstr(tl_json_string(missing, "output", ""), "did not report"), "%s",
              tl_json_string(missing, "output", ""));
    cr_assert_eq(tl_json_number(test_named(r, "1x1"), "max_score", -1), 12);
    cr_assert_float_eq(tl_json_number(r, "score", -1), 5 * 12, 1e-9);
    cr_assert_eq(tl_json_number(r, "max_score", -1), 100);
    tl_json_free(r);
}

/* A reported test the rubric gives no points to: the kit's fault, never a guess at its weight. */
Test(report, a_test_the_rubric_does_not_name_cannot_grade)
{
    tl_json *r;
    cr_assert_eq(run_report("--tests tests/fixtures/tests-one-unnamed.json --measure-status 0", &r), 2);
    const char *out = tl_json_string(r, "output", "");
    cr_assert(strstr(out, "Could not grade: the rubric gives no points to hidden test twice_123x457"), "%s", out);
    cr_assert_str_eq(tl_json_string(tl_json_get(r, "extra_data"), "flags", "?"), "not-graded");
    tl_json_free(r);
}

Test(report, history_rows_have_fixed_columns, .init = NULL)
{
    tl_json *r;
    remove(OUT "/history.csv");
    run_report("--tests tests/fixtures/tests-all-pass.json --measure tests/fixtures/measure-0.125.json", &r);
    tl_json_free(r);
    run_report("--build-log tests/fixtures/build-errors.log", &r);   /* not graded: no row */
    tl_json_free(r);
    FILE *f = fopen(OUT "/history.csv", "r");
    cr_assert(f);
    char header[256], row[256], extra[256];
    cr_assert(fgets(header, sizeof header, f) && fgets(row, sizeof row, f));
    cr_assert_null(fgets(extra, sizeof extra, f), "one graded run, one row");
    fclose(f);
    cr_assert_str_eq(header, "time_utc,lab,source,gpu,rows,cols,gbps,copy_gbps,fraction_of_copy,score,max_score,seed,"
                     "depth,gflops,cublas_gflops,fraction_of_cublas\n");
    cr_assert(strstr(row, ",lab1,lab.cu,,8192,8192,375.00,3000.00,0.1250,86.00,100,7,,,,\n"), "%s", row);
}

#define LAB2_PASS "--tests tests/fixtures/tests-all-pass.json --measure tests/fixtures/measure-0.4.json"

Test(report, sanitizer_findings_are_quoted_with_file_and_line)
{
    tl_json *r;
    int status = run_report_with("tests/fixtures/lab2.rubric", LAB2_PASS " --structure 'shared=4 barrier=1' "
                                 "--sanitizers tests/fixtures/sanitizers-race", &r);
    cr_assert_eq(status, 1);
    cr_assert_eq(tl_json_number(test_named(r, "memcheck"), "score", -1), 5);
    const tl_json *race = test_named(r, "racecheck");
    const char *out = tl_json_string(race, "output", "");
    cr_assert_eq(tl_json_number(race, "score", -1), 0);
    cr_assert(strstr(out, "Race reported between Write access") && strstr(out, "transpose.cu:31") &&
              strstr(out, "transpose.cu:38") && strstr(out, "Next: threads read shared memory"), "%s", out);
    cr_assert(!strstr(out, "SUMMARY"), "the quote stops at the summary: %s", out);
    cr_assert_eq(tl_json_number(test_named(r, "structure"), "score", -1), 5);
    cr_assert_eq(tl_json_number(r, "score", -1), 95);
    cr_assert_eq(tl_json_number(r, "max_score", -1), 100);
    tl_json_free(r);
}

Test(report, missing_sanitizer_is_left_out_of_the_maximum)
{
    tl_json *r;
    int status = run_report_with("tests/fixtures/lab2.rubric", LAB2_PASS " --structure 'shared=4 barrier=1' "
                                 "--sanitizer-missing 'compute-sanitizer was not found'", &r);
    cr_assert_eq(status, 0, "all that could be checked passed");
    cr_assert_eq(tl_json_number(r, "max_score", -1), 90);
    cr_assert_eq(tl_json_number(r, "score", -1), 90);
    cr_assert(strstr(tl_json_string(test_named(r, "racecheck"), "output", ""),
                     "not checked: compute-sanitizer was not found. These points are left out of the maximum."));
    tl_json_free(r);
}

Test(report, structure_without_a_barrier_loses_its_points)
{
    tl_json *r;
    run_report_with("tests/fixtures/lab2.rubric", LAB2_PASS " --structure 'shared=4 barrier=0' "
                    "--sanitizers tests/fixtures/sanitizers-race", &r);
    const tl_json *t = test_named(r, "structure");
    cr_assert_eq(tl_json_number(t, "score", -1), 0);
    cr_assert(strstr(tl_json_string(t, "output", ""), "no barrier"));
    tl_json_free(r);
}

Test(report, extras_count_only_after_full_correctness)
{
    tl_json *r;
    run_report_with("tests/fixtures/lab2.rubric", "--tests tests/fixtures/tests-mixed.json --structure "
                    "'shared=4 barrier=1' --sanitizers tests/fixtures/sanitizers-race", &r);
    cr_assert_eq(tl_json_number(test_named(r, "memcheck"), "score", -1), 0);
    cr_assert_eq(tl_json_number(test_named(r, "structure"), "score", -1), 0);
    cr_assert_float_eq(tl_json_number(r, "score", -1), 20, 1e-6);
    tl_json_free(r);
}

Test(report, library_shortcuts_are_not_allowed)
{
    tl_json *r;
    int status = run_report_with("tests/fixtures/lab2.rubric", "--not-allowed cublasSgeam_v2", &r);
    cr_assert_eq(status, 1);
    cr_assert_eq(tl_json_number(r, "score", -1), 0);
    cr_assert_eq(tl_json_number(r, "max_score", -1), 100);
    cr_assert(strstr(tl_json_string(test_named(r, "allowed"), "output", ""), "not allowed: your file calls cublasSgeam_v2"));
    tl_json_free(r);
}

/* build/tools/inspect's findings: score 0, the called names in the summary,
 * each finding's sentence without its KIND: NAME: head. */
Test(report, inspect_findings_are_not_allowed_each_with_its_sentence)
{
    tl_json *r;
    int status = run_report_with("tests/fixtures/lab3.rubric", "--not-allowed-file tests/fixtures/inspect-findings.txt", &r);
    cr_assert_eq(status, 1, "%s", stdout_text());
    cr_assert_eq(tl_json_number(r, "score", -1), 0);
    const char *out = tl_json_string(test_named(r, "allowed"), "output", "");
    cr_assert(strstr(out, "not allowed: your file calls dlopen dlsym."), "%s", out);
    cr_assert(strstr(out, "\n  - your file includes grader/hidden.h: only tilelab.h"), "%s", out);
    cr_assert(strstr(out, "\n  - dlopen loads code at run time"), "%s", out);
    cr_assert(strstr(out, "\n  - your file defines seccomp_load (global function)"), "%s", out);
    cr_assert(!strstr(out, "calls: ") && !strstr(out, "defines: "), "%s", out);
    cr_assert(strstr(stdout_text(), "not allowed"), "%s", stdout_text());
    tl_json_free(r);
}

#define LAB3_PASS "--tests tests/fixtures/tests-all-pass.json --measure tests/fixtures/measure-baseline.json " \
                  "--structure 'shared=4 barrier=1' --sanitizers tests/fixtures/sanitizers-clean"

Test(report, no_bank_conflicts_earn_the_counter_points)
{
    tl_json *r;
    int status = run_report_with("tests/fixtures/lab3.rubric", LAB3_PASS " --counters tests/fixtures/ncu-padded.csv", &r);
    cr_assert_eq(status, 0, "%s", stdout_text());
    const tl_json *t = test_named(r, "bank conflicts");
    cr_assert_eq(tl_json_number(t, "score", -1), 10);
    const char *out = tl_json_string(t, "output", "");
    cr_assert(strstr(out, "global stores: sectors/request") && strstr(out, "4.00        4"), "%s", out);
    cr_assert(!strstr(out, "Hint"), "%s", out);
    tl_json_free(r);
}

Test(report, bank_conflicts_lose_the_points_with_a_hint)
{
    tl_json *r;
    int status = run_report_with("tests/fixtures/lab3.rubric", LAB3_PASS " --counters tests/fixtures/ncu-unpadded.csv", &r);
    cr_assert_eq(status, 1);
    const tl_json *t = test_named(r, "bank conflicts");
    cr_assert_eq(tl_json_number(t, "score", -1), 0);
    const char *out = tl_json_string(t, "output", "");
    cr_assert(strstr(out, "31.00") && strstr(out, "<- off") && strstr(out, "pad it to [32][33]") &&
              strstr(out, "15.50 bank conflicts per shared request (loads and stores together); the points need at most 0.25"), "%s", out);
    tl_json_free(r);
}

Test(report, uncoalesced_stores_are_named_for_information)
{
    tl_json *r;
    run_report_with("tests/fixtures/lab2.rubric", LAB2_PASS " --structure 'shared=4 barrier=1' --sanitizers "
                    "tests/fixtures/sanitizers-clean --counters tests/fixtures/ncu-naive.csv", &r);
    /* lab2's fixture rubric names no counters_shape: no counter item at all. */
    for (const tl_json *t = tl_json_get(r, "tests")->child; t; t = t->next)
        cr_assert(!strstr(tl_json_string(t, "name", ""), "counters"));
    tl_json_free(r);
    run_report_with("tests/fixtures/lab1-counters.rubric", LAB2_PASS " --counters tests/fixtures/ncu-naive.csv", &r);
    const tl_json *t = test_named(r, "hardware counters");
    cr_assert_eq(tl_json_number(t, "max_score", -1), 0);
    cr_assert(strstr(tl_json_string(t, "output", ""), "stores touch 32 sectors per request: your writes are not coalesced"),
              "%s", tl_json_string(t, "output", ""));
    cr_assert(strstr(stdout_text(), "INFO  hardware counters"), "%s", stdout_text());
    tl_json_free(r);
}

Test(report, missing_ncu_is_left_out_of_the_maximum)
{
    tl_json *r;
    int status = run_report_with("tests/fixtures/lab3.rubric", LAB3_PASS " --counters-missing 'ncu was refused "
                                 "access to the performance counters (ERR_NVGPUCTRPERM)'", &r);
    cr_assert_eq(status, 0);
    cr_assert_eq(tl_json_number(r, "max_score", -1), 90);
    cr_assert(strstr(tl_json_string(test_named(r, "bank conflicts"), "output", ""), "not checked: ncu was refused"));
    tl_json_free(r);
}

Test(report, lab3_is_compared_with_the_students_lab2)
{
    tl_json *r;
    run_report_with("tests/fixtures/lab3.rubric", LAB3_PASS " --counters tests/fixtures/ncu-padded.csv", &r);
    const char *out = tl_json_string(test_named(r, "performance"), "output", "");
    cr_assert(strstr(out, "against your lab2 (labs/lab2-shared-tile/transpose.cu), same run: 1262.4 GB/s = "
                          "0.420 of copy; yours is 2.02x faster"), "%s", out);
    tl_json_free(r);
    run_report_with("tests/fixtures/lab3.rubric", LAB3_PASS " --counters tests/fixtures/ncu-padded.csv "
                    "--measure tests/fixtures/measure-0.4.json", &r);
    cr_assert(strstr(tl_json_string(test_named(r, "performance"), "output", ""), "against your lab2: not compared"));
    tl_json_free(r);
}

Test(report, flags_name_what_went_wrong)
{
    tl_json *r;
    run_report_with("tests/fixtures/lab2.rubric", LAB2_PASS " --structure 'shared=4 barrier=1' "
                    "--sanitizers tests/fixtures/sanitizers-race", &r);
    cr_assert_str_eq(tl_json_string(tl_json_get(r, "extra_data"), "flags", "?"), "race");
    tl_json_free(r);
    run_report("--build-log tests/fixtures/build-errors.log", &r);
    cr_assert_str_eq(tl_json_string(tl_json_get(r, "extra_data"), "flags", "?"), "compile-error");
    tl_json_free(r);
}

Test(report, matmul_is_scored_against_cublas_with_the_naive_ratio)
{
    tl_json *r;
    int status = run_report_with("tests/fixtures/lab4.rubric", "--tests tests/fixtures/tests-matmul-all-pass.json "
                                 "--measure tests/fixtures/measure-matmul.json --structure 'shared=4 barrier=2' "
                                 "--sanitizers tests/fixtures/sanitizers-clean", &r);
    cr_assert_eq(status, 0, "%s", stdout_text());
    const char *out = tl_json_string(test_named(r, "performance: GFLOP/s"), "output", "");
    cr_assert(strstr(out, "4096x4096x4096 (MxKxN)") && strstr(out, "your kernel 8732 GFLOP/s = 0.170 of cuBLAS "
              "FP32 (51337 GFLOP/s) = 1.61x the naive kernel (5418 GFLOP/s), same run") &&
              strstr(out, "thresholds: 0.120 of cuBLAS = 0 points, 0.150 of cuBLAS = 25 points"), "%s", out);
    const tl_json *extra = tl_json_get(r, "extra_data");
    cr_assert_eq(tl_json_number(extra, "k", 0), 4096);
    cr_assert_float_eq(tl_json_number(extra, "fraction_of_cublas", 0), 0.170, 1e-3);
    cr_assert_str_eq(tl_json_string(tl_json_get(r, "leaderboard")->child, "name", ""), "GFLOP/s");
    tl_json_free(r);
}

/* A test is named by the title it gave while it ran (tl_hidden_title: the
 * shape it drew, M x K x N); the report derives nothing from the seed. */
Test(report, a_test_is_named_by_its_own_title)
{
    tl_json *r;
    run_report_with("tests/fixtures/lab4.rubric", "--tests tests/fixtures/tests-matmul-random.json", &r);
    test_named(r, "random_2 (40x3x977)");
    test_named(r, "17x33x65");   /* no title: the name without its ordering prefix */
    tl_json_free(r);
}

Test(report, a_precision_failure_is_wrong_not_out_of_bounds)
{
    tl_json *r;
    run_report_with("tests/fixtures/lab4.rubric", "--tests tests/fixtures/tests-matmul-precision.json", &r);
    cr_assert_str_eq(tl_json_string(tl_json_get(r, "extra_data"), "flags", "?"), "wrong");
    tl_json_free(r);
}

/* ---- lab 5: a lab of several kernels (rubric unit lines) ---------------- */

#define LAB5 "tests/fixtures/lab5.rubric"
#define LAB5_PASS "--tests tests/fixtures/lab5/tests-all-pass.json --measure tests/fixtures/lab5/measure.json"

Test(report, lab5_units_score_per_kernel_and_part)
{
    tl_json *r;
    int status = run_report_with(LAB5, LAB5_PASS " --sanitizers tests/fixtures/lab5/clean", &r);
    cr_assert_eq(status, 0, "%s", stdout_text());
    cr_assert_eq(tl_json_number(r, "score", -1), 100);
    cr_assert_eq(tl_json_number(r, "max_score", -1), 100);
    cr_assert_eq(tl_json_number(test_named(r, "clinic: block_sums"), "score", -1), 10);
    cr_assert_eq(tl_json_number(test_named(r, "N = 1"), "score", -1), 20, "one test carries its unit's points");
    const char *speed = tl_json_string(test_named(r, "speed"), "output", "");
    cr_assert(strstr(speed, "yours runs at 1.013x its speed") && strstr(speed, "(solutions/lab4-tiled-matmul/matmul.cu)"),
              "%s", speed);
    const char *out = stdout_text();
    cr_assert(strstr(out, "Part 1: clinic") && strstr(out, "Part 2: transpose in place") &&
              strstr(out, "Part 3: double-buffered matmul"), "%s", out);
    cr_assert(!strstr(tl_json_string(test_named(r, "performance"), "output", ""), "against"),
              "lab 5 compares its baseline in the speed item only");
    tl_json_free(r);
}

/* The lab 5 fixture the race logs of tests/fixtures/lab5/race/ were captured
 * from, rebuilt from its patch (tests/submissions/lab5/): the report names
 * the lines of the file the findings name, so the file must be there. */
#define DBUF_SINGLE_BUFFER OUT "/patched/dbuf_single_buffer.cu"
static void patch_dbuf_single_buffer(void)
{
    int status = system("mkdir -p " OUT "/patched && patch -s -o " DBUF_SINGLE_BUFFER
                        " solutions/lab5-supersteps/supersteps.cu < tests/submissions/lab5/dbuf_single_buffer.patch");
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "tests/submissions/lab5/dbuf_single_buffer.patch does not apply to the lab 5 solution");
}

Test(report, lab5_clinic_right_but_not_clean_is_not_fixed)
{
    tl_json *r;
    patch_dbuf_single_buffer();
    run_report_with(LAB5, LAB5_PASS " --sanitizers tests/fixtures/lab5/race --source " DBUF_SINGLE_BUFFER, &r);
    const tl_json *sums = test_named(r, "clinic: block_sums");
    const char *out = tl_json_string(sums, "output", "");
    cr_assert_eq(tl_json_number(sums, "score", -1), 0);
    cr_assert(strstr(out, "hidden tests: 1 of 1 right") && strstr(out, "Divergent thread(s) in warp") &&
              strstr(out, "Right on every test, but not fixed"), "%s", out);
    cr_assert_eq(tl_json_number(test_named(r, "clinic: pair_sums"), "score", -1), 10, "a clean kernel keeps its points");
    cr_assert_eq(tl_json_number(r, "score", -1), 85, "sums' 10 and dbuf's sanitizer 5 lost");
    cr_assert(strstr(tl_json_string(tl_json_get(r, "extra_data"), "flags", ""), "race"));
    tl_json_free(r);
}

Test(report, lab5_race_names_part_kernel_and_superstep)
{
    tl_json *r;
    patch_dbuf_single_buffer();
    run_report_with(LAB5, LAB5_PASS " --sanitizers tests/fixtures/lab5/race --source " DBUF_SINGLE_BUFFER, &r);
    const char *out = tl_json_string(test_named(r, "memcheck, racecheck, synccheck: clean on 67x45x33"), "output", "");
    cr_assert(strstr(out, "line 166: part 3, in matmul_dbuf, superstep 'load_next_multiply_current'") &&
              strstr(out, "line 170: part 3, in matmul_dbuf, superstep 'load_next_multiply_current'") &&
              strstr(out, "Both accesses sit in superstep 'load_next_multiply_current'"), "%s", out);
    tl_json_free(r);
}

Test(report, lab5_accesses_outside_supersteps_are_named)
{
    tl_json *r;
    /* The skeleton: its block_sums barrier (line 62) sits in no superstep. */
    run_report_with(LAB5, LAB5_PASS " --sanitizers tests/fixtures/lab5/race "
                    "--source labs/lab5-supersteps/supersteps.cu", &r);
    const char *out = tl_json_string(test_named(r, "clinic: block_sums"), "output", "");
    cr_assert(strstr(out, "line 62: part 1, in block_sums, in no superstep"), "%s", out);
    tl_json_free(r);
}

Test(report, lab5_without_a_baseline_leaves_the_speed_points_out)
{
    tl_json *r;
    int status = run_report_with(LAB5, "--tests tests/fixtures/lab5/tests-all-pass.json "
                                 "--measure tests/fixtures/lab5/measure-no-baseline.json "
                                 "--sanitizers tests/fixtures/lab5/clean", &r);
    cr_assert_eq(status, 0, "all that could be checked passed");
    cr_assert_eq(tl_json_number(r, "max_score", -1), 87);
    const char *out = tl_json_string(test_named(r, "speed"), "output", "");
    cr_assert(strstr(out, "not compared (labs/lab4-tiled-matmul/matmul.cu fails a quick check") &&
              strstr(out, "left out of the maximum"), "%s", out);
    tl_json_free(r);
}

Test(report, lab5_parts_measured_in_two_processes)
{
    tl_json *r;
    /* ./grade measures each timed part in its own process: two files. */
    int status = run_report_with(LAB5, "--tests tests/fixtures/lab5/tests-all-pass.json "
                                 "--measure tests/fixtures/lab5/measure-inplace.json "
                                 "--measure-part tests/fixtures/lab5/measure-dbuf.json "
                                 "--sanitizers tests/fixtures/lab5/clean", &r);
    cr_assert_eq(status, 0, "%s", stdout_text());
    cr_assert_eq(tl_json_number(test_named(r, "performance"), "score", -1), 12);
    cr_assert_eq(tl_json_number(test_named(r, "speed"), "score", -1), 13);
    tl_json_free(r);
}

Test(report, lab5_clinic_without_sanitizers_is_not_checked)
{
    tl_json *r;
    int status = run_report_with(LAB5, LAB5_PASS " --sanitizer-missing 'compute-sanitizer was not found'", &r);
    cr_assert_eq(status, 0, "all that could be checked passed");
    const tl_json *sums = test_named(r, "clinic: block_sums");
    cr_assert_eq(tl_json_number(sums, "max_score", -1), 0, "right alone does not make a clinic kernel fixed");
    cr_assert(strstr(tl_json_string(sums, "output", ""), "left out of the maximum"));
    cr_assert_eq(tl_json_number(r, "max_score", -1), 60, "100 - 30 (clinic) - 10 (sanitizers)");
    tl_json_free(r);
}

/* The kit's own failures (no GPU, a reference that failed while timed) and a
 * bad command line could not grade: exit 2, a failing test named "could not
 * grade", never a score as if the student's kernel had failed. */
Test(report, a_problem_is_a_could_not_grade_test)
{
    tl_json *r;
    cr_assert_eq(run_report("--quiet --problem 'not your file'\\''s fault: no usable NVIDIA GPU (probe)'", &r), 2);
    const tl_json *t = test_named(r, "could not grade");
    cr_assert_str_eq(tl_json_string(t, "status", ""), "failed");
    cr_assert(strstr(tl_json_string(t, "output", ""), "no usable NVIDIA GPU"));
    cr_assert(strstr(tl_json_string(r, "output", ""), "Could not grade: not your file's fault: no usable"));
    cr_assert_eq(tl_json_get(tl_json_get(r, "extra_data"), "graded")->type, TL_JSON_BOOL);
    cr_assert_str_eq(stdout_text(), "", "--quiet: results.json only");
    tl_json_free(r);
}

Test(report, an_unknown_lab_still_gets_results)
{
    tl_json *r;
    cr_assert_eq(run_report_with("labs/lab9-missing/lab.rubric", "--problem 'unknown lab lab9'", &r), 2);
    cr_assert_str_eq(tl_json_string(tl_json_get(r, "extra_data"), "lab", ""), "lab9");
    cr_assert(strstr(tl_json_string(test_named(r, "could not grade"), "output", ""), "unknown lab lab9"));
    tl_json_free(r);
}

Test(report, a_failed_measurement_is_the_kits_failure)
{
    tl_json *r;
    int status = run_report("--tests tests/fixtures/tests-all-pass.json --measure " OUT "/none.json "
                            "--measure-status 2", &r);
    cr_assert_eq(status, 2, "a reference that failed while timed is not the student's lost points");
    cr_assert(strstr(tl_json_string(test_named(r, "could not grade"), "output", ""), "not your file's fault"));
    tl_json_free(r);
}

/* The top-level output names the GPU, the seed, the command that repeats the
 * run (a path with a space quoted) and the kit's version, also in extra_data. */
Test(report, output_names_gpu_seed_command_and_version)
{
    tl_json *r;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p " OUT " && NO_COLOR=1 build/tools/report --rubric tests/fixtures/lab1.rubric "
             "--source 'my labs/it'\\''s.cu' --seed 42 --kit-version 0.1.0-7-gabc1234 --results " OUT "/results.json "
             "--device tests/fixtures/device.json --tests tests/fixtures/tests-all-pass.json "
             "--measure tests/fixtures/measure-0.3.json > " OUT "/stdout.txt 2>&1");
    cr_assert(WIFEXITED(system(cmd)));
    char err[256];
    r = tl_json_parse_file(OUT "/results.json", err, sizeof err);
    cr_assert(r, "%s", err);
    const char *out = tl_json_string(r, "output", "");
    cr_assert(strstr(out, "GPU: Fixture GPU (sm_90"), "%s", out);
    cr_assert(strstr(out, "seed: 42\n"), "%s", out);
    cr_assert(strstr(out, "repeat this run: ./grade lab1 --file 'my labs/it'\\''s.cu' --seed 42\n"), "%s", out);
    cr_assert(strstr(out, "kit: tilelab 0.1.0-7-gabc1234"), "%s", out);
    const tl_json *extra = tl_json_get(r, "extra_data");
    cr_assert_str_eq(tl_json_string(extra, "kit_version", ""), "0.1.0-7-gabc1234");
    cr_assert_str_eq(tl_json_string(extra, "command", ""), "./grade lab1 --file 'my labs/it'\\''s.cu' --seed 42");
    tl_json_free(r);
}

/* Lab 6: sectors per request show 128-bit accesses; cuBLAS Sgeam and the
 * student's lab 3 are compared in the same run, for information. The inputs
 * are real captures of ./grade on the reference (H100, 2026-11-24). */
#define LAB6_PASS "--tests tests/fixtures/tests-all-pass.json --measure tests/fixtures/measure-library.json " \
                  "--sanitizers tests/fixtures/sanitizers-clean"

Test(report, lab6_vector_accesses_earn_their_points_and_the_library_is_compared)
{
    tl_json *r;
    int status = run_report_with("tests/fixtures/lab6.rubric", LAB6_PASS " --counters tests/fixtures/ncu-vector.csv", &r);
    cr_assert_eq(status, 0, "%s", stdout_text());
    const tl_json *t = test_named(r, "128-bit global loads and stores");
    cr_assert_eq(tl_json_number(t, "score", -1), 20);
    const char *out = tl_json_string(t, "output", "");
    cr_assert(strstr(out, "global loads: requests") && strstr(out, "8192.00     8192") && !strstr(out, "<- off"), "%s", out);
    out = tl_json_string(test_named(r, "performance"), "output", "");
    cr_assert(strstr(out, "against cuBLAS Sgeam, same run: 2755.9 GB/s = 1.002 of copy; yours is 1.02x its speed "
                          "(faster)"), "%s", out);
    cr_assert(strstr(out, "against your lab3 (/work/main/solutions/lab3-padding/transpose.cu), same run: 2726.9 GB/s"),
              "%s", out);
    cr_assert_eq(tl_json_number(r, "score", -1), 100);
    tl_json_free(r);
}

Test(report, lab6_scalar_accesses_lose_the_vector_points_named_as_32_bit)
{
    tl_json *r;
    int status = run_report_with("tests/fixtures/lab6.rubric", LAB6_PASS " --counters tests/fixtures/ncu-padded.csv", &r);
    cr_assert_eq(status, 1);
    const tl_json *t = test_named(r, "128-bit global loads and stores");
    cr_assert_eq(tl_json_number(t, "score", -1), 0);
    const char *out = tl_json_string(t, "output", "");
    cr_assert(strstr(out, "your loads and stores take 4.0x the requests of 128-bit accesses: 32-bit (float) accesses, as "
                          "lab 3's") && strstr(out, "at most 1.1x the requests of float4 accesses, whole rows each (8192 loads, 8192 stores)") &&
              !strstr(out, "not coalesced"), "%s", out);
    cr_assert_eq(tl_json_number(r, "score", -1), 80);
    tl_json_free(r);
}

Test(report, lab6_library_that_failed_is_not_compared_and_costs_nothing)
{
    tl_json *r;
    run_report_with("tests/fixtures/lab6.rubric", "--tests tests/fixtures/tests-all-pass.json --measure "
                    "tests/fixtures/measure-baseline.json --sanitizers tests/fixtures/sanitizers-clean "
                    "--counters tests/fixtures/ncu-vector.csv", &r);
    const char *out = tl_json_string(test_named(r, "performance"), "output", "");
    cr_assert(strstr(out, "against cuBLAS Sgeam: not compared (no measurement; not your file's fault)"), "%s", out);
    tl_json_free(r);
}

Test(report, lab6_extra_requests_lose_the_vector_points)
{
    tl_json *r;
    run_report_with("tests/fixtures/lab6.rubric", LAB6_PASS " --counters tests/fixtures/ncu-vector-extra.csv", &r);
    const tl_json *t = test_named(r, "128-bit global loads and stores");
    cr_assert_eq(tl_json_number(t, "score", -1), 0);
    cr_assert(strstr(tl_json_string(t, "output", ""), "your loads take 1.5x the requests of 128-bit accesses: more "
                     "requests than the data needs"), "%s", tl_json_string(t, "output", ""));
    tl_json_free(r);
}

Test(report, lab6_a_launch_that_fails_under_ncu_loses_the_points_not_the_maximum)
{
    tl_json *r;
    int status = run_report_with("tests/fixtures/lab6.rubric", LAB6_PASS " --counters-shape 960x1088 "
                                 "--counters-failed 'wrong result (output 1088x960): first mismatch at (0, 0)'", &r);
    cr_assert_eq(status, 1);
    cr_assert_eq(tl_json_number(r, "max_score", -1), 100);
    const tl_json *t = test_named(r, "128-bit global loads and stores");
    cr_assert_eq(tl_json_number(t, "score", -1), 0);
    cr_assert(strstr(tl_json_string(t, "output", ""), "your launch failed at 960x1088 under ncu: wrong result"),
              "%s", tl_json_string(t, "output", ""));
    tl_json_free(r);
    /* At a shape drawn from the seed the ideal is that shape's: 960 x 1088 / 128 = 8160 requests. */
    run_report_with("tests/fixtures/lab6.rubric", LAB6_PASS " --counters-shape 960x1088 --counters "
                    "tests/fixtures/ncu-vector.csv", &r);
    t = test_named(r, "128-bit global loads and stores");
    cr_assert_eq(tl_json_number(t, "score", -1), 20);
    cr_assert(strstr(tl_json_string(t, "output", ""), "960x1088"), "%s", tl_json_string(t, "output", ""));
    tl_json_free(r);
}

/* Lab 7, from real captures of ./grade on the reference (H100, 2026-11-27,
 * seed 20261121): part 2's speedup over cuBLAS has a key named for what it
 * holds, GFLOP/s are written once, and the FMAs ncu counted at block density
 * 1/4 and with B dense decide whether the speed counts. */
#define LAB7 "--tests tests/fixtures/lab7/tests.json --measure tests/fixtures/lab7/measure.json " \
             "--measure-part tests/fixtures/lab7/measure-sparse.json --counters tests/fixtures/lab7/counters.csv " \
             "--counters-shape 1024x1024x1024 --contrast-counters tests/fixtures/lab7/contrast.csv " \
             "--counters-timed tests/fixtures/lab7/counters-timed.csv "

Test(report, lab7_sparse_speedup_is_written_once_under_its_own_name)
{
    tl_json *r;
    run_report_with("labs/lab7-sparse-matmul/lab.rubric", LAB7 "--ffma-dense tests/fixtures/lab7/ffma-dense.csv "
                    "--ffma-quarter tests/fixtures/lab7/ffma-quarter.csv", &r);
    const tl_json *extra = tl_json_get(r, "extra_data");
    double quarter = tl_json_number(extra, "sparse_speedup_over_cublas_quarter", 0);
    cr_assert(quarter > 1.1 && quarter < 1.3, "cuBLAS's time over the sparse kernel's at 1/4: %g", quarter);
    cr_assert_null(tl_json_get(extra, "speedup_over_baseline"), "lab 7 has no baseline speedup");
    const tl_json *t = test_named(r, "speed: skipping zeros");
    cr_assert_eq(tl_json_number(t, "score", -1), tl_json_number(t, "max_score", -2), "%s", tl_json_string(t, "output", ""));
    cr_assert(strstr(tl_json_string(t, "output", ""), "= 0.250 of them (at most 0.35)"), "%s",
              tl_json_string(t, "output", ""));
    tl_json_free(r);
}

Test(report, lab7_dense_work_earns_no_speedup_points_whatever_the_time)
{
    tl_json *r;
    run_report_with("labs/lab7-sparse-matmul/lab.rubric", LAB7 "--ffma-dense tests/fixtures/lab7/ffma-dense-no-skip.csv "
                    "--ffma-quarter tests/fixtures/lab7/ffma-quarter-no-skip.csv", &r);
    const tl_json *t = test_named(r, "speed: skipping zeros");
    const char *out = tl_json_string(t, "output", "");
    cr_assert_eq(tl_json_number(t, "score", -1), 0, "the measured time would earn the points: %s", out);
    cr_assert(strstr(out, "= 1.000 of them (at most 0.35)") && strstr(out, "does the zero K-blocks' work"), "%s", out);
    tl_json_free(r);
}

Test(report, lab7_counts_that_disagree_at_the_timed_shape_lose_the_uniformity_points)
{
    tl_json *r;
    /* The wide-tile kernel's counts stand for a timed shape where the skip diverges. */
    run_report_with("labs/lab7-sparse-matmul/lab.rubric", "--tests tests/fixtures/lab7/tests.json "
                    "--measure tests/fixtures/lab7/measure.json --measure-part tests/fixtures/lab7/measure-sparse.json "
                    "--counters tests/fixtures/lab7/counters.csv --counters-shape 1024x1024x1024 "
                    "--counters-timed tests/fixtures/lab7/contrast.csv", &r);
    const tl_json *t = test_named(r, "warp-uniform skips");
    const char *out = tl_json_string(t, "output", "");
    cr_assert_eq(tl_json_number(t, "score", -1), 0, "%s", out);
    cr_assert(strstr(out, "at the shape your kernel is timed at"), "%s", out);
    cr_assert_null(strstr(out, "your skip diverges"), "the counted shape's share was fine: %s", out);
    tl_json_free(r);
}

/* A grade CPU mode could not finish is out of CPU mode's maximum, as its
 * graded runs are, not the lab's (one gradebook, one maximum). */
Test(report, a_cpu_mode_could_not_grade_is_out_of_cpu_modes_maximum)
{
    tl_json *r;
    run_report("--tests tests/fixtures/tests-all-pass.json --cpu-mode 'shapes capped'", &r);
    double graded_max = tl_json_number(r, "max_score", -1);
    tl_json_free(r);
    cr_assert_eq(run_report("--cpu-mode 'shapes capped' --problem 'the compiler did not finish'", &r), 2);
    cr_assert_eq(tl_json_number(r, "max_score", -2), graded_max, "not graded: %g, graded: %g",
                 tl_json_number(r, "max_score", -2), graded_max);
    tl_json_free(r);
    cr_assert_eq(run_report("--problem 'the compiler did not finish'", &r), 2);
    cr_assert_eq(tl_json_number(r, "max_score", -1), 100, "on a GPU: the lab's maximum");
    tl_json_free(r);
}

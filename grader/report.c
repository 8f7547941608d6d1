/*
 * report.c — the grader's score-and-report step. Reads the rubric, the hidden
 * tests' Criterion JSON and the measurement JSON; prints the report; writes
 * Gradescope's results.json (always, also when grading was impossible) and
 * appends a row to the history CSV. Exit: 0 full marks, 1 points lost,
 * 2 could not grade.
 *
 *   report --rubric R --source F --seed S --results OUT.json [--history H.csv]
 *          [--device DEV.json] [--tests TESTS.json] [--tests-log LOG]
 *          [--measure M.json] [--measure-status N] [--measure-part PART.json] [--build-log LOG]
 *          [--problem TEXT] [--elapsed SECONDS] [--quiet] [--kit-version V]
 *          [--structure "shared=N barrier=M" [--structure-note TEXT]] [--sanitizers DIR | --sanitizer-missing TEXT]
 *          [--not-allowed CALLS | --not-allowed-file FINDINGS] [--counters NCU.csv | --counters-missing TEXT]
 *          [--cpu-mode NOTE] [--cases-reduced NOTE] [--html PATH] [--run DIR]
 *
 * --run DIR --step-failed STEP --step-status N: that step of the file's failed
 * (report_run.c says why: the inspector's findings or its failure, a build limit,
 * CPU mode's, or the compiler's errors).
 * --run DIR: a grade's run folder (./grade's last step): the tests, the
 * measurement, the sanitizers, the counters and the structure are read from
 * the files its steps left there, as its plan (DIR/plan.sh) says they ran
 * (report_run.c); ./grade passes only what is not in the folder.
 *
 * --html PATH: report.html too, the grade drawn (report_page.c).
 * report --figures RUN_DIR SOURCE PREFIX: its pictures, one page each, from a
 * CPU-mode grade's folder (the handouts', tools/handouts/figures.sh).
 *
 * --cpu-mode NOTE: graded in CPU mode (./grade --cpu, no GPU): the report and
 * results.json say so with NOTE (the shapes capped), and every speed item is
 * "not measured: no GPU", its points left out of the maximum.
 * --cases-reduced NOTE: the kit's own tests graded on reduced cases
 * (TILELAB_TEST_CASES=reduced): the report, results.json's output and its
 * extra_data ("cases": "reduced") say it is not a grade, with NOTE.
 *
 * FINDINGS: build/tools/inspect's output (grader/inspect.c), one `KIND: NAME: sentence` a line:
 * the file scores 0 and each sentence is shown.
 *
 * --problem: could not grade, for that reason (a bad command line, no GPU,
 * the kit's own failure). Then the rubric may be missing (an unknown lab):
 * the lab is named after the rubric's file. A measurement that exits 2
 * (TL_EXIT_CANNOT_RUN: a reference failed) is the kit's failure too: could
 * not grade, never a score as if the student's kernel had failed. Could not
 * grade is always exit 2, and results.json then holds one failing test named
 * "could not grade" with the reason, besides the top-level output.
 */
#include "report.h"
#include "counters.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = "1";
    for (int i = 1; i < argc; i += 2) {
        if (!strcmp(argv[i], "--quiet")) {
            o->quiet = 1;
            i--;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "report: option %s needs a value\n", argv[i]);
            return -1;
        }
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--rubric")) o->rubric_path = v;
        else if (!strcmp(k, "--source")) o->source = v;
        else if (!strcmp(k, "--seed")) o->seed = v;
        else if (!strcmp(k, "--results")) o->results = v;
        else if (!strcmp(k, "--history")) o->history = v;
        else if (!strcmp(k, "--device")) o->device_json = v;
        else if (!strcmp(k, "--tests")) o->tests_json = v;
        else if (!strcmp(k, "--tests-log")) o->tests_log = v;
        else if (!strcmp(k, "--measure")) o->measure_json = v;
        else if (!strcmp(k, "--measure-status")) o->measure_status = atoi(v);
        else if (!strcmp(k, "--measure-part")) o->measure_part_json = v;
        else if (!strcmp(k, "--build-log")) o->build_log = v;
        else if (!strcmp(k, "--problem")) o->problem = v;
        else if (!strcmp(k, "--elapsed")) o->elapsed = atof(v);
        else if (!strcmp(k, "--structure")) o->structure = v;
        else if (!strcmp(k, "--structure-note")) o->structure_note = v;
        else if (!strcmp(k, "--double-buffered")) o->double_buffered = v;
        else if (!strcmp(k, "--sanitizers")) o->sanitizers = v;
        else if (!strcmp(k, "--sanitizer-missing")) o->sanitizer_missing = v;
        else if (!strcmp(k, "--not-allowed")) o->not_allowed = v;
        else if (!strcmp(k, "--not-allowed-file")) o->not_allowed_file = v;
        else if (!strcmp(k, "--counters")) o->counters = v;
        else if (!strcmp(k, "--counters-missing")) o->counters_missing = v;
        else if (!strcmp(k, "--counters-failed")) o->counters_failed = v;
        else if (!strcmp(k, "--counters-shape")) o->counters_shape = v;
        else if (!strcmp(k, "--counters-timed")) o->counters_timed = v;
        else if (!strcmp(k, "--counters-timed-failed")) o->counters_timed_failed = v;
        else if (!strcmp(k, "--ffma-dense")) o->ffma_dense = v;
        else if (!strcmp(k, "--ffma-quarter")) o->ffma_quarter = v;
        else if (!strcmp(k, "--ffma-failed")) o->ffma_failed = v;
        else if (!strcmp(k, "--cpu-mode")) o->cpu_mode = v;
        else if (!strcmp(k, "--cases-reduced")) o->cases_reduced = v;
        else if (!strcmp(k, "--contrast-counters")) o->contrast_counters = v;
        else if (!strcmp(k, "--kit-version")) o->kit_version = v;
        else if (!strcmp(k, "--html")) o->html = v;
        else if (!strcmp(k, "--run")) o->run = v;
        else if (!strcmp(k, "--step-failed")) o->step_failed = v;
        else if (!strcmp(k, "--step-status")) o->step_status = atoi(v);
        else {
            fprintf(stderr, "report: unknown option %s\n", k);
            return -1;
        }
    }
    if (!o->rubric_path || !o->source || !o->results) {
        fprintf(stderr, "report: --rubric, --source and --results are required\n");
        return -1;
    }
    return 0;
}

static void read_device(grade *g, const char *path)
{
    char err[256];
    tl_json *d = path ? tl_json_parse_file(path, err, sizeof err) : NULL;
    if (!d)
        return;
    int driver = (int)tl_json_number(d, "driver_version", 0), runtime = (int)tl_json_number(d, "runtime_version", 0);
    snprintf(g->device, sizeof g->device, "%s (%s, %d SMs, L2 %.0f MiB, memory %d MHz x %d bit, "
             "driver CUDA %d.%d, runtime %d.%d)", tl_json_string(d, "name", "?"), tl_json_string(d, "arch", "?"),
             (int)tl_json_number(d, "sm_count", 0), tl_json_number(d, "l2_bytes", 0) / 1048576.0,
             (int)tl_json_number(d, "memory_clock_khz", 0) / 1000, (int)tl_json_number(d, "bus_width_bits", 0),
             driver / 1000, driver % 1000 / 10, runtime / 1000, runtime % 1000 / 10);
    tl_json_free(d);
}

int main(int argc, char **argv)
{
    options o;
    if (argc == 2 && !strcmp(argv[1], "--counter-metrics")) {   /* what grade asks ncu for */
        puts(TL_COUNTER_METRICS);
        return 0;
    }
    if (argc == 5 && !strcmp(argv[1], "--figures"))   /* the handouts' pictures: --figures RUN_DIR SOURCE PREFIX */
        return write_figure_files(argv[2], argv[3], argv[4]) == 0 ? 0 : 2;
    if (parse_options(argc, argv, &o) != 0)
        return 2;
    static grade g;
    char err[512];
    if (tl_rubric_load(o.rubric_path, &g.rubric, err, sizeof err) != 0) {
        if (!o.problem) {
            fprintf(stderr, "grade: %s\n", err);
            return 2;
        }
        /* Could not grade anyway (an unknown lab): named after the rubric's file. */
        memset(&g.rubric, 0, sizeof g.rubric);
        /* The lab from the path: labs/<id>-<name>/lab.rubric (or a file <id>.rubric). */
        const char *base = strrchr(o.rubric_path, '/') ? strrchr(o.rubric_path, '/') + 1 : o.rubric_path;
        if (!strcmp(base, "lab.rubric") && base > o.rubric_path + 1) {
            const char *folder = base - 1;
            while (folder > o.rubric_path && folder[-1] != '/')
                folder--;
            snprintf(g.rubric.id, sizeof g.rubric.id, "%.*s", (int)strcspn(folder, "-/"), folder);
        } else {
            snprintf(g.rubric.id, sizeof g.rubric.id, "%.*s", (int)strcspn(base, "."), base);
        }
        snprintf(g.rubric.title, sizeof g.rubric.title, "not a lab of this kit");
    }
    /* --run in CPU mode, a file CPU mode cannot run: could not grade, said on stderr (exit 3) */
    int said = 0;
    if (o.run && o.step_failed)
        read_failed_step(&o, o.step_failed, o.step_status);
    else if (o.run)
        said = read_run(&o, &g.rubric) != 0;
    read_device(&g, o.device_json);

    if (o.build_log) {
        g.could_not_grade = 1;
        g.flags |= FLAG_COMPILE_ERROR;
        snprintf(g.problem, sizeof g.problem, "%s does not compile. The compiler says:\n", o.source);
        append_file(g.problem, sizeof g.problem, o.build_log, NULL, 40);
        appendf(g.problem, sizeof g.problem, "Next: %s\n", build_failure_hint(o.build_log, g.rubric.id));
    } else if (o.problem) {
        g.could_not_grade = 1;
        snprintf(g.problem, sizeof g.problem, "%s\n", o.problem);
    } else if (o.not_allowed || o.not_allowed_file) {
        grade_not_allowed(&g, &o);
    } else if (grade_tests(&g, &o) != 0) {
        g.could_not_grade = 1;
    } else if (o.measure_status == 2) {   /* TL_EXIT_CANNOT_RUN (kit/check.h) */
        /* The measurement's own failure (a reference kernel, the GPU): the kit's, not the file's. */
        g.could_not_grade = 1;
        snprintf(g.problem, sizeof g.problem, "not your file's fault: the measurement could not run (exit %d). "
                 "It said:\n", o.measure_status);
        append_file(g.problem, sizeof g.problem, o.tests_log, "measure", 10);
        appendf(g.problem, sizeof g.problem, "Next: grade again; if it happens again, tell your instructor.\n");
    } else if (g.rubric.nunits) {
        grade_units(&g, &o);
    } else {
        /* Points beyond correctness count only when every correctness test passes. */
        int all_passed = 1;
        for (int i = 0; i < g.ntests; i++)
            all_passed &= g.tests[i].passed;
        grade_sanitizer(&g, &o, "memcheck", g.rubric.memcheck_points, all_passed);
        grade_sanitizer(&g, &o, "racecheck", g.rubric.racecheck_points, all_passed);
        grade_sanitizer(&g, &o, "synccheck", g.rubric.synccheck_points, all_passed);
        grade_structure(&g, &o, all_passed);
        grade_counters(&g, &o, all_passed);
        grade_performance(&g, &o, all_passed);
    }

    if (g.could_not_grade && !(g.flags & FLAG_COMPILE_ERROR))
        g.flags |= FLAG_NOT_GRADED;
    if (!o.quiet)
        print_report(&g, &o);
    write_results(&g, &o);
    append_history(&g, &o);
    /* The page adds to the text report; a page that cannot be written costs no grade. */
    if (o.html && write_report_page(&g, &o, o.html) != 0)
        fprintf(stderr, "grade: could not write %s (the text report above is the grade)\n", o.html);
    if (g.could_not_grade)
        return said ? 3 : 2;
    return fabs(total(&g, 0) - total(&g, 1)) < 1e-9 ? 0 : 1;
}

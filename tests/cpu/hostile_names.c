/*
 * Hostile names in CPU mode (issue 44): a grade does not depend on the name
 * of the run folder or of the lab file. Each test grades a solution with
 * ./grade --cpu into build/tests/cpu-hostile/<test>/ (no GPU needed, none
 * used). The same cases on the GPU path: tests/tools/hostile_names.c.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "json.h"

#define WORK "build/tests/cpu-hostile"

static int sh(const char *cmd)
{
    unsetenv("MAKEFLAGS");   /* a fresh top-level make inside, as a student's */
    unsetenv("MAKELEVEL");
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ./grade LAB --cpu --file FILE --seed 7 --out OUT (both single-quoted words); results.json's score. */
static double grade_cpu(const char *lab, const char *file, const char *out, const char *log)
{
    char cmd[4096], json[1024], err[256];
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK " && NO_COLOR=1 TILELAB_HISTORY=" WORK "/history.csv ./grade %s --cpu "
             "--file '%s' --seed 7 --out '%s' > %s 2>&1", lab, file, out, log);
    int status = sh(cmd);
    snprintf(json, sizeof json, "%s/results.json", out);
    tl_json *r = tl_json_parse_file(json, err, sizeof err);
    cr_assert(r, "no results.json in the run folder (%s); exit %d; see %s", err, status, log);
    double score = tl_json_number(r, "score", -1);
    tl_json_free(r);
    return score;
}

/* Issue 44, case 1 in CPU mode: a newline in --out split the plan's step
 * list of CPU mode's checks ("eval: Syntax error"), and lab 3's reference
 * lost its sanitizer and bank-conflict points (60/80). */
Test(cpu_hostile, a_newline_in_out_costs_no_points, .timeout = 900)
{
    cr_assert_eq(sh("rm -rf " WORK "/newline && mkdir -p " WORK "/newline"), 0);
    double score = grade_cpu("lab3", "solutions/lab3-padding/transpose.cu", WORK "/newline/out\ny x%p",
                             WORK "/newline/grade.log");
    FILE *f = fopen(WORK "/newline/grade.log", "r");
    char log[65536] = "";
    if (f) {
        log[fread(log, 1, sizeof log - 1, f)] = '\0';
        fclose(f);
    }
    cr_expect(!strstr(log, "Syntax error") && !strstr(log, "Unterminated"), "%s", log);
    cr_expect_eq(score, 80, "lab 3's reference scored %g, not 80/80, with a newline in --out:\n%s", score, log);
}


/* Builds lab 4's SRC for the CPU (its log in LOG) and puts its CPU worker's path in WORKER.
 * Other tests build the same file at once (tests/cpu/cpu.c, ./grade's): the build holds
 * cpu.c's lock for the file and ./grade's for its folder, so no two write it together. */
static void build_lab4_for_cpu(const char *src, const char *log, char *worker, size_t size)
{
    char cmd[4096], lock[512], where[600];
    snprintf(lock, sizeof lock, "%s", src);
    for (char *p = lock; *p; p++)
        if (*p == '/' || *p == '.')
            *p = '_';
    snprintf(where, sizeof where, "%s.where", log);
    snprintf(cmd, sizeof cmd, "src='%s' && out=$(make -s --no-print-directory -f mk/submission.mk LAB=lab4 SRC=\"$src\" "
             "print-dirs | cut -d' ' -f1) && mkdir -p build/tests/cpu-mode && flock build/tests/cpu-mode/%s.lock "
             "flock \"$out.build-lock\" make -s --no-print-directory -f mk/submission.mk LAB=lab4 SRC=\"$src\" cpu > %s 2>&1 "
             "&& make -s --no-print-directory -f mk/submission.mk LAB=lab4 SRC=\"$src\" print-cpu > %s", src, lock, log, where);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
    FILE *f = fopen(where, "r");
    char format[16];
    snprintf(format, sizeof format, "%%%zus", size - 1);
    cr_assert(f && fscanf(f, format, worker) == 1, "print-cpu said nothing: %s", where);
    fclose(f);
}
/* The shared-load requests cpu-check counts at 128^3 for lab 4's SRC (a
 * path make can take), shown as SHOWN (--source, as ./grade passes the
 * student's name): the imitation ncu CSV's smsp__sass_inst_executed_op_shared_ld.
 * The case's deadline is generous: the count is the test, not the time. */
static long shared_loads(const char *src, const char *shown, const char *name)
{
    char cmd[4096], worker[512] = "", path[512], line[512];
    snprintf(path, sizeof path, WORK "/names/%s.build.log", name);
    build_lab4_for_cpu(src, path, worker, sizeof worker);
    snprintf(cmd, sizeof cmd, "build/cpu/cpu-check --worker %s --kind matmul --lab lab4 --source '%s' --timeout 900 "
             "--mnk 1x1x1 --counters 128x128x128 --ncu-csv " WORK "/names/%s.csv > " WORK "/names/%s.log 2>&1",
             worker, shown, name, name);
    sh(cmd);
    snprintf(path, sizeof path, WORK "/names/%s.csv", name);
    FILE *f = fopen(path, "r");
    cr_assert(f, "no %s", path);
    long value = -1;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "\"smsp__sass_inst_executed_op_shared_ld.sum\"")) {
            char *last = strrchr(line, ',');
            value = last ? strtol(last + 2, NULL, 10) : -1;
        }
    fclose(f);
    return value;
}

/* Issue 44, case 5: the same file under a name make cannot take (./grade
 * builds it through a link of a tame name, grader/plan.c build_link)
 * counted 8,388,608 shared-load requests at 512^3 instead of matmul.cu's
 * 5,242,880 (the H100's count, cpu/agreement-h100.md): the PTX's lines were
 * looked up by the name the student gave the file. At 128^3: 81,920 (5,242,880 / 64). */
Test(cpu_hostile, counts_do_not_depend_on_the_file_s_name, .timeout = 1800)
{
    cr_assert_eq(sh("rm -rf " WORK "/names && mkdir -p " WORK "/names/in " WORK "/names/link && "
                    "cp solutions/lab4-tiled-matmul/matmul.cu '" WORK "/names/in/lab4 (1).cu' && "
                    "ln -s \"$PWD/" WORK "/names/in/lab4 (1).cu\" " WORK "/names/link/lab4__1_.cu"), 0);
    long plain = shared_loads("solutions/lab4-tiled-matmul/matmul.cu", "solutions/lab4-tiled-matmul/matmul.cu", "plain");
    long odd = shared_loads(WORK "/names/link/lab4__1_.cu", WORK "/names/in/lab4 (1).cu", "odd");
    cr_expect_eq(plain, 81920, "matmul.cu: %ld shared-load requests at 128^3, not 81,920", plain);
    cr_expect_eq(odd, plain, "'lab4 (1).cu': %ld shared-load requests, matmul.cu %ld", odd, plain);
}

/* Issue 44, case 7: lab 4's report page draws both shared loads of line 31
 * (sum += As[ty][k] * Bs[k][tx]), one figure each; it drew one, the two
 * instructions' counts summed under the lowest block's warp of either. */
Test(cpu_hostile, lab4_s_page_draws_both_shared_loads_of_line_31, .timeout = 1800)
{
    const char *src = "solutions/lab4-tiled-matmul/matmul.cu";
    char cmd[4096], worker[512] = "";
    cr_assert_eq(sh("rm -rf " WORK "/page && mkdir -p " WORK "/page"), 0);
    build_lab4_for_cpu(src, WORK "/page/build.log", worker, sizeof worker);
    snprintf(cmd, sizeof cmd, "build/cpu/cpu-check --worker %s --kind matmul --lab lab4 --source %s --timeout 900 --mnk 1x1x1 "
             "--counters 64x64x64 --json " WORK "/page/cpu-check.json > " WORK "/page/check.log 2>&1 && "
             "make -s --no-print-directory build/tools/report && build/tools/report --rubric labs/lab4-tiled-matmul/lab.rubric "
             "--source %s --tests tests/fixtures/tests-all-pass.json --cpu-mode 'a test' --elapsed 3600 "
             "--results " WORK "/page/results.json --html " WORK "/page/report.html > " WORK "/page/report.log 2>&1; "
             "grep -o 'id=\"fig-31-shared-ld[^\"]*\"' " WORK "/page/report.html > " WORK "/page/figures.txt", worker, src, src);
    sh(cmd);
    FILE *f = fopen(WORK "/page/figures.txt", "r");
    char figures[512] = "";
    if (f) {
        figures[fread(figures, 1, sizeof figures - 1, f)] = '\0';
        fclose(f);
    }
    cr_expect(strstr(figures, "id=\"fig-31-shared-ld-As\"") && strstr(figures, "id=\"fig-31-shared-ld-Bs\""),
              "line 31's shared-load figures: %s (see " WORK "/page/report.html)", figures);
}

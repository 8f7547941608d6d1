/*
 * The batch grader (./grade --batch, tools/batch/batch and build/tools/gradebook)
 * on a fixture class, tests/fixtures/batch/class/, graded by a stand-in for
 * ./grade (tests/fixtures/batch/fake-grade) that does what each file's
 * "// fake-grade:" lines say: score, flags, hang, die. Pinned here: which
 * files count as which lab, the gradebook rows, that a hanging or crashing
 * submission costs only its student, skip-if-graded, --force, --lab, the seed,
 * names as browsers and LMSs give them, --cpu and the mode column (issue 33;
 * real CPU-mode batches: tests/cpu/batch.c).
 * No GPU needed. Each test grades its own copy of the class in its own folder,
 * build/tests/batch/<test>.<pid>, removed when the test passes.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char batch_dir[128];

/* batch_dir followed by printf-style text, in one of a few rotating buffers. */
static const char *batch_at(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static const char *batch_at(const char *fmt, ...)
{
    static char bufs[8][512];
    static int next;
    char *buf = bufs[next++ % 8];
    int n = snprintf(buf, sizeof bufs[0], "%s", batch_dir);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + n, sizeof bufs[0] - n, fmt, ap);
    va_end(ap);
    return buf;
}

/* This test's folder with a fresh copy of the fixture class (the tests touch its files). */
static void batch_fresh(const char *name)
{
    snprintf(batch_dir, sizeof batch_dir, "build/tests/batch/%s.%ld", name, (long)getpid());
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s && cp -R tests/fixtures/batch/class %s/class",
             batch_dir, batch_dir, batch_dir);
    cr_assert_eq(system(cmd), 0, "cannot copy the fixture class: %s", cmd);
}

/* Passed: the folder goes. (A failed test keeps it to look at.) */
static void batch_done(void)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", batch_dir);
    cr_assert_eq(system(cmd), 0);
}

/* ./grade --batch on the test's class copy; returns the exit status. Output in stdout.txt. */
static int batch_run(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "MAKEFLAGS= MAKELEVEL= FAKE_GRADE_LOG=%s/invocations TILELAB_GRADE='sh tests/fixtures/batch/fake-grade' "
             "./grade --batch %s/class --out %s/out --timeout 2 %s > %s/stdout.txt 2>&1",
             batch_dir, batch_dir, batch_dir, args, batch_dir);
    int status = system(cmd);
    cr_assert(WIFEXITED(status), "the batch did not exit normally: %s", cmd);
    return WEXITSTATUS(status);
}

/* A file of the test's folder, whole (empty when missing). */
static const char *batch_file(const char *file)
{
    return tool_read(batch_at("/%s", file), NULL);
}

/* Whether `text` holds a line equal to `line` (prefix: starting with it). */
static int batch_has_line(const char *text, const char *line, int prefix)
{
    size_t len = strlen(line);
    for (const char *p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
        size_t here = strcspn(p, "\n");
        if (prefix ? here >= len && !strncmp(p, line, len) : here == len && !strncmp(p, line, len))
            return 1;
    }
    return 0;
}

static void batch_forget_invocations(void)
{
    remove(batch_at("/invocations"));
}

Test(batch, gradebook_has_a_row_per_student_and_lab)
{
    batch_fresh("rows");
    int status = batch_run("--seed 42");
    cr_assert_eq(status, 0, "failing students must not fail the batch:\n%s", batch_file("stdout.txt"));

    const char *book = batch_file("out/gradebook.csv");
    cr_assert_eq(tool_lines(book), 8, "a header and 7 rows (eve's path with a space included):\n%s", book);
    cr_assert(!strncmp(book, "student,lab,score,max_score,fraction_of_copy,flags,results,mode\n", 64), "header:\n%s", book);
    const char *rows[][3] = {   /* the row up to its results path; that path after the test's folder; the mode */
        {"alice,lab1,80,100,0.4321,race,", "/out/alice/lab1/results.json", ",GPU"},
        {"alice,lab2,100,100,,,", "/out/alice/lab2/results.json", ",GPU"},
        {"carol,lab1,0,100,,not-graded,", "/out/carol/lab1/results.json", ","},
        {"carol,lab3,66.67,100,,wrong out-of-bounds,", "/out/carol/lab3/results.json", ",GPU"},
        {"eve smith,lab1,100,100,,,", "/out/eve smith/lab1/results.json", ",GPU"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char row[600];
        snprintf(row, sizeof row, "%s%s%s%s", rows[i][0], batch_dir, rows[i][1], rows[i][2]);
        cr_assert(batch_has_line(book, row, 0), "missing row\n  %s\nin the gradebook:\n%s", row, book);
    }
    /* The maximum of a submission never graded comes from the real rubric: not pinned. */
    cr_assert(batch_has_line(book, "bob,lab1,0,", 1) && strstr(book, batch_at("/out/bob/lab1/results.json,\n")) &&
              strstr(book, ",,timeout not-graded,"), "gradebook:\n%s", book);
    cr_assert(batch_has_line(book, "bob,lab2,0,", 1) && strstr(book, batch_at("/out/bob/lab2/results.json,\n")) &&
              strstr(book, ",,crash not-graded,"), "gradebook:\n%s", book);
    cr_assert(!strstr(book, "dave"), "dave handed in nothing: no rows\n%s", book);
    batch_done();
}

Test(batch, every_layout_finds_its_file_and_nothing_else)
{
    batch_fresh("layout");
    cr_assert_eq(batch_run("--seed 7"), 0);
    const char *expected[][2] = {   /* the lab; its file after the test's folder */
        {"lab1", "/class/alice/lab1.cu"},
        {"lab2", "/class/alice/lab2-shared-tile/transpose.cu"},
        {"lab1", "/class/bob/Lab1_Transpose.cu"},
        {"lab2", "/class/bob/labs/lab2-shared-tile/transpose.cu"},
        {"lab1", "/class/carol/tilelab/labs/lab1-naive-transpose/transpose.cu"},
        {"lab3", "/class/carol/lab3.cu"},
        {"lab1", "/class/eve smith/lab1.cu"},
    };
    const char *log = batch_file("invocations");
    cr_assert_eq(tool_lines(log), 7, "seven submissions, eve's path with a space too (not lab10-notes.cu, "
                 ".hidden/, __MACOSX/):\n%s", log);
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
        char line[600];
        snprintf(line, sizeof line, "%s %s%s 7", expected[i][0], batch_dir, expected[i][1]);
        cr_assert(batch_has_line(log, line, 0), "not graded as expected: %s\ninvocations:\n%s", line, log);
    }
    const char *out = batch_file("stdout.txt");
    cr_assert(strstr(out, "[1/7] alice lab1: 80/100 ("), "batch output:\n%s", out);
    cr_assert(strstr(out, "[6/7] carol lab3: 66.67/100 ("), "batch output:\n%s", out);
    cr_assert(strstr(out, " left) wrong out-of-bounds\n"), "batch output:\n%s", out);
    cr_assert(strstr(out, "[7/7] eve smith lab1: 100/100 ("), "batch output:\n%s", out);
    /* Progress, the batch's own lines and nothing else (no shell errors). */
    for (const char *p = out; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
        cr_assert(*p == '[' || !strncmp(p, "batch: ", 7) || !strncmp(p, "gradebook: ", 11),
                  "unexpected line in the batch output: %.*s\n%s", (int)strcspn(p, "\n"), p, out);
    batch_done();
}

Test(batch, a_hang_or_a_crash_costs_only_that_student)
{
    batch_fresh("hang");
    time_t start = time(NULL);
    cr_assert_eq(batch_run("--seed 1"), 0);
    double took = difftime(time(NULL), start);
    const char *out = batch_file("stdout.txt");
    cr_assert(took < 20, "bob's lab1 sleeps 60 s; the 2 s limit must stop it (took %.0f s)\n%s", took, out);
    cr_assert(strstr(out, "[3/7] bob lab1: 0/"), "batch output:\n%s", out);
    cr_assert(strstr(out, "timeout not-graded"), "batch output:\n%s", out);
    cr_assert(strstr(out, "[4/7] bob lab2: 0/"), "batch output:\n%s", out);
    cr_assert(strstr(out, "crash not-graded"), "batch output:\n%s", out);
    cr_assert(strstr(out, "[5/7] carol lab1:"), "the batch goes on after a hang and a crash:\n%s", out);
    const char *json = batch_file("out/bob/lab1/results.json");
    cr_assert(strstr(json, "longer than the batch's limit of 2 s"), "results.json:\n%s", json);
    cr_assert(strstr(json, "\"graded\": false"), "results.json:\n%s", json);
    json = batch_file("out/bob/lab2/results.json");
    cr_assert(strstr(json, "stopped with status 70"), "results.json:\n%s", json);
    batch_done();
}

Test(batch, a_rerun_skips_what_is_graded_and_force_regrades)
{
    batch_fresh("rerun");
    cr_assert_eq(batch_run("--seed 3"), 0);
    batch_forget_invocations();

    cr_assert_eq(batch_run(""), 0);
    const char *log = batch_file("invocations");
    cr_assert_eq(tool_lines(log), 1, "only carol's lab1 (could not grade, no reason of its own) is tried again:\n%s", log);
    cr_assert(strstr(log, "carol/tilelab/labs/lab1-naive-transpose/transpose.cu 3"), "invocations:\n%s", log);
    const char *out = batch_file("stdout.txt");
    cr_assert(strstr(out, "[1/7] alice lab1: 80/100 (already graded) race"), "batch output:\n%s", out);
    cr_assert(strstr(out, "[3/7] bob lab1: 0/"), "batch output:\n%s", out);
    cr_assert_eq(tool_lines(batch_file("out/gradebook.csv")), 8, "skipped submissions keep their rows");

    /* A file handed in again (newer than its results) is graded again. */
    batch_forget_invocations();
    char cmd[256];
    snprintf(cmd, sizeof cmd, "sleep 1.1 && touch %s/class/alice/lab1.cu", batch_dir);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(batch_run(""), 0);
    log = batch_file("invocations");
    cr_assert_eq(tool_lines(log), 2, "alice's new lab1 and carol's lab1:\n%s", log);
    cr_assert(strstr(log, batch_at("/class/alice/lab1.cu 3\n")), "invocations:\n%s", log);

    batch_forget_invocations();
    cr_assert_eq(batch_run("--force"), 0);
    log = batch_file("invocations");
    cr_assert_eq(tool_lines(log), 7, "--force regrades every submission:\n%s", log);
    batch_done();
}

Test(batch, one_lab_at_a_time_keeps_the_other_labs_rows)
{
    batch_fresh("onelab");
    cr_assert_eq(batch_run("--lab lab3"), 0);
    const char *log = batch_file("invocations");
    cr_assert_eq(tool_lines(log), 1, "invocations:\n%s", log);
    cr_assert(!strncmp(log, "lab3 ", 5), "invocations:\n%s", log);
    cr_assert_eq(tool_lines(batch_file("out/gradebook.csv")), 2);

    batch_forget_invocations();
    cr_assert_eq(batch_run("--lab lab1"), 0);
    cr_assert_eq(tool_lines(batch_file("invocations")), 4, "alice, bob, carol, eve smith");
    const char *book = batch_file("out/gradebook.csv");
    cr_assert_eq(tool_lines(book), 6, "lab1 for four students and the earlier lab3 row:\n%s", book);
    cr_assert(batch_has_line(book, "carol,lab3,66.67,", 1), "gradebook:\n%s", book);
    cr_assert(!strstr(book, ",lab2,"), "gradebook:\n%s", book);
    batch_done();
}

Test(batch, the_class_keeps_one_seed)
{
    batch_fresh("seed");
    cr_assert_eq(batch_run("--lab lab1"), 0);
    char seed[32] = "";
    snprintf(seed, sizeof seed, "%s", batch_file("out/seed"));
    seed[strcspn(seed, "\n")] = '\0';
    cr_assert(seed[0] && strspn(seed, "0123456789") == strlen(seed), "out/seed holds the random seed: '%s'", seed);
    cr_assert(strstr(batch_file("stdout.txt"), seed), "the seed is printed");

    batch_forget_invocations();
    cr_assert_eq(batch_run("--lab lab1 --force"), 0);
    const char *log = batch_file("invocations");
    cr_assert_eq(tool_lines(log), 4, "invocations:\n%s", log);
    char ending[40];
    snprintf(ending, sizeof ending, " %s\n", seed);
    for (const char *p = log; *p; p = strchr(p, '\n') + 1) {
        const char *end = strchr(p, '\n');
        cr_assert(!strncmp(end - strlen(ending) + 1, ending, strlen(ending)),
                  "a re-run grades with the class's seed %s:\n%s", seed, log);
    }
    batch_done();
}

Test(batch, bad_usage_exits_2)
{
    batch_fresh("usage");
    const char *cases[] = {
        "",
        " %s/class --frobnicate",
        " %s/class --lab lab99",
        " %s/class --timeout 0",
        " %s/class --seed -3",
        " %s/class --seed 18446744073709551616",   /* 2^64: the judges read 64 bits */
        " %s/class --out",           /* no value */
        " %s/no-such-class",
        " %s/class/dave",            /* no student folders in it */
        " %s/class %s/class",        /* two classes */
        " %s/class --no-wait",       /* --no-wait is for --slurm */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[512], cmd[1024];
        snprintf(args, sizeof args, cases[i], batch_dir, batch_dir);
        snprintf(cmd, sizeof cmd, "MAKEFLAGS= MAKELEVEL= TILELAB_GRADE=false ./grade --batch%s > /dev/null 2>&1", args);
        int status = system(cmd);
        cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 2, "exit 2 expected: %s", cmd);
    }
    char cmd[512];
    snprintf(cmd, sizeof cmd, "./grade --batch --help > %s/help.txt 2>&1", batch_dir);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "--help exits 0");
    const char *help = batch_file("help.txt");
    cr_assert(strstr(help, "usage: ./grade --batch CLASS_DIR"), "%s", help);
    cr_assert(strstr(help, "student,lab,score,max_score,fraction_of_copy,flags,results"), "the columns are documented");
    batch_done();
}

/* A student folder named like a formula must not run as one when the
 * gradebook is opened in a spreadsheet: the cell gets a leading quote. */
Test(batch, gradebook_cells_never_start_a_formula)
{
    batch_fresh("formula");
    const char *students[] = {"=HYPERLINK(\"x\",\"y\")", "-2+3", "@SUM(A1)", "+1"};
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "MAKEFLAGS= MAKELEVEL= make -s --no-print-directory build/tools/gradebook > %s/make.log 2>&1",
             batch_dir);
    cr_assert_eq(system(cmd), 0, "build/tools/gradebook does not build:\n%s", batch_file("make.log"));
    char args[2048] = "";
    for (size_t i = 0; i < sizeof students / sizeof students[0]; i++) {
        const char *dir = batch_at("/out/%s/lab1", students[i]);
        snprintf(cmd, sizeof cmd, "mkdir -p '%s' && printf '{\"score\": 5, \"max_score\": 10}\\n' > '%s/results.json'",
                 dir, dir);
        cr_assert_eq(system(cmd), 0, "%s", cmd);
        size_t n = strlen(args);
        snprintf(args + n, sizeof args - n, " '%s/results.json'", dir);
    }
    snprintf(cmd, sizeof cmd, "build/tools/gradebook --csv %s/book.csv%s", batch_dir, args);
    cr_assert_eq(system(cmd), 0, "%s", cmd);
    const char *book = batch_file("book.csv");
    cr_assert(batch_has_line(book, "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\",lab1,5,10,", 1), "%s", book);
    cr_assert(batch_has_line(book, "'-2+3,lab1,5,10,", 1), "%s", book);
    cr_assert(batch_has_line(book, "'@SUM(A1),lab1,5,10,", 1), "%s", book);
    cr_assert(batch_has_line(book, "+1,lab1,5,10,", 1), "a plain number is data, not a formula:\n%s", book);
    batch_done();
}

/* Issue 33: every name a browser or an LMS gives a file or a folder is graded
 * as it is (spaces, quotes, parentheses, non-ASCII, a leading dash, shell
 * syntax), and none of them runs as a command. */
Test(batch, every_name_a_browser_or_an_lms_gives_is_graded)
{
    batch_fresh("names");
    static const char *const files[] = {
        "ann/lab1 (1).cu",                 /* a browser's second download */
        "bo \"the\" q/lab1.cu",            /* double quotes */
        "dot's/lab1 'final'.cu",           /* single quotes */
        "\xc3\xa9mile/Lab1 \xe2\x80\x93 copie.cu",   /* émile/Lab1 – copie.cu */
        "-dash/lab1.cu",                   /* a leading dash */
        "--help/lab1.cu",
        "gus/lab1$(touch pwned).cu",       /* shell syntax: a name, never a command */
        "hu/my labs/lab1-naive-transpose/transpose.cu",
        "ivy/lab1;echo x & y.cu",
        "jo/[lab1] * ?.cu",                /* glob characters: lab1 starts the name only after '[' */
        "ky/lab1 [v2] *.cu",
    };
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf %s/class && mkdir -p %s/class", batch_dir, batch_dir);
    cr_assert_eq(system(cmd), 0);
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/class/%s", batch_dir, files[i]);
        for (char *slash = strchr(path + strlen(batch_dir) + 7, '/'); slash; slash = strchr(slash + 1, '/')) {
            *slash = '\0';   /* each folder on the way, made without a shell */
            mkdir(path, 0755);
            *slash = '/';
        }
        FILE *f = fopen(path, "w");
        cr_assert(f, "cannot make %s", path);
        fputs("// fake-grade: score 7\n", f);
        fclose(f);
    }
    cr_assert_eq(batch_run("--lab lab1 --seed 9"), 0, "%s", batch_file("stdout.txt"));
    const char *log = batch_file("invocations");
    int expected = (int)(sizeof files / sizeof files[0]) - 1;   /* jo's "[lab1] * ?.cu" is no lab1 file */
    cr_assert_eq(tool_lines(log), expected, "every student's file is graded, as it is named:\n%s\n%s", log,
                 batch_file("stdout.txt"));
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (!strncmp(files[i], "jo/", 3))
            continue;
        char line[1200];
        snprintf(line, sizeof line, "lab1 %s/class/%s 9", batch_dir, files[i]);
        cr_assert(batch_has_line(log, line, 0), "not graded under its own name: %s\ninvocations:\n%s", line, log);
    }
    const char *book = batch_file("out/gradebook.csv");
    cr_assert_eq(tool_lines(book), expected + 1, "%s", book);
    cr_assert(batch_has_line(book, "\"bo \"\"the\"\" q\",lab1,7,100,,,", 1), "%s", book);
    cr_assert(batch_has_line(book, "'-dash,lab1,7,100,,,", 1), "a leading dash is data:\n%s", book);
    cr_assert(batch_has_line(book, "\xc3\xa9mile,lab1,7,100,,,", 1), "%s", book);
    cr_assert(!strstr(batch_file("stdout.txt"), "not graded"), "%s", batch_file("stdout.txt"));
    struct stat st;
    cr_assert(stat("pwned", &st) != 0 && stat(batch_at("/pwned"), &st) != 0, "a file name ran as a command");
    batch_done();
}

/* --cpu: every grade is asked for CPU mode, and the gradebook says so in its
 * mode column, for the grades that never finished too (a time-out, a crash). */
Test(batch, cpu_mode_is_asked_of_every_grade_and_the_gradebook_says_so)
{
    batch_fresh("cpu");
    cr_assert_eq(batch_run("--cpu --seed 5"), 0, "%s", batch_file("stdout.txt"));
    const char *log = batch_file("invocations");
    cr_assert_eq(tool_lines(log), 7, "%s", log);
    for (const char *p = log; *p; p = strchr(p, '\n') + 1)
        cr_assert(!strncmp(strchr(p, '\n') - 4, " cpu", 4), "a grade without --cpu:\n%s", log);
    const char *book = batch_file("out/gradebook.csv");
    cr_assert_eq(tool_lines(book), 8, "%s", book);
    int rows = 0;
    for (const char *p = strchr(book, '\n') + 1; *p; p = strchr(p, '\n') + 1, rows++)
        cr_assert(!strncmp(strchr(p, '\n') - 9, ",CPU mode", 9), "a row without CPU mode:\n%s", book);
    cr_assert_eq(rows, 7);
    cr_assert(strstr(batch_file("out/bob/lab1/results.json"), "\"mode\": \"cpu\""), "the time-out's stub says cpu");
    batch_done();
}

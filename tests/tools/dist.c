/*
 * The distributions (mk/dist.mk): `make dist-student` unpacked in a
 * temporary folder must build lab 1 and hold no solution text; `make
 * dist-instructor` must hold exactly the tracked files. In the student tree,
 * `make help` lists no target that needs solutions/ or tests/, and `make test`
 * (and unit-, tool-, gpu-tests) says in one line that the kit's own tests ship
 * with the instructor kit, and exits 0.
 *
 * Solution text: the lines of solutions/<lab>/<file>.cu that are not also
 * lines of labs/<lab>/<file>.cu, each searched for as a whole line (grep -rxF)
 * in every unpacked file. A file holding 3 or more different ones holds
 * solution text: a solution file under any name, or a block pasted from one,
 * matches line for line. Fewer are listed as a warning, not failed: the kit's
 * own code shares single statements with the solutions ("    float sum =
 * 0.0f;" in the grader's naive matmul), as do handouts that quote one. Lines
 * with fewer than 3 letters or digits ("    }") are left out: every C file has
 * them. Whole lines, not substrings: kit/matrix.c, the CPU reference, holds
 * lab 1's indexing statement at a deeper indentation.
 *
 * Each test works in its own temporary folder (the unpacked tree, logs, lists),
 * removed when it passes and kept, named in the message, when it fails.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dist_dir[256];      /* this test's temporary folder */

/* A file of the test's folder, whole (empty when missing). */
static const char *dist_read(const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dist_dir, file);
    return tool_read(path, NULL);
}

/* `make dist-<kind>` (made once for the suite run: tool_kit), unpacked into a new temporary folder; the
 * unpacked tree. */
static void dist_unpack(const char *kind, char *tree, size_t len)
{
    char cmd[2048], cwd[1024], target[64], file[64];
    snprintf(target, sizeof target, "dist-%s", kind);
    snprintf(file, sizeof file, "tilelab-%s.tar.gz", kind);
    const char *kit = tool_kit(target, file);
    const char *tmp = getenv("TMPDIR");
    snprintf(dist_dir, sizeof dist_dir, "%.200s/tilelab-dist-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert(mkdtemp(dist_dir), "cannot make a temporary folder %s", dist_dir);
    cr_assert(getcwd(cwd, sizeof cwd));
    snprintf(cmd, sizeof cmd, "mkdir %s/unpacked && cd %s/unpacked && tar -xzf %s/%s && ls -A > ../top", dist_dir,
             dist_dir, cwd, kit);
    cr_assert_eq(tool_sh(cmd), 0, "cannot unpack %s into %s/unpacked", kit, dist_dir);
    char expected[64];
    snprintf(expected, sizeof expected, "tilelab-%s\n", kind);
    cr_assert_str_eq(dist_read("top"), expected, "the tarball unpacks into one folder, tilelab-%s/", kind);
    snprintf(tree, len, "%s/unpacked/tilelab-%s", dist_dir, kind);
}

/* Passed: the temporary folder goes. */
static void dist_done(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dist_dir);
    tool_sh(cmd);
}

static int dist_exists(const char *tree, const char *path)
{
    char full[1024];
    struct stat st;
    snprintf(full, sizeof full, "%s/%s", tree, path);
    return stat(full, &st) == 0;
}

/* Whether `lines` (each ending in '\n') holds `line` as a whole line. */
static int dist_has_line(const char *lines, const char *line)
{
    size_t len = strlen(line);
    for (const char *p = lines; (p = strstr(p, line)); p++)
        if ((p == lines || p[-1] == '\n') && p[len] == '\n')
            return 1;
    return 0;
}

/* Blank lines, lines like "}" or "});" (under 3 letters or digits) and lines
 * of C keywords alone ("continue;", "} else {") are in every C file and say
 * nothing about a solution. */
static int dist_says_something(const char *line)
{
    static const char *const bare[] = {"continue;", "break;", "return;", "} else {", "else {", "else", "do {", "default:"};
    const char *text = line + strspn(line, " \t");
    for (size_t i = 0; i < sizeof bare / sizeof bare[0]; i++)
        if (!strcmp(text, bare[i]))
            return 0;
    int alnum = 0;
    for (const char *p = line; *p; p++)
        alnum += (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9');
    return alnum >= 3;
}

/* The solutions' own lines (see the top) into the test's solution-lines; how many. */
static int dist_solution_lines(void)
{
    static char skeleton[65536];
    glob_t g;
    cr_assert_eq(glob("solutions/*/*.cu", 0, NULL, &g), 0, "no solutions/*/*.cu (run from the kit's folder)");
    char path[512];
    snprintf(path, sizeof path, "%s/solution-lines", dist_dir);
    FILE *out = fopen(path, "w");
    cr_assert(out, "cannot write %s", path);
    int count = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        snprintf(path, sizeof path, "labs/%s", g.gl_pathv[i] + strlen("solutions/"));
        FILE *k = fopen(path, "r");
        cr_assert(k, "%s has no skeleton %s", g.gl_pathv[i], path);
        size_t n = fread(skeleton, 1, sizeof skeleton - 2, k);
        fclose(k);
        if (n > 0 && skeleton[n - 1] != '\n')
            skeleton[n++] = '\n';
        skeleton[n] = '\0';
        FILE *s = fopen(g.gl_pathv[i], "r");
        cr_assert(s, "cannot read %s", g.gl_pathv[i]);
        char line[1024];
        while (fgets(line, sizeof line, s)) {
            line[strcspn(line, "\n")] = '\0';
            if (!dist_says_something(line))
                continue;
            if (!dist_has_line(skeleton, line)) {
                fprintf(out, "%s\n", line);
                count++;
            }
        }
        fclose(s);
    }
    globfree(&g);
    fclose(out);
    return count;
}

enum { DIST_LEAK_LINES = 3 };   /* different solution lines that make a file a leak (see the top) */

/* How many files of `tree` hold solution text, listed in the test's leaks as
 * "count path"; files with fewer lines are in near-leaks. */
static int dist_leaks(const char *tree)
{
    cr_assert_gt(dist_solution_lines(), 10, "the solutions must differ from the skeletons, or this check checks nothing");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd '%s' && grep -rxF -f %s/solution-lines . | LC_ALL=C sort -u | sed 's/:.*//' | "
             "uniq -c > %s/counts; cd %s && awk '$1 >= %d' counts > leaks; awk '$1 < %d' counts > near-leaks; "
             "wc -l < leaks", tree, dist_dir, dist_dir, dist_dir, DIST_LEAK_LINES, DIST_LEAK_LINES);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (!p || fscanf(p, "%d", &n) != 1)
        n = -1;
    if (p)
        pclose(p);
    return n;
}

Test(dist, student_tarball_holds_no_solution_text)
{
    char tree[512];
    dist_unpack("student", tree, sizeof tree);
    const char *needed[] = {"Makefile", "grade", "README.md", ".gitignore", "labs/lab1-naive-transpose/transpose.cu",
                            "kit/tilelab.h", "mk/submission.mk", "labs/lab1-naive-transpose/lab.rubric",
                            "grader/report.c", "mk/batch.mk", "mk/dist.mk", "handouts/lab1-naive-transpose.md",
                            "grader/prebuilt/transpose_tests.o", "grader/prebuilt/matmul_tests.o",
                            "grader/prebuilt/supersteps_tests.o", "grader/prebuilt/lab4-reference.o"};
    for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
        cr_assert(dist_exists(tree, needed[i]), "%s is missing from the student tarball (%s)", needed[i], tree);
    /* The hidden tests ship as objects, never as source (issue: what a student receives). */
    const char *absent[] = {"solutions", "tests", "handouts/instructors.md", ".git", "build", "results", ".deps", ".ci",
                            "kinds/transpose/transpose_tests.c", "kinds/matmul/matmul_tests.c", "kinds/supersteps/supersteps_tests.c"};
    for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++)
        cr_assert(!dist_exists(tree, absent[i]), "%s must not ship to students (%s)", absent[i], tree);
    char grade[600];
    snprintf(grade, sizeof grade, "%s/grade", tree);
    cr_assert_eq(access(grade, X_OK), 0, "grade must stay executable");

    int leaks = dist_leaks(tree);
    cr_assert_eq(leaks, 0, "solution text in the student tarball (%s): files with %d or more of the lines in "
                 "%s/solution-lines (count, file):\n%s", tree, DIST_LEAK_LINES, dist_dir, dist_read("leaks"));
    const char *near = dist_read("near-leaks");
    if (*near)
        fprintf(stderr, "dist: note: single solution lines (count, file), not failed:\n%s", near);
    dist_done();
}

Test(dist, student_tarball_builds_lab1_and_runs_help)
{
    char tree[512], cmd[1024];
    dist_unpack("student", tree, sizeof tree);
    /* As a student would have it: no Criterion of the instructor's, no outer make. */
    const char *env = "unset CRITERION_CFLAGS CRITERION_LIBS MAKEFLAGS MAKELEVEL MFLAGS; ";
    snprintf(cmd, sizeof cmd, "cd '%s' && %s make help > ../../help.txt 2>&1", tree, env);
    cr_assert_eq(tool_sh(cmd), 0, "make help fails in the student tree (%s):\n%s", tree, dist_read("help.txt"));
    cr_assert(strstr(dist_read("help.txt"), "make labN"), "%s", dist_read("help.txt"));
    /* Its help lists no target that needs solutions/ or tests/ ... */
    const char *not_listed[] = {"SOLUTION=1", "make dist-instructor", "make test ", "make handout-tables"};
    for (size_t i = 0; i < sizeof not_listed / sizeof not_listed[0]; i++)
        cr_assert(!strstr(dist_read("help.txt"), not_listed[i]),
                  "make help in the student tree lists '%s', which needs the instructor kit:\n%s", not_listed[i],
                  dist_read("help.txt"));
    /* ... and the kit's own tests say where they are, exit 0, and fetch nothing (no Criterion). */
    const char *kit_tests[] = {"test", "unit-tests", "tool-tests", "gpu-tests"};
    for (size_t i = 0; i < sizeof kit_tests / sizeof kit_tests[0]; i++) {
        snprintf(cmd, sizeof cmd, "cd '%s' && %s make %s > ../../kit-tests.txt 2>&1", tree, env, kit_tests[i]);
        cr_assert_eq(tool_sh(cmd), 0, "make %s fails in the student tree (%s):\n%s", kit_tests[i], tree,
                     dist_read("kit-tests.txt"));
        cr_assert(strstr(dist_read("kit-tests.txt"), "ship with the instructor kit, not with this student kit"),
                  "make %s in the student tree does not say where the kit's tests are:\n%s", kit_tests[i],
                  dist_read("kit-tests.txt"));
    }
    cr_assert(!dist_exists(tree, ".deps") && !dist_exists(tree, "build"),
              "make test in the student tree fetched or built something (%s)", tree);
    snprintf(cmd, sizeof cmd, "cd '%s' && ./grade --help > ../../grade-help.txt 2>&1", tree);
    cr_assert_eq(tool_sh(cmd), 0, "./grade --help fails in the student tree (%s)", tree);
    cr_assert(strstr(dist_read("grade-help.txt"), "usage: ./grade"), "%s", dist_read("grade-help.txt"));

    snprintf(cmd, sizeof cmd, "cd '%s' && %s make -s need-nvcc > /dev/null 2>&1", tree, env);
    if (tool_sh(cmd) != 0) {
        dist_done();
        cr_skip_test("nvcc not found: make lab1 in the student tree not tried");
    }
    snprintf(cmd, sizeof cmd, "cd '%s' && %s make lab1 > ../../lab1.log 2>&1", tree, env);
    int status = tool_sh(cmd);
    cr_assert_eq(status, 0, "make lab1 fails in the student tree (%s):\n%s", tree, dist_read("lab1.log"));
    snprintf(cmd, sizeof cmd, "%s/build/lab1", tree);
    cr_assert_eq(access(cmd, X_OK), 0, "make lab1 did not leave build/lab1 (%s)", tree);
    /* The hidden tests' program links from the shipped object and lists them (no GPU needed). */
    snprintf(cmd, sizeof cmd, "cd '%s' && %s sub='make -s --no-print-directory -f mk/submission.mk LAB=lab1 "
             "SRC=labs/lab1-naive-transpose/transpose.cu' && kit=$($sub print-dirs | cut -d' ' -f2) && "
             "$sub $kit/judge/tests-transpose > ../../tests-build.log 2>&1 && $kit/judge/tests-transpose --list "
             "> ../../tests-list.txt 2>&1", tree, env);
    cr_assert_eq(tool_sh(cmd), 0, "the hidden tests do not build from grader/prebuilt/ in the student tree (%s):\n%s",
                 tree, dist_read("tests-build.log"));
    cr_assert(strstr(dist_read("tests-list.txt"), "transpose/s01_1x1\n") &&
              strstr(dist_read("tests-list.txt"), "transpose/s26_random_6\n"), "%s", dist_read("tests-list.txt"));
    dist_done();
}

Test(dist, instructor_tarball_is_every_tracked_file)
{
    char tree[512], cmd[2048];
    dist_unpack("instructor", tree, sizeof tree);
    cr_assert(dist_exists(tree, "solutions") && dist_exists(tree, "tests/submissions") && dist_exists(tree, "grade"),
              "the instructor tarball holds everything (%s)", tree);
    cr_assert(!dist_exists(tree, "build") && !dist_exists(tree, "results") && !dist_exists(tree, ".git"), "%s", tree);
    /* The leak check finds the solutions where they are: it can fail. */
    cr_assert_gt(dist_leaks(tree), 0, "the solution-text check finds nothing even in the instructor tarball");

    if (tool_sh("[ \"$(git rev-parse --show-toplevel 2>/dev/null)\" = \"$(pwd -P)\" ]") == 0) {
        snprintf(cmd, sizeof cmd,
                 "git -c core.quotePath=false ls-files | while IFS= read -r f; do [ -f \"$f\" ] && echo \"$f\"; done "
                 "| LC_ALL=C sort > %s/tracked && "
                 "(cd '%s' && find . -type f | sed 's|^\\./||' | LC_ALL=C sort) > %s/shipped && "
                 "diff %s/tracked %s/shipped > %s/tracked.diff",
                 dist_dir, tree, dist_dir, dist_dir, dist_dir, dist_dir);
        cr_assert_eq(tool_sh(cmd), 0, "the instructor tarball is not the tracked files (< tracked, > shipped):\n%s",
                     dist_read("tracked.diff"));
    }
    dist_done();
}

/*
 * A class graded without a GPU (issue 33): ./grade --batch --cpu on 40 lab 1
 * submissions as a browser or an LMS names them, a hanging kernel among them,
 * and TILELAB_CPU_FALLBACK=1; and a CPU-mode grade stopped half-way. Pinned:
 * every submission graded in CPU mode under its own name (the gradebook's
 * mode column says so), a hang costs its time bound and no more, nothing it
 * started runs on, and no temporary file is left behind. Real grades, no
 * stand-in: each test works in build/tests/cpu-batch/<test>/, kept when it
 * fails.
 */
#include <criterion/criterion.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WORK "build/tests/cpu-batch"
#define SEED "20261121"
#define LAB1_SOLUTION "solutions/lab1-naive-transpose/transpose.cu"
#define LAB1_SKELETON "labs/lab1-naive-transpose/transpose.cu"

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, ms % 1000 * 1000000L};
    nanosleep(&t, NULL);
}

static int sh(const char *cmd)
{
    unsetenv("MAKEFLAGS");   /* a fresh top-level make inside, as an instructor's */
    unsetenv("MAKELEVEL");
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const char *slurp(const char *path)
{
    static char buf[1 << 20];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    return buf;
}

/* A file of the class with the text of `from` (NULL: `text`), its folders made without a shell. */
static void put(const char *dir, const char *name, const char *from, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "mkdir -p '%s'", dir);   /* the class's own folder: a tame path */
    cr_assert_eq(sh(path), 0, "%s", path);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    for (char *slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        mkdir(path, 0755);
        *slash = '/';
    }
    if (from)
        text = slurp(from);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* How many processes have `needle` in their command line (this test's own aside). */
static int processes_with(const char *needle)
{
    int n = 0;
    DIR *d = opendir("/proc");
    for (struct dirent *e; d && (e = readdir(d));) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9' || atoi(e->d_name) == getpid())
            continue;
        char path[300], cmdline[4096];
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        FILE *f = fopen(path, "rb");
        size_t len = f ? fread(cmdline, 1, sizeof cmdline - 1, f) : 0;
        if (f)
            fclose(f);
        for (size_t i = 0; i < len; i++)
            cmdline[i] = cmdline[i] ? cmdline[i] : ' ';
        cmdline[len] = '\0';
        n += len > 0 && strstr(cmdline, needle) != NULL;
    }
    if (d)
        closedir(d);
    return n;
}

/* Entries in a folder, . and .. aside (-1: none such). */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

/* A fresh WORK/name, and no build of an earlier run of it (each submission
 * builds under build/<arch>/, by its path): the time measured is a first grade's. */
static void fresh(const char *name)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf " WORK "/%s build/*/build_tests_cpu-batch_%s_* && mkdir -p " WORK "/%s/tmp",
             name, name, name);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
}

/* The lab 1 solution with the kernel that never ends (tests/submissions/lab1/hangs.patch). */
static void put_hang(const char *path)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\" && patch -s -o '%s' " LAB1_SOLUTION
             " tests/submissions/lab1/hangs.patch > /dev/null", path, path);
    cr_assert_eq(sh(cmd), 0, "%s", cmd);
}

/* Whether the gradebook has a row starting with `start` and ending with `end`. */
static int has_row(const char *book, const char *start, const char *end)
{
    for (const char *p = book; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
        size_t len = strcspn(p, "\n");
        if (len >= strlen(start) + strlen(end) && !strncmp(p, start, strlen(start)) &&
            !strncmp(p + len - strlen(end), end, strlen(end)))
            return 1;
    }
    return 0;
}

/* 40 submissions: the solution, a hang, seven browser and LMS names (the
 * skeleton: graded, 0), and 31 files that do not compile. Time bound 30 s a
 * submission (a grade here takes 1 to 10 s on 2 cores). */
Test(cpu_batch, a_class_of_40_is_graded_in_cpu_mode_and_a_hang_costs_its_bound, .timeout = 900)
{
    fresh("class40");
    const char *class = WORK "/class40/class";
    static const char *const names[] = {
        "bea/lab1 (1).cu", "cy \"q\"/lab1.cu", "dot's/lab1 'final'.cu",
        "\xc3\xa9mile/Lab1 \xe2\x80\x93 copie.cu", "-dash/lab1.cu", "gus/lab1$(touch pwned).cu",
        "hu/my labs/lab1-naive-transpose/transpose.cu",
    };
    put(class, "ann/lab1.cu", LAB1_SOLUTION, NULL);
    put_hang(WORK "/class40/class/hal/lab1.cu");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        put(class, names[i], LAB1_SKELETON, NULL);
    for (int i = 1; i <= 31; i++) {
        char name[64];
        snprintf(name, sizeof name, "s%02d/lab1.cu", i);
        put(class, name, NULL, "#include \"tilelab.h\"\nvoid launch_transpose(const float *in, float *out, int rows, "
            "int cols) { not C++ }\n");
    }
    time_t start = time(NULL);
    int status = sh("TMPDIR=$PWD/" WORK "/class40/tmp NO_COLOR=1 ./grade --batch " WORK "/class40/class --cpu --lab lab1 "
                    "--timeout 30 --seed " SEED " --out " WORK "/class40/out > " WORK "/class40/batch.log 2>&1");
    long took = (long)difftime(time(NULL), start);
    FILE *t = fopen(WORK "/class40/took.txt", "w");
    if (t) {
        fprintf(t, "%ld s for 40 submissions\n", took);
        fclose(t);
    }
    cr_log_info("a class of 40 in CPU mode: %ld s", took);
    cr_assert_eq(status, 0, "the batch exited %d:\n%s", status, slurp(WORK "/class40/batch.log"));

    char book[1 << 16];
    snprintf(book, sizeof book, "%.65000s", slurp(WORK "/class40/out/gradebook.csv"));
    int rows = 0;
    for (const char *p = strchr(book, '\n'); p && p[1]; p = strchr(p + 1, '\n'), rows++) {
        size_t len = strcspn(p + 1, "\n");
        cr_assert(len >= 9 && !strncmp(p + 1 + len - 9, ",CPU mode", 9), "a row not in CPU mode:\n%s", book);
    }
    cr_assert_eq(rows, 40, "40 rows:\n%s", book);
    cr_assert(has_row(book, "ann,lab1,72,72,,,", ",CPU mode"), "the solution: CPU mode's maximum\n%s", book);
    cr_assert(has_row(book, "hal,lab1,0,", ",timeout not-graded," WORK "/class40/out/hal/lab1/results.json,CPU mode"),
              "the hang: stopped at the bound\n%s", book);
    const char *graded[] = {"bea,", "\"cy \"\"q\"\"\",", "dot's,", "\xc3\xa9mile,", "'-dash,", "gus,", "hu,"};
    for (size_t i = 0; i < sizeof graded / sizeof graded[0]; i++) {
        char start[64];
        snprintf(start, sizeof start, "%slab1,0,72,,wrong,", graded[i]);
        cr_assert(has_row(book, start, ",CPU mode"), "%s graded under its own name: no row '%s...'\n%s", names[i],
                  start, book);
    }
    int compile_errors = 0;
    for (const char *p = strstr(book, "\ns"); p; p = strstr(p + 1, "\ns"))
        compile_errors += strstr(p, ",compile-error,") && strstr(p, ",compile-error,") < strchr(p + 1, '\n');
    cr_assert_eq(compile_errors, 31, "%s", book);

    /* The hang cost its bound (and the 10 s grace of a kill), no more. */
    const char *hang = slurp(WORK "/class40/out/hal/lab1/results.json");
    const char *elapsed = strstr(hang, "\"execution_time\": ");
    cr_assert(elapsed && atol(elapsed + 18) <= 42, "the hang took longer than its 30 s bound:\n%s", hang);
    cr_assert(strstr(hang, "longer than the batch's limit of 30 s"), "%s", hang);
    cr_assert_eq(processes_with("class40_class_hal"), 0, "the hang's grade left processes running");
    /* The repeat command of a graded name: quoted as a shell takes it, --cpu kept. */
    const char *bea = slurp(WORK "/class40/out/bea/lab1/results.json");
    cr_assert(strstr(bea, "repeat this run: ./grade lab1 --file '") && strstr(bea, "(1).cu' --seed " SEED " --cpu\\n"),
              "%s", bea);
    struct stat st;
    cr_assert(stat("pwned", &st) != 0, "a file name ran as a command");
    cr_assert_eq(entries(WORK "/class40/tmp"), 0, "temporary files left in TMPDIR (" WORK "/class40/tmp)");
    cr_assert(took < 420, "40 submissions took %ld s", took);
    sh("rm -rf " WORK "/class40 build/*/build_tests_cpu-batch_class40_*");
}

/* Without a GPU, TILELAB_CPU_FALLBACK=1 grades the class in CPU mode, saying
 * so; without it the batch stops, naming --cpu. */
Test(cpu_batch, without_a_gpu_the_fallback_grades_in_cpu_mode, .timeout = 900)
{
    fresh("fallback");
    if (sh("make -s --no-print-directory -f mk/submission.mk LAB=lab1 SRC=" LAB1_SKELETON " harness > /dev/null 2>&1 && "
           "\"$(make -s --no-print-directory -f mk/submission.mk LAB=lab1 SRC=" LAB1_SKELETON " print-dirs | cut -d' ' -f2)/probe\""
           " > /dev/null 2>&1") == 0)
        cr_skip_test("a GPU here: the fallback is for machines without one");
    put(WORK "/fallback/class", "zoe/lab1 (2).cu", LAB1_SKELETON, NULL);
    cr_assert_eq(sh("TILELAB_CPU_FALLBACK=0 ./grade --batch " WORK "/fallback/class --lab lab1 --seed 3 --out "
                    WORK "/fallback/no > " WORK "/fallback/no.log 2>&1"), 2);
    const char *log = slurp(WORK "/fallback/no.log");
    cr_assert(strstr(log, "batch: no usable GPU, nothing more was graded") && strstr(log, "--cpu grades the class"), "%s", log);
    cr_assert_eq(sh("TILELAB_CPU_FALLBACK=1 TMPDIR=$PWD/" WORK "/fallback/tmp ./grade --batch " WORK "/fallback/class "
                    "--lab lab1 --seed 3 --out " WORK "/fallback/yes > " WORK "/fallback/yes.log 2>&1"), 0,
                 "%s", slurp(WORK "/fallback/yes.log"));
    log = slurp(WORK "/fallback/yes.log");
    cr_assert(strstr(log, "grading in CPU mode instead (TILELAB_CPU_FALLBACK=1)") && strstr(log, "[1/1] zoe lab1: 0/72 ("),
              "%s", log);
    const char *book = slurp(WORK "/fallback/yes/gradebook.csv");
    cr_assert(has_row(book, "zoe,lab1,0,72,,wrong,", ",CPU mode"), "%s", book);
    cr_assert_eq(entries(WORK "/fallback/tmp"), 0, "temporary files left in TMPDIR");
    sh("rm -rf " WORK "/fallback build/*/build_tests_cpu-batch_fallback_*");
}

/* Ctrl-C in a CPU-mode grade: exit 130, nothing it started runs on, and its
 * temporary files (CPU mode's checks', the compilers') are gone. */
Test(cpu_batch, an_interrupted_cpu_grade_leaves_nothing_behind, .timeout = 300)
{
    fresh("interrupted");
    put_hang(WORK "/interrupted/hang.cu");
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        setpgid(0, 0);
        /* A terminal's Ctrl-C: a run started in the background (`make test &`) inherits SIGINT
         * ignored, which no shell may trap again, so the grade could not show its own. */
        signal(SIGINT, SIG_DFL);
        unsetenv("MAKEFLAGS");
        unsetenv("MAKELEVEL");
        execl("/bin/sh", "sh", "-c", "TMPDIR=$PWD/" WORK "/interrupted/tmp NO_COLOR=1 exec ./grade lab1 --cpu --file "
              WORK "/interrupted/hang.cu --seed 1 --out " WORK "/interrupted/out > " WORK "/interrupted/log 2>&1",
              (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    int started = 0;
    for (int i = 0; i < 1800 && !started; i++) {   /* up to 3 minutes: CPU mode's kit may be built first */
        started = strstr(slurp(WORK "/interrupted/log"), "running the hidden tests in CPU mode") != NULL;
        if (!started)
            sleep_ms(100);
    }
    sleep(2);   /* the hidden tests' workers are spinning */
    int spinning = processes_with("interrupted_hang");
    kill(-pid, SIGINT);   /* what Ctrl-C does: the whole foreground group */
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(started, "the grade never reached its tests:\n%s", slurp(WORK "/interrupted/log"));
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130, "exit 130 expected:\n%s", slurp(WORK "/interrupted/log"));
    cr_assert(spinning > 0, "no worker of the hang was running when the grade was stopped");
    sleep_ms(500);
    cr_assert_eq(processes_with("interrupted_hang"), 0, "the stopped grade left processes running");
    cr_assert_eq(entries(WORK "/interrupted/tmp"), 0, "temporary files left in TMPDIR (" WORK "/interrupted/tmp)");
    cr_assert(strstr(slurp(WORK "/interrupted/out/results.json"), "interrupted: the grade did not finish"),
              "%s", slurp(WORK "/interrupted/out/results.json"));
    sh("rm -rf " WORK "/interrupted build/*/build_tests_cpu-batch_interrupted_*");
}

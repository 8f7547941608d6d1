/*
 * ./grade always answers (issue 13): every exit once the output folder is
 * known leaves a fresh results.json (a bad command line, an unknown lab, an
 * unreadable file, Ctrl-C), paths are the caller's, a path or a kit folder
 * with a space builds, --version names the kit, and two grades at once
 * each keep their own run folder (--out DIR: the caller's, as it is). No GPU needed: each
 * grade that gets that far stops at the GPU (CUDA_VISIBLE_DEVICES= hides
 * any), with "no usable NVIDIA GPU", could not grade, exit 2. Each test works
 * in build/tests/grade/<test>/; one that writes results/ of its own works in a
 * copy of the kit there (kit_copy). Issue 33: --out and --json checked first
 * (a file, an unwritable folder, a folder another grade holds), seeds beyond
 * 64 bits, unknown labs, and the harness announced only when it is built.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include "json.h"
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WORK "build/tests/grade"
#define LAB1 "labs/lab1-naive-transpose/transpose.cu"

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, ms % 1000 * 1000000L};
    nanosleep(&t, NULL);
}

/* A fresh, empty WORK/name. */
static void fresh(const char *name)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '" WORK "/%s' && mkdir -p '" WORK "/%s'", name, name);
    cr_assert_eq(tool_sh(cmd), 0, "%s", cmd);
}

/* results.json at `path`: it must exist and say it could not grade, with `reason`. */
static void expect_could_not_grade(const char *path, const char *reason)
{
    const char *text = tool_read(path, NULL);
    cr_assert(text[0], "no results.json at %s", path);
    cr_assert(strstr(text, "\"name\": \"could not grade\""), "%s:\n%s", path, text);
    cr_assert(strstr(text, "\"graded\": false"), "%s:\n%s", path, text);
    cr_assert(strstr(text, reason), "%s does not say '%s':\n%s", path, reason, text);
}

/* A copy of the kit in WORK/name: the tracked and new files, times kept, and
 * what is already built, so little is built again. Its results/ starts empty. */
static void kit_copy(const char *name)
{
    char cmd[2048];
    fresh(name);
    snprintf(cmd, sizeof cmd,
             "git ls-files -co --exclude-standard -z | xargs -0 cp -p --parents -t '" WORK "/%s' && "
             "{ [ ! -d .deps ] || cp -a .deps '" WORK "/%s/'; } && "
             "for k in build/*/kit; do [ -d \"$k\" ] || continue; mkdir -p '" WORK "/%s/'\"${k%%/kit}\" && "
             "cp -a \"$k\" '" WORK "/%s/'\"$k\"; done", name, name, name, name);
    cr_assert_eq(tool_sh(cmd), 0, "%s", cmd);
}

Test(grade, a_bad_command_line_still_writes_results)
{
    static const struct { const char *args, *reason; } cases[] = {
        {"lab1 --seed abc", "--seed takes a non-negative integer, not 'abc'"},
        {"lab1 --no-such-flag", "unknown argument '--no-such-flag'"},
        {"lab1 --file no/such/file.cu", "cannot read the lab file"},
        {"lab9", "unknown lab 'lab9'"},
    };
    fresh("bad");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[1024], json[256];
        snprintf(json, sizeof json, WORK "/bad/%zu/results.json", i);
        /* A stale results.json of an earlier run: it must not survive. */
        snprintf(cmd, sizeof cmd, "mkdir -p " WORK "/bad/%zu && echo '{\"score\": 100}' > %s && "
                 "./grade %s --out " WORK "/bad/%zu > " WORK "/bad/%zu.log 2>&1", i, json, cases[i].args, i, i);
        cr_assert_eq(tool_sh(cmd), 2, "%s", cmd);
        expect_could_not_grade(json, cases[i].reason);
    }
}

/* --out and --json are taken from where ./grade was started, as --file is. */
Test(grade, paths_are_relative_to_the_caller)
{
    fresh("caller/sub");
    cr_assert_eq(tool_sh("cd " WORK "/caller/sub && ../../../../../grade lab1 --seed x --out out "
                         "--json there/r.json > log 2>&1"), 2);
    expect_could_not_grade(WORK "/caller/sub/there/r.json", "--seed takes");
    struct stat st;
    cr_assert_neq(stat("there/r.json", &st), 0, "--json was taken relative to the kit, not the caller");
    cr_assert_eq(stat(WORK "/caller/sub/out", &st), 0, "--out was not taken relative to the caller");
}

/* Ctrl-C or a kill: the old results.json goes, an "interrupted" one comes, exit 130. */
Test(grade, an_interrupted_grade_says_so)
{
    fresh("interrupted");
    /* A lab file that never ends: the build blocks reading it, so the grade is surely running. */
    cr_assert_eq(tool_sh("mkfifo " WORK "/interrupted/block.cu && "
                         "echo '{\"score\": 100}' > " WORK "/interrupted/results.json"), 0);
    unsetenv("MAKEFLAGS");
    unsetenv("MAKELEVEL");
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        setpgid(0, 0);
        execl("/bin/sh", "sh", "-c", "CUDA_VISIBLE_DEVICES= exec ./grade lab1 --file " WORK "/interrupted/block.cu "
              "--out " WORK "/interrupted > " WORK "/interrupted/log 2>&1", (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    int started = 0;
    for (int i = 0; i < 1200 && !started; i++) {   /* up to 2 minutes: the report tool may be built first */
        started = strstr(tool_read(WORK "/interrupted/log", NULL), "==> building") != NULL;
        if (!started)
            sleep_ms(100);
    }
    sleep_ms(300);
    kill(-pid, SIGTERM);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(started, "the grade never reached its build:\n%s", tool_read(WORK "/interrupted/log", NULL));
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 130, "exit %d, not 130:\n%s",
              WIFEXITED(status) ? WEXITSTATUS(status) : -1, tool_read(WORK "/interrupted/log", NULL));
    expect_could_not_grade(WORK "/interrupted/results.json",
                           "interrupted: the grade did not finish (Ctrl-C or a kill); grade again");
}

/* A lab file in a folder with a space, and one with a space in its name,
 * build and reach the GPU step, where there is none. */
Test(grade, a_path_with_a_space_is_graded, .timeout = 900)
{
    fresh("space/my labs");
    cr_assert_eq(tool_sh("cp " LAB1 " '" WORK "/space/my labs/transpose.cu' && "
                         "cp " LAB1 " '" WORK "/space/my labs/my transpose.cu'"), 0);
    const char *names[] = {"transpose.cu", "my transpose.cu"};
    for (int i = 0; i < 2; i++) {
        char cmd[1024], json[256], log[256];
        snprintf(json, sizeof json, WORK "/space/out%d/results.json", i);
        snprintf(log, sizeof log, WORK "/space/out%d.log", i);
        snprintf(cmd, sizeof cmd, "CUDA_VISIBLE_DEVICES= ./grade lab1 --file '" WORK "/space/my labs/%s' "
                 "--out " WORK "/space/out%d > %s 2>&1", names[i], i, log);
        cr_assert_eq(tool_sh(cmd), 2, "%s:\n%s", cmd, tool_read(log, NULL));
        const char *text = tool_read(json, NULL);
        cr_assert(!strstr(text, "harness does not build") && !strstr(text, "does not compile"), "%s", text);
        expect_could_not_grade(json, "no usable NVIDIA GPU");
        text = tool_read(json, NULL);
        cr_assert(strstr(text, "repeat this run: ./grade lab1 --file '"), "%s", text);
    }
}

/* The kit itself under a folder with a space: make lab1, then ./grade up to
 * the GPU. Outside a git checkout of its own, --version reads VERSION. */
Test(grade, a_kit_folder_with_a_space_works, .timeout = 900)
{
    kit_copy("kit copy");
    cr_assert_eq(tool_sh("cd '" WORK "/kit copy' && make lab1 > make.log 2>&1"), 0, "make lab1:\n%s",
                 tool_read(WORK "/kit copy/make.log", NULL));
    cr_assert_eq(tool_sh("cd '" WORK "/kit copy' && CUDA_VISIBLE_DEVICES= ./grade lab1 > grade.log 2>&1"), 2,
                 "%s", tool_read(WORK "/kit copy/grade.log", NULL));
    expect_could_not_grade(WORK "/kit copy/results/lab1/results.json", "no usable NVIDIA GPU");
    /* Its first grade built what grades need before the GPU is looked for: the
     * plan and the report, which judges the structure too (a fresh kit without
     * build/tools/ptx-structure once lost the structure points). */
    cr_assert_eq(access(WORK "/kit copy/build/tools/plan", X_OK), 0, "a first ./grade in a fresh kit does not build build/tools/plan");
    cr_assert_eq(access(WORK "/kit copy/build/tools/report", X_OK), 0,
                 "a first ./grade in a fresh kit does not build build/tools/report");
    cr_assert_eq(tool_sh("cd '" WORK "/kit copy' && ./grade --version > version.txt && build/lab1 --version >> version.txt"), 0);
    const char *version = tool_read(WORK "/kit copy/VERSION", NULL);
    char expected[128];
    snprintf(expected, sizeof expected, "tilelab %.*s\ntilelab %.*s\n", (int)strcspn(version, "\n"), version,
             (int)strcspn(version, "\n"), version);
    cr_assert_str_eq(tool_read(WORK "/kit copy/version.txt", NULL), expected);
}

/* In a git checkout of the kit, git describe wins over VERSION. */
Test(grade, version_is_git_describe_in_a_checkout)
{
    fresh("version");
    cr_assert_eq(tool_sh("./grade --version > " WORK "/version/grade.txt"), 0);
    int git = tool_sh("[ \"$(git rev-parse --show-toplevel 2>/dev/null)\" = \"$(pwd -P)\" ] && "
                      "echo \"tilelab $(git describe --always --dirty)\" > " WORK "/version/git.txt");
    if (git != 0)
        cr_skip_test("not a git checkout of the kit");
    char want[256];
    snprintf(want, sizeof want, "%s", tool_read(WORK "/version/git.txt", NULL));
    cr_assert_str_eq(tool_read(WORK "/version/grade.txt", NULL), want);
}


static int by_name(const void *a, const void *b) { return strcmp(a, b); }

/* The run folders in `kit`/results/lab1/runs, sorted by name (by start): their count. */
static int run_folders(const char *kit, char names[][64], int max)
{
    char path[512];
    snprintf(path, sizeof path, "%s/results/lab1/runs", kit);
    DIR *d = opendir(path);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.' && n < max)
            snprintf(names[n++], 64, "%.63s", e->d_name);
    if (d)
        closedir(d);
    qsort(names, n, 64, by_name);
    return n;
}

/* Valid JSON to the kit's own reader; returns its text (tool_read's buffer). */
static const char *expect_json(const char *path)
{
    char err[256];
    tl_json *v = tl_json_parse_file(path, err, sizeof err);
    cr_assert(v, "%s is not valid JSON: %s:\n%s", path, err, tool_read(path, NULL));
    tl_json_free(v);
    return tool_read(path, NULL);
}

/* Where `kit`/results/lab1/latest points: "runs/NAME". */
static const char *latest_run(const char *kit)
{
    static char target[256];
    char path[512];
    snprintf(path, sizeof path, "%s/results/lab1/latest", kit);
    ssize_t n = readlink(path, target, sizeof target - 1);
    cr_assert(n > 0, "%s is not a link", path);
    target[n] = '\0';
    return target;
}

/* Two grades at once in one kit, without --out (issue 13): each keeps its own
 * folder with its logs and results.json; results/lab1/results.json is one of
 * theirs, whole, and latest points at that run. */
Test(grade, two_grades_at_once_keep_their_own_runs, .timeout = 900)
{
    const char *kit = WORK "/runs";
    kit_copy("runs");
    cr_assert_eq(tool_sh("cd " WORK "/runs && export CUDA_VISIBLE_DEVICES= && "
                         "{ { ./grade lab1 > a.log 2>&1; echo $? > a.status; } & "
                         "{ ./grade lab1 > b.log 2>&1; echo $? > b.status; } & wait; }"), 0);
    cr_assert_str_eq(tool_read(WORK "/runs/a.status", NULL), "2\n", "%s", tool_read(WORK "/runs/a.log", NULL));
    cr_assert_str_eq(tool_read(WORK "/runs/b.status", NULL), "2\n", "%s", tool_read(WORK "/runs/b.log", NULL));
    char runs[8][64], path[512], own[2][4096];
    cr_assert_eq(run_folders(kit, runs, 8), 2, "not one folder per grade in %s/results/lab1/runs", kit);
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/results/lab1/runs/%.63s/build.log", kit, runs[i]);
        cr_assert_eq(access(path, R_OK), 0, "no %s", path);
        /* Its own steps: one start, not the other grade's as well. */
        snprintf(path, sizeof path, "%s/results/lab1/runs/%.63s/steps.log", kit, runs[i]);
        const char *steps = tool_read(path, NULL), *start = strstr(steps, " start\n");
        cr_assert(start && !strstr(start + 1, " start\n"), "%s is not one run's:\n%s", path, steps);
        snprintf(path, sizeof path, "%s/results/lab1/runs/%.63s/results.json", kit, runs[i]);
        snprintf(own[i], sizeof own[i], "%s", expect_json(path));
        expect_could_not_grade(path, "no usable NVIDIA GPU");
    }
    snprintf(path, sizeof path, "%s/results/lab1/results.json", kit);
    const char *stable = expect_json(path);
    const char *latest = latest_run(kit);
    int which = !strncmp(latest, "runs/", 5) && !strcmp(latest + 5, runs[1]);
    cr_assert(!strncmp(latest, "runs/", 5) && !strcmp(latest + 5, runs[which]),
              "latest -> %s, not runs/%s or runs/%s", latest, runs[0], runs[1]);
    cr_assert_str_eq(stable, own[which], "results/lab1/results.json is not that of latest, runs/%s", runs[which]);
}

/* A run keeps the 20 newest run folders: older ones go, unless younger than
 * an hour (they may still be running). A grade that cannot grade at once
 * (a bad --seed) still publishes its results.json and latest. */
Test(grade, old_runs_are_pruned)
{
    const char *kit = WORK "/prune";
    kit_copy("prune");
    /* 25 runs of two hours ago, 2 of now, all older by name than the new one. */
    cr_assert_eq(tool_sh("cd " WORK "/prune && mkdir -p results/lab1/runs && cd results/lab1/runs && "
                         "for i in $(seq 10 34); do mkdir 20200101T0000${i}Z-1 && touch -d '2 hours ago' 20200101T0000${i}Z-1; done && "
                         "mkdir 20200101T000001Z-2 20200101T000002Z-2"), 0);
    cr_assert_eq(tool_sh("cd " WORK "/prune && ./grade lab1 --seed abc > grade.log 2>&1"), 2, "%s",
                 tool_read(WORK "/prune/grade.log", NULL));
    char runs[32][64];
    int n = run_folders(kit, runs, 32);
    /* Kept: the new run, the 19 newest old ones (...16Z to ...34Z), and the two young ones. */
    cr_assert_eq(n, 22, "%d run folders left, not 22", n);
    cr_assert_str_eq(runs[0], "20200101T000001Z-2");
    cr_assert_str_eq(runs[1], "20200101T000002Z-2");
    cr_assert_str_eq(runs[2], "20200101T000016Z-1");
    const char *latest = latest_run(kit);
    cr_assert(!strncmp(latest, "runs/", 5) && !strcmp(latest + 5, runs[n - 1]), "latest -> %s", latest);
    expect_could_not_grade(WORK "/prune/results/lab1/results.json", "--seed takes a non-negative integer");
}

/* --out DIR: the caller's folder, used as it is: logs and results.json in
 * DIR, an earlier run's logs there removed, no run folder, no latest. */
Test(grade, out_dir_is_used_as_it_is, .timeout = 900)
{
    fresh("out");
    cr_assert_eq(tool_sh("echo stale > " WORK "/out/tests.log"), 0);
    cr_assert_eq(tool_sh("ls -d results/lab1/runs/* > " WORK "/out.before 2>/dev/null; "
                         "CUDA_VISIBLE_DEVICES= ./grade lab1 --out " WORK "/out > " WORK "/out.log 2>&1"), 2, "%s",
                 tool_read(WORK "/out.log", NULL));
    expect_json(WORK "/out/results.json");
    expect_could_not_grade(WORK "/out/results.json", "no usable NVIDIA GPU");
    cr_assert_eq(access(WORK "/out/build.log", R_OK), 0, "no build.log in --out DIR");
    cr_assert_eq(access(WORK "/out/probe.log", R_OK), 0, "no probe.log in --out DIR");
    cr_assert_neq(access(WORK "/out/tests.log", F_OK), 0, "an earlier run's tests.log is still in --out DIR");
    cr_assert_neq(access(WORK "/out/runs", F_OK), 0, "--out DIR got a runs/ folder");
    cr_assert_neq(access(WORK "/out/latest", F_OK), 0, "--out DIR got a latest link");
    cr_assert_eq(tool_sh("ls -d results/lab1/runs/* 2>/dev/null | cmp -s - " WORK "/out.before"), 0,
                 "a grade with --out made a run folder in results/lab1/runs");
}

/* Its stderr: one line, "grade: ..." (no mkdir's or the shell's own). */
static void expect_one_sentence(const char *log, const char *words)
{
    const char *text = tool_read(log, NULL);
    cr_assert(!strncmp(text, "grade: ", 7) && tool_lines(text) == 1 && strstr(text, words),
              "one line 'grade: ...%s...' expected:\n%s", words, text);
}

/* Issue 33: --out (and --json) checked before anything is written: a file, a
 * folder that cannot be made or written, each get one sentence and exit 2,
 * and results.json goes where it can (here --json's place), saying why. */
Test(grade, a_bad_out_gets_one_sentence_and_results_where_they_can_go)
{
    fresh("badout");
    cr_assert_eq(tool_sh("echo not a folder > " WORK "/badout/afile"), 0);
    static const struct { const char *out, *words; } cases[] = {
        {WORK "/badout/afile", "is a file, not a folder"},
        {WORK "/badout/afile/sub", "cannot be written"},
        {"/proc/tilelab-no-such-folder", "cannot be written"},   /* no one may make it, root neither */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[1024], json[256], log[256];
        snprintf(json, sizeof json, WORK "/badout/%zu/results.json", i);
        snprintf(log, sizeof log, WORK "/badout/%zu.log", i);
        snprintf(cmd, sizeof cmd, "./grade lab1 --out %s --json %s > %s.out 2> %s", cases[i].out, json, log, log);
        cr_assert_eq(tool_sh(cmd), 2, "%s", cmd);
        expect_one_sentence(log, cases[i].words);
        expect_could_not_grade(json, cases[i].words);
    }
    /* --json that cannot be written: the sentence names where results.json went instead. */
    cr_assert_eq(tool_sh("./grade lab1 --out " WORK "/badout/ok --json " WORK "/badout/afile/r.json "
                         "> " WORK "/badout/json.out 2> " WORK "/badout/json.log"), 2);
    expect_one_sentence(WORK "/badout/json.log", "--json " );
    const char *text = tool_read(WORK "/badout/json.log", NULL);
    cr_assert(strstr(text, "cannot be written") && strstr(text, "this run's results.json: "), "%s", text);
}

/* A folder another grade is using (it holds DIR/.grade.lock): refused, and
 * that grade's results.json is left alone. */
Test(grade, a_folder_in_use_by_another_grade_is_refused)
{
    fresh("busy");
    cr_assert_eq(tool_sh("echo '{\"score\": 42}' > " WORK "/busy/results.json && "
                         "echo 'pid 1, lab1, since 12:00:00Z' > " WORK "/busy/.grade.lock"), 0);
    int fd = open(WORK "/busy/.grade.lock", O_RDONLY);
    cr_assert(fd >= 0);
    cr_assert_eq(flock(fd, LOCK_EX), 0);
    int status = tool_sh("./grade lab1 --seed 1 --out " WORK "/busy --json " WORK "/busy-results.json "
                         "> " WORK "/busy.out 2> " WORK "/busy.log");
    close(fd);
    cr_assert_eq(status, 2);
    expect_one_sentence(WORK "/busy.log", "is in use by another grade (pid 1, lab1, since 12:00:00Z)");
    expect_could_not_grade(WORK "/busy-results.json", "in use by another grade");
    cr_assert_str_eq(tool_read(WORK "/busy/results.json", NULL), "{\"score\": 42}\n", "the other grade's results were touched");
}

/* Seeds outside 0..2^64-1 are refused, not clamped; 2^64-1 itself is taken. */
Test(grade, a_seed_beyond_64_bits_is_refused, .timeout = 300)
{
    fresh("seed");
    const char *refused[] = {"18446744073709551616", "99999999999999999999999"};
    for (size_t i = 0; i < 2; i++) {
        char cmd[512], json[256];
        snprintf(json, sizeof json, WORK "/seed/%zu/results.json", i);
        snprintf(cmd, sizeof cmd, "./grade lab1 --seed %s --out " WORK "/seed/%zu > " WORK "/seed/%zu.log 2>&1",
                 refused[i], i, i);
        cr_assert_eq(tool_sh(cmd), 2, "%s", cmd);
        expect_could_not_grade(json, "--seed takes an integer from 0 to 18446744073709551615");
    }
    cr_assert_eq(tool_sh("CUDA_VISIBLE_DEVICES= ./grade lab1 --seed 018446744073709551615 --out " WORK "/seed/max "
                         "> " WORK "/seed/max.log 2>&1"), 2);
    expect_could_not_grade(WORK "/seed/max/results.json", "no usable NVIDIA GPU");
}

/* labX and lab99: an error naming the labs, never another lab's grade, and no
 * results/lab99/ folder. */
Test(grade, an_unknown_lab_is_named_and_makes_no_folder)
{
    fresh("lab99");
    struct stat st;
    int existed = stat("results/lab99", &st) == 0;
    cr_assert_eq(tool_sh("./grade lab99 > " WORK "/lab99/a.out 2> " WORK "/lab99/a.log"), 2);
    expect_one_sentence(WORK "/lab99/a.log", "unknown lab 'lab99'; this kit's labs: lab1 ");
    if (!existed)
        cr_assert_neq(stat("results/lab99", &st), 0, "./grade lab99 made results/lab99/");
    cr_assert_eq(tool_sh("./grade labX --out " WORK "/lab99/x > " WORK "/lab99/x.log 2>&1"), 2);
    expect_could_not_grade(WORK "/lab99/x/results.json", "unknown lab 'labX'");
    cr_assert(strstr(tool_read(WORK "/lab99/x/results.json", NULL), "\"lab\": \"labX\""),
              "labX graded as another lab:\n%s", tool_read(WORK "/lab99/x/results.json", NULL));
}

/* "building the grader's harness (first run only)" only when it builds. */
Test(grade, the_harness_is_announced_only_when_it_is_built, .timeout = 900)
{
    fresh("harness");
    for (int i = 0; i < 2; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "CUDA_VISIBLE_DEVICES= ./grade lab1 --out " WORK "/harness/%d > " WORK "/harness/%d.log 2>&1",
                 i, i);
        cr_assert_eq(tool_sh(cmd), 2);
    }
    const char *second = tool_read(WORK "/harness/1.log", NULL);
    cr_assert(strstr(second, "==> building ") && !strstr(second, "building the grader's harness"),
              "the second grade built nothing, and said so:\n%s", second);
}

/* No writable place at all (here: the kit's results/ is a file, which root
 * cannot write in either): the sentence says that no results.json was written, and why. */
Test(grade, a_bad_out_and_no_results_folder_say_no_results_json_was_written)
{
    fresh("nowhere");
    /* The report, the plan (which checks --out) and the rubric tool built already (and a Makefile with nothing to do). */
    cr_assert_eq(tool_sh("make -s --no-print-directory build/tools/report build/tools/plan build/tools/rubric"), 0);
    cr_assert_eq(tool_sh("cd " WORK "/nowhere && mkdir -p grader build/tools labs/lab1-naive-transpose && cp ../../../../grade . && "
                         "cp ../../../../grader/not_graded.sh grader/ && : > Makefile && "
                         "cp ../../../../build/tools/report ../../../../build/tools/plan ../../../../build/tools/rubric build/tools/ && "
                         "cp ../../../../labs/lab1-naive-transpose/lab.rubric labs/lab1-naive-transpose/ && "
                         "echo not a folder > results && echo not a folder > afile"), 0);
    cr_assert_eq(tool_sh("cd " WORK "/nowhere && ./grade lab1 --out afile > out.txt 2> err.txt"), 2);
    expect_one_sentence(WORK "/nowhere/err.txt", "--out ");
    const char *text = tool_read(WORK "/nowhere/err.txt", NULL);
    cr_assert(strstr(text, "is a file, not a folder") && strstr(text, "no results.json was written: ") &&
              strstr(text, "cannot be written either"), "%s", text);
}

/* Without nvcc (CUDA hidden), --cpu too: one sentence that says CPU mode needs
 * it as well, and no line of make's own ("make: *** ..."). */
Test(grade, without_nvcc_cpu_mode_says_it_needs_nvcc_in_one_sentence)
{
    fresh("nonvcc");
    cr_assert_eq(tool_sh("env PATH=/usr/bin:/bin CUDA_HOME=/nonexistent ./grade lab1 --cpu --out " WORK "/nonvcc/out "
                         "> " WORK "/nonvcc/out.txt 2> " WORK "/nonvcc/err.txt"), 2);
    expect_one_sentence(WORK "/nonvcc/err.txt", "nvcc not found");
    const char *json = tool_read(WORK "/nonvcc/out/results.json", NULL);
    cr_assert(strstr(json, "CPU mode needs nvcc too") && !strstr(json, "make: ***") && strstr(json, "\"mode\": \"cpu\""),
              "%s", json);
}

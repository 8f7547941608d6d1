/*
 * ./grade always answers (issue 13): every exit once the output folder is
 * known leaves a fresh results.json (a bad command line, an unknown lab, an
 * unreadable file, Ctrl-C), paths are the caller's, a path or a kit folder
 * with a space builds, and --version names the kit. No GPU needed: each
 * grade that gets that far stops at the GPU (CUDA_VISIBLE_DEVICES= hides
 * any), with "no usable NVIDIA GPU", could not grade, exit 2. Each test works
 * in build/tests/grade/<test>/.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
    fresh("kit copy");
    /* The tracked and new files, times kept, and what is already built, so little is built again. */
    cr_assert_eq(tool_sh("git ls-files -co --exclude-standard -z | xargs -0 cp -p --parents -t '" WORK "/kit copy' && "
                         "{ [ ! -d .deps ] || cp -a .deps '" WORK "/kit copy/'; } && "
                         "for k in build/*/kit; do [ -d \"$k\" ] || continue; mkdir -p '" WORK "/kit copy/'\"${k%/kit}\" && "
                         "cp -a \"$k\" '" WORK "/kit copy/'\"$k\"; done"), 0);
    cr_assert_eq(tool_sh("cd '" WORK "/kit copy' && make lab1 > make.log 2>&1"), 0, "make lab1:\n%s",
                 tool_read(WORK "/kit copy/make.log", NULL));
    cr_assert_eq(tool_sh("cd '" WORK "/kit copy' && CUDA_VISIBLE_DEVICES= ./grade lab1 > grade.log 2>&1"), 2,
                 "%s", tool_read(WORK "/kit copy/grade.log", NULL));
    expect_could_not_grade(WORK "/kit copy/results/lab1/results.json", "no usable NVIDIA GPU");
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

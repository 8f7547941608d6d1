/*
 * Hostile names, folders and includes (issue 44): names are data, never code
 * or separators; results the grader did not write are never trusted; a
 * compile error shows the student's own file only. No GPU needed: the GPU
 * path runs on a kit of stand-ins (tests/fixtures/mock-gpu/). Each test works
 * in build/tests/hostile/<test>/. CPU-mode grades of the same cases:
 * tests/cpu/hostile_names.c.
 */
#define _DEFAULT_SOURCE   /* realpath */
#include <criterion/criterion.h>
#include "tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define WORK "build/tests/hostile"

/* A fresh, empty WORK/name. */
static void fresh(const char *name)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '" WORK "/%s' && mkdir -p '" WORK "/%s'", name, name);
    cr_assert_eq(tool_sh(cmd), 0, "%s", cmd);
}

/* ./grade ARGS on the mock GPU kit of WORK/name (its stand-ins' arguments in WORK/name/mock.log). */
static int grade_on_mock_gpu(const char *name, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "MOCK_REAL_MAKE=$(command -v make) MOCK_BUILD=$PWD/" WORK "/%s/build MOCK_LOG=$PWD/" WORK "/%s/mock.log "
             "PATH=$PWD/tests/fixtures/mock-gpu/bin:$PATH NO_COLOR=1 ./grade %s > " WORK "/%s/grade.log 2>&1",
             name, name, args, name);
    return tool_sh(cmd);
}

/* The value after each `--log-file` line of the stand-ins' log, one at a time (NULL when no more). */
static const char *next_log_file(const char **at)
{
    static char path[4096];
    const char *p = strstr(*at, "\n--log-file\n");
    if (!p)
        return NULL;
    p += strlen("\n--log-file\n");
    size_t n = strcspn(p, "\n");
    snprintf(path, sizeof path, "%.*s", (int)n, p);
    *at = p + n;
    return path;
}

/* Issue 44, case 1, the GPU path: a newline and a % in --out. Every tool's log
 * path reaches ncu and compute-sanitizer as one word (TILELAB_WORKER_WRAP is
 * split on newlines, and both tools expand %), and each log lands in the run
 * folder, where the report reads it. */
Test(hostile, a_newline_in_out_reaches_ncu_and_the_sanitizers_whole, .timeout = 600)
{
    fresh("gpu-out");
    const char *out = WORK "/gpu-out/out\nrun %p";
    char args[1024], path[1024];
    snprintf(args, sizeof args, "lab3 --file solutions/lab3-padding/transpose.cu --seed 7 --out '%s'", out);
    grade_on_mock_gpu("gpu-out", args);
    const char *log = tool_read(WORK "/gpu-out/grade.log", NULL);
    cr_assert(strstr(log, "==> sanitizing:"), "the grade did not reach its GPU steps:\n%s", log);
    cr_expect(!strstr(log, "Syntax error") && !strstr(log, "Unterminated"), "%s", log);
    char *seen = strdup(tool_read(WORK "/gpu-out/mock.log", NULL));
    const char *at = seen, *given;
    int tools = 0;
    while ((given = next_log_file(&at))) {
        tools++;
        cr_expect(!strchr(given, '%'), "a log path ncu or the sanitizer would expand: %s", given);
    }
    cr_expect_eq(tools, 5, "memcheck, racecheck, synccheck and two ncu counts, not %d:\n%s", tools, seen);
    free(seen);
    static const char *const logs[] = {"memcheck.log", "racecheck.log", "synccheck.log", "counters.csv",
                                       "counters-timed.csv"};
    for (size_t i = 0; i < sizeof logs / sizeof logs[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", out, logs[i]);
        cr_expect(tool_read(path, NULL)[0], "no %s in the run folder: the tool wrote it elsewhere", logs[i]);
    }
}

/* ---- batch: a class of the test's own, graded by the stand-in for ./grade ---- */

/* WORK/name/class: alice's lab1.cu, which the stand-in grades 72/72 (tests/fixtures/batch/fake-grade). */
static void class_of(const char *name)
{
    char cmd[1024];
    fresh(name);
    snprintf(cmd, sizeof cmd, "mkdir -p '" WORK "/%s/class/alice' && printf '%%s\\n' '// fake-grade: score 72' "
             "'// fake-grade: max 72' > '" WORK "/%s/class/alice/lab1.cu'", name, name);
    cr_assert_eq(tool_sh(cmd), 0, "%s", cmd);
}

/* ./grade --batch WORK/name/class --lab lab1 ARGS with the stand-in; its output in WORK/name/batch.log. */
static int batch(const char *name, const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "FAKE_GRADE_LOG=$PWD/" WORK "/%s/invocations TILELAB_GRADE='sh tests/fixtures/batch/fake-grade' "
             "./grade --batch '" WORK "/%s/class' --lab lab1 --timeout 5 --seed 7 %s > '" WORK "/%s/batch.log' 2>&1",
             name, name, args, name);
    return tool_sh(cmd);
}

static const char *file_of(const char *name, const char *file)
{
    static char path[1024];
    snprintf(path, sizeof path, WORK "/%s/%s", name, file);
    return tool_read(path, NULL);
}

/* Issue 44, case 2: --out inside the class folder is refused, with one
 * sentence: there a student's folder could hold a results.json of the
 * grader's shape, and a batch took it as graded (72/72, into the gradebook). */
Test(hostile, a_batch_never_writes_into_the_class_folder)
{
    class_of("out-in-class");
    /* planted: results of the grader's shape, newer than the file */
    cr_assert_eq(tool_sh("mkdir -p " WORK "/out-in-class/class/alice/lab1 && sleep 1 && printf '%s\\n' "
                         "'{\"score\": 72, \"max_score\": 72, \"tests\": [], \"extra_data\": {\"lab\": \"lab1\", "
                         "\"graded\": true}}' > " WORK "/out-in-class/class/alice/lab1/results.json"), 0);
    for (int i = 0; i < 2; i++) {
        const char *out = i ? "--out " WORK "/out-in-class/class" : "--out " WORK "/out-in-class/class/alice/results";
        cr_expect_eq(batch("out-in-class", out), 2, "%s", file_of("out-in-class", "batch.log"));
        const char *log = file_of("out-in-class", "batch.log");
        cr_expect(strstr(log, "is inside the class folder"), "%s", log);
        cr_expect(!strstr(log, "(already graded)"), "%s", log);
        cr_expect(!file_of("out-in-class", "invocations")[0], "nothing is graded");
    }
    struct stat st;
    cr_expect_neq(stat(WORK "/out-in-class/class/alice/results", &st), 0, "the refused --out was left made");
    cr_expect_neq(stat(WORK "/out-in-class/class/gradebook.csv", &st), 0, "a gradebook in the class folder");
}

/* Issue 44, case 2: "already graded" is the batch's own record of the file
 * and the results it wrote; results it did not write, or changed since, are
 * graded again. */
Test(hostile, a_batch_trusts_only_the_results_it_recorded)
{
    class_of("planted");
    cr_assert_eq(batch("planted", "--out " WORK "/planted/out"), 0, "%s", file_of("planted", "batch.log"));
    cr_assert(strstr(file_of("planted", "batch.log"), "alice lab1: 72/72 ("), "%s", file_of("planted", "batch.log"));
    /* graded and untouched: skipped */
    cr_assert_eq(batch("planted", "--out " WORK "/planted/out"), 0);
    cr_expect(strstr(file_of("planted", "batch.log"), "alice lab1: 72/72 (already graded)"), "%s",
              file_of("planted", "batch.log"));
    cr_expect_eq(tool_lines(file_of("planted", "invocations")), 1, "%s", file_of("planted", "invocations"));
    /* results changed after the batch wrote them (a higher score planted): graded again */
    cr_assert_eq(tool_sh("sed -i 's/\"score\": 72/\"score\": 100/' " WORK "/planted/out/alice/lab1/results.json"), 0);
    cr_assert_eq(batch("planted", "--out " WORK "/planted/out"), 0);
    cr_expect(!strstr(file_of("planted", "batch.log"), "(already graded)"), "%s", file_of("planted", "batch.log"));
    cr_expect_eq(tool_lines(file_of("planted", "invocations")), 2, "%s", file_of("planted", "invocations"));
    /* results with no record of this batch's (another folder's, copied in): graded again */
    cr_assert_eq(tool_sh("rm " WORK "/planted/out/alice/lab1/.batch-record && touch " WORK
                         "/planted/out/alice/lab1/results.json"), 0);
    cr_assert_eq(batch("planted", "--out " WORK "/planted/out"), 0);
    cr_expect(!strstr(file_of("planted", "batch.log"), "(already graded)"), "%s", file_of("planted", "batch.log"));
    cr_expect_eq(tool_lines(file_of("planted", "invocations")), 3, "%s", file_of("planted", "invocations"));
}

/* ---- includes: a compile error shows the student's own file only ---- */

/* WORK/name/secret.txt (a file the student may not see) and WORK/name/student/, with
 * lab 1's reference plus TAIL as FILE there. */
static void student_with(const char *name, const char *file, const char *tail)
{
    char cmd[2048];
    fresh(name);
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK "/%s/student && echo 'THE-HIDDEN-LINE 42' > " WORK "/%s/secret.txt && "
             "{ cat solutions/lab1-naive-transpose/transpose.cu && printf '%%s\\n' %s; } > " WORK "/%s/student/%s",
             name, name, tail, name, file);
    cr_assert_eq(tool_sh(cmd), 0, "%s", cmd);
}

/* Issue 44, case 4, before the build: an #include that leaves the file's own
 * folder, the toolkit's and the system's headers is refused by its name, never
 * its contents; every header an honest file includes stays allowed. */
Test(hostile, an_include_outside_the_allowed_folders_is_refused_by_name)
{
    tool_make("Makefile", "build/tools/inspect", WORK "/inspect-build");
    char abs_secret[1024], cmd[4096];
    student_with("includes", "lab1.cu",
                 "'#include <iostream>' '#include <vector>' '#include <cuda_pipeline.h>' "
                 "'#include <cooperative_groups.h>' '#include <mma.h>' '#include <cuda/pipeline>' "
                 "'#include <cuda_profiler_api.h>' '#include \"tilelab.h\"'");
    cr_assert_eq(tool_sh("build/tools/inspect --source-includes " WORK "/includes/student/lab1.cu > " WORK
                         "/includes/honest.txt 2>&1"), 0, "an honest file's headers refused:\n%s",
                 tool_read(WORK "/includes/honest.txt", NULL));
    cr_assert(realpath(WORK "/includes/secret.txt", abs_secret) != NULL);
    snprintf(cmd, sizeof cmd, "ln -s '%s' " WORK "/includes/student/planted.h && printf '%%s\\n' '#include \"../secret.txt\"' "
             "'#include \"%s\"' '#include <../../../../../../../../../../%s>' '#include \"planted.h\"' >> " WORK
             "/includes/student/lab1.cu && build/tools/inspect --source-includes " WORK "/includes/student/lab1.cu > " WORK
             "/includes/refused.txt 2>&1", abs_secret, abs_secret, abs_secret + 1);
    cr_assert_eq(tool_sh(cmd), 1, "%s", tool_read(WORK "/includes/refused.txt", NULL));
    const char *found = tool_read(WORK "/includes/refused.txt", NULL);
    cr_expect_eq(tool_lines(found), 4, "four includes refused:\n%s", found);
    cr_expect(strstr(found, "includes: ../secret.txt: ") && strstr(found, "includes: planted.h: ") &&
              strstr(found, abs_secret), "%s", found);
    cr_expect(!strstr(found, "iostream") && !strstr(found, "cuda_pipeline") && !strstr(found, "mma.h") &&
              !strstr(found, "cooperative") && !strstr(found, "includes: tilelab.h"), "%s", found);
}

/* Issue 44, case 4, through the whole grade: a literal #include of another
 * file is refused before the build; one through a macro, which no check
 * before the build can see, fails to compile, and the compiler's message
 * about that file is cut, its name kept. Neither puts the file's contents in
 * what the student sees (results.json, the report). */
Test(hostile, a_compile_error_never_shows_another_file, .timeout = 600)
{
    static const struct { const char *name, *tail, *said; } cases[] = {
        {"include-literal", "'#include \"../secret.txt\"'", "includes ../secret.txt, which is outside"},
        {"include-macro", "'#define HIDDEN_PATH \"../secret.txt\"' '#include HIDDEN_PATH'",
         "secret.txt: (the compiler's message about this file is cut"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cmd[2048], path[512];
        student_with(cases[i].name, "lab1.cu", cases[i].tail);
        snprintf(cmd, sizeof cmd, "TILELAB_CPU_FALLBACK=0 NO_COLOR=1 ./grade lab1 --file " WORK "/%s/student/lab1.cu --out "
                 WORK "/%s/out > " WORK "/%s/grade.log 2>&1", cases[i].name, cases[i].name, cases[i].name);
        cr_expect_neq(tool_sh(cmd), 0, "%s", cmd);   /* 1: not allowed; 2: does not compile */
        snprintf(path, sizeof path, WORK "/%s/out/results.json", cases[i].name);
        char *results = strdup(tool_read(path, NULL));
        snprintf(path, sizeof path, WORK "/%s/grade.log", cases[i].name);
        const char *log = tool_read(path, NULL);
        cr_expect(strstr(results, cases[i].said), "%s: results.json does not say '%s':\n%s", cases[i].name,
                  cases[i].said, results);
        cr_expect(!strstr(results, "HIDDEN-LINE") && !strstr(log, "HIDDEN-LINE"), "%s: the file's contents shown:\n%s\n%s",
                  cases[i].name, results, log);
        free(results);
    }
}

/* Issue 44, case 3: a newline in a student's folder name (evil<newline>alice)
 * no longer overwrites alice's row, a newline in a file name no longer drops
 * the student without a word, and a lab file that is a symbolic link (to
 * another student's) or a FIFO gets a row that says why it was not graded.
 * Nothing waits on the FIFO (the test's timeout). */
Test(hostile, every_student_keeps_a_row_of_their_own, .timeout = 120)
{
    class_of("names");
    const char *lines[] = {"'// fake-grade: score 10' '// fake-grade: max 72'", "'// fake-grade: score 50' '// fake-grade: max 72'"};
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cd " WORK "/names/class && mkdir -p 'evil\nalice' nl linky fifo && "
             "printf '%%s\\n' %s > 'evil\nalice/lab1.cu' && printf '%%s\\n' %s > 'nl/lab1\nx.cu' && "
             "ln -s ../alice/lab1.cu linky/lab1.cu && mkfifo fifo/lab1.cu", lines[0], lines[1]);
    cr_assert_eq(tool_sh(cmd), 0, "%s", cmd);
    cr_assert_eq(batch("names", "--out " WORK "/names/out"), 0, "%s", file_of("names", "batch.log"));
    const char *log = file_of("names", "batch.log");
    cr_expect(strstr(log, "alice lab1: 72/72 ("), "%s", log);
    cr_expect(strstr(log, "evil\nalice lab1: 10/72 ("), "%s", log);
    cr_expect(strstr(log, "nl lab1: 50/72 ("), "%s", log);
    cr_expect(strstr(log, "linky lab1: 0/100 (not graded: the lab file") && strstr(log, "is a symbolic link"), "%s", log);
    cr_expect(strstr(log, "fifo lab1: 0/100 (not graded: the lab file") && strstr(log, "is a FIFO"), "%s", log);
    char *book = strdup(file_of("names", "out/gradebook.csv"));
    cr_expect(strstr(book, "\nalice,lab1,72,72,"), "%s", book);
    cr_expect(strstr(book, "\n\"evil\nalice\",lab1,10,72,"), "%s", book);
    cr_expect(strstr(book, "\nnl,lab1,50,72,"), "%s", book);
    cr_expect(strstr(book, "\nlinky,lab1,0,100,,not-graded,") && strstr(book, "\nfifo,lab1,0,100,,not-graded,"), "%s", book);
    free(book);
    const char *linked = file_of("names", "out/linky/lab1/results.json");
    cr_expect(strstr(linked, "is a symbolic link, not the file itself: hand in the file."), "%s", linked);
}

/* ---- the smaller points ---- */

/* The maximum of a results.json (-1 when there is none). */
static double max_score_of(const char *path)
{
    const char *text = tool_read(path, NULL), *at = strstr(text, "\"max_score\": ");
    return at ? atof(at + strlen("\"max_score\": ")) : -1;
}

/* Issue 44, case 7: in CPU mode every lab 1 row is out of 72 (its 100 without
 * the 28 performance points CPU mode never measures), the rows of a grade
 * that timed out or crashed and a file refused before its build included. */
Test(hostile, cpu_mode_rows_share_one_maximum, .timeout = 300)
{
    class_of("cpu-max");
    cr_assert_eq(tool_sh("cd " WORK "/cpu-max/class && mkdir -p slow crash && echo '// fake-grade: sleep 30' > slow/lab1.cu && "
                         "echo '// fake-grade: exit 3' > crash/lab1.cu"), 0);
    cr_assert_eq(batch("cpu-max", "--cpu --out " WORK "/cpu-max/out"), 0, "%s", file_of("cpu-max", "batch.log"));
    cr_expect_eq(max_score_of(WORK "/cpu-max/out/alice/lab1/results.json"), 72);
    cr_expect_eq(max_score_of(WORK "/cpu-max/out/slow/lab1/results.json"), 72, "the timeout row:\n%s",
                 file_of("cpu-max", "out/slow/lab1/results.json"));
    cr_expect_eq(max_score_of(WORK "/cpu-max/out/crash/lab1/results.json"), 72, "the crash row:\n%s",
                 file_of("cpu-max", "out/crash/lab1/results.json"));
    /* a file refused before its build (an #include of another's file): out of 72 too */
    student_with("cpu-max-refused", "lab1.cu", "'#include \"../secret.txt\"'");
    cr_expect_eq(tool_sh("NO_COLOR=1 ./grade lab1 --cpu --file " WORK "/cpu-max-refused/student/lab1.cu --out " WORK
                         "/cpu-max-refused/out > " WORK "/cpu-max-refused/grade.log 2>&1"), 1);
    cr_expect_eq(max_score_of(WORK "/cpu-max-refused/out/results.json"), 72, "%s",
                 tool_read(WORK "/cpu-max-refused/out/results.json", NULL));
}

/* Issue 44, case 7: the class board at phone width (480 px). Its nine columns
 * do not fit there; the pseudonyms, the one column that wraps, were squeezed
 * to one character a line. Now the table scrolls sideways in a box of its
 * own and a pseudonym keeps 9rem. What is checked is the page's markup and
 * style (no browser lays it out here; tests/tools/board.c renders it in
 * headless Chromium where there is one). */
Test(hostile, the_board_keeps_pseudonyms_readable_at_phone_width, .timeout = 120)
{
    fresh("board");
    cr_assert_eq(tool_sh("cp -R tests/fixtures/board/gradebook " WORK "/board/book && ./grade --board " WORK
                         "/board/book > " WORK "/board/out.txt 2>&1"), 0, "%s", tool_read(WORK "/board/out.txt", NULL));
    const char *page = tool_read(WORK "/board/book/board/lab3-nvidia-h100-80gb-hbm3.html", NULL);
    const char *table = strstr(page, "<table>"), *box = strstr(page, "<div class=\"scroll\"><table>");
    cr_assert(table, "no table on the board:\n%s", page);
    cr_expect(box && box + strlen("<div class=\"scroll\">") == table, "the table is not in a box of its own");
    cr_expect(strstr(page, "div.scroll{overflow-x:auto}"), "the box does not scroll sideways");
    const char *name = strstr(page, "td.name,th.name{");
    cr_expect(name && strstr(name, "min-width:9rem") && strstr(name, "min-width:9rem") < strchr(name, '}'),
              "a pseudonym has no width of its own");
    cr_expect(strstr(page, "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"));
}

/* Issue 44, case 6: a CUDA toolkit with nvcc's, the runtime's and the driver's
 * headers but not cuda_profiler_api.h (Ubuntu 22.04 with setup.sh's first three
 * packages): the kit's build stops before nvcc with one sentence naming the
 * package that has it (setup.sh installs it; tests/tools/gradescope.c). */
Test(hostile, a_missing_cuda_header_is_named_with_its_package)
{
    fresh("cuda-headers");
    cr_assert_eq(tool_sh("mkdir -p " WORK "/cuda-headers/cuda-13.0/include " WORK "/cuda-headers/cuda-13.0/bin && touch " WORK
                         "/cuda-headers/cuda-13.0/include/cuda_runtime.h " WORK "/cuda-headers/cuda-13.0/include/cuda.h"), 0);
    int status = tool_sh("make -s --no-print-directory ARCH=sm_hostile CUDA_HOME=$PWD/" WORK "/cuda-headers/cuda-13.0 "
                         "build/sm_hostile/kit/case.cu.o > " WORK "/cuda-headers/make.log 2>&1");
    const char *log = tool_read(WORK "/cuda-headers/make.log", NULL);
    cr_expect_eq(status, 2, "%s", log);
    cr_expect(strstr(log, "has no cuda_profiler_api.h (the kit includes it): install NVIDIA's cuda-profiler-api-13-0 "
                          "(sudo apt-get install cuda-profiler-api-13-0"), "%s", log);
    cr_expect(!strstr(log, "nvcc"), "nvcc ran:\n%s", log);
    tool_sh("rm -rf build/sm_hostile");
    cr_expect_eq(tool_sh("make -s --no-print-directory need-cuda-headers > " WORK "/cuda-headers/here.log 2>&1"), 0,
                 "this machine's toolkit: %s", tool_read(WORK "/cuda-headers/here.log", NULL));
}

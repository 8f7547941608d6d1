/*
 * hidden.c — the program that runs the hidden tests (see hidden.h).
 *
 *   tests-KIND [-jN] [--json=PATH] [--timeout S] [--list] [-q] [--retry-timed-out EARLIER.json]
 *
 * The runner starts N judge processes (no CUDA in the runner itself: a
 * forked CUDA context is unusable). Each takes the next untaken test from a
 * counter they share, runs it against its one worker, and writes the
 * verdict into a table they share with the runner. The runner watches:
 *
 *   - a test past --timeout seconds (a backstop behind the kernel
 *     deadline, which the judge enforces on its worker) loses its judge,
 *     which is stopped with its workers; the test fails "timed out";
 *   - a judge that ends during a test (a failed CUDA call of the kit's own,
 *     which cannot go on in that context) fails that test with the reason;
 *   - while tests are left, ended judges are replaced.
 *
 * --retry-timed-out: only the tests that timed out in EARLIER.json (this
 * runner's report of an earlier run, with the GPU shared) run again; the
 * others keep EARLIER's verdicts, and the report is the two together.
 *
 * Exit status: 0 every test passed, 1 some failed, 2 the runner could not
 * run them. The report is Criterion's JSON layout, written here.
 */
#define _GNU_SOURCE   /* MAP_ANONYMOUS, strsignal, usleep */
#include "hidden.h"
#include "check.h"
#include "json.h"
#include "remote.h"
#include "shapes.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { MAX_TESTS = 128, MAX_JUDGES = 8 };

typedef struct {
    const char *suite, *name;
    tl_hidden_fn run;
} hidden_test;

static hidden_test tests[MAX_TESTS];
static int ntests;

void tl_hidden_register(const char *suite, const char *name, tl_hidden_fn run)
{
    if (ntests < MAX_TESTS)
        tests[ntests++] = (hidden_test){suite, name, run};
}

uint64_t tl_hidden_seed(void)
{
    return tl_judge_secret();
}

static int by_suite_then_name(const void *a, const void *b)
{
    const hidden_test *x = (const hidden_test *)a, *y = (const hidden_test *)b;
    int c = strcmp(x->suite, y->suite);
    return c ? c : strcmp(x->name, y->name);
}

/* ---- what the runner and its judges share (one anonymous mapping) ---- */

enum { WAITING, RUNNING, DONE };

typedef struct {
    int state;               /* WAITING, RUNNING, DONE: written with atomics */
    pid_t judge;             /* who runs it */
    double started, seconds; /* CLOCK_MONOTONIC: when it started, how long it took */
    int passed;
    char message[sizeof(((tl_case_result *)0)->message) + 128];
    char title[64];          /* what the test ran, as the report names it (tl_hidden_title) */
    int rows, cols;          /* its 2D shape (tl_hidden_shape), 0 when it has none */
} test_slot;

typedef struct {
    int next;                /* the next untaken test */
    test_slot slot[MAX_TESTS];
} shared_table;

static shared_table *table;
static test_slot *current;   /* in a judge: the test it runs */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void finish_slot(test_slot *s, int passed, const char *text)
{
    s->passed = passed;
    s->seconds = now() - s->started;
    snprintf(s->message, sizeof s->message, "%s", text);
    __atomic_store_n(&s->state, DONE, __ATOMIC_RELEASE);
}

/* A failed CUDA call of the judge's own (check.h): the test fails with it,
 * and this judge leaves (its context may be gone); exit() ends its workers. */
static void judge_cuda_failed(const char *message)
{
    if (current && __atomic_load_n(&current->state, __ATOMIC_ACQUIRE) == RUNNING)
        finish_slot(current, 0, message);
    exit(3);
}

void tl_hidden_title(const char *fmt, ...)
{
    if (!current)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(current->title, sizeof current->title, fmt, ap);
    va_end(ap);
}

void tl_hidden_shape(int rows, int cols)
{
    if (current) {
        current->rows = rows;
        current->cols = cols;
    }
}

static void judge_main(void)
{
    tl_set_cuda_error_handler(judge_cuda_failed);
    for (;;) {
        int i = __atomic_fetch_add(&table->next, 1, __ATOMIC_ACQ_REL);
        if (i >= ntests)
            break;
        if (__atomic_load_n(&table->slot[i].state, __ATOMIC_ACQUIRE) == DONE)
            continue;   /* an earlier run's verdict, kept (--retry-timed-out) */
        current = &table->slot[i];
        current->judge = getpid();
        current->started = now();
        __atomic_store_n(&current->state, RUNNING, __ATOMIC_RELEASE);
        tl_case_result r = tests[i].run();
        finish_slot(current, r.verdict == TL_CASE_PASS, r.message);
        current = NULL;
    }
    exit(tl_workers_finish(0));
}

/* ---- the runner ---- */

static pid_t judges[MAX_JUDGES];
static int njudges;

static void stop_judges(int sig)
{
    for (int i = 0; i < njudges; i++)
        if (judges[i] > 0)
            kill(judges[i], sig);
}

static void on_signal(int sig)
{
    stop_judges(SIGTERM);   /* each kills its workers' groups (remote.cu) */
    signal(sig, SIG_DFL);
    raise(sig);
}

static int start_judge(int at)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        signal(SIGHUP, SIG_DFL);
        judge_main();
    }
    judges[at] = pid;
    return pid > 0 ? 0 : -1;
}

/* The tests a judge was running when it ended, or was stopped. */
static void judge_gone(pid_t pid, int status, const char *why)
{
    char text[256];
    if (why)
        snprintf(text, sizeof text, "%s", why);
    else if (WIFSIGNALED(status))
        snprintf(text, sizeof text, "crashed: the grader's test process was killed by signal %d (%s): not "
                 "your file's fault; grade again, and tell your instructor if it persists", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(text, sizeof text, "the grader's test process ended (exit status %d) without a verdict: not "
                 "your file's fault; grade again, and tell your instructor if it persists", WEXITSTATUS(status));
    for (int i = 0; i < ntests; i++)
        if (table->slot[i].judge == pid && __atomic_load_n(&table->slot[i].state, __ATOMIC_ACQUIRE) == RUNNING)
            finish_slot(&table->slot[i], 0, text);
}

static void stop_judge(int at, const char *why)
{
    pid_t pid = judges[at];
    kill(pid, SIGTERM);
    int status = 0;
    for (int tries = 0; tries < 100 && waitpid(pid, &status, WNOHANG) == 0; tries++)
        usleep(20000);
    if (waitpid(pid, &status, WNOHANG) == 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    judge_gone(pid, status, why);
    judges[at] = 0;
}

static int count_done(void)
{
    int done = 0;
    for (int i = 0; i < ntests; i++)
        done += __atomic_load_n(&table->slot[i].state, __ATOMIC_ACQUIRE) == DONE;
    return done;
}

static void run_all(int jobs, double timeout_s, int progress)
{
    njudges = jobs < ntests ? jobs : ntests;
    for (int i = 0; i < njudges; i++)
        if (start_judge(i) != 0)
            judges[i] = 0;
    int shown = 0;
    for (;;) {
        int running = 0;
        for (int j = 0; j < njudges; j++) {
            if (judges[j] <= 0)
                continue;
            int status;
            pid_t got = waitpid(judges[j], &status, WNOHANG);
            if (got == judges[j]) {
                judge_gone(got, status, NULL);
                judges[j] = 0;
                /* Tests left and none running them: a fresh judge. */
                if (__atomic_load_n(&table->next, __ATOMIC_ACQUIRE) < ntests)
                    start_judge(j);
            }
            running += judges[j] > 0;
        }
        for (int i = 0; i < ntests; i++) {
            test_slot *s = &table->slot[i];
            if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) != RUNNING || now() - s->started <= timeout_s)
                continue;
            for (int j = 0; j < njudges; j++)
                if (judges[j] == s->judge) {
                    char why[256];
                    snprintf(why, sizeof why, "timed out: the test passed its %g s limit", timeout_s);
                    stop_judge(j, why);
                    if (__atomic_load_n(&table->next, __ATOMIC_ACQUIRE) < ntests)
                        start_judge(j);
                }
        }
        int done = count_done();
        for (; progress && shown < done; shown++) {
            if (isatty(STDOUT_FILENO))
                printf("\r  testing %d/%d", shown + 1, ntests);
            else
                printf("  test %d/%d done\n", shown + 1, ntests);
            fflush(stdout);
        }
        if (!running)
            break;
        usleep(10000);
    }
    if (progress && isatty(STDOUT_FILENO))
        printf("\r  testing %d/%d done\n", shown, ntests);
}

/* Criterion's JSON layout, which report.c and the batch tools read. */
static int write_report(const char *path)
{
    FILE *f = path ? fopen(path, "w") : NULL;
    if (path && !f) {
        fprintf(stderr, "tests: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!f)
        return 0;
    int passed = 0;
    for (int i = 0; i < ntests; i++)
        passed += table->slot[i].passed;
    tl_json_writer w;
    tl_jw_init(&w, f);
    tl_jw_object_begin(&w, NULL);
    tl_jw_string(&w, "id", "tilelab hidden tests");
    tl_jw_int(&w, "passed", passed);
    tl_jw_int(&w, "failed", ntests - passed);
    tl_jw_int(&w, "errored", 0);
    tl_jw_int(&w, "skipped", 0);
    tl_jw_array_begin(&w, "test_suites");
    for (int i = 0; i < ntests;) {
        int end = i;
        while (end < ntests && !strcmp(tests[end].suite, tests[i].suite))
            end++;
        tl_jw_object_begin(&w, NULL);
        tl_jw_string(&w, "name", tests[i].suite);
        tl_jw_array_begin(&w, "tests");
        for (; i < end; i++) {
            const test_slot *s = &table->slot[i];
            tl_jw_object_begin(&w, NULL);
            tl_jw_string(&w, "name", tests[i].name);
            if (s->title[0])
                tl_jw_string(&w, "title", s->title);
            if (s->rows > 0) {
                tl_jw_int(&w, "rows", s->rows);
                tl_jw_int(&w, "cols", s->cols);
            }
            tl_jw_string(&w, "status", s->passed ? "PASSED" : "FAILED");
            tl_jw_number(&w, "seconds", s->seconds);
            tl_jw_array_begin(&w, "messages");
            if (!s->passed)
                tl_jw_string(&w, NULL, s->state == DONE ? s->message : "not run: the grader could not start a "
                             "test process (not your file's fault)");
            tl_jw_array_end(&w);
            tl_jw_object_end(&w);
        }
        tl_jw_array_end(&w);
        tl_jw_object_end(&w);
    }
    tl_jw_array_end(&w);
    tl_jw_object_end(&w);
    fputc('\n', f);
    return fclose(f) == 0 ? 0 : -1;
}

/* --retry-timed-out: EARLIER's verdicts in their slots, DONE, but for the tests it says timed
 * out ("timed out: " in their message: a kernel past its deadline, or a test past its limit),
 * which stay WAITING; how many wait. -1 when EARLIER cannot be read. */
static int keep_earlier(const char *path)
{
    char err[256];
    tl_json *earlier = tl_json_parse_file(path, err, sizeof err);
    const tl_json *suites = earlier ? tl_json_get(earlier, "test_suites") : NULL;
    if (!suites) {
        fprintf(stderr, "tests: cannot read %s: %s\n", path, earlier ? "no test_suites" : err);
        tl_json_free(earlier);
        return -1;
    }
    int waiting = ntests;
    for (int i = 0; i < ntests; i++) {
        const tl_json *found = NULL;
        for (const tl_json *s = suites->child; s && !found; s = s->next) {
            if (strcmp(tl_json_string(s, "name", ""), tests[i].suite))
                continue;
            const tl_json *list = tl_json_get(s, "tests");
            for (const tl_json *t = list ? list->child : NULL; t && !found; t = t->next)
                if (!strcmp(tl_json_string(t, "name", ""), tests[i].name))
                    found = t;
        }
        if (!found)
            continue;   /* not in EARLIER: it runs */
        const tl_json *messages = tl_json_get(found, "messages");
        const char *message = messages && messages->child && messages->child->type == TL_JSON_STRING
                                  ? messages->child->string : "";
        int passed = !strcmp(tl_json_string(found, "status", ""), "PASSED");
        if (!passed && strstr(message, "timed out: "))
            continue;
        test_slot *s = &table->slot[i];
        s->passed = passed;
        s->seconds = tl_json_number(found, "seconds", 0);
        s->rows = (int)tl_json_number(found, "rows", 0);
        s->cols = (int)tl_json_number(found, "cols", 0);
        snprintf(s->message, sizeof s->message, "%s", message);
        snprintf(s->title, sizeof s->title, "%s", tl_json_string(found, "title", ""));
        s->state = DONE;
        waiting--;
    }
    tl_json_free(earlier);
    return waiting;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: tests-KIND [-jN] [--json=PATH] [--timeout SECONDS] [--list] [-q] [--suite NAME]...\n"
                 "                  [--retry-timed-out EARLIER.json]\n"
                 "  The hidden tests of a lab kind, against TILELAB_WORKER (./grade sets it up).\n"
                 "  --suite NAME: only that suite's tests (repeatable); default every suite.\n"
                 "  --retry-timed-out EARLIER.json: run again only the tests that timed out there.\n");
}

int main(int argc, char **argv)
{
    int jobs = 4, list = 0;
    double timeout_s = 60;
    const char *json = NULL, *earlier = NULL;
    const char *suites[16];
    int nsuites = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strncmp(a, "-j", 2) && a[2])
            jobs = atoi(a + 2);
        else if (!strncmp(a, "--json=", 7))
            json = a + 7;
        else if (!strcmp(a, "--json") && i + 1 < argc)
            json = argv[++i];
        else if (!strcmp(a, "--timeout") && i + 1 < argc)
            timeout_s = atof(argv[++i]);
        else if (!strcmp(a, "--suite") && i + 1 < argc && nsuites < 16)
            suites[nsuites++] = argv[++i];
        else if (!strcmp(a, "--retry-timed-out") && i + 1 < argc)
            earlier = argv[++i];
        else if (!strcmp(a, "--list"))
            list = 1;
        else if (!strcmp(a, "-q"))
            continue;
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (jobs < 1)
        jobs = 1;
    if (jobs > MAX_JUDGES)
        jobs = MAX_JUDGES;
    if (timeout_s <= 0)
        timeout_s = 60;
    if (nsuites > 0) {   /* only the suites the rubric names (hidden_suites) */
        for (int s = 0; s < nsuites; s++) {   /* a misspelt suite must not drop its tests unseen */
            int found = 0;
            for (int i = 0; i < ntests && !found; i++)
                found = !strcmp(tests[i].suite, suites[s]);
            if (!found) {
                fprintf(stderr, "tests: no suite named '%s' (--suite; the rubric's hidden_suites)\n", suites[s]);
                return 2;
            }
        }
        int kept = 0;
        for (int i = 0; i < ntests; i++)
            for (int s = 0; s < nsuites; s++)
                if (!strcmp(tests[i].suite, suites[s])) {
                    tests[kept++] = tests[i];
                    break;
                }
        if (kept == 0) {
            fprintf(stderr, "tests: no test in the suites named by --suite\n");
            return 2;
        }
        ntests = kept;
    }
    qsort(tests, (size_t)ntests, sizeof tests[0], by_suite_then_name);
    if (list) {
        for (int i = 0; i < ntests; i++)
            printf("%s/%s\n", tests[i].suite, tests[i].name);
        return 0;
    }
    table = (shared_table *)mmap(NULL, sizeof *table, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (table == MAP_FAILED) {
        fprintf(stderr, "tests: cannot map the results table: %s\n", strerror(errno));
        return 2;
    }
    int waiting = earlier ? keep_earlier(earlier) : ntests;
    if (waiting < 0)
        return 2;
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    if (waiting > 0)
        run_all(jobs < waiting ? jobs : waiting, timeout_s, getenv("TILELAB_PROGRESS") != NULL);
    if (write_report(json) != 0)
        return 2;
    for (int i = 0; i < ntests; i++)
        if (!table->slot[i].passed)
            return 1;
    return 0;
}

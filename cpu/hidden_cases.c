/*
 * hidden_cases.c — the case API the hidden tests call (transpose_case.h,
 * matmul_case.h, supersteps_case.h, sparse_case.h), for CPU mode: each case is one run of
 * CPU mode's check (cpu/judge.c, linked in as tl_cpu_check_main: build/cpu/cpu-check's
 * own code, run in a child of the test's process rather than started as a program) on the
 * student's CPU worker (TILELAB_WORKER), which seeds, runs, checks and
 * reruns it in a shuffled thread order. Linked with grader/hidden.c and the
 * hidden tests' own sources into build/cpu/tests-KIND, so ./grade --cpu
 * runs the same tests (names, shapes, seeds) into the same tests.json.
 *
 * Shapes are capped to what CPU mode runs in seconds: each side is halved
 * (rounding up) until the case fits (TL_CPU_CAP_ELEMENTS elements, or
 * TL_CPU_CAP_MULTIPLY multiply-adds); an odd side stays odd-sized where it
 * can, so partial tiles are still tested. Each capped case says so on stderr.
 * The kit's own tests may ask for smaller caps (reduced cases, cpu_cases.h).
 */
#define _GNU_SOURCE   /* mkstemp, readlink */
#include "cpu_cases.h"
#include "hidden.h"
#include "json.h"
#include "launches.h"
#include "matmul_case.h"
#include "remote.h"
#include "sparse_case.h"
#include "supersteps_case.h"
#include "transpose_case.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TL_CPU_KIND
#error "build with -DTL_CPU_KIND=\"transpose\" (or matmul, supersteps, sparse): cpu/cpu.mk"
#endif

/* The kit's own calls hidden.c makes: no CUDA and no GPU workers here. */
void tl_set_cuda_error_handler(tl_cuda_error_handler handler) { (void)handler; }
int tl_workers_finish(int status) { return status; }

/* The launch functions the tests name: here, only which case they mean (each
 * its own address: tl_matmul_case_of tells launch_matmul_dbuf apart). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) \
    void launch_##name params                              \
    {                                                      \
    }
#include TL_LAUNCHES
#undef TL_LAUNCH
#pragma GCC diagnostic pop

const char *const tl_clinic_names[TL_CLINIC_COUNT] = {"reverse", "sums", "pairs"};

static void set(tl_case_result *r, tl_case_verdict v, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set(tl_case_result *r, tl_case_verdict v, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    r->verdict = v;
    vsnprintf(r->message, sizeof r->message, fmt, ap);
    va_end(ap);
}

/* cpu-check's verdicts (cpu/judge.c) as the case API's. */
static tl_case_verdict verdict_of(const char *v)
{
    return !strcmp(v, "ok") ? TL_CASE_PASS
           : !strcmp(v, "timed out") ? TL_CASE_TIMEOUT
           : !strcmp(v, "crashed") || !strcmp(v, "ended") ? TL_CASE_ENDED
           : !strcmp(v, "refused") ? TL_CASE_FORBIDDEN
           : !strcmp(v, "error") ? TL_CASE_CUDA_ERROR
           : !strcmp(v, "unsupported") || !strcmp(v, "not run") ? TL_CASE_NOT_RUN
           : TL_CASE_WRONG;
}

/* The judge's main, exit and atexit in this program (cpu/cpu.mk: cpu-check-cases.o). It runs
 * in a child forked for one case: a fresh copy of the test's process, in which no judge code
 * has run, so each case starts from the judge's initial state as cpu-check would. Its exit
 * runs the judge's own atexit handlers (its worker stopped, its folder removed), never the
 * test's, whose process this child copies. */
int tl_cpu_check_main(int argc, char **argv);
static void (*judge_at_exit[8])(void);
static int judge_at_exits;

int tl_cpu_check_atexit(void (*fn)(void))
{
    if (judge_at_exits >= 8)
        return -1;
    judge_at_exit[judge_at_exits++] = fn;
    return 0;
}

void tl_cpu_check_exit(int status)
{
    while (judge_at_exits > 0)
        judge_at_exit[--judge_at_exits]();
    fflush(NULL);
    _exit(status);
}

/* One run of cpu-check's code in a child: ARGS after the common ones, SHAPE names the case in
 * messages (cpu_cases.h); argv[0] is cpu-check's path beside this program, as if it were started. */
tl_case_result tl_cpu_run_check(const char *shape, uint64_t seed, const char *const *args)
{
    tl_case_result r = {TL_CASE_NOT_RUN, ""};
    char exe[4096], check[4160], seed_text[32], timeout[32], json[4096];
    /* Under TMPDIR where one is set (./grade sets one of its own, removed when it ends). */
    const char *tmp = getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp";
    snprintf(json, sizeof json, "%.4000s/tilelab-cpu-case-XXXXXX", tmp);
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *worker = getenv("TILELAB_WORKER");
    if (n <= 0 || !worker) {
        set(&r, TL_CASE_NOT_RUN, "shape %s: not run: %s (not your file's fault)", shape,
            n <= 0 ? "cannot find the grader's CPU check" : "no TILELAB_WORKER (./grade --cpu sets it)");
        return r;
    }
    exe[n] = '\0';
    snprintf(check, sizeof check, "%.*s/cpu-check", (int)(strrchr(exe, '/') - exe), exe);
    snprintf(seed_text, sizeof seed_text, "%llu", (unsigned long long)seed);
    /* The deadline of one run of the case (it runs twice: thread order, then shuffled), in CPU
     * seconds of the worker's busiest thread (cpu/judge.c), so the machine's load never counts:
     * 10 s, or the rubric's kernel_timeout_s where longer. The heaviest hidden tests (lab 5's,
     * lab 4's) took at most 4.6 s of wall time for both runs together on one thread
     * (TILELAB_CPU_THREADS=1, on a loaded 2-core machine, 2026-11-29). */
    double kernel_s = getenv("TILELAB_KERNEL_TIMEOUT_S") ? atof(getenv("TILELAB_KERNEL_TIMEOUT_S")) : 0;
    snprintf(timeout, sizeof timeout, "%g", kernel_s > 10 ? kernel_s : 10);
    int fd = mkstemp(json);
    if (fd < 0) {
        set(&r, TL_CASE_NOT_RUN, "shape %s: not run: cannot make a file in %s: %s (not your file's fault)", shape,
            tmp, strerror(errno));
        return r;
    }
    close(fd);
    const char *argv[32] = {check, "--worker", worker, "--kind", TL_CPU_KIND, "--seed", seed_text, "--timeout",
                            timeout, "--no-counters", "--json", json};
    int argc = 12;
    for (; *args && argc < 31; args++)
        argv[argc++] = *args;
    argv[argc] = NULL;
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        /* The check (and so its worker) ends with this test's judge, however it ends. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)   /* it ended before the line above */
            _exit(127);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 1);
        dup2(null, 2);
        tl_cpu_check_exit(tl_cpu_check_main(argc, (char **)argv));
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    char err[256];
    tl_json *report = pid > 0 ? tl_json_parse_file(json, err, sizeof err) : NULL;
    unlink(json);
    const tl_json *results = report ? tl_json_get(report, "results") : NULL;
    if (!results || !tl_json_length(results)) {
        set(&r, TL_CASE_NOT_RUN, "shape %s: not run: the grader's CPU check gave no result (exit %d; not your "
            "file's fault)", shape, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        tl_json_free(report);
        return r;
    }
    r.verdict = TL_CASE_PASS;
    for (const tl_json *c = results->child; c && r.verdict == TL_CASE_PASS; c = c->next) {
        tl_case_verdict v = verdict_of(tl_json_string(c, "verdict", "?"));
        if (v == TL_CASE_PASS)
            continue;
        /* The first finding (a race, a barrier, an access out of bounds) is the likely cause. */
        const tl_json *f = tl_json_get(report, "findings");
        const char *finding = f && f->child ? tl_json_string(f->child, "text", NULL) : NULL;
        const char *lab = getenv("TILELAB_LAB");
        char again[256] = "";   /* the case's own options, whatever the kind: its shape, unit, zeros */
        for (const char *const *a = argv + 12; *a; a++)
            snprintf(again + strlen(again), sizeof again - strlen(again), " %s", *a);
        set(&r, v, "shape %s: %s: %s (CPU mode)%s%s. Next: run build/%s --cpu%s to see every finding with its line.",
            shape, tl_json_string(c, "verdict", "?"), tl_json_string(c, "message", ""),
            finding ? "; CPU mode found: " : "", finding ? finding : "", lab ? lab : "labN", again);
    }
    tl_json_free(report);
    return r;
}

/* Reduced cases (cpu_cases.h): read from this program's environment, which the
 * worker never sees (cpu/judge.c starts it with a clean one). */
static int reduced_cases(void)
{
    const char *cases = getenv("TILELAB_CPU_CASES");
    return cases && !strcmp(cases, "reduced");
}

static void note_cap(const char *asked, const char *ran)
{
    fprintf(stderr, "CPU mode: %s capped to %s (%s)\n", asked, ran,
            reduced_cases() ? "reduced cases: the kit's own tests" : "TL_CPU_CAP: to finish in seconds");
}

static int half(int side) { return side / 2 + (side & 1); }

static double cap_elements(void) { return reduced_cases() ? TL_CPU_REDUCED_ELEMENTS : TL_CPU_CAP_ELEMENTS; }

tl_shape tl_cpu_cap_shape(tl_shape s)
{
    while ((double)s.rows * s.cols > cap_elements())
        s.rows = half(s.rows), s.cols = half(s.cols);
    return s;
}

/* Reduced cases cap the output too: a 1000x1x1000 product is a million threads. */
tl_mm_shape tl_cpu_cap_mm_shape(tl_mm_shape s)
{
    double multiply = reduced_cases() ? TL_CPU_REDUCED_MULTIPLY : TL_CPU_CAP_MULTIPLY;
    while ((double)s.m * s.k * s.n > multiply || (reduced_cases() && (double)s.m * s.n > cap_elements()))
        s.m = half(s.m), s.k = half(s.k), s.n = half(s.n);
    return s;
}

tl_case_result tl_transpose_case(int rows, int cols, uint64_t seed)
{
    char asked[64], shape[64];
    tl_shape s = tl_cpu_cap_shape((tl_shape){rows, cols});
    snprintf(asked, sizeof asked, "%dx%d", rows, cols);
    snprintf(shape, sizeof shape, "%dx%d", s.rows, s.cols);
    if (s.rows != rows || s.cols != cols)
        note_cap(asked, shape);
    const char *args[] = {"--shape", shape, NULL};
    return tl_cpu_run_check(shape, seed, args);
}

tl_case_result tl_transpose_case_of(tl_transpose_fn launch, int rows, int cols, uint64_t seed)
{
    (void)launch;
    return tl_transpose_case(rows, cols, seed);
}

/* Both ways: rows x cols, then its transpose's shape, each checked against the reference. */
tl_case_result tl_transpose_roundtrip(int rows, int cols, uint64_t seed)
{
    char shape[64], back[64];
    snprintf(shape, sizeof shape, "%dx%d", rows, cols);
    snprintf(back, sizeof back, "%dx%d", cols, rows);
    const char *args[] = {"--shape", shape, "--shape", back, NULL};
    return tl_cpu_run_check(shape, seed, args);
}

tl_case_result tl_matmul_case_of(tl_matmul_fn launch, tl_mm_shape asked, uint64_t seed, int inputs)
{
    char from[64], shape[64];
    tl_mm_shape s = tl_cpu_cap_mm_shape(asked);
    snprintf(from, sizeof from, "%dx%dx%d", asked.m, asked.k, asked.n);
    snprintf(shape, sizeof shape, "%dx%dx%d", s.m, s.k, s.n);
    if (s.m != asked.m || s.k != asked.k || s.n != asked.n)
        note_cap(from, shape);
    const char *args[] = {"--mnk", shape, NULL, NULL, NULL, NULL};
    int n = 2;
    if (launch == launch_matmul_dbuf)
        args[n++] = "--unit", args[n++] = "dbuf";
    else if (!strcmp(TL_CPU_KIND, "sparse"))   /* lab 7, part 1 */
        args[n++] = "--unit", args[n++] = "dense";
    if (inputs == TL_MM_NAN_INF)
        args[n++] = "--nan-inf";
    return tl_cpu_run_check(shape, seed, args);
}

tl_case_result tl_clinic_case(tl_clinic which, int n, uint64_t seed)
{
    char shape[64], count[32];
    int ran = n > cap_elements() ? (int)cap_elements() : n;
    snprintf(shape, sizeof shape, "n=%d", ran);
    snprintf(count, sizeof count, "%d", ran);
    if (ran != n) {
        char asked[32];
        snprintf(asked, sizeof asked, "n=%d", n);
        note_cap(asked, shape);
    }
    const char *args[] = {"--unit", tl_clinic_names[which], "--n", count, NULL};
    return tl_cpu_run_check(shape, seed, args);
}

tl_case_result tl_inplace_case(int n, uint64_t seed)
{
    char shape[64], side[32], asked[64];
    tl_shape s = tl_cpu_cap_shape((tl_shape){n, n});
    snprintf(asked, sizeof asked, "%dx%d", n, n);
    snprintf(shape, sizeof shape, "%dx%d", s.rows, s.rows);
    snprintf(side, sizeof side, "%d", s.rows);
    if (s.rows != n)
        note_cap(asked, shape);
    const char *args[] = {"--unit", "inplace", "--n", side, NULL};
    return tl_cpu_run_check(shape, seed, args);
}

tl_case_result tl_inplace_case_of(tl_inplace_fn launch, int n, uint64_t seed)
{
    (void)launch;
    return tl_inplace_case(n, seed);
}

/* Lab 7, part 2: launch_matmul_sparse, B drawn and encoded by the check as the
 * GPU's tests do (sparse_encode.h), the shape capped as a matmul's. */
tl_case_result tl_sparse_case(tl_mm_shape asked, uint64_t seed, tl_sparsity kind, double density)
{
    static const char *const names[] = {"dense", "zero", "blocks", "values", "along-k"};
    char from[64], shape[64], zeros[64], dens[32];
    tl_mm_shape s = tl_cpu_cap_mm_shape(asked);
    snprintf(from, sizeof from, "%dx%dx%d", asked.m, asked.k, asked.n);
    snprintf(shape, sizeof shape, "%dx%dx%d", s.m, s.k, s.n);
    if (s.m != asked.m || s.k != asked.k || s.n != asked.n)
        note_cap(from, shape);
    snprintf(zeros, sizeof zeros, "%s", (unsigned)kind < 5 ? names[kind] : "along-k");
    snprintf(dens, sizeof dens, "%g", density);
    const char *args[] = {"--unit", "sparse", "--mnk", shape, "--sparsity", zeros, "--density", dens, NULL};
    /* The message names the zeros as the GPU's does (sparse_case.cu). */
    char named[160];
    if (kind == TL_SPARSE_BLOCKS || kind == TL_SPARSE_ELEMENTS)
        snprintf(named, sizeof named, "%s (MxKxN), B with %s, density %g", shape, tl_sparsity_name(kind), density);
    else
        snprintf(named, sizeof named, "%s (MxKxN), B %s", shape, tl_sparsity_name(kind));
    return tl_cpu_run_check(named, seed, args);
}

/*
 * plan.c — build/tools/plan: what a grade runs, decided once, in C (issue 32).
 * ./grade keeps process control, locks and output; every shape, tool,
 * worker, timeout and title it uses comes from here, read from the rubric
 * (grader/rubric.c, its one reader) and the lab's kind.
 *
 *   plan args LAB CURRENT_LAB OUT JSON BAD PID
 *       the lab (the current one when none is named), --out and --json checked
 *   plan folder LAB UNKNOWN OUT JSON OUT_PROBLEM HISTORY PID
 *       this run's folder (results/<lab>/runs/<time>-<pid> without --out), old runs pruned
 *   plan check LAB SEED FILE CURRENT_LAB CURRENT_SRC
 *       the rubric, the lab file and the seed, checked (a drawn one when SEED
 *       is empty), and the build's limits
 *   plan steps LAB SEED KIT BIN CUDA_HOME OUT BASELINE_SRC BUILD_SRC
 *       the steps: sanitizers, counters, hidden tests, measurement, CPU mode's
 *       checks, each with its shapes, workers, tools and title
 *
 * The plan is shell assignments on stdout, every value single-quoted here,
 * so ./grade sources it without parsing. A step list holds one step a line,
 * its arguments shell-quoted words; the run folder in it is "$out", for the
 * shell to expand: no byte of a folder's name can split a step. The same file in the run folder
 * (plan.sh) is what build/tools/report --run reads back (report_run.c).
 * Exit 0; 1 with the reason on stderr (the assignments made so far are
 * still printed: the report names what was known); 2 on bad usage.
 */
#define _GNU_SOURCE   /* nftw */
#include "counters.h"
#include "paths.h"
#include "lab_kinds.h"
#include "rubric.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <libgen.h>
#include <time.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A growing text: a step list or a quoted argument list. */
typedef struct {
    char text[8192];
    size_t used;
} buffer;

static void add(buffer *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(buffer *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (b->used < sizeof b->text) {
        int w = vsnprintf(b->text + b->used, sizeof b->text - b->used, fmt, ap);
        b->used += w > 0 ? (size_t)w : 0;
        if (b->used > sizeof b->text)
            b->used = sizeof b->text;
    }
    va_end(ap);
}

/* Shell text added as it is, not quoted: a reference such as "$out"/NAME, which the shell that
 * runs a step list expands. A path never enters a step list: a list is split on newlines, and a
 * newline is a byte a folder's name may hold. */
static void add_raw(buffer *b, const char *text)
{
    add(b, "%s%s", b->used && b->text[b->used - 1] != '\n' ? " " : "", text);
}

/* One word, shell-quoted where it needs it: '...' with each ' as '\''. */
static void add_word(buffer *b, const char *word)
{
    static const char plain[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:=,+@%-";
    add(b, "%s", b->used && b->text[b->used - 1] != '\n' ? " " : "");
    if (word[0] && strspn(word, plain) == strlen(word)) {
        add(b, "%s", word);
        return;
    }
    add(b, "'");
    for (const char *p = word; *p; p++)
        add(b, *p == '\'' ? "'\\''" : "%c", *p);
    add(b, "'");
}

static void assign(const char *name, const char *value)
{
    buffer b = {.used = 0};
    add_word(&b, value);
    printf("%s=%s\n", name, b.text);
}

static void assign_number(const char *name, double value)
{
    char text[64];
    snprintf(text, sizeof text, "%g", value);
    assign(name, text);
}

/* The first path a pattern matches, in byte order (as `ls PATTERN | head -n1`); "" when none. */
static void first_match(const char *pattern, char *out, size_t size)
{
    glob_t g;
    out[0] = '\0';
    if (glob(pattern, 0, NULL, &g) == 0) {
        snprintf(out, size, "%s", g.gl_pathv[0]);
        globfree(&g);
    }
}

static int readable(const char *path)
{
    return path[0] && access(path, R_OK) == 0;
}

/* A tool as ./grade looked for it: on PATH (`command -v`), else in the CUDA toolkit's bin. */
static void find_tool(const char *name, const char *cuda_home, char *out, size_t size)
{
    const char *path = getenv("PATH");
    out[0] = '\0';
    for (const char *dir = path; dir && *dir;) {
        size_t len = strcspn(dir, ":");
        snprintf(out, size, "%.*s/%s", (int)len, len ? dir : ".", name);
        struct stat st;
        if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0)
            return;
        dir += len + (dir[len] == ':');
    }
    snprintf(out, size, "%s/bin/%s", cuda_home, name);
    if (access(out, F_OK) != 0)
        out[0] = '\0';
}

static int load(const char *lab, tl_rubric *r, char *path, size_t size)
{
    char err[512];
    if (tl_rubric_path(lab, path, size) != 0) {
        char labs[512];
        tl_rubric_lab_list(labs, sizeof labs);
        fprintf(stderr, "unknown lab '%s'; labs: %s\n", lab, labs);
        return 1;
    }
    if (tl_rubric_load(path, r, err, sizeof err) != 0) {
        fprintf(stderr, "not your file's fault: the lab's rubric does not load: %s\n", err);
        return 1;
    }
    return 0;
}

/* The judges read the seed as 64 bits: a larger one would be clamped, and
 * the run it names could not be repeated. An empty seed is drawn. */
static int check_seed(const char *seed)
{
    if (!seed[0]) {
        unsigned int drawn = 0;
        FILE *f = fopen("/dev/urandom", "rb");
        if (!f || fread(&drawn, sizeof drawn, 1, f) != 1) {
            fprintf(stderr, "not your file's fault: /dev/urandom cannot be read to draw a seed\n");
            return 1;
        }
        fclose(f);
        printf("seed='%u'\n", drawn);
        return 0;
    }
    if (strspn(seed, "0123456789") != strlen(seed)) {
        fprintf(stderr, "--seed takes a non-negative integer, not '%s'\n", seed);
        assign("seed", "");
        return 1;
    }
    const char *digits = seed + strspn(seed, "0");
    if (strlen(digits) > 20 || (strlen(digits) == 20 && strcmp(digits, "18446744073709551615") > 0)) {
        fprintf(stderr, "--seed takes an integer from 0 to 18446744073709551615 (2^64-1), not '%s'\n", seed);
        assign("seed", "");
        return 1;
    }
    assign("seed", seed);
    return 0;
}

static void build_link(const char *src);

/* plan check: what must hold before anything is built. */
static int check(const char *lab, const char *seed, const char *file, const char *current_lab,
                 const char *current_src)
{
    static tl_rubric r;
    char path[512], src[1024], pattern[256];
    if (load(lab, &r, path, sizeof path) != 0)
        return 1;
    assign("rubric", path);
    if (file[0])
        snprintf(src, sizeof src, "%s", file);
    else if (!strcmp(lab, current_lab) && current_src[0])
        snprintf(src, sizeof src, "%s", current_src);
    else {
        snprintf(pattern, sizeof pattern, "labs/%s-*/*.cu", lab);
        first_match(pattern, src, sizeof src);
    }
    assign("src", src);
    if (!readable(src)) {
        fprintf(stderr, "cannot read the lab file '%s'\n", src);
        return 1;
    }
    if (check_seed(seed) != 0)
        return 1;
    build_link(src);
    assign("kind", r.kind);
    /* The file's build and inspection run bounded (rubric build_timeout_s, build_memory_mb). */
    printf("build_timeout_s=%ld\nbuild_memory_mb=%ld\n", r.build_timeout_s > 0 ? (long)r.build_timeout_s : 120,
           r.build_memory_mb > 0 ? (long)r.build_memory_mb : 4096);
    return 0;
}

/* The kit's own workers a kind's measurement compares with (its descriptor's). */
static void measure_workers(const tl_rubric *r, const char *kit, buffer *args)
{
    const lab_kind *k = kind_of(r);
    /* Each worker the kind times beside yours; the library's is there for comparison
     * only, under its own title (the rubric's library_title). */
    const struct {
        const char *name, *option, *title;
    } workers[] = {{k->copy_worker ? "copy" : NULL, "--copy-worker", NULL},
                   {k->library_worker && r->library[0] ? r->library : NULL, "--library-worker", r->library_title},
                   {k->naive_worker ? "naive" : NULL, "--naive-worker", NULL},
                   {k->cublas_worker ? "cublas" : NULL, "--cublas-worker", NULL}};
    for (size_t i = 0; i < sizeof workers / sizeof workers[0]; i++) {
        if (!workers[i].name)
            continue;
        char worker[1024];
        snprintf(worker, sizeof worker, "%s/workers/%s", kit, workers[i].name);
        add_word(args, workers[i].option);
        add_word(args, worker);
        if (workers[i].title) {
            add_word(args, "--library-source");
            add_word(args, workers[i].title);
        }
    }
}

/* One measurement: FILE JUDGE [--part UNIT] WORKERS... The rubric's
 * performance_unit may be timed as another kind's (lab 7's part 1 as lab 4's). */
static void measure_run(const tl_rubric *r, const char *kit, const char *unit, buffer *runs)
{
    char file[64], judge[1024];
    const char *as = kind_of(r)->performance_unit_timed_as;
    const char *kind = unit && as && !strcmp(unit, r->performance_unit) ? as : r->kind;
    snprintf(file, sizeof file, unit && strcmp(unit, r->performance_unit) ? "measure-%s.json" : "measure.json", unit);
    snprintf(judge, sizeof judge, "%s/judge/measure-%s", kit, kind);
    add_word(runs, file);
    add_word(runs, judge);
    if (unit) {
        add_word(runs, "--part");
        add_word(runs, unit);
    }
    measure_workers(r, kit, runs);
    add(runs, "\n");
}

static void measure_title(const tl_rubric *r, char *out, size_t size)
{
    const lab_kind *k = kind_of(r);
    char baseline[256] = "";
    if (r->baseline[0] && k->measure_title_baseline)
        snprintf(baseline, sizeof baseline, k->measure_title_baseline, r->baseline);
    snprintf(out, size, "%s%s%s%s%s", k->measure_title ? k->measure_title : "measuring", baseline,
             k->measure_title_tail ? k->measure_title_tail : "", r->library_title[0] ? "; " : "", r->library_title);
}

/* The student's own file of an earlier lab (rubric baseline), timed beside
 * this one: the one named with --baseline, else the first .cu file of a
 * folder DIR/<baseline>-NAME, or DIR/<baseline>-reference.o, over
 * baseline_dirs, then labs. */
static void baseline(const tl_rubric *r, const char *given)
{
    char src[1024], dirs[128], pattern[512];
    assign("baseline", r->baseline);
    assign("baseline_skipped", "");
    if (!r->baseline[0]) {
        assign("baseline_src", "");   /* a lab without one times none, whatever --baseline said */
        return;
    }
    snprintf(src, sizeof src, "%s", given);
    snprintf(dirs, sizeof dirs, "%s%slabs", r->baseline_dirs, r->baseline_dirs[0] ? " " : "");
    for (char *save = NULL, *dir = strtok_r(dirs, " ", &save); dir && !src[0]; dir = strtok_r(NULL, " ", &save)) {
        glob_t g;
        int found = 0;
        snprintf(pattern, sizeof pattern, "%s/%s-*/*.cu", dir, r->baseline);
        found = glob(pattern, 0, NULL, &g) == 0;
        snprintf(pattern, sizeof pattern, "%s/%s-reference.o", dir, r->baseline);
        found |= glob(pattern, found ? GLOB_APPEND : 0, NULL, &g) == 0;
        if (!found)
            continue;
        const char *first = g.gl_pathv[0];
        for (size_t i = 1; i < g.gl_pathc; i++)
            if (strcmp(g.gl_pathv[i], first) < 0)
                first = g.gl_pathv[i];
        snprintf(src, sizeof src, "%s", first);
        globfree(&g);
    }
    assign("baseline_src", src);
    if (!readable(src)) {
        char why[1536];
        if (src[0])
            snprintf(why, sizeof why, "no %s file found (looked for %s)", r->baseline, src);
        else
            snprintf(why, sizeof why, "no %s file found (looked for %s-*/*.cu in %s labs)", r->baseline, r->baseline,
                     r->baseline_dirs);
        assign("baseline_skipped", why);
        assign("baseline_src", "");
    }
}

/* The steps on a GPU: counters (ncu), sanitizers, the measurement. */
static void gpu_steps(const tl_rubric *r, const char *seed, const char *kit, const char *cuda_home)
{
    char shape[64], ncu[1024] = "", sanitizer[1024], why[1536], title[512];
    buffer counts = {.used = 0}, args = {.used = 0};
    /* The shape ncu reads, drawn from the seed (rubric counters_range): no
     * kernel can keep its counted behaviour for a few published shapes. */
    tl_rubric_counters_shape(r, seed, shape, sizeof shape);
    assign("counters_shape", shape);
    const char *ncu_env = getenv("NCU");   /* NCU=path picks another */
    if (ncu_env && ncu_env[0])
        snprintf(ncu, sizeof ncu, "%s", ncu_env);
    else
        find_tool("ncu", cuda_home, ncu, sizeof ncu);
    if (!ncu[0] || access(ncu, X_OK) != 0)
        ncu[0] = '\0';
    assign("ncu", ncu);
    assign("counter_metrics", TL_COUNTER_METRICS);
    /* Tensor-pipe instructions are counted where arithmetic is judged: an FP32 lab's, and skipping's evidence. */
    assign("count_tensor", !strcmp(r->arithmetic, "fp32") || r->ffma_ratio_max > 0 ? "1" : "");
    assign("counters_missing", "");
    assign("contrast_worker", "");
    assign("contrast_args", "");
    if (shape[0] && !ncu[0]) {
        snprintf(why, sizeof why, "ncu (Nsight Compute) was not found %s%s%son PATH or in %s/bin; it ships with the CUDA toolkit",
                 ncu_env && ncu_env[0] ? "at " : "", ncu_env && ncu_env[0] ? ncu_env : "", ncu_env && ncu_env[0] ? " " : "",
                 cuda_home);
        assign("counters_missing", why);
    }
    if (shape[0] && ncu[0]) {
        /* counters_unit: a lab of several kernels names the one ncu reads (lab 7: sparse). */
        const char *names[] = {"counters", "counters-timed", "ffma-dense", "ffma-quarter"};
        for (int i = 0; i < 4; i++) {
            if ((i == 1 && !r->counters_timed) || (i >= 2 && !r->ffma_ratio_max))
                continue;
            add_word(&counts, names[i]);
            if (r->counters_unit[0]) {
                add_word(&counts, "--unit");
                add_word(&counts, r->counters_unit);
            }
            /* counters_timed, ffma_ratio_max (lab 7): counted again at the timed shape;
             * the FMAs of B dense and with 3 K-blocks in 4 zero: the skipping's evidence. */
            add_word(&counts, i ? "--timed-shape" : "--shape");
            if (!i)
                add_word(&counts, shape);
            if (i >= 2) {
                add_word(&counts, "--blocks");
                add_word(&counts, i == 2 ? "1" : "0.25");
            }
            add(&counts, "\n");
        }
        /* rubric contrast: a kit kernel counted the same way, for no points (lab 7). */
        if (r->contrast[0]) {
            snprintf(why, sizeof why, "%s/workers/%s", kit, r->contrast);
            assign("contrast_worker", why);
            if (r->counters_unit[0]) {
                add_word(&args, "--unit");
                add_word(&args, r->counters_unit);
            }
            add_word(&args, "--shape");
            add_word(&args, shape);
            assign("contrast_args", args.text);
        }
    }
    assign("counts", counts.text);
    /* Under ncu or a sanitizer a kernel runs slower: each check's limits (grade's, and the kernel's own). */
    printf("ncu_timeout_s=90\nsanitizer_timeout_s=60\ntool_kernel_timeout_s=20\n");
    /* At most 4 test processes share the GPU: a kernel that never ends would starve more past their deadlines. */
    printf("test_jobs=4\n");
    /* The kit's own builds (the harness, the CPU kit): one compiler per core, as make -j does. */
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    printf("build_jobs=%ld\n", online < 1 ? 1 : online > 32 ? 32 : online);

    /* The sanitizers: those with points; a clinic kernel's points need all three clean. */
    char tools[64] = "";
    if (r->nunits)
        snprintf(tools, sizeof tools, " memcheck racecheck synccheck");
    else {
        if (r->memcheck_points) strcat(tools, " memcheck");
        if (r->racecheck_points) strcat(tools, " racecheck");
        if (r->synccheck_points) strcat(tools, " synccheck");
    }
    assign("tools", tools);
    find_tool("compute-sanitizer", cuda_home, sanitizer, sizeof sanitizer);
    if (tools[0] && !sanitizer[0]) {
        snprintf(why, sizeof why, "compute-sanitizer was not found on PATH or in %s/bin (it ships with the CUDA toolkit)",
                 cuda_home);
        assign("sanitizer_missing", why);
    }
    assign("sanitizer", tools[0] && sanitizer[0] ? sanitizer : "");
    buffer units = {.used = 0}, all = {.used = 0}, shapes = {.used = 0};
    for (int u = 0; u < r->nunits; u++) {
        const tl_rubric_unit *unit = &r->units[u];
        add_word(&units, unit->name);
        add_word(&units, "--unit");
        add_word(&units, unit->name);
        add_word(&units, "--shape");
        add_word(&units, unit->sanitizer_shape);
        add(&units, "\n");
        add_word(&all, "--unit");
        add_word(&all, unit->name);
        add_word(&all, "--shape");
        add_word(&all, unit->sanitizer_shape);
    }
    assign("unit_runs", units.text);
    assign("all_units_args", all.text);
    if (r->nunits)
        snprintf(title, sizeof title, "sanitizing each kernel with%s", tools);
    else {
        /* rubric sanitizer_shape: one shape or several (lab 6: its vector path and its scalar one) */
        char list[64];
        snprintf(list, sizeof list, "%s", r->sanitizer_shape);
        for (char *save = NULL, *s = strtok_r(list, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
            add_word(&shapes, "--shape");
            add_word(&shapes, s);
        }
        snprintf(title, sizeof title, "sanitizing:%s on %s%s%s", tools, r->sanitizer_shape,
                 shape[0] && ncu[0] ? "; ncu counters on " : "", shape[0] && ncu[0] ? shape : "");
    }
    assign("sanitize_args", shapes.text);
    assign("sanitize_title", title);
    /* Lab 5 part 3: the double-buffered unit's kernels, named by ncu beside
     * the sanitizers, so its structure is judged on what it ran. */
    buffer dbuf = {.used = 0};
    const tl_rubric_unit *d = tl_rubric_find_unit(r, r->double_buffered_unit);
    int dbuf_judged = d && r->nunits && tools[0] && sanitizer[0];
    assign("dbuf_unit", dbuf_judged ? d->name : "");
    if (dbuf_judged && ncu[0]) {
        add_word(&dbuf, "--unit");
        add_word(&dbuf, d->name);
        add_word(&dbuf, "--shape");
        add_word(&dbuf, d->sanitizer_shape);
    }
    assign("dbuf_args", dbuf.text);

    measure_title(r, title, sizeof title);
    assign("measure_title", title);
    assign_number("measure_timeout_s", r->measure_timeout_s);
    /* Each timed kernel of a lab of several in its own process: one that
     * hangs or faults loses the GPU context, and must not cost the other its measurement. */
    buffer runs = {.used = 0};
    measure_run(r, kit, r->nunits ? r->performance_unit : NULL, &runs);
    if (r->nunits && r->speedup_unit[0])
        measure_run(r, kit, r->speedup_unit, &runs);
    assign("measure_runs", runs.text);
}

/* CPU mode's steps: its checks stand in for the sanitizers and ncu. */
static void cpu_steps(const tl_rubric *r, const char *seed)
{
    char shape[64] = "", title[512], path[1024];
    buffer checks = {.used = 0};
    /* A lab of units (5, 7) gets its checks per unit and no counters case:
     * lab 7's counters are ncu's branch counters, which CPU mode does not compute. */
    if (!r->nunits)
        tl_rubric_counters_shape(r, seed, shape, sizeof shape);
    assign("cpu_counters_shape", shape);
    for (int u = 0; u < r->nunits; u++) {
        const tl_rubric_unit *unit = &r->units[u];
        snprintf(path, sizeof path, "cpu-check-%s.log", unit->name);
        add_word(&checks, path);
        add_word(&checks, "--json");
        buffer name = {.used = 0};
        snprintf(path, sizeof path, "cpu-check-%s.json", unit->name);
        add_word(&name, path);
        add_raw(&checks, "\"$out\"/");
        add(&checks, "%s", name.text);
        add_word(&checks, "--unit");
        add_word(&checks, unit->name);
        add_word(&checks, strchr(unit->sanitizer_shape, 'x') ? "--mnk" : "--n");
        add_word(&checks, unit->sanitizer_shape);
        add(&checks, "\n");
    }
    if (r->nunits)
        snprintf(title, sizeof title, "checking each kernel for races, barriers and bounds (CPU mode)");
    else {
        char list[64];
        add_word(&checks, "cpu-check.log");
        add_word(&checks, "--json");
        add_raw(&checks, "\"$out\"/cpu-check.json");
        snprintf(list, sizeof list, "%s", r->sanitizer_shape);
        for (char *save = NULL, *s = strtok_r(list, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
            add_word(&checks, kind_of(r)->cpu_shape_option);   /* --mnk: MxKxN */
            add_word(&checks, s);
        }
        if (shape[0]) {
            add_word(&checks, "--counters");
            add_word(&checks, shape);
            add_word(&checks, "--ncu-csv");
            add_raw(&checks, "\"$out\"/counters.csv");
        } else
            add_word(&checks, "--no-counters");
        add(&checks, "\n");
        snprintf(title, sizeof title, "checking for races, barriers and bounds on %s%s%s (CPU mode)",
                 r->sanitizer_shape[0] ? r->sanitizer_shape : "the quick check's shapes",
                 shape[0] ? "; counters on " : "", shape);
    }
    assign("cpu_checks", checks.text);
    assign("cpu_title", title);
    assign("cpu_dbuf_unit", r->double_buffered_unit);
    /* One test process per core, at most 4: each case's worker runs its blocks on every core too. */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("cpu_jobs=%ld\n", cores < 1 ? 2 : cores > 4 ? 4 : cores);
    /* 30 s a case, of CPU time in the worker's busiest thread (cpu/judge.c), which load does not
     * add to: lab 4's reference, the heaviest, took 8.8 s of CPU time for all its check's cases
     * together on one thread (TILELAB_CPU_THREADS=1; the 512^3 counters case most of it; 2026-11-29,
     * this kit's 2-core CI machine). A kernel that never ends costs a check two such cases. The
     * wall-clock bounds below are backstops only, ten times what they bound, so that a busy
     * machine never decides a grade: a check's, and a hidden test process's behind its cases'. */
    printf("cpu_case_timeout_s=30\ncpu_check_timeout_s=3000\n");
    assign_number("cpu_test_timeout_s", (r->test_timeout_s > 0 ? r->test_timeout_s : 60) * 10);
}

/* plan steps: everything after the build. */
static int steps(const char *lab, const char *seed, const char *kit, const char *bin, const char *cuda_home, const char *out,
                 const char *baseline_src, const char *build_src)
{
    static tl_rubric r;
    char path[512];
    (void)out;   /* the step lists name it "$out" (add_raw): the shell running them holds it */
    if (load(lab, &r, path, sizeof path) != 0)
        return 1;
    assign("lab", lab);
    char ptx[1024];
    snprintf(ptx, sizeof ptx, "%s/student.ptx", bin);   /* what the structure is judged on */
    assign("ptx", ptx);
    /* what the compiler's messages name: the copy it compiled, the link a name with spaces is built through */
    assign("build_src", build_src);
    snprintf(ptx, sizeof ptx, "%s/src/%s", bin, strrchr(build_src, '/') ? strrchr(build_src, '/') + 1 : build_src);
    assign("student_copy", ptx);
    assign("cuda_home", cuda_home);   /* whose headers a compiler message may quote (report_run.c) */
    buffer names = {.used = 0}, suites = {.used = 0};
    for (int u = 0; u < r.nunits; u++)
        add(&names, "%s%s", u ? " " : "", r.units[u].name);
    assign("units", names.text);
    assign("require", r.require);   /* the structure judged from the PTX (build/tools/ptx-structure) */
    /* rubric hidden_suites: which of the kind's suites this lab runs (lab 6 adds `vector`). */
    char list[64];
    snprintf(list, sizeof list, "%s", r.hidden_suites);
    for (char *save = NULL, *s = strtok_r(list, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
        add_word(&suites, "--suite");
        add_word(&suites, s);
    }
    assign("test_args", suites.text);
    assign_number("kernel_timeout_s", r.kernel_timeout_s);
    assign_number("test_timeout_s", r.test_timeout_s);
    baseline(&r, baseline_src);
    gpu_steps(&r, seed, kit, cuda_home);
    cpu_steps(&r, seed);
    return 0;
}

/* ---- the output folder (plan args, plan folder) ------------------------------- */

/* The working folder as the shell names it ($PWD, symbolic links kept), else getcwd. */
static const char *pwd(char *out, size_t size)
{
    const char *env = getenv("PWD");
    struct stat a, b;
    if (env && env[0] == '/' && stat(env, &a) == 0 && stat(".", &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
        snprintf(out, size, "%s", env);
    else if (!getcwd(out, size))
        snprintf(out, size, ".");
    return out;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int mkdir_p(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0777) != 0 && !is_dir(buf))
                return -1;
            *p = '/';
        }
    return mkdir(buf, 0777) == 0 || is_dir(buf) ? 0 : -1;
}

/* A folder (made if missing) in which a file can be made; PID names the test file. */
static int writable_dir(const char *dir, const char *pid)
{
    struct stat st;
    if (!is_dir(dir) && (stat(dir, &st) == 0 || lstat(dir, &st) == 0 || mkdir_p(dir) != 0))
        return 0;
    char test[4200];
    snprintf(test, sizeof test, "%s/.tilelab-write-test.%s", dir, pid);
    int fd = open(test, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
        return 0;
    close(fd);
    unlink(test);
    return 1;
}

static void dir_of(const char *path, char *out, size_t size)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    snprintf(out, size, "%s", dirname(copy));
}

/* plan args LAB CURRENT_LAB OUT JSON BAD PID: the lab (the current one when none is
 * named; an unknown one is never graded as another), and --out and --json checked
 * (made if missing). `fatal` when there is no folder to say it in. */
static int args(const char *lab, const char *current_lab, const char *out, const char *json, const char *bad,
                const char *pid)
{
    char why[8400] = "", problem[4096] = "", path[512];
    snprintf(why, sizeof why, "%s", bad);
    int has_folder = out[0] || json[0];
    if (lab[0]) {
        int known = !strncmp(lab, "lab", 3) && lab[3] >= '0' && lab[3] <= '9' &&
                    strspn(lab, "abcdefghijklmnopqrstuvwxyz0123456789") == strlen(lab);
        if (known) {
            char pattern[256];
            snprintf(pattern, sizeof pattern, "labs/%s-*/lab.rubric", lab);
            first_match(pattern, path, sizeof path);
            known = readable(path);
        }
        if (!known) {
            assign("unknown_lab", "1");
            if (!why[0]) {
                /* this kit's labs, as the folders name them: labs/labN-<name>/lab.rubric */
                buffer ids = {.used = 0};
                glob_t g;
                if (glob("labs/lab*-*/lab.rubric", 0, NULL, &g) == 0) {
                    for (size_t i = 0; i < g.gl_pathc; i++) {
                        const char *id = g.gl_pathv[i] + strlen("labs/");
                        size_t digits = strspn(id + 3, "0123456789");
                        if (id[3 + digits] == '-')
                            add(&ids, "%s%.*s", ids.used ? " " : "", (int)(3 + digits), id);
                        else
                            add(&ids, "%s%s", ids.used ? " " : "", g.gl_pathv[i]);
                    }
                    globfree(&g);
                }
                snprintf(why, sizeof why, "unknown lab '%s'; this kit's labs: %s (./grade --help)", lab, ids.text);
            }
            if (!has_folder) {
                assign("fatal", why);
                return 0;
            }
        }
    } else {
        lab = current_lab;
        if (!lab[0] && !has_folder) {
            assign("fatal", why[0] ? why : "no current lab: run 'make lab1' (or name one: ./grade lab1)");
            return 0;
        }
        if (!lab[0] && !why[0])
            snprintf(why, sizeof why, "no current lab: run 'make lab1' (or name one: ./grade lab1)");
    }
    assign("lab", lab);
    assign("bad", why);
    if (out[0]) {
        struct stat st;
        if (stat(out, &st) == 0 && !S_ISDIR(st.st_mode))
            snprintf(problem, sizeof problem, "--out %s is a file, not a folder: name a folder (it is made if missing)", out);
        else if (!writable_dir(out, pid))
            snprintf(problem, sizeof problem, "--out %s cannot be written: it cannot be made, or you may not write in it; "
                     "name a folder you can write", out);
        assign("out", problem[0] ? "" : out);
    }
    if (json[0]) {
        char dir[4096], json_problem[4096] = "";
        dir_of(json, dir, sizeof dir);
        if (is_dir(json))
            snprintf(json_problem, sizeof json_problem, "--json %s is a folder: name the file (e.g. %s/results.json)", json, json);
        else if (!writable_dir(dir, pid))
            snprintf(json_problem, sizeof json_problem, "--json %s cannot be written: its folder cannot be made, or you may "
                     "not write in it", json);
        if (json_problem[0] && !problem[0])
            snprintf(problem, sizeof problem, "%s", json_problem);
        assign("json", json_problem[0] ? "" : json);
    }
    assign("out_problem", problem);
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* plan folder LAB UNKNOWN OUT JSON OUT_PROBLEM HISTORY PID: this run's folder. Without --out,
 * results/<lab>/runs/<UTC time>-<pid> (names sort by start, so two grades at once never mix
 * their logs), its results.json published at the end to results/<lab>/results.json (or --json
 * PATH); the 20 newest runs are kept. No stale results.json is left for this run's. */
static int folder(const char *lab, const char *unknown, const char *out, const char *json, const char *out_problem,
                  const char *history, const char *pid)
{
    char lab_dir[512], run[128] = "", run_out[1024], final_json[4096], run_json[4096], dir[4096], problem[8192];
    snprintf(lab_dir, sizeof lab_dir, "results/%s", unknown[0] || !lab[0] ? "no-lab" : lab);   /* never results/lab99/ */
    if (!out[0]) {
        time_t now = time(NULL);
        strftime(run, sizeof run, "%Y%m%dT%H%M%SZ", gmtime(&now));
        snprintf(run + strlen(run), sizeof run - strlen(run), "-%s", pid);
        snprintf(run_out, sizeof run_out, "%s/runs/%s", lab_dir, run);
        snprintf(final_json, sizeof final_json, "%s", json[0] ? json : "");
        if (!json[0])
            snprintf(final_json, sizeof final_json, "%s/results.json", lab_dir);
        snprintf(run_json, sizeof run_json, "%s/results.json", run_out);
        out = run_out;
        json = run_json;
        /* Keep the 20 newest runs; an older one goes unless younger than an hour (it may still
         * be running) or latest points at it. */
        char runs_dir[600], latest[600] = "", link[600];
        snprintf(runs_dir, sizeof runs_dir, "%s/runs", lab_dir);
        snprintf(link, sizeof link, "%s/latest", lab_dir);
        ssize_t n = readlink(link, latest, sizeof latest - 1);
        latest[n > 0 ? n : 0] = '\0';
        DIR *d = opendir(runs_dir);
        char (*names)[64] = NULL;
        size_t count = 0, cap = 0;
        for (struct dirent *e; d && (e = readdir(d));) {
            const char *s = e->d_name;
            if (strlen(s) >= 64 || strspn(s, "0123456789") != 8 || s[8] != 'T' || strspn(s + 9, "0123456789") != 6 ||
                s[15] != 'Z' || s[16] != '-' || !s[17] || strspn(s + 17, "0123456789") != strlen(s + 17))
                continue;
            if (count == cap)
                names = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
            snprintf(names[count++], 64, "%s", s);
        }
        if (d)
            closedir(d);
        qsort(names, count, sizeof *names, (int (*)(const void *, const void *))strcmp);
        for (size_t i = 0; count > 19 && i < count - 19; i++) {   /* the oldest, past the 19 newest */
            char old[700], target[700];
            struct stat st;
            snprintf(target, sizeof target, "runs/%s", names[i]);
            snprintf(old, sizeof old, "%s/%s", runs_dir, names[i]);
            if (strcmp(target, latest) && lstat(old, &st) == 0 && time(NULL) - st.st_mtime > 3600)
                nftw(old, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        }
        free(names);
    } else {
        if (!json[0]) {
            snprintf(run_json, sizeof run_json, "%s/results.json", out);
            json = run_json;
        }
        snprintf(final_json, sizeof final_json, "%s", json);
    }
    /* Never a stale one: an earlier run's results must not pass for this run's. The default
     * results/<lab>/results.json is not removed but replaced, whole, at every exit. */
    unlink(json);
    char stable[600];
    snprintf(stable, sizeof stable, "%s/results.json", lab_dir);
    if (run[0] && strcmp(final_json, stable))
        unlink(final_json);
    assign("lab_dir", lab_dir);
    assign("run", run);
    assign("out", out);
    assign("json", json);
    assign("final_json", final_json);
    dir_of(final_json, dir, sizeof dir);
    if (mkdir_p(out) != 0 || mkdir_p(dir) != 0 || !writable_dir(out, pid)) {
        char cwd[4096];
        snprintf(problem, sizeof problem, "%s%sno results.json was written: %s/%s cannot be written either (the kit's "
                 "results/ folder: a read-only kit?)", out_problem, out_problem[0] ? "; " : "",
                 pwd(cwd, sizeof cwd), out);
        assign("fatal", problem);
        return 0;
    }
    dir_of(history, dir, sizeof dir);
    mkdir_p(dir);
    if (out_problem[0]) {
        char cwd[4096] = "";
        if (final_json[0] != '/')
            snprintf(cwd + strlen(pwd(cwd, sizeof cwd)), sizeof cwd - strlen(cwd), "/");
        snprintf(problem, sizeof problem, "%s (this run's results.json: %s%s)", out_problem, cwd, final_json);
        assign("out_problem", problem);
    }
    return 0;
}

/* POSIX cksum's CRC of TEXT (its bytes, then its length): the folder a file's link lives in. */
static unsigned long cksum(const char *text)
{
    unsigned int table[256], crc = 0;
    for (unsigned int i = 0; i < 256; i++) {
        unsigned int c = i << 24;
        for (int k = 0; k < 8; k++)
            c = c & 0x80000000u ? (c << 1) ^ 0x04C11DB7u : c << 1;
        table[i] = c;
    }
    size_t n = strlen(text);
    for (size_t i = 0; i < n; i++)
        crc = (crc << 8) ^ table[(crc >> 24) ^ (unsigned char)text[i]];
    for (size_t len = n; len; len >>= 8)
        crc = (crc << 8) ^ table[(crc >> 24) ^ (len & 0xFF)];
    return ~crc & 0xFFFFFFFFul;
}

/* The folder of PATH as `cd "$(dirname PATH)" && pwd` names it: absolute, . and .. resolved by name. */
static void folder_of(const char *path, char *out, size_t size)
{
    char dir[4096], joined[8192], cwd[4096];
    dir_of(path, dir, sizeof dir);
    if (dir[0] == '/')
        snprintf(joined, sizeof joined, "%s", dir);
    else
        snprintf(joined, sizeof joined, "%s/%s", pwd(cwd, sizeof cwd), dir);
    path_by_name(joined, out, size);
}

/* make cannot take a path with a space (or a quote) in it: such a file is built
 * through build/submissions/N/dir, a link to its folder (its relative #includes
 * still resolve), or a link to the file under a tame name. */
static void build_link(const char *src)
{
    static const char tame[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+@-";
    char link[64] = "", build_src[8192], name[8192] = "", target[8192] = "", dir[4096];
    snprintf(build_src, sizeof build_src, "%s", src);
    if (strspn(src, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._/+@-") == strlen(src)) {
        assign("build_src", src);
        assign("link_dir", "");
        assign("link_name", "");
        assign("link_target", "");
        return;
    }
    const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
    snprintf(link, sizeof link, "build/submissions/%lu", cksum(src));
    folder_of(src, dir, sizeof dir);
    if (strspn(base, tame) != strlen(base)) {
        char renamed[4096];
        snprintf(renamed, sizeof renamed, "%s", base);
        for (char *c = renamed; *c; c++)
            if (!strchr(tame, *c))
                *c = '_';
        snprintf(build_src, sizeof build_src, "%s/%s", link, renamed);
        snprintf(name, sizeof name, "%s", build_src);
        snprintf(target, sizeof target, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", base);
    } else {
        snprintf(build_src, sizeof build_src, "%s/dir/%s", link, base);
        snprintf(name, sizeof name, "%s/dir", link);
        snprintf(target, sizeof target, "%s", dir);
    }
    assign("build_src", build_src);
    assign("link_dir", link);
    assign("link_name", name);
    assign("link_target", target);
}

int main(int argc, char **argv)
{
    if (argc == 8 && !strcmp(argv[1], "args"))
        return args(argv[2], argv[3], argv[4], argv[5], argv[6], argv[7]);
    if (argc == 9 && !strcmp(argv[1], "folder"))
        return folder(argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], argv[8]);
    if (argc == 7 && !strcmp(argv[1], "check"))
        return check(argv[2], argv[3], argv[4], argv[5], argv[6]);
    if ((argc == 9 || argc == 10) && !strcmp(argv[1], "steps"))   /* BUILD_SRC: as SRC when not given */
        return steps(argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], argv[8], argc == 10 ? argv[9] : "");
    fprintf(stderr, "usage: plan args LAB CURRENT_LAB OUT JSON BAD PID\n"
                    "       plan folder LAB UNKNOWN OUT JSON OUT_PROBLEM HISTORY PID\n"
                    "       plan check LAB SEED FILE CURRENT_LAB CURRENT_SRC\n"
                    "       plan steps LAB SEED KIT BIN CUDA_HOME OUT BASELINE_SRC BUILD_SRC\n");
    return 2;
}

/*
 * CPU mode (cpu/): the lab files, unmodified, run on the CPU. Every
 * solution must come out right and clean, every skeleton wrong (or
 * flagged), each bad submission with its diagnosis and line, and the
 * counters must be what the hardware's rules give (and what ncu read,
 * where tests/fixtures/ has a capture). No GPU is needed: these run in CI.
 *
 * Each test builds its file's CPU worker (mk/submission.mk, target cpu)
 * and reads the CPU check's --json output; no test reads its human text.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "counters.h"
#include "json.h"

#define WORK "build/tests/cpu-mode"

/* A shell command as a fresh top-level make would run it; its exit status. */
static int sh(const char *cmd)
{
    unsetenv("MAKEFLAGS");
    unsetenv("MAKELEVEL");
    unsetenv("MFLAGS");
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int tool_newlines(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static char *slurp(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    return buf;
}

typedef struct {
    tl_json *json;
    int status;          /* the CPU check's exit status */
    char name[256];      /* what the files of this run are called in WORK */
} run;

static const char *run_log(const run *r);

/* A bad-submission fixture as a file: tests/submissions/LAB/NAME.cu as it is,
 * or NAME.patch applied to the lab's solution into WORK/fixtures/ (as the GPU
 * suite applies it; the finding lines below are the patched file's). */
static const char *fixture(const char *lab, const char *name)
{
    static char paths[16][256];
    static int next;
    char *path = paths[next++ % 16];
    snprintf(path, 256, "tests/submissions/%s/%s.cu", lab, name);
    if (access(path, R_OK) == 0)
        return path;
    snprintf(path, 256, WORK "/fixtures/%s-%s.cu", lab, name);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK "/fixtures && patch -s -o %s $(ls solutions/%s-*/*.cu) "
             "< tests/submissions/%s/%s.patch > %s.log 2>&1", path, lab, lab, name, path);
    cr_assert_eq(sh(cmd), 0, "tests/submissions/%s/%s.patch does not apply: see %s.log", lab, name, path);
    return path;
}

/* Builds `src` (a file of lab `lab`) for the CPU and runs the CPU check on it
 * with `args`; `tag` names this run's files. Fails the test when it cannot build. */
static run cpu_check(const char *lab, const char *src, const char *args, const char *tag)
{
    run r;
    memset(&r, 0, sizeof r);
    snprintf(r.name, sizeof r.name, "%s", src);
    for (char *p = r.name; *p; p++)
        if (*p == '/' || *p == '.')
            *p = '_';
    strncat(r.name, tag, sizeof r.name - strlen(r.name) - 1);
    char cmd[2048], log[512], where[512], json[512];
    snprintf(log, sizeof log, WORK "/%s.build.log", r.name);
    snprintf(where, sizeof where, WORK "/%s.worker", r.name);
    snprintf(json, sizeof json, WORK "/%s.json", r.name);
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK " && make -s --no-print-directory -f mk/submission.mk LAB=%s SRC=%s cpu > %s 2>&1 && "
             "make -s --no-print-directory -f mk/submission.mk LAB=%s SRC=%s print-cpu > %s",
             lab, src, log, lab, src, where);
    /* Tests of one file run in parallel: one builds it while the others wait. */
    char lock[512];
    snprintf(lock, sizeof lock, WORK "/%.*s.lock", (int)(strlen(r.name) - strlen(tag)), r.name);
    sh("mkdir -p " WORK);
    int fd = open(lock, O_CREAT | O_RDWR, 0644);
    cr_assert(fd >= 0 && flock(fd, LOCK_EX) == 0, "cannot lock %s", lock);
    int built = sh(cmd);
    close(fd);
    cr_assert_eq(built, 0, "building %s for the CPU failed:\n%s", src, slurp(log));
    char worker[512], kind[64];
    cr_assert_eq(sscanf(slurp(where), "%511s %63s", worker, kind), 2, "print-cpu said: %s", slurp(where));
    snprintf(cmd, sizeof cmd, "build/cpu/cpu-check --worker %s --kind %s --lab %s --source %s --json %s %s > "
             WORK "/%s.log 2>&1", worker, kind, lab, src, json, args, r.name);
    r.status = sh(cmd);
    char err[256];
    r.json = tl_json_parse_file(json, err, sizeof err);
    cr_assert(r.json, "the CPU check wrote no JSON (%s); exit %d; its output:\n%s", err, r.status,
              run_log(&r));
    return r;
}

/* What the CPU check printed for this run. */
static const char *run_log(const run *r)
{
    char path[512];
    snprintf(path, sizeof path, WORK "/%s.log", r->name);
    return slurp(path);
}

static const tl_json *member(const tl_json *o, const char *key)
{
    const tl_json *v = tl_json_get(o, key);
    cr_assert(v, "no \"%s\" in the CPU check's JSON", key);
    return v;
}

/* The first finding of `kind` at `line` (and `line2` when not 0, either way round). */
static const tl_json *finding(const run *r, const char *kind, int line, int line2)
{
    for (const tl_json *f = member(r->json, "findings")->child; f; f = f->next) {
        int a = (int)tl_json_number(f, "line", 0), b = (int)tl_json_number(f, "line2", 0);
        if (strcmp(tl_json_string(f, "kind", ""), kind))
            continue;
        if ((a == line && (!line2 || b == line2)) || (line2 && a == line2 && b == line))
            return f;
    }
    return NULL;
}

static void assert_right_and_clean(const char *lab, const char *src, const char *args)
{
    run r = cpu_check(lab, src, args, "");
    for (const tl_json *c = member(r.json, "results")->child; c; c = c->next)
        cr_expect(!strcmp(tl_json_string(c, "verdict", ""), "ok") && tl_json_number(c, "findings", -1) == 0,
                  "%s, case %s: %s %s (findings %g)", src, tl_json_string(c, "name", "?"), tl_json_string(c, "verdict", "?"),
                  tl_json_string(c, "message", ""), tl_json_number(c, "findings", -1));
    cr_expect_eq(tl_json_length(member(r.json, "findings")), 0, "%s: findings on a reference solution", src);
    cr_expect_eq(r.status, 0, "%s: the CPU check exited %d", src, r.status);
    tl_json_free(r.json);
}

/* A skeleton scores nothing: each kernel (the first word of a case's name:
 * lab 5 has five, labs 1-4 one per shape) has a case that is wrong or was
 * flagged (lab 5's clinic kernels count only when right and clean). */
static void assert_scores_nothing(const char *lab, const char *src, const char *args)
{
    run r = cpu_check(lab, src, args, "");
    for (const tl_json *c = member(r.json, "results")->child; c; c = c->next) {
        const char *name = tl_json_string(c, "name", "?");
        size_t word = strcspn(name, " ");
        int lost = 0;
        for (const tl_json *d = member(r.json, "results")->child; d; d = d->next)
            if (!strncmp(tl_json_string(d, "name", ""), name, word) && strchr(" ", tl_json_string(d, "name", "")[word]))
                lost |= strcmp(tl_json_string(d, "verdict", ""), "ok") || tl_json_number(d, "findings", 0) > 0;
        cr_expect(lost, "%s, %.*s: right and clean in every case, from an untouched skeleton", src, (int)word, name);
    }
    cr_expect_eq(r.status, 1, "%s: the CPU check exited %d", src, r.status);
    tl_json_free(r.json);
}

Test(cpu_solutions, lab1) { assert_right_and_clean("lab1", "solutions/lab1-naive-transpose/transpose.cu", "--counters 128x128"); }
Test(cpu_solutions, lab2) { assert_right_and_clean("lab2", "solutions/lab2-shared-tile/transpose.cu", "--counters 128x128"); }
Test(cpu_solutions, lab3) { assert_right_and_clean("lab3", "solutions/lab3-padding/transpose.cu", "--counters 128x128"); }
Test(cpu_solutions, lab4) { assert_right_and_clean("lab4", "solutions/lab4-tiled-matmul/matmul.cu", "--counters 64x64x64"); }
Test(cpu_solutions, lab5) { assert_right_and_clean("lab5", "solutions/lab5-supersteps/supersteps.cu", ""); }
Test(cpu_solutions, lab6) { assert_right_and_clean("lab6", "solutions/lab6-register-transpose/transpose.cu", "--counters 128x128"); }

Test(cpu_skeletons, lab1) { assert_scores_nothing("lab1", "labs/lab1-naive-transpose/transpose.cu", "--counters 128x128"); }
Test(cpu_skeletons, lab2) { assert_scores_nothing("lab2", "labs/lab2-shared-tile/transpose.cu", "--counters 128x128"); }
Test(cpu_skeletons, lab3) { assert_scores_nothing("lab3", "labs/lab3-padding/transpose.cu", "--counters 128x128"); }
Test(cpu_skeletons, lab4) { assert_scores_nothing("lab4", "labs/lab4-tiled-matmul/matmul.cu", "--counters 64x64x64"); }
Test(cpu_skeletons, lab5) { assert_scores_nothing("lab5", "labs/lab5-supersteps/supersteps.cu", ""); }
Test(cpu_skeletons, lab6) { assert_scores_nothing("lab6", "labs/lab6-register-transpose/transpose.cu", "--counters 128x128"); }

/* ---- the checks: each bug with its lines ------------------------------------ */
Test(cpu_checks, a_missing_barrier_is_a_race_between_the_store_and_the_load)
{
    run r = cpu_check("lab2", fixture("lab2", "missing_barrier"), "--no-counters", "");
    cr_expect(finding(&r, "race", 22, 30), "no race between lines 22 and 30:\n%s", run_log(&r));
    cr_expect_eq(r.status, 1);
}

Test(cpu_checks, a_missing_second_barrier_races_the_next_load_against_the_multiply)
{
    run r = cpu_check("lab4", fixture("lab4", "missing_second_barrier"), "--no-counters", "");
    const char *log = run_log(&r);
    cr_expect(finding(&r, "race", 25, 31), "no race between lines 25 and 31 (As):\n%s", log);
    cr_expect(finding(&r, "race", 26, 31), "no race between lines 26 and 31 (Bs):\n%s", log);
}

/* Issue 29: lab 4's findings did not say which case showed them, and ./grade
 * adds a counters case the student never asked for. Each names the first
 * case it was seen in and counts the others, in the JSON and in the
 * sanitizer logs the report quotes. */
Test(cpu_checks, every_finding_names_its_case)
{
    sh("mkdir -p " WORK "/case-named");
    run r = cpu_check("lab4", fixture("lab4", "missing_second_barrier"),
                      "--shape 67x45x33 --counters 64x64x64 --sanitizer-logs " WORK "/case-named", "_case");
    const tl_json *f = finding(&r, "race", 25, 31);
    cr_assert(f, "no race between lines 25 and 31:\n%s", run_log(&r));
    cr_expect_str_eq(tl_json_string(f, "case", ""), "67x45x33", "%s", run_log(&r));
    cr_expect_eq(tl_json_number(f, "more_cases", -1), 1, "the counters case shows the race too:\n%s", run_log(&r));
    cr_expect(strstr(slurp(WORK "/case-named/racecheck.log"), "[case 67x45x33 and 1 more]\n"),
              "the racecheck log the report quotes does not name the case:\n%s", slurp(WORK "/case-named/racecheck.log"));
}

Test(cpu_checks, a_race_inside_a_superstep_is_named_by_it)
{
    run r = cpu_check("lab5", fixture("lab5", "dbuf_single_buffer"), "", "");
    const tl_json *f = finding(&r, "race", 166, 170);
    cr_assert(f, "no race between lines 166 and 170:\n%s", run_log(&r));
    cr_expect_str_eq(tl_json_string(f, "superstep", ""), "load_next_multiply_current");
}

Test(cpu_checks, a_barrier_in_a_branch_is_reported_with_its_line)
{
    run r = cpu_check("lab2", fixture("lab2", "barrier_in_branch"), "--no-counters", "");
    cr_expect(finding(&r, "barrier", 26, 0), "no barrier finding at line 26:\n%s", run_log(&r));
}

Test(cpu_checks, a_partial_tile_without_bounds_tests_is_out_of_bounds)
{
    run r = cpu_check("lab2", fixture("lab2", "partial_tiles_unguarded"), "--no-counters", "");
    cr_expect(finding(&r, "bounds", 31, 0), "no out-of-bounds finding at line 31:\n%s", run_log(&r));
    cr_expect_str_eq(tl_json_string(member(r.json, "results")->child->next, "verdict", ""), "error");
}

Test(cpu_checks, a_wild_store_is_an_illegal_address_at_its_line)
{
    run r = cpu_check("lab1", fixture("lab1", "illegal_address"), "--shape 31x33 --no-counters", "");
    cr_expect(finding(&r, "bounds", 18, 0), "no fault at line 18:\n%s", run_log(&r));
    cr_expect_str_eq(tl_json_string(member(r.json, "results")->child, "message", ""), "cudaErrorIllegalAddress (700) from the launch");
}

Test(cpu_checks, a_kernel_that_never_ends_times_out)
{
    run r = cpu_check("lab1", fixture("lab1", "hangs"), "--shape 2x3 --no-counters --timeout 2", "");
    cr_expect_str_eq(tl_json_string(member(r.json, "results")->child, "verdict", ""), "timed out");
}

Test(cpu_checks, what_cpu_mode_cannot_run_is_named_with_its_line)
{
    run r = cpu_check("lab1", "tests/cpu/fixtures/uses_syncthreads_count.cu", "--shape 2x3 --no-counters", "");
    cr_expect_str_eq(tl_json_string(member(r.json, "results")->child, "message", ""),
                     "not supported in CPU mode: __syncthreads_count at tests/cpu/fixtures/uses_syncthreads_count.cu:11");
}

Test(cpu_checks, half_precision_is_refused_when_it_compiles)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir -p " WORK " && make -s --no-print-directory -f mk/submission.mk LAB=lab4 "
             "SRC=%s cpu > " WORK "/half.log 2>&1", fixture("lab4", "half_accumulate"));
    cr_expect_neq(sh(cmd), 0);
    cr_expect(strstr(slurp(WORK "/half.log"), "not supported in CPU mode: cuda_fp16.h"), "%s", slurp(WORK "/half.log"));
}

Test(cpu_checks, host_code_that_touches_device_memory_fails)
{
    run r = cpu_check("lab1", "tests/cpu/fixtures/host_reads_device.cu", "--shape 2x3 --no-counters", "");
    cr_expect_str_eq(tl_json_string(member(r.json, "results")->child, "verdict", ""), "refused");
    cr_expect(finding(&r, "host", 11, 0), "no host access at line 11");
}

Test(cpu_checks, the_worker_is_sandboxed)
{
    run r = cpu_check("lab1", "tests/cpu/fixtures/opens_file.cu", "--shape 2x3 --no-counters", "");
    cr_expect_str_eq(tl_json_string(member(r.json, "results")->child, "message", ""),
                     "the lab file tried to open a file for writing (openat); the sandbox stopped it");
    cr_expect_eq(sh("test -e pwned.txt"), 1, "the file was written");
}

/* The file's static initialisers run only inside the sandbox: the worker maps
 * the file (a shared library) once the sandbox is on, so a process started
 * from one is stopped, and named, in every case. */
Test(cpu_checks, no_code_of_the_file_runs_before_the_sandbox)
{
    run r = cpu_check("lab1", "tests/cpu/fixtures/initializer_fork.cu", "--shape 2x3 --shape 31x33 --no-counters", "");
    cr_expect_neq(r.status, 0, "%s", run_log(&r));
    int n = 0;
    for (const tl_json *c = member(r.json, "results")->child; c; c = c->next, n++) {
        cr_expect_str_eq(tl_json_string(c, "verdict", ""), "refused", "%s", run_log(&r));
        cr_expect_str_eq(tl_json_string(c, "message", ""),
                         "the lab file tried to start a process (fork); the sandbox stopped it");
    }
    cr_expect_eq(n, 2, "%s", run_log(&r));
}

Test(cpu_checks, dynamic_shared_memory_and_a_raw_launch_run)
{
    run r = cpu_check("lab3", "tests/cpu/fixtures/dynamic_shared_launch.cu", "--counters 64x64", "");
    cr_expect_eq(r.status, 0, "%s", slurp(WORK "/tests_cpu_fixtures_dynamic_shared_launch_cu.log"));
    cr_expect_eq(tl_json_number(member(r.json, "counters"), "shared_ld_bank_conflicts", -1), 0);
}

/* Two runs, the same findings, counters and results, word for word. */
Test(cpu_checks, a_run_is_deterministic)
{
    run a = cpu_check("lab5", "labs/lab5-supersteps/supersteps.cu", "--n 700", "_a");
    run b = cpu_check("lab5", "labs/lab5-supersteps/supersteps.cu", "--n 700", "_b");
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, WORK "/%s.json", a.name);
    snprintf(pb, sizeof pb, WORK "/%s.json", b.name);
    char *ta = strdup(slurp(pa));
    cr_expect_str_eq(ta, slurp(pb));
    free(ta);
}

/* ---- the counters ------------------------------------------------------------ */
static double counter(const run *r, const char *key)
{
    return tl_json_number(member(r->json, "counters"), key, -1);
}

Test(cpu_counters, naive_stores_take_32_sectors_per_request_and_loads_4)
{
    run r = cpu_check("lab1", "solutions/lab1-naive-transpose/transpose.cu", "--shape 1x1 --counters 256x256", "_counters");
    cr_expect_eq(counter(&r, "global_st_sectors"), 32 * counter(&r, "global_st_requests"));
    cr_expect_eq(counter(&r, "global_ld_sectors"), 4 * counter(&r, "global_ld_requests"));
    cr_expect_eq(counter(&r, "global_ld_requests"), 256 * 256 / 32);
}

Test(cpu_counters, the_unpadded_tile_conflicts_31_times_per_column_read)
{
    run r = cpu_check("lab2", "solutions/lab2-shared-tile/transpose.cu", "--shape 1x1 --counters 256x256", "_counters");
    cr_expect_eq(counter(&r, "shared_ld_bank_conflicts"), 31 * counter(&r, "shared_ld_requests"));
    cr_expect_eq(counter(&r, "shared_st_bank_conflicts"), 0);
}

Test(cpu_counters, the_padded_tile_has_no_bank_conflicts)
{
    run r = cpu_check("lab3", "solutions/lab3-padding/transpose.cu", "--shape 1x1 --counters 256x256", "_counters");
    cr_expect_gt(counter(&r, "shared_ld_requests"), 0);
    cr_expect_eq(counter(&r, "shared_ld_bank_conflicts"), 0);
    cr_expect_eq(counter(&r, "shared_st_bank_conflicts"), 0);
}

/* At ncu's shape, every metric equals the one in tests/fixtures/ncu-*.csv
 * (ncu-unpadded.csv is a capture on an H200; the other two hand-made). */
static void assert_equals_ncu(const char *lab, const char *src, const char *csv)
{
    run r = cpu_check(lab, src, "--shape 1x1 --counters 1024x1024", "_ncu");
    tl_counters n;
    char err[256];
    cr_assert_eq(tl_counters_read(csv, &n, err, sizeof err), 0, "%s", err);
    cr_expect_eq(counter(&r, "global_ld_requests"), n.global_ld_requests);
    cr_expect_eq(counter(&r, "global_ld_sectors"), n.global_ld_sectors);
    cr_expect_eq(counter(&r, "global_st_requests"), n.global_st_requests);
    cr_expect_eq(counter(&r, "global_st_sectors"), n.global_st_sectors);
    cr_expect_eq(counter(&r, "shared_ld_requests"), n.shared_ld_requests);
    cr_expect_eq(counter(&r, "shared_st_requests"), n.shared_st_requests);
    cr_expect_eq(counter(&r, "shared_ld_bank_conflicts"), n.shared_ld_conflicts);
    cr_expect_eq(counter(&r, "shared_st_bank_conflicts"), n.shared_st_conflicts);
}

Test(cpu_counters, lab1_equals_ncu) { assert_equals_ncu("lab1", "solutions/lab1-naive-transpose/transpose.cu", "tests/fixtures/ncu-naive.csv"); }
Test(cpu_counters, lab2_equals_ncu) { assert_equals_ncu("lab2", "solutions/lab2-shared-tile/transpose.cu", "tests/fixtures/ncu-unpadded.csv"); }
Test(cpu_counters, lab3_equals_ncu) { assert_equals_ncu("lab3", "solutions/lab3-padding/transpose.cu", "tests/fixtures/ncu-padded.csv"); }
/* ncu-vector.csv: a capture of ./grade lab6 on the reference, H100: float4 on both sides, a swizzled tile. */
Test(cpu_counters, lab6_equals_ncu) { assert_equals_ncu("lab6", "solutions/lab6-register-transpose/transpose.cu", "tests/fixtures/ncu-vector.csv"); }

/* Lab 4's reference at ncu's shape, 512x512x512: ncu on an H100 (cpu/agreement-h100.md,
 * 2026-11-24). The shared loads are nvcc's: four As[ty][k] reads merged into one
 * 128-bit load, 40 instructions where the source reads 64 times, which CPU mode
 * takes from the file's PTX (cpu/judge.c, apply_ptx_widths). The bank conflicts
 * ncu read (hardware's extra wavefronts on conflict-free code) are not imitated. */
static const struct { const char *key; double h100; } lab4_h100_ncu[] = {
    {"global_ld_requests", 262144}, {"global_ld_sectors", 1048576},
    {"global_st_requests", 8192},   {"global_st_sectors", 32768},
    {"shared_ld_requests", 5242880}, {"shared_st_requests", 262144},
};

Test(cpu_counters, lab4_requests_equal_ncu_with_nvcc_s_merged_shared_loads, .timeout = 900)
{
    run r = cpu_check("lab4", "solutions/lab4-tiled-matmul/matmul.cu", "--shape 1x1x1 --counters 512x512x512 --timeout 600", "_ncu");
    cr_expect_str_eq(tl_json_string(member(r.json, "counters"), "request_widths", ""), "ptx", "%s", run_log(&r));
    for (size_t i = 0; i < sizeof lab4_h100_ncu / sizeof *lab4_h100_ncu; i++)
        cr_expect_eq(counter(&r, lab4_h100_ncu[i].key), lab4_h100_ncu[i].h100, "%s: %.0f, ncu %.0f", lab4_h100_ncu[i].key,
                     counter(&r, lab4_h100_ncu[i].key), lab4_h100_ncu[i].h100);
    cr_expect_eq(counter(&r, "shared_ld_bank_conflicts"), 0);
    cr_expect_eq(counter(&r, "shared_st_bank_conflicts"), 0);
}

/* Without the file's PTX (nvcc could not make it) the counters keep one request
 * per access as g++ compiles the file, and say so: the grade goes on. */
Test(cpu_counters, without_the_ptx_requests_count_per_source_access_and_say_so)
{
    run with = cpu_check("lab4", "solutions/lab4-tiled-matmul/matmul.cu", "--shape 1x1x1 --counters 64x64x64", "_widths");
    run without = cpu_check("lab4", "solutions/lab4-tiled-matmul/matmul.cu",
                            "--shape 1x1x1 --counters 64x64x64 --ptx " WORK "/no-such.ptx", "_no_ptx");
    cr_expect_eq(without.status, 0, "%s", run_log(&without));
    const tl_json *c = member(without.json, "counters");
    cr_expect_str_eq(tl_json_string(c, "request_widths", ""), "source");
    cr_expect(strstr(tl_json_string(c, "request_widths_note", ""), "no PTX"), "%s", tl_json_string(c, "request_widths_note", ""));
    /* 2x2 blocks of 32 warps, 2 tiles of k, 32 + 32 reads a warp each; nvcc: 8 + 32. */
    cr_expect_eq(counter(&without, "shared_ld_requests"), 4 * 32 * 2 * 64);
    cr_expect_eq(counter(&with, "shared_ld_requests"), 4 * 32 * 2 * 40);
    cr_expect_eq(counter(&with, "global_ld_requests"), counter(&without, "global_ld_requests"));
    cr_expect_eq(counter(&with, "shared_st_requests"), counter(&without, "shared_st_requests"));
}

/* ---- build/labN --cpu, and CPU mode chosen by itself (grader/quick-check) ---- */
/* build/labN's environment for SRC of LAB, the CPU check replaced by a script
 * that prints its arguments; each test its own ARCH, so their builds of one
 * file never share a folder, and its own scripts: tests run in parallel, and
 * one test rewriting a script another is running made that one run an empty
 * file (exit 0, no output). */
#define QC(lab, src, arch) "mkdir -p " WORK " && printf '#!/bin/sh\\necho \"$@\"\\n' > " WORK "/" arch "-print-args && " \
           "printf '#!/bin/sh\\necho no usable NVIDIA GPU here >&2; exit 2\\n' > " WORK "/" arch "-no-gpu && " \
           "chmod +x " WORK "/" arch "-print-args " WORK "/" arch "-no-gpu && " \
           "TILELAB_KIT=$PWD TILELAB_ARCH=" arch " TILELAB_CHECK=false TILELAB_LAB=" lab " TILELAB_KIND=transpose " \
           "TILELAB_SOURCE=" src " TILELAB_CPU_WORKER=w TILELAB_CPU_CHECK=" WORK "/" arch "-print-args "
#define NO_GPU(arch) "TILELAB_PROBE=" WORK "/" arch "-no-gpu "

Test(cpu_quick_check, cpu_runs_the_cpu_check_with_the_lab_and_shape)
{
    cr_assert_eq(sh(QC("lab3", "solutions/lab3-padding/transpose.cu", "qc1") "sh grader/quick-check --cpu --rows 3 --cols 5 --seed 7 > " WORK "/qc.out 2>&1"), 0,
                 "%s", slurp(WORK "/qc.out"));
    cr_expect_str_eq(slurp(WORK "/qc.out"), "--worker w --kind transpose --lab lab3 --source solutions/lab3-padding/transpose.cu "
                     "--seed 7 --shape 3x5\n");
    cr_expect_eq(sh("test -x build/qc1/solutions_lab3-padding_transpose/cpu/worker"), 0, "the CPU build was not made");
}

Test(cpu_quick_check, without_a_gpu_it_says_so_and_runs_on_the_cpu)
{
    cr_assert_eq(sh(QC("lab3", "solutions/lab3-padding/transpose.cu", "qc2") NO_GPU("qc2") "sh grader/quick-check > " WORK "/qc2.out 2>&1"), 0,
                 "%s", slurp(WORK "/qc2.out"));
    const char *out = slurp(WORK "/qc2.out");
    cr_expect(strstr(out, "build/lab3: no usable NVIDIA GPU here\nbuild/lab3: so this runs in CPU mode (build/lab3 --cpu)"), "%s", out);
    cr_expect(strstr(out, "--worker w --kind transpose"), "%s", out);
}

/* __syncwarp orders the lanes of one warp: with it a warp-level sum is
 * clean; without it, the same code races. */
static const tl_json *result(const run *r, const char *name)
{
    for (const tl_json *c = member(r->json, "results")->child; c; c = c->next)
        if (!strcmp(tl_json_string(c, "name", ""), name))
            return c;
    cr_assert_fail("no case %s", name);
    return NULL;
}

Test(cpu_checks, syncwarp_orders_the_lanes_of_a_warp)
{
    run r = cpu_check("lab5", "tests/cpu/fixtures/warp_sums.cu", "", "");
    const tl_json *c = result(&r, "block_sums n=1000");
    cr_expect_str_eq(tl_json_string(c, "verdict", ""), "ok");
    cr_expect_eq(tl_json_number(c, "findings", -1), 0, "%s", slurp(WORK "/tests_cpu_fixtures_warp_sums_cu.log"));
}

Test(cpu_checks, without_syncwarp_the_lanes_race)
{
    /* warp_sums.cu without its two __syncwarp lines: lines 20 and 21 are then
     * the read of tile[t + s] and the write of tile[t]. */
    cr_assert_eq(sh("mkdir -p " WORK " && grep -v '__syncwarp();' tests/cpu/fixtures/warp_sums.cu > " WORK "/no_syncwarp.cu"), 0);
    run r = cpu_check("lab5", WORK "/no_syncwarp.cu", "", "");
    cr_expect(finding(&r, "race", 20, 21), "no race between lines 20 and 21:\n%s",
              slurp(WORK "/build_tests_cpu-mode_no_syncwarp_cu.log"));
}

/* A shared-memory read past the tile's last row: out of bounds, with its line
 * (lab 2's reference with one index changed, made here). */
Test(cpu_checks, a_read_past_a_shared_array_is_out_of_bounds)
{
    cr_assert_eq(sh("mkdir -p " WORK " && sed 's/= tile\\[threadIdx.x\\]\\[threadIdx.y + j\\]/= tile[threadIdx.x + 1][threadIdx.y + j]/' "
                    "solutions/lab2-shared-tile/transpose.cu > " WORK "/tile_overrun.cu && grep -q 'threadIdx.x + 1' " WORK "/tile_overrun.cu"), 0);
    run r = cpu_check("lab2", WORK "/tile_overrun.cu", "--shape 64x64 --no-counters", "");
    const tl_json *f = member(r.json, "findings")->child;
    cr_assert(f, "no finding:\n%s", slurp(WORK "/build_tests_cpu-mode_tile_overrun_cu.log"));
    cr_expect_str_eq(tl_json_string(f, "kind", ""), "bounds");
    cr_expect_eq(tl_json_number(f, "line", 0), 32);
    cr_expect(strstr(tl_json_string(f, "text", ""), "shared read"), "%s", tl_json_string(f, "text", ""));
}

/* The fair submissions (tests/submissions/fair/labN/NAME.patch, each applied to
 * lab N's reference) are other correct solutions: right and clean here too. */
Test(cpu_checks, fair_submissions_are_right_and_clean)
{
    cr_assert_eq(sh("mkdir -p " WORK "/fair && rm -f " WORK "/fair/* && for p in tests/submissions/fair/lab*/*.patch; do "
                    "[ -e \"$p\" ] || continue; lab=$(basename $(dirname $p)); "
                    "patch -s -o " WORK "/fair/$lab-$(basename $p .patch).cu $(ls solutions/$lab-*/*.cu) < $p || exit 1; done"), 0);
    int n = 0;
    for (int lab = 1; lab <= 9; lab++) {
        char pattern[64], cmd[256];
        snprintf(pattern, sizeof pattern, WORK "/fair/lab%d-", lab);
        snprintf(cmd, sizeof cmd, "ls %s*.cu > " WORK "/fair.list 2>/dev/null", pattern);
        if (sh(cmd) != 0)
            continue;
        char *list = strdup(slurp(WORK "/fair.list")), *save = NULL;
        for (char *src = strtok_r(list, "\n", &save); src; src = strtok_r(NULL, "\n", &save), n++) {
            char name[16];
            snprintf(name, sizeof name, "lab%d", lab);
            /* Lab 4 and lab 7 (dense and sparse products) count at an MxKxN shape. */
            run r = cpu_check(name, src, lab == 4 || lab == 7 ? "--counters 64x64x64" : "--counters 128x128", "");
            cr_expect_eq(r.status, 0, "%s: not right and clean in CPU mode:\n%s", src, run_log(&r));
            for (const tl_json *f = member(r.json, "findings")->child; f; f = f->next)
                cr_expect(0, "%s: %s", src, tl_json_string(f, "text", ""));
            tl_json_free(r.json);
        }
        free(list);
    }
    cr_expect_gt(n, 0, "no fair submission found in tests/submissions/fair/");
}

/* ---- the source step (build/cpu/cudafe) ------------------------------------- */
/* What cudafe makes of `input` (a preprocessed line marker first). */
static const char *cudafe(const char *name, const char *input, int *status)
{
    char path[256], cmd[1024];
    sh("mkdir -p " WORK);
    snprintf(path, sizeof path, WORK "/cudafe-%s", name);
    strcat(path, ".in");
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fprintf(f, "# 1 \"lab.cu\"\n%s", input);
    fclose(f);
    path[strlen(path) - 3] = 0;
    snprintf(cmd, sizeof cmd, "build/cpu/cudafe < %s.in > %s.out 2> %s.err", path, path, path);
    *status = sh(cmd);
    strcat(path, *status ? ".err" : ".out");
    return slurp(path);
}

Test(cpu_cudafe, a_launch_names_its_kernel_file_and_line)
{
    int status;
    const char *out = cudafe("launch", "void f() {\n  k<<<g, dim3(1, 2), 64>>>(a, b);\n}\n", &status);
    cr_assert_eq(status, 0, "%s", out);
    cr_expect(strstr(out, "::tlc::launch([&](auto &&...tlc_a) { k(tlc_a...); }, \"lab.cu\", 2, g, dim3(1, 2), 64)(a, b);"), "%s", out);
}

/* Issue 29: a template's arguments, given or deduced, a namespace, an expression. */
Test(cpu_cudafe, a_launch_of_a_template_keeps_its_arguments)
{
    int status;
    const char *out = cudafe("template", "void f() {\n  k<float, 32><<<g, b>>>(x);\n  ns::t<<<1, 2>>>(y);\n"
                             "  if (n) (n > 1 ? p : q)<<<1, 2>>>(z);\n}\n", &status);
    cr_assert_eq(status, 0, "%s", out);
    cr_expect(strstr(out, "::tlc::launch([&](auto &&...tlc_a) { k<float, 32>(tlc_a...); }, \"lab.cu\", 2, g, b)(x);"), "%s", out);
    cr_expect(strstr(out, "::tlc::launch([&](auto &&...tlc_a) { ns::t(tlc_a...); }, \"lab.cu\", 3, 1, 2)(y);"), "%s", out);
    cr_expect(strstr(out, "if (n) ::tlc::launch([&](auto &&...tlc_a) { (n > 1 ? p : q)(tlc_a...); }, \"lab.cu\", 4, 1, 2)(z);"), "%s", out);
}

/* __noinline__ is an attribute in a lab file, and a library header's own
 * __attribute__((__noinline__)) stays as it was. */
Test(cpu_cudafe, noinline_is_an_attribute_and_a_library_s_is_left_alone)
{
    int status;
    const char *out = cudafe("noinline", "__noinline__ __device__ float h(float x);\n"
                             "void g() __attribute__((__noinline__));\nvoid e() __attribute__((cold, __noinline__));\n", &status);
    cr_assert_eq(status, 0, "%s", out);
    cr_expect(strstr(out, "__attribute__((noinline)) __device__ float h(float x);"), "%s", out);
    cr_expect(strstr(out, "void g() __attribute__((__noinline__));"), "%s", out);
    cr_expect(strstr(out, "__attribute__((cold, __noinline__));"), "%s", out);
}

Test(cpu_cudafe, every_declarator_of_a_shared_declaration_gets_one_copy_per_block)
{
    int status;
    const char *out = cudafe("declarators", "void k() {\n  __shared__ float a[2][33], b[8];\n  __shared__ int n;\n}\n", &status);
    cr_assert_eq(status, 0, "%s", out);
    cr_expect(strstr(out, "auto &a = *::tlc::shared_array<float [2][33]>("), "%s", out);
    cr_expect(strstr(out, "auto &b = *::tlc::shared_array<float [8]>("), "%s", out);
    cr_expect(strstr(out, "auto &n = *::tlc::shared_array<int >("), "%s", out);
    cr_expect(strstr(out, "\"lab.cu\", 3, 0)"), "the line of n's declaration (and no alignment asked): %s", out);
    cr_expect_eq(tool_newlines(out), 5, "lines added or lost:\n%s", out);
}

/* Lab 7: __align__(16) on a shared tile read as float4 reaches the array's allocation. */
Test(cpu_cudafe, an_aligned_shared_array_keeps_its_alignment)
{
    int status;
    /* as the preprocessor leaves it: the shim defines __align__(n) as the attribute */
    const char *out = cudafe("aligned", "void k() {\n  __shared__ __attribute__((aligned(16))) float t[4][8];\n}\n", &status);
    cr_assert_eq(status, 0, "%s", out);
    cr_expect(strstr(out, "float [4][8]>(") && strstr(out, "\"lab.cu\", 2, (16))"), "%s", out);
}

Test(cpu_cudafe, extern_shared_is_the_dynamic_part)
{
    int status;
    const char *out = cudafe("extern", "void k() {\n  extern __shared__ float dyn[];\n}\n", &status);
    cr_assert_eq(status, 0, "%s", out);
    cr_expect(strstr(out, "float *const dyn = (float *)::tlc::shared_dynamic(\"dyn\", \"lab.cu\", 2, sizeof(float));"), "%s", out);
}

Test(cpu_cudafe, shared_at_file_scope_is_refused_with_its_line)
{
    int status;
    const char *out = cudafe("file_scope", "\n__shared__ float t[4];\n", &status);
    cr_expect_neq(status, 0);
    cr_expect(strstr(out, "lab.cu:2: not supported in CPU mode: __shared__ at file scope"), "%s", out);
}

Test(cpu_cudafe, strings_are_left_alone)
{
    int status;
    const char *out = cudafe("strings", "const char *s = \"__shared__ x<<<1,1>>>\";\n", &status);
    cr_assert_eq(status, 0, "%s", out);
    cr_expect(strstr(out, "\"__shared__ x<<<1,1>>>\""), "%s", out);
}

/* A file CPU mode cannot compile: build/labN --cpu says so, with the
 * compiler's line, and exits 2 (and build/labN for a GPU is not held up). */
Test(cpu_quick_check, a_file_cpu_mode_cannot_build_is_named_with_the_reason)
{
    const char *half = fixture("lab4", "half_accumulate");
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s", QC("lab4", "HALF", "qc3") "sh grader/quick-check --cpu > " WORK "/qc3.out 2>&1");
    char *at = strstr(cmd, "HALF");
    char rest[2048];
    snprintf(rest, sizeof rest, "%s", at + 4);
    snprintf(at, sizeof cmd - (size_t)(at - cmd), "%s%s", half, rest);
    cr_assert_eq(sh(cmd), 2, "%s", slurp(WORK "/qc3.out"));
    const char *out = slurp(WORK "/qc3.out");
    char said[512];
    snprintf(said, sizeof said, "build/lab4: CPU mode cannot build %s:", half);
    cr_expect(strstr(out, said), "%s", out);
    cr_expect(strstr(out, "not supported in CPU mode: cuda_fp16.h"), "%s", out);
    cr_expect(!strstr(out, "--worker"), "the CPU check ran anyway:\n%s", out);
}

/* A race the thread order hides (each thread reads what its left neighbour,
 * run just before it, wrote): right in thread order, wrong in the shuffled
 * one, and reported as a race either way. */
/* Lab 7's pattern bytes: threads storing different bytes of one 4-byte word
 * do not race (the tracking is per byte where a word is accessed in parts);
 * two threads storing the same byte do. */
Test(cpu_checks, different_bytes_of_one_word_do_not_race_the_same_byte_does)
{
    run own = cpu_check("lab5", "tests/cpu/fixtures/byte_flags.cu", "--n 2000", "");
    const tl_json *c = result(&own, "pair_sums n=2000");
    cr_expect_str_eq(tl_json_string(c, "verdict", ""), "ok", "%s", run_log(&own));
    cr_expect_eq(tl_json_number(c, "findings", -1), 0, "a finding on bytes no two threads share:\n%s", run_log(&own));
    run same = cpu_check("lab5", "tests/cpu/fixtures/byte_flags_same_byte.cu", "--n 2000", "");
    cr_expect(finding(&same, "race", 14, 14), "no race on the byte two threads store (line 14):\n%s", run_log(&same));
}

Test(cpu_checks, the_shuffled_order_shows_a_race_thread_order_hides)
{
    run r = cpu_check("lab5", "tests/cpu/fixtures/left_neighbour.cu", "--n 2000", "");
    const tl_json *c = result(&r, "pair_sums n=2000");
    cr_expect_str_eq(tl_json_string(c, "verdict", ""), "wrong", "%s", run_log(&r));
    cr_expect(strstr(tl_json_string(c, "message", ""), "right with threads in thread order, not in a shuffled order"),
              "%s", tl_json_string(c, "message", ""));
    cr_expect(finding(&r, "race", 16, 18), "no race between lines 16 and 18:\n%s", run_log(&r));
}

/* The output's poison is a signalling NaN, compared bitwise: a NaN the
 * kernel computes from it (0 x poison keeps a quiet NaN's bits on x86) or
 * writes itself is a wrong value; only an element left alone was "not written". */
Test(cpu_checks, a_nan_the_kernel_wrote_is_a_wrong_value_not_an_unwritten_element)
{
    static const char *const shapes[] = {"--shape 31x33", "--shape 2x33"};
    for (int i = 0; i < 2; i++) {
        char args[64], tag[8];
        snprintf(args, sizeof args, "%s --no-counters", shapes[i]);
        snprintf(tag, sizeof tag, "_%d", i);
        run r = cpu_check("lab1", "tests/cpu/fixtures/nan_from_poison.cu", args, tag);
        const tl_json *c = member(r.json, "results")->child;
        const char *msg = tl_json_string(c, "message", "");
        cr_expect_str_eq(tl_json_string(c, "verdict", ""), "wrong", "%s: %s", shapes[i], run_log(&r));
        cr_expect(strstr(msg, "(row 0, col 0)") && strstr(msg, "wrong value: NaN"), "%s: %s", shapes[i], msg);
        cr_expect(!strstr(msg, "nothing was written"), "%s: %s", shapes[i], msg);
        tl_json_free(r.json);
    }
    run s = cpu_check("lab1", "labs/lab1-naive-transpose/transpose.cu", "--shape 31x33 --no-counters", "_poison");
    const char *msg = tl_json_string(member(s.json, "results")->child, "message", "");
    cr_expect(strstr(msg, "nothing was written"), "an untouched skeleton's output: %s", msg);
}

/* ---- vector accesses: one request per warp-level float4 or float2, as nvcc emits them ---- */
/* The handout's own form (named locals, field by field): the counters of the reference. */
Test(cpu_counters, float4s_in_named_locals_are_128_bit_accesses)
{
    assert_equals_ncu("lab6", "tests/cpu/fixtures/float4_named.cu", "tests/fixtures/ncu-vector.csv");
}

Test(cpu_counters, float2s_in_named_locals_are_64_bit_accesses)
{
    run r = cpu_check("lab1", "tests/cpu/fixtures/float2_blocks.cu", "--shape 62x66 --counters 256x256", "");
    cr_expect_eq(r.status, 0, "%s", run_log(&r));
    cr_expect_eq(counter(&r, "global_ld_requests"), 256 * 256 / 64, "%s", run_log(&r));
    cr_expect_eq(counter(&r, "global_st_requests"), 256 * 256 / 64, "%s", run_log(&r));
    cr_expect_eq(counter(&r, "global_ld_sectors"), 8 * counter(&r, "global_ld_requests"), "%s", run_log(&r));
}

Test(cpu_counters, a_float4_stored_from_a_named_local_is_one_store_and_misaligned_where_it_is)
{
    run r = cpu_check("lab1", "tests/cpu/fixtures/float4_store.cu", "--shape 64x64 --counters 64x64", "");
    cr_expect_eq(r.status, 0, "%s", run_log(&r));
    cr_expect_eq(counter(&r, "global_st_requests"), 64 * 64 / 128, "%s", run_log(&r));
    run odd = cpu_check("lab1", "tests/cpu/fixtures/float4_store.cu", "--shape 31x33 --no-counters", "_odd");
    const tl_json *f = finding(&odd, "bounds", 20, 0);
    cr_assert(f, "no finding at line 20:\n%s", run_log(&odd));
    cr_expect(strstr(tl_json_string(f, "text", ""), "misaligned: 16-byte global write"), "%s", tl_json_string(f, "text", ""));
    cr_expect_str_eq(tl_json_string(member(odd.json, "results")->child, "verdict", ""), "error");
}

/* ---- issue 29: what public kernels use builds and runs -------------------------- */
static void assert_case_right_and_clean(const char *lab, const char *src, const char *args, const char *name)
{
    run r = cpu_check(lab, src, args, "");
    const tl_json *c = name ? result(&r, name) : member(r.json, "results")->child;
    cr_expect_str_eq(tl_json_string(c, "verdict", ""), "ok", "%s: %s", src, run_log(&r));
    cr_expect_eq(tl_json_length(member(r.json, "findings")), 0, "%s: %s", src, run_log(&r));
    tl_json_free(r.json);
}

Test(cpu_breadth, templated_kernels_with_given_and_deduced_arguments)
{
    assert_right_and_clean("lab1", "tests/cpu/fixtures/template_launch.cu", "--no-counters");
}

Test(cpu_breadth, a_noinline_helper_and_a_library_header_after_the_kit_s)
{
    assert_right_and_clean("lab1", "tests/cpu/fixtures/noinline_helper.cu", "--shape 61x67 --no-counters");
}

Test(cpu_breadth, cuda_h_device_queries_and_more_dynamic_shared_memory_once_asked_for)
{
    assert_right_and_clean("lab3", "tests/cpu/fixtures/dynamic_shared_optin.cu", "--shape 61x67 --shape 130x64 --no-counters");
    /* Without cudaFuncSetAttribute, 64 KiB of dynamic shared memory is refused, as on a GPU. */
    cr_assert_eq(sh("mkdir -p " WORK " && grep -v cudaFuncSetAttribute tests/cpu/fixtures/dynamic_shared_optin.cu > "
                    WORK "/no_optin.cu"), 0);
    run r = cpu_check("lab3", WORK "/no_optin.cu", "--shape 61x67 --no-counters", "");
    cr_expect_str_eq(tl_json_string(member(r.json, "results")->child, "message", ""),
                     "cudaErrorInvalidValue (1) from the launch", "%s", run_log(&r));
}

Test(cpu_breadth, a_register_transpose_with_shfl_sync)
{
    assert_right_and_clean("lab1", "tests/cpu/fixtures/shfl_transpose.cu", "--counters 128x128");
}

Test(cpu_breadth, shuffles_keep_their_lane_rules_in_segments)
{
    assert_case_right_and_clean("lab5", "tests/cpu/fixtures/shfl_widths.cu", "--unit pairs --n 1000", "pair_sums n=1000");
}

Test(cpu_breadth, cooperative_groups_block_tiles_votes_and_reduce)
{
    assert_case_right_and_clean("lab5", "tests/cpu/fixtures/coop_groups.cu", "--unit sums --n 5000", "block_sums n=5000");
}

/* ---- issue 29: the student's command line ------------------------------------------ */
Test(cpu_quick_check, a_tool_without_a_gpu_runs_cpu_mode_and_says_why)
{
    cr_assert_eq(sh(QC("lab3", "solutions/lab3-padding/transpose.cu", "qc4") NO_GPU("qc4")
                    "sh grader/quick-check --tool racecheck --shape 3x5 > " WORK "/qc4.out 2>&1"), 0, "%s", slurp(WORK "/qc4.out"));
    const char *out = slurp(WORK "/qc4.out");
    cr_expect(strstr(out, "build/lab3: --tool racecheck needs a GPU; CPU mode shows the same (its race check"), "%s", out);
    cr_expect(strstr(out, "--worker w --kind transpose --lab lab3 --source solutions/lab3-padding/transpose.cu --shape 3x5\n"), "%s", out);
    cr_assert_eq(sh(QC("lab3", "solutions/lab3-padding/transpose.cu", "qc4") NO_GPU("qc4")
                    "sh grader/quick-check --tool 'ncu --csv' > " WORK "/qc5.out 2>&1"), 0, "%s", slurp(WORK "/qc5.out"));
    cr_expect(strstr(slurp(WORK "/qc5.out"), "--tool ncu --csv needs a GPU; CPU mode shows the same (it computes the memory counters"),
              "%s", slurp(WORK "/qc5.out"));
}

/* The names of the cases a run made, in order, one line each. */
static const char *case_names(const run *r)
{
    static char buf[4096];
    buf[0] = 0;
    for (const tl_json *c = member(r->json, "results")->child; c; c = c->next)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s\n", tl_json_string(c, "name", ""));
    return buf;
}

Test(cpu_options, every_shape_runs_twelve_transposes_and_two_matmuls)
{
    char args[512] = "--no-counters";
    for (int i = 1; i <= 12; i++)
        snprintf(args + strlen(args), sizeof args - strlen(args), " --shape %dx%d", i, i + 2);
    run t = cpu_check("lab1", "solutions/lab1-naive-transpose/transpose.cu", args, "_12shapes");
    cr_expect_eq(tl_json_number(t.json, "cases", 0), 12, "%s", case_names(&t));
    cr_expect(strstr(case_names(&t), "12x14\n"), "%s", case_names(&t));
    run m = cpu_check("lab4", "solutions/lab4-tiled-matmul/matmul.cu", "--no-counters --mnk 17x33x65 --shape 3x5x7", "_2mnk");
    cr_expect_str_eq(case_names(&m), "17x33x65\n3x5x7\n");
}

Test(cpu_options, shape_is_a_unit_s_own_for_lab5_and_lab7)
{
    run u = cpu_check("lab5", "solutions/lab5-supersteps/supersteps.cu", "--unit reverse --shape 255", "_unit_shape");
    cr_expect_str_eq(case_names(&u), "reverse_blocks n=255\n", "%s", run_log(&u));
    run d = cpu_check("lab5", "solutions/lab5-supersteps/supersteps.cu", "--unit dbuf --shape 17x33x65", "_dbuf_shape");
    cr_expect_str_eq(case_names(&d), "matmul_dbuf 17x33x65\n", "%s", run_log(&d));
    run s = cpu_check("lab7", "solutions/lab7-sparse-matmul/matmul.cu", "--no-counters --unit dense --shape 17x33x65", "_dense_shape");
    cr_expect_str_eq(case_names(&s), "dense 17x33x65\n", "%s", run_log(&s));
}

Test(cpu_options, an_option_error_names_the_option)
{
    run r = cpu_check("lab1", "solutions/lab1-naive-transpose/transpose.cu", "--shape 1x1 --no-counters", "_opt");
    (void)r;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "w=$(make -s --no-print-directory -f mk/submission.mk LAB=lab1 SRC=solutions/lab1-naive-transpose/transpose.cu print-cpu | cut -d' ' -f1) && "
             "build/cpu/cpu-check --worker $w --kind transpose --lab lab1 --shape 17x33x65 > " WORK "/opt.out 2>&1; echo $? >> " WORK "/opt.out");
    sh(cmd);
    cr_expect(strstr(slurp(WORK "/opt.out"), "build/lab1 --cpu: --shape '17x33x65': a transpose's shape is RxC, e.g. 257x131\n2\n"),
              "%s", slurp(WORK "/opt.out"));
}

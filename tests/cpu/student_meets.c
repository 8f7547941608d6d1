/*
 * Issue 43, what a student meets in CPU mode: it answers as the GPU does
 * (an empty grid is cudaErrorInvalidValue; cudaLaunchKernel,
 * cudaLaunchKernelEx, __grid_constant__, launches through a member and
 * LAUNCH with dynamic shared memory all run), build/labN --help is the
 * lab's own usage, lab 5 takes several --shape as labs 4, 6 and 7 do, and
 * lab 7's skeleton asks for the registers its TODO and handout name. Each
 * test builds its file's CPU worker and reads the CPU check's --json output.
 */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "json.h"

#define WORK "build/tests/cpu-student"

static int sh_(const char *cmd)
{
    unsetenv("MAKEFLAGS");   /* a fresh top-level make inside */
    unsetenv("MAKELEVEL");
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static const char *read_all(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    return buf;
}

/* SRC (a file of LAB) built for the CPU and checked with ARGS; its JSON, its log in WORK/NAME.log. */
static tl_json *check(const char *lab, const char *src, const char *name, const char *args, int *status)
{
    char cmd[2048], err[256], json[256];
    snprintf(cmd, sizeof cmd,
             "mkdir -p " WORK " && make -s --no-print-directory -f mk/submission.mk LAB=%s SRC=%s cpu > " WORK "/%s.log 2>&1 && "
             "w=$(make -s --no-print-directory -f mk/submission.mk LAB=%s SRC=%s print-cpu) && "
             "build/cpu/cpu-check --worker ${w%% *} --kind ${w#* } --lab %s --source %s --json " WORK "/%s.json %s >> " WORK "/%s.log 2>&1",
             lab, src, name, lab, src, lab, src, name, args, name);
    *status = sh_(cmd);
    snprintf(json, sizeof json, WORK "/%s.json", name);
    tl_json *j = tl_json_parse_file(json, err, sizeof err);
    char log[256];
    snprintf(log, sizeof log, WORK "/%s.log", name);
    cr_assert(j, "no JSON (%s), exit %d:\n%s", err, *status, read_all(log));
    return j;
}

/* Every case ok, no findings. */
static void expect_right_and_clean(tl_json *j, int status, const char *name)
{
    char log[256];
    snprintf(log, sizeof log, WORK "/%s.log", name);
    int n = 0;
    for (const tl_json *c = tl_json_get(j, "results")->child; c; c = c->next, n++)
        cr_expect(!strcmp(tl_json_string(c, "verdict", ""), "ok"), "case %s: %s %s\n%s", tl_json_string(c, "name", "?"),
                  tl_json_string(c, "verdict", "?"), tl_json_string(c, "message", ""), read_all(log));
    cr_expect_gt(n, 0, "no cases:\n%s", read_all(log));
    cr_expect_eq(tl_json_length(tl_json_get(j, "findings")), 0, "findings:\n%s", read_all(log));
    cr_expect_eq(status, 0, "exit %d:\n%s", status, read_all(log));
}

Test(cpu_student, the_launch_apis_real_code_uses_run_as_on_a_gpu)
{
    int status;
    tl_json *j = check("lab1", "tests/cpu/fixtures/launch_apis.cu", "launch_apis",
                       "--shape 61x67 --shape 1x1 --shape 2x3 --shape 300x257 --no-counters", &status);
    expect_right_and_clean(j, status, "launch_apis");
    tl_json_free(j);
}

Test(cpu_student, lab5_takes_several_shapes_each_for_the_unit_before_it)
{
    int status;
    tl_json *j = check("lab5", "solutions/lab5-supersteps/supersteps.cu", "lab5_shapes",
                       "--unit reverse --shape 100 --shape 300 --unit dbuf --shape 17x33x65 --unit inplace --shape 33",
                       &status);
    expect_right_and_clean(j, status, "lab5_shapes");
    static const char *const names[] = {"reverse_blocks n=100", "reverse_blocks n=300", "matmul_dbuf 17x33x65",
                                        "transpose_inplace 33x33"};
    const tl_json *c = tl_json_get(j, "results")->child;
    for (int i = 0; i < 4; i++, c = c ? c->next : c) {
        cr_assert(c, "only %d cases:\n%s", i, read_all(WORK "/lab5_shapes.log"));
        cr_expect_str_eq(tl_json_string(c, "name", ""), names[i]);
    }
    tl_json_free(j);
}

/* build/labN --help, in CPU mode or not: the lab's usage, naming build/labN, not the internal tool's. */
#define QUICK(lab, kind, out) "mkdir -p " WORK " && printf '#!/bin/sh\\necho \"usage: /kit/judge/check-x [--shape RxC]...\"\\n' > " WORK "/check-help && " \
    "printf '#!/bin/sh\\necho no usable NVIDIA GPU here >&2; exit 2\\n' > " WORK "/no-gpu && chmod +x " WORK "/check-help " WORK "/no-gpu && " \
    "TILELAB_KIT=$PWD TILELAB_LAB=" lab " TILELAB_KIND=" kind " TILELAB_SOURCE=x.cu TILELAB_CHECK=" WORK "/check-help " \
    "TILELAB_PROBE=" WORK "/no-gpu TILELAB_CPU_WORKER=w TILELAB_CPU_CHECK=build/cpu/cpu-check sh grader/quick-check"

Test(cpu_student, build_labN_help_is_the_lab_s_own_usage)
{
    static const char *const forms[] = {"--help", "-h", "--cpu --help", "--cpu --shape 3x5 --help"};
    for (size_t i = 0; i < sizeof forms / sizeof *forms; i++) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd, QUICK("lab6", "transpose", "help") " %s > " WORK "/help.out 2>&1", forms[i]);
        cr_expect_eq(sh_(cmd), 0, "build/lab6 %s: %s", forms[i], read_all(WORK "/help.out"));
        const char *out = read_all(WORK "/help.out");
        cr_expect(!strncmp(out, "usage: build/lab6 ", 18), "build/lab6 %s:\n%s", forms[i], out);
        cr_expect(strstr(out, "build/lab6 --cpu") && strstr(out, "--shape RxC"), "build/lab6 %s:\n%s", forms[i], out);
        cr_expect(strstr(out, "  build/lab6 [--shape RxC]"), "the GPU check's options, named build/lab6:\n%s", out);
        cr_expect(!strstr(out, "cpu-check") && !strstr(out, "--worker"), "build/lab6 %s:\n%s", forms[i], out);
    }
}

Test(cpu_student, lab7_skeleton_asks_for_the_registers_its_todo_names)
{
    const char *src = read_all("labs/lab7-sparse-matmul/matmul.cu");
    cr_expect(strstr(src, "__launch_bounds__(THREADS, 2) matmul_sparse_tall("),
              "the skeleton's sparse kernel is not declared with __launch_bounds__(THREADS, 2), as its TODO and the handout say");
}

/* CPU mode compiles the path an sm_90 GPU takes (__CUDA_ARCH__ 900) and runs cuda_pipeline.h's copies. */
Test(cpu_student, the_sm80_path_runs_with_cuda_pipeline_copies)
{
    int status;
    tl_json *j = check("lab2", "tests/cpu/fixtures/pipeline_sm80.cu", "pipeline_sm80",
                       "--shape 61x67 --shape 2x3 --shape 1x1 --counters 64x64", &status);
    expect_right_and_clean(j, status, "pipeline_sm80");
    tl_json_free(j);
}

/* What the CPU cannot run on that path is named with its line, not skipped. */
Test(cpu_student, inline_ptx_on_the_gpu_s_path_is_named_with_its_line)
{
    int status;
    tl_json *j = check("lab1", "tests/cpu/fixtures/inline_ptx.cu", "inline_ptx", "--shape 2x3 --no-counters", &status);
    const tl_json *c = tl_json_get(j, "results")->child;
    cr_assert(c, "%s", read_all(WORK "/inline_ptx.log"));
    cr_expect_str_eq(tl_json_string(c, "message", ""),
                     "not supported in CPU mode: inline PTX assembly (asm) at tests/cpu/fixtures/inline_ptx.cu:15");
    cr_expect_neq(status, 0);
    tl_json_free(j);
}

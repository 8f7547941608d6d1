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
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "json.h"
#include "shell.h"

#define WORK "build/tests/cpu-student"

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

/* Lab 7's counters in CPU mode, each part's kernel on its own (as ./grade --cpu checks them, --unit by
 * --unit): bank conflicts, sectors and widths per line of the file, which report.html draws. */
Test(cpu_student, lab7_counts_both_kernels_memory_accesses)
{
    static const struct { const char *unit; int line; const char *space; } parts[] = {
        {"dense", 100, "shared"},    /* part 1: float4 reads of As in the multiply */
        {"sparse", 296, "shared"}};  /* part 2: the tall tile's reads of A */
    for (int i = 0; i < 2; i++) {
        char args[256], name[64];
        snprintf(args, sizeof args, "--unit %s --shape 17x33x65 --counters 128x128x128 --no-branches", parts[i].unit);
        snprintf(name, sizeof name, "lab7_counters_%s", parts[i].unit);
        int status;
        tl_json *j = check("lab7", "solutions/lab7-sparse-matmul/matmul.cu", name, args, &status);
        expect_right_and_clean(j, status, name);
        const tl_json *c = tl_json_get(j, "counters");
        cr_assert(c, "%s: no counters", parts[i].unit);
        cr_expect_str_eq(tl_json_string(c, "shape", ""), "128x128x128");
        cr_expect_gt(tl_json_number(c, "shared_ld_requests", 0), 0, "%s", parts[i].unit);
        cr_expect_gt(tl_json_number(c, "global_ld_requests", 0), 0, "%s", parts[i].unit);
        cr_expect_str_eq(tl_json_string(c, "request_widths", ""), "ptx", "widths from nvcc's PTX (%s)", parts[i].unit);
        int found = 0;
        for (const tl_json *s = tl_json_get(c, "sites")->child; s; s = s->next)
            found |= (int)tl_json_number(s, "line", 0) == parts[i].line && !strcmp(tl_json_string(s, "space", ""), parts[i].space);
        cr_expect(found, "%s: no %s access counted at line %d", parts[i].unit, parts[i].space, parts[i].line);
        tl_json_free(j);
    }
}

/* Lab 7's double-buffered part 1 (the candidate reference, switched on by
 * tests/submissions/fair/lab7/dense_double_buffered.patch): right on every kind
 * of edge, and its one barrier a slice leaves no race between a stage's reads
 * and its refill. */
Test(cpu_student, lab7_double_buffered_dense_is_right_and_race_free)
{
    cr_assert_eq(sh_("mkdir -p " WORK " && patch -s -o " WORK "/lab7_dbuf.cu solutions/lab7-sparse-matmul/matmul.cu "
                     "< tests/submissions/fair/lab7/dense_double_buffered.patch"), 0);
    int status;
    tl_json *j = check("lab7", WORK "/lab7_dbuf.cu", "lab7_dbuf",
                       "--unit dense --shape 1x1x1 --shape 1x300x1 --shape 300x1x200 --shape 17x33x65 "
                       "--shape 130x36x260 --shape 257x129x131 --shape 64x64x64 --counters 128x128x128 --no-branches",
                       &status);
    expect_right_and_clean(j, status, "lab7_dbuf");
    tl_json_free(j);
}

/* The source step (build/cpu/cudafe) on `input`, a preprocessed file named t.cu; its output. */
static const char *source_step(const char *name, const char *input)
{
    char path[256], cmd[1024];
    snprintf(path, sizeof path, WORK "/cudafe-%s", name);
    mkdir(WORK, 0777);   /* this test may run before any other of the file made it (-j2) */
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fprintf(f, "# 1 \"t.cu\"\n%s", input);
    fclose(f);
    snprintf(cmd, sizeof cmd, "build/cpu/cudafe < %s > %s.out 2>&1", path, path);
    cr_assert_eq(sh_(cmd), 0, "cudafe failed on %s", input);
    snprintf(path + strlen(path), sizeof path - strlen(path), ".out");
    return read_all(path);
}

Test(cpu_student, a_launch_through_a_member_calls_the_member)
{
    const char *out = source_step("member", "void f() {\n  p.k<<<1, 2>>>(x);\n  s->k<<<g, b, 64>>>(y);\n  a[i].k<<<1, 1>>>(z);\n}\n");
    cr_expect(strstr(out, "{ p.k(tlc_a...); }, \"t.cu\", 2, 1, 2)(x);"), "%s", out);
    cr_expect(strstr(out, "{ s->k(tlc_a...); }, \"t.cu\", 3, g, b, 64)(y);"), "%s", out);
    cr_expect(strstr(out, "{ a[i].k(tlc_a...); }, \"t.cu\", 4, 1, 1)(z);"), "%s", out);
}

/* Inline PTX in device code (marked by __device__ and __global__ in CPU mode) stops with its line;
 * a host function's asm (x86, run on the CPU as it is) and a library's are left alone. */
Test(cpu_student, inline_asm_is_refused_in_device_code_only)
{
    const char *out = source_step("asm", "__tlc_device__ void d() {\n  asm volatile(\"bar.sync 0;\" ::: \"memory\");\n}\n"
                                         "void h() {\n  asm volatile(\"pause\");\n}\n"
                                         "__tlc_device__ int x;\n void h2() { __asm__(\"nop\"); }\n");
    cr_expect(strstr(out, "tlc_unsupported(\"inline PTX assembly (asm)\", \"t.cu\", 2);"), "%s", out);
    cr_expect(strstr(out, "asm volatile(\"pause\")"), "the host function's asm was rewritten:\n%s", out);
    cr_expect(strstr(out, "__asm__(\"nop\")"), "asm after a device variable's declaration was rewritten:\n%s", out);
    cr_expect(!strstr(out, "__tlc_device__"), "the mark is left in:\n%s", out);
}

Test(cpu_student, cuda_launch_kernel_drops_the_void_cast)
{
    const char *out = source_step("launchkernel", "void f() {\n  cudaLaunchKernel((const void *)k, g, b, args, 0, 0);\n}\n");
    cr_expect(strstr(out, "::tlc::launch_kernel(\"t.cu\", 2, k, g, b, args, 0, 0);"), "%s", out);
}

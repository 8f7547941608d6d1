/*
 * build/tools/inspect (grader/inspect.c), the static checks of a lab file:
 * every reference solution and skeleton is clean (exit 0); every attack in
 * tests/submissions/static/ that only a static read can see is refused (exit 1)
 * with exactly the findings its opening line names (defines_*: a global definition
 * that would stand in for the kit's or a library's); what the run time judges
 * (exit, constructors, cudaMalloc, file writes: the fixtures that say "Judged at run
 * time") is not refused; an input inspect cannot read is exit 2 with the reason;
 * --allow and a rubric's allowed_calls lift a refusal. Lab files are
 * compiled as mk/submission.mk compiles them (nvcc -c, -ptx, and the
 * dependency file), each into build/tests/inspect/<name>/. Needs nvcc (CI has
 * it), not a GPU: without nvcc those tests are skipped with the reason; the
 * others need only gcc. Runs from the repository root, as `make tool-tests` does.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INSPECT_WORK "build/tests/inspect"
#define INSPECT "build/tools/inspect"
/* mk/toolchain.mk's NVFLAGS for the oldest GPU CUDA 13 supports: what a
 * GPU-less CI machine builds. */
#define NVCC_FLAGS "-arch=sm_75 -O3 -lineinfo -std=c++17 -Ikit -Igrader -Ikinds/transpose -Ikinds/matmul -Ikinds/supersteps -Ikinds/sparse -Xcompiler -Wall,-Wextra -Xcompiler -fPIC,-ffunction-sections -Wno-deprecated-gpu-targets"
#define PUBLIC_HEADERS "--public kit/tilelab.h --public kit/check.h"

/* The tool, built by its own fragment (the same rule the Makefile includes). */
static void inspect_build(void) { tool_make("mk/inspect.mk", INSPECT, INSPECT_WORK); }

/* The toolkit as mk/toolchain.mk finds it: CUDA_HOME, then PATH, then
 * /usr/local/cuda. Skips the test when there is none. */
static const char *cuda_home(void)
{
    static char home[PATH_MAX];
    const char *env = getenv("CUDA_HOME");
    char nvcc[PATH_MAX + 16] = "";
    if (env && *env) {
        snprintf(home, sizeof home, "%s", env);
    } else {
        FILE *p = popen("command -v nvcc 2>/dev/null", "r");
        if (p && fgets(nvcc, sizeof nvcc, p) && strstr(nvcc, "/bin/nvcc")) {
            *strstr(nvcc, "/bin/nvcc") = '\0';
            snprintf(home, sizeof home, "%s", nvcc);
        } else {
            snprintf(home, sizeof home, "/usr/local/cuda");
        }
        if (p)
            pclose(p);
    }
    snprintf(nvcc, sizeof nvcc, "%s/bin/nvcc", home);
    if (access(nvcc, X_OK) != 0)
        cr_skip_test("nvcc not found (CUDA_HOME, PATH, /usr/local/cuda): these tests compile lab files with it");
    return home;
}

/* `src` compiled into INSPECT_WORK/<name>/: student.o with student.d, and student.ptx. */
static void compile(const char *src, const char *name)
{
    const char *home = cuda_home();
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd,
             "set -e; d=%s/%s; rm -rf $d; mkdir -p $d; exec > $d/compile.log 2>&1; "
             "%s/bin/nvcc " NVCC_FLAGS " -c %s -o $d/student.o -MD -MF $d/student.d & object=$!; "
             "%s/bin/nvcc " NVCC_FLAGS " -ptx %s -o $d/student.ptx; wait $object",
             INSPECT_WORK, name, home, src, home, src);
    int status = tool_sh(cmd);
    char log[PATH_MAX];
    snprintf(log, sizeof log, "%s/%s/compile.log", INSPECT_WORK, name);
    cr_assert_eq(status, 0, "%s does not compile (exit %d):\n%s", src, status, tool_read(log, NULL));
}

/* The names of the lab worker's link, as ./grade has make write them
 * (mk/kit.mk: the linker's trace of the lab worker): its path. */
static const char *link_symbols(void)
{
    static char path[PATH_MAX];
    if (path[0])
        return path;
    cuda_home();
    const char *make = "make -s --no-print-directory -f mk/submission.mk LAB=lab1 "
                       "SRC=labs/lab1-naive-transpose/transpose.cu";
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p %s && %s link-symbols > %s/link-symbols.log 2>&1 && "
             "%s print-dirs | cut -d' ' -f2 > %s/kit-dir", INSPECT_WORK, make, INSPECT_WORK, make, INSPECT_WORK);
    cr_assert_eq(tool_sh(cmd), 0, "cannot build the lab worker's link-symbols list:\n%s",
                 tool_read(INSPECT_WORK "/link-symbols.log", NULL));
    char kit[PATH_MAX];
    snprintf(kit, sizeof kit, "%s", tool_read(INSPECT_WORK "/kit-dir", NULL));
    kit[strcspn(kit, "\n")] = '\0';
    snprintf(path, sizeof path, "%.4000s/link-symbols.txt", kit);
    return path;
}

/* The lab rubric the next inspection reads (--rubric), or NULL. */
static const char *with_rubric;

/* inspect on what compile() wrote; its exit status. Findings in
 * INSPECT_WORK/<name>/findings.txt, its stderr in errors.txt. */
static int inspect_compiled(const char *src, const char *name)
{
    char cmd[4 * PATH_MAX];
    snprintf(cmd, sizeof cmd,
             "d=%s/%s; " INSPECT " --object $d/student.o --ptx $d/student.ptx --deps $d/student.d --source %s "
             PUBLIC_HEADERS " --cuda-home %s --link-symbols %s%s%s > $d/findings.txt 2> $d/errors.txt",
             INSPECT_WORK, name, src, cuda_home(), link_symbols(), with_rubric ? " --rubric " : "",
             with_rubric ? with_rubric : "");
    return tool_sh(cmd);
}

static const char *work_file(const char *name, const char *file)
{
    static char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s/%s", INSPECT_WORK, name, file);
    return tool_read(path, NULL);
}

/* The one file matching `pattern` ("solutions/lab1-*\/\*.cu"). */
static const char *lab_file(const char *pattern)
{
    static char path[PATH_MAX];
    glob_t g;
    cr_assert_eq(glob(pattern, 0, NULL, &g), 0, "no file matches %s", pattern);
    snprintf(path, sizeof path, "%s", g.gl_pathv[0]);
    globfree(&g);
    return path;
}

/* Every finding line's "KIND: NAME:" part, one per line, in `out`. */
static void finding_heads(const char *findings, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (const char *line = findings; *line;) {
        const char *end = strchr(line, '\n');
        end = end ? end : line + strlen(line);
        const char *first = strstr(line, ": ");
        const char *second = first && first < end ? strstr(first + 2, ": ") : NULL;
        size_t len = second && second < end ? (size_t)(second - line) + 1 : (size_t)(end - line);
        n += snprintf(out + n, n < size ? size - n : 0, "%.*s\n", (int)len, line);
        line = *end ? end + 1 : end;
    }
}

/* Whether `text` holds the line of `len` bytes at `line` (its newline included). */
static int has_line(const char *text, const char *line, int len)
{
    for (const char *p = text; *p;) {
        if (!strncmp(p, line, len))
            return 1;
        const char *next = strchr(p, '\n');
        p = next ? next + 1 : p + strlen(p);
    }
    return 0;
}

/* A lab file inspect must pass: exit 0, no output. */
static void expect_clean(const char *pattern, const char *name)
{
    inspect_build();
    const char *src = lab_file(pattern);
    compile(src, name);
    int status = inspect_compiled(src, name);
    cr_expect_eq(status, 0, "inspect refused %s (exit %d):\n%s%s", src, status, work_file(name, "findings.txt"),
                 work_file(name, "errors.txt"));
    cr_expect_str_empty(work_file(name, "findings.txt"), "inspect printed findings for %s", src);
}

/* A static/clean_*.cu fixture: ordinary CUDA inspect must pass. */
static void expect_clean_fixture(const char *fixture)
{
    char pattern[PATH_MAX];
    snprintf(pattern, sizeof pattern, "tests/submissions/static/%s.cu", fixture);
    expect_clean(pattern, fixture);
}

/* A fixture inspect must refuse: exit 1 and exactly the findings `heads`
 * ("KIND: NAME:\n" each, in inspect's order); with `at_least`, those and maybe more. */
static void expect_refused(const char *fixture, const char *heads, int at_least)
{
    inspect_build();
    char src[PATH_MAX];
    snprintf(src, sizeof src, "tests/submissions/static/%s.cu", fixture);
    compile(src, fixture);
    int status = inspect_compiled(src, fixture);
    const char *findings = work_file(fixture, "findings.txt");
    cr_assert_eq(status, 1, "inspect on %s exited %d, not 1 (refused):\n%s%s", src, status, findings,
                 work_file(fixture, "errors.txt"));
    static char got[1 << 16];
    finding_heads(findings, got, sizeof got);
    if (at_least) {
        for (const char *h = heads; *h; h = strchr(h, '\n') + 1) {
            int len = (int)(strchr(h, '\n') - h + 1);
            cr_expect(has_line(got, h, len), "inspect on %s does not say %.*s; it said:\n%s", src, len - 1, h,
                      findings);
        }
    } else {
        cr_expect_str_eq(got, heads, "inspect on %s:\nwanted\n%sgot\n%sin\n%s", src, heads, got, findings);
    }
    for (const char *line = findings; *line; line = strchr(line, '\n') + 1) {
        cr_expect(strstr(line, ". Next: ") && strstr(line, ". Next: ") < strchr(line, '\n'),
                  "a finding for %s gives no next step: %.*s", src, (int)(strchr(line, '\n') - line), line);
        if (!strchr(line, '\n'))
            break;
    }
}

/* ---- every lab file the kit ships is clean ---------------------------------- */

Test(inspect, lab1_solution_is_clean, .timeout = 300) { expect_clean("solutions/lab1-*/*.cu", "solution-lab1"); }
Test(inspect, lab2_solution_is_clean, .timeout = 300) { expect_clean("solutions/lab2-*/*.cu", "solution-lab2"); }
Test(inspect, lab3_solution_is_clean, .timeout = 300) { expect_clean("solutions/lab3-*/*.cu", "solution-lab3"); }
Test(inspect, lab4_solution_is_clean, .timeout = 300) { expect_clean("solutions/lab4-*/*.cu", "solution-lab4"); }
Test(inspect, lab5_solution_is_clean, .timeout = 300) { expect_clean("solutions/lab5-*/*.cu", "solution-lab5"); }
Test(inspect, lab1_skeleton_is_clean, .timeout = 300) { expect_clean("labs/lab1-*/*.cu", "skeleton-lab1"); }
Test(inspect, lab2_skeleton_is_clean, .timeout = 300) { expect_clean("labs/lab2-*/*.cu", "skeleton-lab2"); }
Test(inspect, lab3_skeleton_is_clean, .timeout = 300) { expect_clean("labs/lab3-*/*.cu", "skeleton-lab3"); }
Test(inspect, lab4_skeleton_is_clean, .timeout = 300) { expect_clean("labs/lab4-*/*.cu", "skeleton-lab4"); }
Test(inspect, lab5_skeleton_is_clean, .timeout = 300) { expect_clean("labs/lab5-*/*.cu", "skeleton-lab5"); }

/* ---- what nvcc generates for ordinary code is not judged ------------------ */

/* Host copies of __device__ helpers (plain, anonymous namespace, template,
 * cooperative groups), each calling exit; an extern "C" kernel; a static
 * local's guard; a weak std::min. None is reachable or collides. */
Test(inspect, nvcc_generated_host_code_is_not_judged, .timeout = 300)
{
    expect_clean_fixture("clean_nvcc_generated");
}

/* Static device memory counts as an allocation: lab 5 allows a tile's worth. */
Test(inspect, static_scratch_is_refused_in_place, .timeout = 300)
{
    with_rubric = "labs/lab5-supersteps/lab.rubric";
    expect_refused("static_scratch_inplace", "ptx: static-device-memory:\n", 0);
}

/* Lab 4's rubric says arithmetic fp32: wmma (tensor cores) is refused there. */
Test(inspect, tensor_cores_are_refused_where_the_lab_is_fp32, .timeout = 300)
{
    with_rubric = "labs/lab4-tiled-matmul/lab.rubric";
    expect_refused("tensor_core_matmul", "ptx: tensor-cores:\n", 0);
}

/* Every reference passes its own rubric's new lines (fp32, static memory). */
Test(inspect, lab5_solution_is_clean_under_its_rubric, .timeout = 300)
{
    with_rubric = "labs/lab5-supersteps/lab.rubric";
    expect_clean("solutions/lab5-*/*.cu", "solution-lab5-rubric");
}

Test(inspect, lab7_solution_is_clean_under_its_rubric, .timeout = 300)
{
    with_rubric = "labs/lab7-sparse-matmul/lab.rubric";
    expect_clean("solutions/lab7-*/*.cu", "solution-lab7-rubric");
}

/* A global name is refused where it collides with the worker's link, and the
 * finding names where: write is libc's. */
Test(inspect, a_global_write_collides_with_libc, .timeout = 300)
{
    expect_refused("defines_write", "defines: write:\n", 0);
    cr_expect(strstr(work_file("defines_write", "findings.txt"), "libc.so.6"), "the finding does not name libc.so.6:\n%s",
              work_file("defines_write", "findings.txt"));
}

/* ---- every attack is refused, by name ------------------------------------ */

Test(inspect, cublas_through_dlopen_is_refused, .timeout = 300)
{
    expect_refused("dlopen_cublas", "calls: dlopen:\ncalls: dlsym:\n", 0);
}

/* Its kernels are CUB's, instantiated with thrust's iterators: both are named.
 * What thrust's host side calls (exceptions, strings, getenv, dlopen) follows. */
Test(inspect, a_thrust_transpose_is_refused, .timeout = 300)
{
    expect_refused("thrust_transpose", "ptx: thrust:\nptx: cub:\ncalls: dlopen:\n", 1);
}

Test(inspect, an_included_reference_solution_is_refused, .timeout = 300)
{
    expect_refused("include_reference", "includes: solutions/lab3-padding/transpose.cu:\n", 0);
}

/* ---- what the run time judges is not refused here ------------------------- */

/* exit through a static helper, through a table in data, in the launch itself;
 * a constructor, a global's and a static local's destructor, atexit; cudaMalloc
 * scratch; writing a file. Each is code the worker runs inside its sandbox,
 * which stops what may not happen (a write, a process) and whose judge
 * measures what did (an exit costs that request; memory beyond the kit's
 * buffers loses lab 5's in-place tests): none is a name the inspector refuses,
 * so honest code with a CUDA_CHECK that exits, iostream under g++ 12 or a
 * std::vector keeps its points. */
Test(inspect, exit_through_a_helper_is_the_run_times, .timeout = 300) { expect_clean_fixture("exit_through_helper"); }
Test(inspect, exit_through_a_table_is_the_run_times, .timeout = 300) { expect_clean_fixture("exit_through_table"); }
Test(inspect, exit_in_the_launch_is_the_run_times, .timeout = 300) { expect_clean_fixture("exit_in_launch"); }
Test(inspect, a_constructor_is_the_run_times, .timeout = 300) { expect_clean_fixture("constructor"); }
Test(inspect, a_global_with_a_destructor_is_the_run_times, .timeout = 300) { expect_clean_fixture("destructor_global"); }
Test(inspect, a_static_local_with_a_destructor_is_the_run_times, .timeout = 300)
{
    expect_clean_fixture("destructor_static_local");
}
Test(inspect, atexit_in_the_launch_is_the_run_times, .timeout = 300) { expect_clean_fixture("atexit_call"); }
Test(inspect, cuda_malloc_scratch_is_the_run_times, .timeout = 300) { expect_clean_fixture("cuda_malloc_scratch"); }
Test(inspect, writing_a_file_is_the_sandboxs, .timeout = 300) { expect_clean_fixture("syscall_write"); }

/* ---- tensor cores: in a kernel the host code launches, wherever the line ---- */

/* A TF32-style experiment left in a lab 4 file and never launched: not refused. */
Test(inspect, an_unlaunched_tensor_core_kernel_is_not_refused, .timeout = 300)
{
    with_rubric = "labs/lab4-tiled-matmul/lab.rubric";
    expect_clean_fixture("tensor_core_unlaunched");
}

/* mma inside an inline asm `{ ... }` scope, in a __noinline__ device function
 * the launched kernel calls: the line does not start with mma. */
Test(inspect, tensor_cores_in_a_braced_asm_scope_are_refused, .timeout = 300)
{
    with_rubric = "labs/lab4-tiled-matmul/lab.rubric";
    expect_refused("tensor_core_braced_asm", "ptx: tensor-cores:\n", 0);
}

/* A second module registered by the launch function through nvcc's own entry points. */
Test(inspect, registering_a_module_of_its_own_is_refused, .timeout = 300)
{
    expect_refused("registers_own_module", "calls: __cudaRegisterFatBinary:\ncalls: __cudaRegisterFunction:\n"
                   "calls: __cudaRegisterFatBinaryEnd:\n", 1);
}

/* ---- before the build: includes of what is not a header ------------------- */

/* /dev/zero, a /proc file behind a spliced line, a folder: refused by name
 * without being opened; a real header and an #include MACRO pass. */
Test(inspect, device_files_are_refused_as_includes_before_the_build)
{
    inspect_build();
    int status = tool_sh("mkdir -p " INSPECT_WORK "/incl/folder && cd " INSPECT_WORK "/incl && "
                         "printf '%s\\n' '\xEF\xBB\xBF#include \"/dev/zero\"' '#  include \\' '</proc/self/fd/0>' "
                         "'#include \"folder\"' '#include \"real.h\"' '#include <stdio.h>' '#define H \"/dev/null\"' "
                         "'#include H' > bomb.cu && echo '/* a header */' > real.h");
    cr_assert_eq(status, 0);
    status = tool_sh(INSPECT " --source-includes " INSPECT_WORK "/incl/bomb.cu > " INSPECT_WORK "/incl/out.txt 2>&1");
    const char *out = tool_read(INSPECT_WORK "/incl/out.txt", NULL);
    cr_expect_eq(status, 1, "not refused (exit %d):\n%s", status, out);
    static char heads[4096];
    finding_heads(out, heads, sizeof heads);
    cr_expect_str_eq(heads, "includes: /dev/zero:\nincludes: /proc/self/fd/0:\nincludes: folder:\n", "got:\n%s", out);
    /* Other spellings the preprocessor reads as an include: a digraph, a
     * comment between the words, include_next, import; not a comment or a string. */
    status = tool_sh("cd " INSPECT_WORK "/incl && printf '%s\\n' '%:include \"/dev/zero\"' '#/**/include \"/dev/null\"' "
                     "'#include_next </dev/urandom>' '# import \"/proc/kmsg\"' '// #include \"/dev/tty\"' "
                     "'const char *s = \"#include </dev/full>\";' > spelled.cu");
    cr_assert_eq(status, 0);
    status = tool_sh(INSPECT " --source-includes " INSPECT_WORK "/incl/spelled.cu > " INSPECT_WORK "/incl/out.txt 2>&1");
    out = tool_read(INSPECT_WORK "/incl/out.txt", NULL);
    cr_expect_eq(status, 1, "not refused (exit %d):\n%s", status, out);
    finding_heads(out, heads, sizeof heads);
    cr_expect_str_eq(heads, "includes: /dev/zero:\nincludes: /dev/null:\nincludes: /dev/urandom:\nincludes: /proc/kmsg:\n",
                     "got:\n%s", out);
    status = tool_sh(INSPECT " --source-includes solutions/lab7-sparse-matmul/matmul.cu > " INSPECT_WORK
                     "/incl/clean.txt 2>&1");
    cr_expect_eq(status, 0, "a reference was refused:\n%s", tool_read(INSPECT_WORK "/incl/clean.txt", NULL));
}

/* ---- without nvcc: inputs it cannot read, the allow-list's extensions -------- */

/* Exit 2, nothing on stdout, one line on stderr holding `cause`. */
static void expect_cannot_run(const char *args, const char *cause)
{
    inspect_build();
    char cmd[2048];
    snprintf(cmd, sizeof cmd, INSPECT " %s > " INSPECT_WORK "/out.txt 2> " INSPECT_WORK "/err.txt", args);
    int status = tool_sh(cmd);
    const char *err = tool_read(INSPECT_WORK "/err.txt", NULL);
    cr_expect_eq(status, 2, "inspect %s exited %d, not 2:\n%s", args, status, err);
    cr_expect_eq(tool_lines(err), 1, "inspect %s: not one line on stderr:\n%s", args, err);
    cr_expect_not_null(strstr(err, cause), "inspect %s does not say \"%s\":\n%s", args, cause, err);
    cr_expect_str_empty(tool_read(INSPECT_WORK "/out.txt", NULL), "inspect %s printed findings", args);
}

Test(inspect, what_it_cannot_read_is_exit_2_with_the_reason)
{
    expect_cannot_run("", "nothing to inspect");
    expect_cannot_run("--object " INSPECT_WORK "/no-such.o", "cannot read the object file");
    expect_cannot_run("--object grader/inspect.c", "is not an ELF object file");
    expect_cannot_run("--ptx " INSPECT_WORK "/no-such.ptx", "cannot read the PTX");
    expect_cannot_run("--deps mk/inspect.mk", "--deps needs --source");
    cr_assert_eq(tool_sh("echo 'no rule here' > " INSPECT_WORK "/no-rule.d"), 0);
    expect_cannot_run("--deps " INSPECT_WORK "/no-rule.d --source labs/lab1-naive-transpose/transpose.cu",
                      "holds no make rule");
    expect_cannot_run("--object", "--object needs a value");
    expect_cannot_run("--objects x.o", "unknown flag '--objects'");
}

/* A gcc object that calls exit and getenv: refused by name, then allowed by
 * --allow patterns or the rubric's allowed_calls line. */
Test(inspect, allow_and_a_rubric_extend_the_allow_list)
{
    inspect_build();
    int status = tool_sh("cd " INSPECT_WORK " && printf '%s\\n' '#include <stdlib.h>' 'void *dlopen(const char *, int);' "
                         "'int cublasCreate_v2(void **);' "
                         "'void launch_transpose(void) { if (getenv(\"X\")) dlopen(\"x\", 0); cublasCreate_v2(0); exit(0); }' "
                         "> exits.c && gcc -O2 -c exits.c -o exits.o && "
                         "printf 'id lab9\\nallowed_calls   dlopen cublas*   # this lab may\\n' > lab9.rubric");
    cr_assert_eq(status, 0, "cannot build the gcc object");
    status = tool_sh(INSPECT " --object " INSPECT_WORK "/exits.o > " INSPECT_WORK "/exits.txt 2>&1");
    const char *out = tool_read(INSPECT_WORK "/exits.txt", NULL);
    cr_expect_eq(status, 1, "not refused (exit %d):\n%s", status, out);
    static char heads[4096];
    finding_heads(out, heads, sizeof heads);
    /* getenv and exit are the run time's: only the library and the loader are refused. */
    cr_expect(!strcmp(heads, "calls: dlopen:\ncalls: cublasCreate_v2:\n") ||
                  !strcmp(heads, "calls: cublasCreate_v2:\ncalls: dlopen:\n"),
              "wanted calls: dlopen and cublasCreate_v2, got:\n%s", out);

    status = tool_sh(INSPECT " --object " INSPECT_WORK "/exits.o --allow dlopen --allow 'cublas*' > " INSPECT_WORK
                     "/allowed.txt 2>&1");
    cr_expect_eq(status, 0, "--allow did not allow them (exit %d):\n%s", status,
                 tool_read(INSPECT_WORK "/allowed.txt", NULL));
    status = tool_sh(INSPECT " --object " INSPECT_WORK "/exits.o --rubric " INSPECT_WORK "/lab9.rubric > "
                     INSPECT_WORK "/rubric.txt 2>&1");
    cr_expect_eq(status, 0, "the rubric's allowed_calls did not allow them (exit %d):\n%s", status,
                 tool_read(INSPECT_WORK "/rubric.txt", NULL));
}

/* Library kernels and device-side malloc in PTX; printf (vprintf) is fine.
 * A kernel of the student's own whose name merely contains "cub" is not a library's. */
Test(inspect, ptx_names_library_kernels_and_device_malloc)
{
    inspect_build();
    FILE *f = fopen(INSPECT_WORK "/library.ptx", "w");
    cr_assert_not_null(f);
    fputs(".version 9.0\n.target sm_75\n.address_size 64\n"
          ".extern .func  (.param .b32 func_retval0) vprintf\n(\n\t.param .b64 vprintf_param_0\n);\n"
          ".extern .func  (.param .b64 func_retval0) malloc\n(\n\t.param .b64 malloc_param_0\n);\n"
          ".visible .entry _ZN7cutlass6KernelINS_4gemmEEEvNT_6ParamsE(\n\t.param .b64 p\n)\n{\n\tret;\n}\n"
          ".visible .entry _Z9cube_rootPKfPfi(\n\t.param .b64 p\n)\n{\n\tcall.uni (retval0), vprintf, (a, b);\n}\n",
          f);
    fclose(f);
    int status = tool_sh(INSPECT " --ptx " INSPECT_WORK "/library.ptx > " INSPECT_WORK "/library.txt 2>&1");
    const char *out = tool_read(INSPECT_WORK "/library.txt", NULL);
    cr_expect_eq(status, 1, "not refused (exit %d):\n%s", status, out);
    static char heads[4096];
    finding_heads(out, heads, sizeof heads);
    cr_expect_str_eq(heads, "ptx: malloc:\nptx: cutlass:\n", "wanted ptx: malloc and cutlass, got:\n%s", out);
}

/* A kit header that is not public (grader/hidden.h) is refused; the public
 * ones, the file itself, system and toolkit headers are not. */
Test(inspect, only_public_toolkit_and_system_headers_may_be_included)
{
    inspect_build();
    int status = tool_sh("mkdir -p " INSPECT_WORK "/toolkit/include && cd " INSPECT_WORK " && "
                         "touch toolkit/include/cuda_runtime.h && "
                         "printf 'x.o : ../../../labs/lab1-naive-transpose/transpose.cu \\\\\\n"
                         " ../../../kit/tilelab.h /usr/include/stdio.h toolkit/include/cuda_runtime.h \\\\\\n"
                         " ../../../grader/hidden.h ../../../kit/check.h\\n../../../kit/check.h:\\n' > hidden.d");
    cr_assert_eq(status, 0);
    status = tool_sh("cd " INSPECT_WORK " && ../../tools/inspect --deps hidden.d --source "
                     "../../../labs/lab1-naive-transpose/transpose.cu --public ../../../kit/tilelab.h "
                     "--public ../../../kit/check.h --cuda-home toolkit > hidden.txt 2>&1");
    const char *out = tool_read(INSPECT_WORK "/hidden.txt", NULL);
    cr_expect_eq(status, 1, "not refused (exit %d):\n%s", status, out);
    static char heads[4096];
    finding_heads(out, heads, sizeof heads);
    /* The path as seen from where inspect ran: outside it, absolute. */
    char want[PATH_MAX + 32], cwd[PATH_MAX];
    cr_assert_not_null(getcwd(cwd, sizeof cwd));
    snprintf(want, sizeof want, "includes: %s/grader/hidden.h:\n", cwd);
    cr_expect_str_eq(heads, want, "got:\n%s", out);
}

/* ---- definitions that would stand in for the kit's or a library's ----------- */

Test(inspect, defining_seccomp_load_is_refused, .timeout = 300)
{
    expect_refused("defines_seccomp_load", "defines: seccomp_load:\n", 0);
}

Test(inspect, a_weak_prctl_is_refused, .timeout = 300)
{
    expect_refused("defines_weak_prctl", "defines: prctl:\n", 0);
}

/* A g++ object, inspected against the worker's link: the launch function,
 * static helpers, a C global and a function of namespace std that collide
 * with nothing pass; main, a kit function and a replacement operator new do
 * not. Needs g++ (nvcc's host compiler) and the lab worker's link. */
Test(inspect, only_colliding_global_names_are_refused, .timeout = 300)
{
    inspect_build();
    int status = tool_sh("cd " INSPECT_WORK " && printf '%s\\n' '#include <cstddef>' "
                         "'extern \"C\" void launch_transpose(const float *, float *, int, int) {}' "
                         "'static int helper(int x) { return x + 1; }' "
                         "'int (*keep)(int) = nullptr;' "
                         "'extern \"C\" int tl_sandbox_enter(int, char *, size_t) { return helper(0); }' "
                         "'void *operator new(std::size_t n) { static char pool[64]; (void)n; return pool; }' "
                         "'namespace std { void swap_all() {} }' "
                         "'int main() { return 0; }' > defines.cpp && "
                         "g++ -O2 -c defines.cpp -o defines.o");
    cr_assert_eq(status, 0, "cannot build the g++ object");
    char cmd[2 * PATH_MAX];
    snprintf(cmd, sizeof cmd, INSPECT " --object " INSPECT_WORK "/defines.o --link-symbols %s > " INSPECT_WORK
             "/defines.txt 2>&1", link_symbols());
    status = tool_sh(cmd);
    const char *out = tool_read(INSPECT_WORK "/defines.txt", NULL);
    cr_expect_eq(status, 1, "not refused (exit %d):\n%s", status, out);
    static char heads[4096];
    finding_heads(out, heads, sizeof heads);
    const char *want[] = {"defines: tl_sandbox_enter:\n", "defines: _Znwm:\n", "defines: main:\n"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_expect(has_line(heads, want[i], (int)strlen(want[i])), "inspect does not say %s; it said:\n%s", want[i], out);
    cr_expect(!strstr(heads, "launch_transpose") && !strstr(heads, "helper") && !strstr(heads, "keep") &&
              !strstr(heads, "swap_all"), "a name that collides with nothing was refused:\n%s", out);
    cr_expect_eq(tool_lines(heads), 3, "wanted exactly those three findings:\n%s", out);
}

/* Structure per kernel from nvcc's PTX (grader/ptx.h), on PTX of the kit's
 * own files (tests/fixtures/ptx/README.md) and a few hand-written snippets. */
#include <criterion/criterion.h>
#include <string.h>
#include "ptx.h"

#define PTX_DIR "tests/fixtures/ptx/"

static ptx_module module;

static void load(const char *name)
{
    char err[512] = "";
    cr_assert_eq(ptx_read_file(name, &module, err, sizeof err), 0, "%s", err);
}

static void unload(void)
{
    ptx_free(&module);
}

/* The kernel ncu names, and what it does. */
static ptx_kernel_stats kernel(const char *ncu_name)
{
    char err[4096] = "";
    const ptx_function *f = ptx_find_kernel(&module, ncu_name, err, sizeof err);
    cr_assert_not_null(f, "%s", err);
    ptx_kernel_stats s;
    ptx_kernel_stats_of(&module, f, &s);
    return s;
}

static int structure(const ptx_kernel_stats *s, int n)
{
    char why[1024];
    return ptx_uses_shared_and_barrier(s, n, why, sizeof why);
}

#define MATMUL_ARGS "(const float *, const float *, float *, int, int, int)"

/* ---- labs 1-3: shared memory and a barrier, per kernel ---------------------- */

Test(ptx, lab1_reference_has_no_shared_memory)
{
    load(PTX_DIR "lab1.ptx");
    ptx_kernel_stats s = kernel("transpose_naive(const float *, float *, int, int)");
    cr_expect_eq(s.n_used, 0);
    cr_expect_eq(s.shared_ld + s.shared_st + s.shared_atom, 0);
    cr_expect_eq(s.barriers, 0);
    cr_expect_not(structure(&s, 1));
    unload();
}

Test(ptx, lab2_reference_tile_and_barrier)
{
    load(PTX_DIR "lab2.ptx");
    ptx_kernel_stats s = kernel("transpose_tiled(const float *, float *, int, int)");
    cr_expect_eq(s.n_used, 1);
    cr_expect_eq(s.static_bytes, 32 * 32 * 4);
    cr_expect_eq(s.shared_st, 4, "32x8 threads store 4 elements each: %d", s.shared_st);
    cr_expect_eq(s.shared_ld, 4);
    cr_expect_eq(s.barriers, 1);
    cr_expect_eq(s.barriers_in_loops, 0, "the 4-step row loops are unrolled");
    cr_expect(structure(&s, 1));
    unload();
}

Test(ptx, lab3_reference_padded_tile)
{
    load(PTX_DIR "lab3.ptx");
    ptx_kernel_stats s = kernel("transpose_padded(const float *, float *, int, int)");
    cr_expect_eq(s.static_bytes, 32 * 33 * 4, "a 32x33 tile: %ld B", s.static_bytes);
    cr_expect_eq(s.barriers, 1);
    cr_expect(structure(&s, 1));
    unload();
}

/* Dynamic shared memory: the tile is `extern __shared__`, sized at launch. The
 * PTX declares it `.extern .shared .align 16 .b8 tile[]` at module scope; its
 * loads and stores are shared ones all the same (tests/submissions/fair/lab3/
 * dynamic_shared.patch is lab 3's reference written this way). */
Test(ptx, dynamic_shared_transpose_meets_the_structure_rule)
{
    load(PTX_DIR "dynamic_shared.ptx");
    cr_expect_eq(module.n_arrays, 1, "the module-scope extern array");
    cr_expect_eq(module.arrays[0].bytes, -1, "no size in the PTX: %ld", module.arrays[0].bytes);
    ptx_kernel_stats s = kernel("transpose_dynamic(const float *, float *, int)");
    cr_expect(s.dynamic);
    cr_expect_eq(s.n_used, 1);
    cr_expect_eq(s.static_bytes, 0, "extern arrays are sized at launch: %ld B", s.static_bytes);
    cr_expect_eq(s.shared_st, 1);
    cr_expect_eq(s.shared_ld, 1);
    cr_expect_eq(s.barriers, 1);
    char why[1024];
    cr_expect(ptx_uses_shared_and_barrier(&s, 1, why, sizeof why), "%s", why);
    cr_expect(strstr(why, "transpose_dynamic uses shared memory"), "%s", why);
    unload();
}

/* The exploit: a naive kernel launched beside a tiled one never launched. */
Test(ptx, the_launched_naive_kernel_has_no_shared_memory_beside_an_unlaunched_tiled_one)
{
    load(PTX_DIR "unlaunched_tiled_kernel.ptx");
    ptx_kernel_stats naive = kernel("transpose_naive(const float *, float *, int, int)");
    cr_expect_eq(naive.n_used, 0);
    cr_expect_eq(naive.shared_ld + naive.shared_st, 0);
    cr_expect_eq(naive.barriers, 0);
    char why[1024];
    cr_expect_not(ptx_uses_shared_and_barrier(&naive, 1, why, sizeof why));
    cr_expect(strstr(why, "transpose_naive has no shared loads or stores and no barrier"), "%s", why);
    /* Judged on the whole file (the old grep, or no kernel names) it passes: */
    ptx_kernel_stats tiled = kernel("transpose_tiled(const float *, float *, int, int)");
    ptx_kernel_stats both[2] = {naive, tiled};
    cr_expect(structure(both, 2));
    unload();
}

/* ---- lab 5 part 3: double buffering ----------------------------------------- */

static ptx_dbuf_verdict dbuf(const ptx_kernel_stats *s, long dynamic_bytes, char *why, size_t len)
{
    return ptx_double_buffered(s, PTX_LAB5_TILE_BYTES, dynamic_bytes, why, len);
}

Test(ptx, lab5_reference_is_double_buffered)
{
    load(PTX_DIR "lab5.ptx");
    ptx_kernel_stats s = kernel("matmul_dbuf" MATMUL_ARGS);
    cr_expect_eq(s.static_bytes, 2 * 2 * 32 * 32 * 4);
    cr_assert(s.has_kloop);
    cr_expect_eq(s.kloop.barriers, 1);
    cr_expect_eq(s.kloop.fill_and_read, 1);
    cr_expect_eq(s.kloop.shared_ld, 64, "the unrolled k loop: 32 of A, 32 of B");
    char why[1024];
    cr_expect_eq(dbuf(&s, -1, why, sizeof why), PTX_DBUF_YES, "%s", why);
    unload();
}

Test(ptx, lab5_single_buffer_fixture_is_not)
{
    load(PTX_DIR "lab5_dbuf_single_buffer.ptx");
    ptx_kernel_stats s = kernel("matmul_dbuf" MATMUL_ARGS);
    cr_expect_eq(s.static_bytes, 2 * 32 * 32 * 4);
    cr_expect_eq(s.kloop.barriers, 1, "one barrier per K-step: only the buffers give it away");
    char why[1024];
    cr_expect_eq(dbuf(&s, -1, why, sizeof why), PTX_DBUF_NO);
    cr_expect(strstr(why, "one buffer per operand"), "%s", why);
    unload();
}

Test(ptx, lab4_reference_as_part_3_is_not)
{
    load(PTX_DIR "lab4.ptx");
    ptx_kernel_stats s = kernel("matmul_tiled" MATMUL_ARGS);
    cr_expect(structure(&s, 1), "lab 4 itself passes lab 4's structure rule");
    cr_assert(s.has_kloop);
    cr_expect_eq(s.kloop.barriers, 2);
    cr_expect_eq(s.kloop.fill_and_read, 0, "a fill-only and a read-only superstep");
    char why[1024];
    cr_expect_eq(dbuf(&s, -1, why, sizeof why), PTX_DBUF_NO);
    cr_expect(strstr(why, "lab 4's schedule"), "%s", why);
    unload();
}

Test(ptx, double_buffered_variants)
{
    load(PTX_DIR "dbuf_variants.ptx");
    char why[1024];
    ptx_kernel_stats s = kernel("dbuf_four_arrays" MATMUL_ARGS);
    cr_expect_eq(s.n_used, 4);
    cr_expect_eq(dbuf(&s, -1, why, sizeof why), PTX_DBUF_YES, "four arrays: %s", why);

    s = kernel("dbuf_module_scope" MATMUL_ARGS);
    cr_expect_eq(s.static_bytes, 2 * 2 * 32 * 33 * 4, "padded [2][32][33]");
    cr_expect_eq(dbuf(&s, -1, why, sizeof why), PTX_DBUF_YES, "padded: %s", why);

    s = kernel("dbuf_two_steps_per_trip" MATMUL_ARGS);
    cr_expect_eq(dbuf(&s, -1, why, sizeof why), PTX_DBUF_YES, "two K-steps per trip: %s", why);

    s = kernel("dbuf_dynamic" MATMUL_ARGS);
    cr_expect(s.dynamic);
    cr_expect_eq(s.n_used, 1, "the module-scope extern array it names");
    cr_expect_eq(dbuf(&s, -1, why, sizeof why), PTX_DBUF_UNVERIFIED, "size unknown: %s", why);
    cr_expect_eq(dbuf(&s, 16384, why, sizeof why), PTX_DBUF_YES, "16 KiB at launch: %s", why);
    cr_expect_eq(dbuf(&s, 8192, why, sizeof why), PTX_DBUF_NO, "8 KiB at launch: %s", why);

    s = kernel("two_buffers_two_barriers" MATMUL_ARGS);
    cr_expect_eq(dbuf(&s, -1, why, sizeof why), PTX_DBUF_NO, "two buffers, lab 4's schedule: %s", why);
    unload();
}

/* ---- names: ncu's demangled names against the PTX's mangled ones ------------- */

/* The PTX name found, else the error (kept until the next call). */
static const char *found(const char *ncu_name)
{
    static char err[4096];
    const ptx_function *f = ptx_find_kernel(&module, ncu_name, err, sizeof err);
    return f ? f->name : err;
}

Test(ptx, ncu_names_find_their_mangled_kernels)
{
    load(PTX_DIR "names.ptx");
    cr_expect_str_eq(found("void dbuf_kernel<32>(const float *, const float *, float *, int, int, int)"),
                     "_Z11dbuf_kernelILi32EEvPKfS1_Pfiii");
    cr_expect_str_eq(found("dbuf_kernel<16>(const float*, const float*, float*, int, int, int)"),
                     "_Z11dbuf_kernelILi16EEvPKfS1_Pfiii");
    cr_expect_str_eq(found("void dbuf_kernel<(int)16>(float const*, float const*, float*, int, int, int)"),
                     "_Z11dbuf_kernelILi16EEvPKfS1_Pfiii");
    cr_expect_str_eq(found("dbuf_kernel<32>"), "_Z11dbuf_kernelILi32EEvPKfS1_Pfiii");
    cr_expect_str_eq(found("lab::scale(float *, float, int)"), "_ZN3lab5scaleEPffi");
    cr_expect_str_eq(found("fill(float *, int)"), "_Z4fillPfi");
    cr_expect_str_eq(found("fill(float *, float, int)"), "_Z4fillPffi");
    cr_expect_str_eq(found("c_kernel"), "c_kernel");
    cr_expect_str_eq(found("c_kernel(float *)"), "c_kernel");
    cr_expect_str_eq(found("_Z4fillPfi"), "_Z4fillPfi");
    cr_expect(strstr(found("fill"), "matches 2 kernels"), "%s", found("fill"));
    cr_expect(strstr(found("dbuf_kernel"), "matches 2 kernels"), "%s", found("dbuf_kernel"));
    cr_expect(strstr(found("nosuch(int)"), "no kernel 'nosuch(int)'"), "%s", found("nosuch(int)"));
    /* A device function is not a kernel ncu could name. */
    cr_expect(strstr(found("reverse_in_tile(float *, float)"), "no kernel"));
    unload();
}

Test(ptx, signatures_compare_apart_from_spelling)
{
    cr_expect(ptx_same_signature("k(const float *, float *, int)", "k(float const*, float*, int)"));
    cr_expect(ptx_same_signature("void k<32>(const float *)", "k<(int)32>(float const*)"));
    cr_expect(ptx_same_signature("void k<32u>(int)", "void k<32>(int)"));
    cr_expect_not(ptx_same_signature("k(float *, int)", "k(float *, float, int)"));
    cr_expect_not(ptx_same_signature("k<16>(int)", "k<32>(int)"));
    cr_expect_not(ptx_same_signature("a::k(int)", "b::k(int)"));
}

Test(ptx, a_device_function_counts_for_the_kernel_that_calls_it)
{
    load(PTX_DIR "names.ptx");
    ptx_kernel_stats s = kernel("reverse_via_call(const float *, float *)");
    cr_expect_eq(s.calls, 1);
    cr_expect_eq(s.barriers, 1);
    cr_expect_eq(s.shared_ld, 1);
    cr_expect_eq(s.shared_st, 1);
    cr_expect_eq(s.static_bytes, 256 * 4, "nvcc demotes the kernel's tile into the function");
    cr_expect(structure(&s, 1));
    unload();
}

/* ---- hand-written PTX: forms nvcc emits elsewhere ---------------------------- */

static const char *snippet =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    "/* a module-scope array two kernels use: not demoted */\n"
    ".shared .align 16 .b8 staging[8192];\n"
    ".func  (.param .b32 func_retval0) _Z4helpi(\n\t.param .b32 _Z4helpi_param_0\n)\n{\n"
    "\t.reg .b32 %r<3>;\n\tbarrier.cta.sync.aligned 0;\n\tret;\n}\n"
    ".visible .entry two_supersteps_per_trip(\n\t.param .u32 n\n)\n.maxntid 256, 1, 1\n{\n"
    "\t.reg .pred %p<2>;\n\t.reg .b32 %r<9>;\n\t.reg .f32 %f<9>;\n\t.reg .b64 %rd<3>;\n"
    "\t.shared .align 4 .b8 local_tiles[8192];\n"
    "\tmov.u64 %rd1, staging;\n"
    "$L__BB1_1:\n"
    "\tcp.async.ca.shared.global [%r1], [%rd2], 16;\n"
    "\tld.shared::cta.v4.f32 {%f1, %f2, %f3, %f4}, [%r2];\n"
    "\tbar.sync 0;\n"
    "\tst.shared.f32 [%r3], %f1;\n"
    "\tld.shared.f32 %f5, [%r4];\n"
    "\t{ // callseq 0, 0\n\t.param .b32 param0;\n\tst.param.b32 [param0+0], %r1;\n"
    "\t.param .b32 retval0;\n\tcall.uni (retval0), \n\t_Z4helpi, \n\t(\n\tparam0\n\t);\n\t} // callseq 0\n"
    "\tbar.warp.sync -1;\n"
    "\t@%p1 bra $L__BB1_1;\n"
    "\tatom.shared.add.u32 %r5, [%r6], 1;\n"
    "\tret;\n}\n"
    ".visible .entry other(\n)\n{\n\tmov.u64 %rd1, staging;\n\tld.shared.f32 %f1, [%rd1];\n\tret;\n}\n";

Test(ptx, hand_written_forms)
{
    char err[512] = "";
    cr_assert_eq(ptx_parse(snippet, &module, err, sizeof err), 0, "%s", err);
    cr_expect_eq(module.n_funcs, 3);
    cr_expect_eq(module.n_arrays, 1);
    ptx_kernel_stats s = kernel("two_supersteps_per_trip");
    cr_expect_eq(s.n_used, 2, "its own array and the module's it names");
    cr_expect_eq(s.static_bytes, 16384);
    cr_expect_eq(s.shared_ld, 2, "ld.shared::cta.v4 and ld.shared");
    cr_expect_eq(s.shared_st, 2, "cp.async into shared, st.shared");
    cr_expect_eq(s.shared_atom, 1);
    cr_expect_eq(s.barriers, 2, "bar.sync and the callee's barrier.cta.sync; not bar.warp.sync");
    cr_assert(s.has_kloop);
    cr_expect_eq(s.kloop.barriers, 2);
    cr_expect_eq(s.kloop.fill_and_read, 2, "both supersteps fill and read");
    char why[1024];
    cr_expect_eq(dbuf(&s, -1, why, sizeof why), PTX_DBUF_YES, "%s", why);
    ptx_kernel_stats o = kernel("other");
    cr_expect_eq(o.static_bytes, 8192);
    unload();
}

Test(ptx, not_ptx_is_an_error)
{
    char err[512] = "";
    cr_expect_eq(ptx_parse("int main(void) { return 0; }", &module, err, sizeof err), -1);
    cr_expect(strstr(err, "no .entry or .func"), "%s", err);
    ptx_free(&module);
    cr_expect_eq(ptx_read_file(PTX_DIR "no-such.ptx", &module, err, sizeof err), -1);
    cr_expect(strstr(err, "cannot read"), "%s", err);
}

/* ---- ncu's CSV --------------------------------------------------------------- */

Test(ptx, ncu_csv_gives_the_distinct_kernel_names_and_dynamic_shared_memory)
{
    char **names;
    long *dyn;
    char err[512] = "";
    int n = ptx_ncu_kernels(PTX_DIR "ncu-dbuf.csv", &names, &dyn, err, sizeof err);
    cr_assert_eq(n, 2, "%s", err);
    cr_expect_str_eq(names[0], "tl_poison_shared_kernel(int)");
    cr_expect_eq(dyn[0], 49150, "Kbyte: %ld", dyn[0]);
    cr_expect_str_eq(names[1], "dbuf_dynamic" MATMUL_ARGS);
    cr_expect_eq(dyn[1], 16384, "thousands separators: %ld", dyn[1]);
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(dyn);

    n = ptx_ncu_kernels("tests/fixtures/ncu-padded.csv", &names, &dyn, err, sizeof err);
    cr_assert_eq(n, 1, "%s", err);
    cr_expect_str_eq(names[0], "transpose_tile(const float *, float *, int, int)");
    cr_expect_eq(dyn[0], -1, "no such metric in that file");
    free(names[0]);
    free(names);
    free(dyn);

    cr_expect_eq(ptx_ncu_kernels("tests/fixtures/history.csv", &names, &dyn, err, sizeof err), -1);
    cr_expect(strstr(err, "Kernel Name"), "%s", err);
}

/* ---- accesses per source line (CPU mode's widths, cpu/judge.c) ------------- */

/* The fact of one line, space, direction and array; fails when there is none. */
static ptx_line_access line_access(const ptx_line_access *l, int n, int line, int shared, int store, const char *array)
{
    for (int i = 0; i < n; i++)
        if (l[i].line == line && l[i].shared == shared && l[i].store == store && !strcmp(l[i].array, array))
            return l[i];
    cr_assert_fail("no %s %s of %s at line %d among %d", shared ? "shared" : "global", store ? "store" : "load",
                   array[0] ? array : "(no array)", line, n);
    return l[0];
}

/* Hand-written, in nvcc's form (-lineinfo): a tile kernel's k loop, unrolled.
 * Line 31 reads As[ty][k..k+3] (one base register, offsets 0..12, the base
 * a 16-byte-aligned array plus ty * 128) and Bs[k..k+3][tx] (offsets 128
 * apart): ptxas makes the four As reads one 128-bit load, the Bs reads stay.
 * Line 40 reads a pair at offsets 4 and 8 of an aligned base: no aligned
 * chunk, nothing merges. Line 41: a pair after a barrier splits it; line 42
 * reads through a pointer parameter (global, alignment unknown): stays; line 43
 * is a float4 the PTX has whole already; file 2's line (a header) is left out. */
static const char line_ptx[] =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k(.param .u64 k_param_0)\n{\n"
    "\t.reg .b32 %r<20>;\n\t.reg .b64 %rd<8>;\n\t.reg .f32 %f<40>;\n"
    "\t.loc\t1 14 0\n"
    "\t.shared .align 4 .b8 _ZZ1kvE2As[4096];\n"
    "\t.shared .align 4 .b8 _ZZ1kvE2Bs[4096];\n"
    "\tld.param.u64 \t%rd1, [k_param_0];\n"
    "\tcvta.to.global.u64 \t%rd2, %rd1;\n"
    "\t.loc\t1 19 5\n"
    "\tmov.u32 \t%r1, %tid.y;\n\tmov.u32 \t%r2, %tid.x;\n"
    "\tshl.b32 \t%r3, %r1, 7;\n"
    "\tmov.u32 \t%r4, _ZZ1kvE2As;\n\tadd.s32 \t%r5, %r4, %r3;\n"
    "\tshl.b32 \t%r6, %r2, 2;\n"
    "\tmov.u32 \t%r7, _ZZ1kvE2Bs;\n\tadd.s32 \t%r8, %r7, %r6;\n"
    "\tbar.sync \t0;\n"
    "\t.loc\t1 31 13\n"
    "\tld.shared.f32 \t%f1, [%r8];\n\tld.shared.f32 \t%f2, [%r5];\n"
    "\tfma.rn.f32 \t%f3, %f2, %f1, %f3;\n"
    "\tld.shared.f32 \t%f4, [%r8+128];\n\tld.shared.f32 \t%f5, [%r5+4];\n"
    "\tld.shared.f32 \t%f6, [%r8+256];\n\tld.shared.f32 \t%f7, [%r5+8];\n"
    "\tld.shared.f32 \t%f8, [%r8+384];\n\tld.shared.f32 \t%f9, [%r5+12];\n"
    "\t.loc\t1 40 5\n"
    "\tld.shared.f32 \t%f10, [%r5+20];\n\tld.shared.f32 \t%f11, [%r5+24];\n"
    "\t.loc\t1 41 5\n"
    "\tld.shared.f32 \t%f12, [%r5+32];\n\tbar.sync \t0;\n\tld.shared.f32 \t%f13, [%r5+36];\n"
    "\t.loc\t1 42 5\n"
    "\tld.global.f32 \t%f14, [%rd2];\n\tld.global.f32 \t%f15, [%rd2+4];\n"
    "\tld.global.f32 \t%f16, [%rd2+8];\n\tld.global.f32 \t%f17, [%rd2+12];\n"
    "\t.loc\t1 43 5\n"
    "\tld.global.v4.f32 \t{%f20, %f21, %f22, %f23}, [%rd2+16];\n"
    "\t.loc\t2 7 3, function_name $L__info_string0, inlined_at 1 44 5\n"
    "\tst.global.f32 \t[%rd2], %f3;\n"
    "\tret;\n}\n"
    "\t.file\t1 \"labs/lab4-tiled-matmul/matmul.cu\"\n"
    "\t.file\t2 \"kit/tilelab.h\"\n";

Test(ptx, per_line_widths_merge_aligned_shared_neighbours_as_ptxas_does)
{
    char err[512] = "";
    cr_assert_eq(ptx_parse(line_ptx, &module, err, sizeof err), 0, "%s", err);
    cr_expect_eq(module.n_files, 2);
    ptx_line_access *l = NULL;
    /* Named as the kit's tools name the file: with the kit's folder in front. */
    int n = ptx_line_accesses(&module, "/home/me/tilelab/labs/lab4-tiled-matmul/matmul.cu", &l, err, sizeof err);
    cr_assert_gt(n, 0, "%s", err);
    ptx_line_access as = line_access(l, n, 31, 1, 0, "As"), bs = line_access(l, n, 31, 1, 0, "Bs");
    cr_expect_eq(as.ptx_insns, 4);
    cr_expect_eq(as.insns, 1, "four aligned As reads are one 128-bit load: %d", as.insns);
    cr_expect_eq(as.bytes, 16);
    cr_expect_eq(bs.insns, 4, "Bs reads 128 bytes apart stay apart: %d", bs.insns);
    cr_expect_eq(bs.bytes, 16);
    ptx_line_access unaligned = line_access(l, n, 40, 1, 0, "As");
    cr_expect_eq(unaligned.insns, 2, "offsets 20 and 24 are no aligned 8-byte chunk: %d", unaligned.insns);
    ptx_line_access barrier = line_access(l, n, 41, 1, 0, "As");
    cr_expect_eq(barrier.insns, 2, "nothing merges across a barrier: %d", barrier.insns);
    ptx_line_access global = line_access(l, n, 42, 0, 0, "");
    cr_expect_eq(global.insns, 4, "a parameter's pointer is not known aligned: %d", global.insns);
    cr_expect_eq(global.bytes, 16);
    ptx_line_access vec = line_access(l, n, 43, 0, 0, "");
    cr_expect_eq(vec.insns, 1);
    cr_expect_eq(vec.bytes, 16);
    for (int i = 0; i < n; i++)
        cr_expect_neq(l[i].line, 7, "the header's line (file 2) is not the lab file's");
    free(l);
    cr_expect_eq(ptx_line_accesses(&module, "labs/lab3-padding/transpose.cu", &l, err, sizeof err), -1);
    cr_expect(strstr(err, "names no file"), "%s", err);
    unload();
}

/* The kit's own lab 4 reference as nvcc compiles it (tests/fixtures/ptx/lab4.ptx):
 * 40 shared load instructions where the source reads 64 times, as ncu counted on
 * an H100 (cpu/agreement-h100.md, note (b)); lab 2's tile (tests/fixtures/ptx/lab2.ptx)
 * one to one. */
Test(ptx, per_line_widths_of_the_lab_references)
{
    char err[512] = "";
    ptx_line_access *l = NULL;
    load(PTX_DIR "lab4.ptx");
    int n = ptx_line_accesses(&module, "solutions/lab4-tiled-matmul/matmul.cu", &l, err, sizeof err);
    cr_assert_gt(n, 0, "%s", err);
    ptx_line_access as = line_access(l, n, 31, 1, 0, "As"), bs = line_access(l, n, 31, 1, 0, "Bs");
    cr_expect_eq(as.ptx_insns + bs.ptx_insns, 64);
    cr_expect_eq(as.insns + bs.insns, 40, "8 + 32: %d + %d", as.insns, bs.insns);
    cr_expect_eq(as.bytes + bs.bytes, 256);
    free(l);
    unload();
    load(PTX_DIR "lab2.ptx");
    n = ptx_line_accesses(&module, NULL, &l, err, sizeof err);
    cr_assert_gt(n, 0, "%s", err);
    for (int i = 0; i < n; i++)
        cr_expect_eq(l[i].insns, l[i].ptx_insns, "line %d: %d of %d", l[i].line, l[i].insns, l[i].ptx_insns);
    free(l);
    unload();
}

Test(ptx, same_path_is_a_path_with_or_without_folders_in_front)
{
    cr_expect(ptx_same_path("/kit/labs/a.cu", "labs/a.cu"));
    cr_expect(ptx_same_path("labs/a.cu", "/kit/labs/a.cu"));
    cr_expect(ptx_same_path("labs/a.cu", "./labs/a.cu"));
    cr_expect_not(ptx_same_path("/kit/xlabs/a.cu", "labs/a.cu"));
    cr_expect_not(ptx_same_path("labs/b.cu", "labs/a.cu"));
}

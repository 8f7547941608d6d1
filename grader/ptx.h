/*
 * ptx.h — the structure of the kernels a submission actually launched, read
 * from its `nvcc -ptx` output: shared arrays, shared loads and stores,
 * barriers, and the barriers of each loop. Host C only (no CUDA runtime):
 * it runs in CI without a GPU.
 *
 * Why per kernel: a grep over the whole file's PTX counts a tiled kernel that
 * is never launched next to the naive one that is. The grader learns the
 * launched kernels' names from ncu's CSV ("Kernel Name": demangled C++ such as
 * `transpose_padded(const float *, float *, int, int)`) and asks about those.
 *
 * What it cannot see (the PTX is before ptxas, and this reads text, not flow):
 *   - a loop the compiler fully unrolled is straight-line code, not a loop; a
 *     K-loop with a runtime trip count (K) stays a loop;
 *   - shared memory reached only through generic pointers (cvta to a generic
 *     address, then plain ld/st) is not counted as shared ld/st;
 *   - mbarrier-based (asynchronous) barriers are not block barriers here;
 *   - the order within a loop is the text's order: code the compiler moved
 *     out of line (after the loop's backward branch) is not in the loop;
 *   - dynamic (extern) shared memory has no size in the PTX: it is set at
 *     launch (ncu: launch__shared_mem_per_block_dynamic).
 */
#ifndef TILELAB_PTX_H
#define TILELAB_PTX_H

#include <stddef.h>

/* A shared array: declared in a function's body, or at module scope. */
typedef struct {
    char *name;      /* as in the PTX */
    long bytes;      /* -1: extern, sized at launch (dynamic shared memory) */
    long align;      /* its .align, 1 when none is given */
} ptx_array;

typedef enum {
    PTX_OTHER,
    PTX_SHARED_LD,   /* ld.shared, ld.shared::cta, ld.volatile.shared, ldmatrix...shared, .v2/.v4 */
    PTX_SHARED_ST,   /* st.shared..., cp.async...shared (fills shared memory) */
    PTX_SHARED_ATOM, /* atom.shared, red.shared: reads and writes */
    PTX_BARRIER,     /* bar.sync, bar.red, bar.arrive, barrier.sync, barrier.cta.* (not bar.warp.sync) */
    PTX_BRANCH,      /* bra, bra.uni: target is the label */
    PTX_CALL         /* call, call.uni: target is the callee */
} ptx_op;

typedef struct {
    ptx_op op;
    char *target;    /* PTX_BRANCH: label; PTX_CALL: callee; else NULL */
    char *text;      /* the statement, guard, opcode and operands (ptx_line_accesses reads it) */
    int file, line;  /* the .loc before it (-lineinfo): .file's number and the line; 0 without */
} ptx_insn;

typedef struct {
    char *name;
    int insn;        /* index of the instruction that follows the label */
} ptx_label;

typedef struct {
    char *name;          /* as in the PTX: mangled for C++ */
    char *demangled;     /* c++filt's, or NULL (not yet, or no c++filt) */
    int is_entry;        /* .entry (a kernel) or .func (a device function) */
    ptx_array *arrays;   /* shared arrays declared in the body (nvcc "demotes" a static one here) */
    int n_arrays;
    char **refs;         /* module-scope shared arrays the body names */
    int n_refs;
    ptx_insn *insns;
    int n_insns;
    ptx_label *labels;
    int n_labels;
    int loc_file, loc_line;   /* while parsing: the last .loc */
} ptx_function;

typedef struct {
    ptx_function *funcs;
    int n_funcs;
    ptx_array *arrays;   /* module scope, .extern ones included */
    int n_arrays;
    int demangle_tried;
    int demangle_failed;   /* c++filt missing or failed: names compare without parameters */
    char **files;          /* .file N "path": files[i] is number file_ids[i]'s path */
    int *file_ids;
    int n_files;
} ptx_module;

/* Parse PTX text / a PTX file. 0 on success; else -1 and the reason in err. */
int ptx_parse(const char *text, ptx_module *m, char *err, size_t errlen);
int ptx_read_file(const char *path, ptx_module *m, char *err, size_t errlen);
void ptx_free(ptx_module *m);

/* A loop: a backward branch to a label earlier in the same body. Counts
 * include what the functions called inside it do. */
typedef struct {
    int first, last;        /* instruction indices: the label's and the branch's */
    int barriers, shared_ld, shared_st, shared_atom;
    int fill_and_read;      /* supersteps (barrier to barrier, around the loop) that both
                               store to and load from shared memory */
} ptx_loop;

#define PTX_MAX_USED_ARRAYS 32

typedef struct {
    const ptx_function *fn;
    long static_bytes;                /* sum over the arrays used, extern ones left out */
    int dynamic;                      /* uses an extern (launch-sized) shared array */
    const ptx_array *used[PTX_MAX_USED_ARRAYS];
    int n_used;
    int shared_ld, shared_st, shared_atom, barriers;
    int loops, barriers_in_loops;
    int calls, unresolved_calls;      /* calls to functions not in this PTX are not followed */
    int has_kloop;                    /* the innermost loop with shared loads and a barrier */
    ptx_loop kloop;
} ptx_kernel_stats;

/* What kernel `fn` does, following its calls (recursively, once per path). */
void ptx_kernel_stats_of(const ptx_module *m, const ptx_function *fn, ptx_kernel_stats *s);

/* The kernel ncu names. `name` may be the PTX name (mangled, or plain for
 * extern "C"), ncu's demangled signature (`k(const float *, int)`,
 * `void dbuf_kernel<32>(const float *, ...)`), or a bare name (`k`,
 * `dbuf_kernel<32>`) when that is unambiguous. How: the PTX names are
 * demangled by c++filt (once per module), then both sides are compared as
 * name, template arguments and parameters, each type as its sorted words
 * ("const float *" == "float const*": ncu and c++filt spell types apart).
 * When that finds none, the name without template arguments plus the
 * parameter count, when only one kernel has both. NULL when none matches
 * (err lists the file's kernels) or two do. */
const ptx_function *ptx_find_kernel(ptx_module *m, const char *name, char *err, size_t errlen);

/* Demangle every name in the module with c++filt (once). 0 when c++filt ran. */
int ptx_demangle(ptx_module *m);

/* 1 when a demangled signature (ncu's or c++filt's) names the same function
 * as another: name, template arguments and parameter types, spelling aside. */
int ptx_same_signature(const char *a, const char *b);

/* The short name to print: demangled name without parameters or return type
 * (`dbuf_kernel<32>`), else the PTX name. Writes into buf. */
const char *ptx_display_name(const ptx_function *fn, char *buf, size_t len);

/* Labs 2-4, rubric `require shared barrier`: at least one of the kernels that
 * ran loads or stores shared memory and has a barrier. 1 met, 0 not; why
 * says which kernel, or what each lacks. */
int ptx_uses_shared_and_barrier(const ptx_kernel_stats *s, int n, char *why, size_t len);

/* Lab 5 part 3: double buffering, judged by structure. */
typedef enum {
    PTX_DBUF_NO = 0,
    PTX_DBUF_YES = 1,
    PTX_DBUF_UNVERIFIED = 2   /* one barrier per K-step, but the buffers are dynamic
                                 shared memory whose size is unknown here */
} ptx_dbuf_verdict;

/* The lab's tile: 32 x 32 floats per operand. */
#define PTX_LAB5_TILE_BYTES (32L * 32L * 4L)

/* Double-buffered when both hold:
 *   1. one barrier per K-step: the K-loop (innermost loop with shared loads
 *      and a barrier) has barriers, and every superstep of it (from a barrier
 *      to the next, around the loop) both stores to and loads from shared
 *      memory: the next tile is filled while the current one is read. One
 *      barrier per trip is the usual form; two per trip that each fill and
 *      read (two K-steps per trip, by hand or by the compiler's unrolling)
 *      pass too. Lab 4's schedule (fill | barrier | multiply | barrier) has a
 *      superstep that only stores and one that only loads: no.
 *   2. two buffers per operand: the kernel's shared memory is at least
 *      2 operands x 2 buffers x tile_bytes. PTX flattens arrays, so
 *      As[2][T][T] + Bs[2][T][T], four arrays of T x T, and padded [2][T][T+1]
 *      all show as bytes; one buffer per operand is 2 x tile_bytes.
 *      Dynamic shared memory counts dynamic_bytes (from ncu; -1 unknown:
 *      verdict UNVERIFIED when rule 1 holds).
 * Cannot see: a K-loop fully unrolled (K known at compile time: not in these
 * labs), buffers declared but left unused (As[2][T][T] with only [0] read:
 * racecheck finds the race that leaves), anything listed at the top. */
ptx_dbuf_verdict ptx_double_buffered(const ptx_kernel_stats *s, long tile_bytes, long dynamic_bytes,
                                     char *why, size_t len);

/* ncu --csv output: the distinct "Kernel Name" values, in order, and for each
 * its launch__shared_mem_per_block_dynamic in bytes when the CSV has that
 * metric (else -1). Returns the count (>= 0), or -1 with the reason in err. */
int ptx_ncu_kernels(const char *csv_path, char ***names, long **dynamic_bytes, char *err, size_t errlen);
/* The same, and for each kernel the FP32 FMAs, adds and multiplies together
 * (smsp__sass_thread_inst_executed_op_{ffma,fadd,fmul}_pred_on.sum)
 * and tensor-pipe instructions (smsp__inst_executed_pipe_tensor*.sum) it executed, every launch
 * summed, or -1 where the CSV has no such metric. ffma or tensor may be NULL. */
int ptx_ncu_kernels_work(const char *csv_path, char ***names, long **dynamic_bytes, double **ffma, double **tensor,
                         char *err, size_t errlen);

/* ---- accesses per source line, as nvcc compiles them (CPU mode's widths) ------
 *
 * CPU mode (cpu/judge.c) counts one request per access as g++ compiles the
 * lab file; nvcc may move the same bytes in fewer, wider instructions. This
 * gives, for each line of one source file (.loc, so the PTX needs
 * -lineinfo), each memory space and direction, how many load or store
 * instructions the compiled code has there and how many bytes they move per
 * thread: static counts, not executed ones (their ratio is the line's
 * average access width, which is what CPU mode uses).
 *
 * The PTX is before ptxas, and ptxas merges further: shared loads (and
 * stores) from one base register at constant offsets that fill an aligned
 * 16- or 8-byte chunk become one LDS.128 / LDS.64 (lab 4's four As[ty][k]
 * reads, which the PTX keeps as four ld.shared.f32: measured on an H100 as
 * 40 loads for the source's 64, cpu/agreement-h100.md). No disassembler comes
 * with every toolkit (nvdisasm, cuobjdump), so that merge is modelled here on
 * the PTX, conservatively: same base register, guard, width and basic block,
 * nothing between them that may write memory of that space, orders it (a
 * barrier, a fence, a call) or redefines the base, and the base provably
 * aligned (a shared array's place in the kernel's layout, shifts and
 * multiplies by constants: ptx_line_accesses' comments say how). Global
 * accesses through a kernel's pointer parameters are never provably aligned,
 * so they stay as the PTX has them (float4 ones are .v4 there already). */
typedef struct {
    int line;
    char array[64];  /* shared: the array as the source names it (As), "" when not known; global: "" */
    int shared;      /* 1: shared memory; 0: global */
    int store;       /* 1: st; 0: ld */
    int insns;       /* instructions at the line, after ptxas's merge as modelled */
    long bytes;      /* what they move per thread */
    int ptx_insns;   /* as the PTX has them, before the merge */
} ptx_line_access;

/* The accesses of every function in m at lines of `source` (a .file whose
 * path is source, or ends in "/" + source, or the other way round; NULL:
 * the first .file). One entry per line, space, direction and shared array
 * (followed from the array's address through moves and adds; "" where two
 * arrays meet or it is not known). Returns how many, with *out malloc'd
 * (free it), sorted by line, shared after global, stores after loads, then
 * array; -1 when no .file matches or the PTX has no line information (err
 * says which). */
int ptx_line_accesses(const ptx_module *m, const char *source, ptx_line_access **out, char *err, size_t errlen);

/* 1 when two paths name one file as the kit's tools spell them: equal, or one
 * is the other with folders in front ("/kit/labs/x.cu" and "labs/x.cu"). */
int ptx_same_path(const char *a, const char *b);

#endif

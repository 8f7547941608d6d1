/*
 * inspect.c — the static checks of a lab file, before anything of it runs.
 * Only what a static read alone can see: what the file is built from (its
 * includes), library code that would do the lab's work (thrust, CUB, cuBLAS,
 * ... compiled in or called), code it would load or compile at run time (which
 * no inspection could read), tensor-core instructions in a kernel its host code
 * launches where the lab is FP32, static device scratch, and global names that
 * collide with the worker's. Everything else its host code does (printing,
 * allocating, exit, streams, textures, exceptions, raw system calls) is judged at
 * run time: the lab file is mapped only inside the worker's sandbox
 * (kit/sandbox.c), which stops what may not happen, and the judge measures what
 * did (kit/remote.cu). The verdict depends on no host compiler's habits: a
 * static initialiser (iostream's, under g++ 12) is code like any other, run
 * inside the sandbox.
 *
 *   build/tools/inspect [--object student.o] [--ptx student.ptx]
 *                       [--deps student.d --source student.cu...] [--public PATH]...
 *                       [--cuda-home DIR] [--system DIR]... [--allow PATTERN]... [--rubric FILE]
 *
 *   --object FILE    the file as nvcc -c compiled it (a host ELF64 relocatable). Checks
 *                    that no outside symbol the file's reachable host code or data uses is
 *                    a library that does the lab's work or a way to load code at run time
 *                    (calls:, the refusals below; code nvcc generates that no launch can
 *                    reach, such as the host copy of a __device__ function, is not judged),
 *                    that nvcc's registration entry points are called from nvcc's own
 *                    registration code only (calls:), and that no global name it defines
 *                    collides with the worker's link (defines:; see --link-symbols). It also
 *                    tells which kernels the host code can launch, for --ptx.
 *   --link-symbols FILE  "NAME WHERE" lines: every name the worker's program defines or
 *                    imports besides the lab file (mk/kit.mk writes it from the link).
 *   --source-includes FILE  before the build: no #include of the file names a device file
 *                    (/dev/zero), a /proc or /sys file, a folder or another non-regular file
 *                    (includes:), or a file outside the file's own folder, the --public ones,
 *                    the toolkit's and the system's (a compiler error would quote it); only
 *                    stat() and realpath() are called on them.
 *   --ptx FILE       nvcc -ptx of the file: no kernel or device function of thrust, CUB,
 *                    CUTLASS, ... compiled into it, no device-side call but printf and
 *                    assert, no static device memory past the rubric's limit, and (rubric:
 *                    arithmetic fp32) no tensor-core instruction in a kernel the host code
 *                    launches, or in a function such a kernel calls (ptx:). Without --object
 *                    every kernel counts as launched.
 *   --deps FILE      make-style dependencies of the file (nvcc -M, or -MD -MF): each must be
 *   --source FILE    the file itself, a --public header, under the toolkit's include folders
 *                    or a system folder (includes:). Relative paths in FILE are read from the
 *                    current folder: run inspect where nvcc ran. --source may repeat: a copy
 *                    compiled under `#line 1 "original.cu"` lists both paths as dependencies.
 *   --public PATH    a header the lab file may include; a folder allows every file under it.
 *   --cuda-home DIR  the toolkit: DIR/include and DIR/targets/(any)/include are allowed
 *                    (default $CUDA_HOME, else /usr/local/cuda).
 *   --system DIR     one more system header folder (always: /usr/include, /usr/lib/gcc).
 *   --allow PATTERN  a call the refusals below would refuse that this lab allows, a shell
 *                    pattern ("cublas*").
 *   --rubric FILE    the lab's rubric: its `allowed_calls PATTERN...` line, when it has one,
 *                    adds patterns as --allow does.
 *   --source, --public, --system, --allow and --rubric may repeat; at least one of --object,
 *   --ptx, --deps is needed.
 *
 * Output: one finding per line on stdout, `KIND: NAME: sentence`, KIND one of includes,
 * ptx, calls, defines (in that order: causes first); NAME a symbol, a library or a
 * path, never holding ": ".
 * Nothing at all when the file is clean.
 * Exit status: 0 clean, 1 something is not allowed, 2 cannot run (why, on stderr). It
 * takes time and memory in proportion to the file (many thousands of functions read in
 * seconds); ./grade runs it under the build's limits all the same.
 */
#define _DEFAULT_SOURCE   /* realpath, strdup, open_memstream */
#include <elf.h>
#include <errno.h>
#include <fnmatch.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "launches.h"
#include "paths.h"

enum { EXIT_CLEAN = 0, EXIT_REFUSED = 1, EXIT_CANNOT_RUN = 2 };

/* ---- what a call may not be: data ------------------------------------------ */

/* What the host code of a lab file may do is the sandbox's to decide, at run
 * time (kit/sandbox.c): printing, host allocation, exit, streams, events,
 * textures, symbol copies, memsets, C++ exceptions and containers are all
 * allowed here, and a forbidden system call, an exit or a crash costs the
 * request it happens in. What stays static is what only a static read can
 * see: a library that does the lab's work (its kernels or its calls look
 * like the file's own to every run-time measure but the counters), and code
 * loaded at run time, which no inspection of this file could read. A call is
 * refused when it matches one of these rows; the first row that matches gives
 * the reason. A rubric's allowed_calls (or --allow) lifts a row for one name. */
#define NEXT_KERNEL "do the work in a kernel of your own, launched from the launch function"
static const struct refusal {
    const char *patterns, *why, *next;
} refusals[] = {
    {"dlopen dlmopen dlsym dlvsym", "loads a library at run time (a library reached through dlopen is still a "
     "library, and its code is none the inspector read)", NEXT_KERNEL},
    {"cublas*", "calls cuBLAS", NEXT_KERNEL},
    {"cusparse*", "calls cuSPARSE", NEXT_KERNEL},
    {"cufft*", "calls cuFFT", NEXT_KERNEL},
    {"cusolver*", "calls cuSOLVER", NEXT_KERNEL},
    {"curand*", "calls cuRAND", NEXT_KERNEL},
    {"npp*", "calls NPP", NEXT_KERNEL},
    {"cudnn* cutensor*", "calls a CUDA library", NEXT_KERNEL},
    {"nvrtc* nvJitLink* nvPTXCompiler* cuLink*", "compiles device code at run time, which the inspector cannot read",
     NEXT_KERNEL},
    {"cuModuleLoad* cuLibraryLoad* cudaLibraryLoad* cuModuleGetFunction cuLibraryGetKernel cudaLibraryGetKernel",
     "loads a CUDA module at run time, whose kernels the inspector cannot read", NEXT_KERNEL},
    {"cuGetProcAddress* cudaGetDriverEntryPoint*",
     "looks up CUDA driver functions by name at run time (as dlsym does)", NEXT_KERNEL},
};

/* nvcc's registration entry points: its own static initialiser calls them to
 * register the file's one module. Called from anywhere else, they register a
 * second module (a fat binary embedded as data) whose kernels no inspection
 * read: refused by name here, and by effect at run time (its memory and its
 * tensor-pipe work are measured). */
static const char *const registration_calls =
    "__cudaRegisterFatBinary __cudaRegisterFatBinaryEnd __cudaRegisterFunction __cudaRegisterVar "
    "__cudaRegisterManagedVar __cudaRegisterTexture __cudaRegisterSurface __cudaRegisterLinkedBinary* "
    "__cudaInitModule __cudaUnregisterFatBinary";

/* nvcc's static initialiser: it registers the file's kernels and variables
 * (its registration callback is inlined into it, or a function named
 * __nv_cudaEntityRegisterCallback). */
#define NVCC_STATIC_INIT "_ZL24__sti____cudaRegisterAllv"
static int nvcc_registration(const char *name)
{
    return !strcmp(name, NVCC_STATIC_INIT) || strstr(name, "__nv_cudaEntityRegisterCallback") ||
           strstr(name, "__cudaUnregisterBinaryUtil") || strstr(name, "__nv_save_fatbinhandle_for_managed_rt");
}

/* What inspect reads of the lab's rubric (grader/rubric.c checks the same lines). */
static struct {
    int fp32_only;                 /* arithmetic fp32: no tensor-core instructions */
    double static_device_bytes;    /* static_device_bytes_max; 0: DEFAULT_STATIC_DEVICE_BYTES */
} rubric;

/* Device-side calls a kernel may make without -rdc: printf and assert. */
static const char *const allowed_device_calls[] = {"vprintf", "__assertfail"};

/* Namespaces of device libraries, as they appear in mangled names. */
static const struct library {
    const char *ns, *name;
} libraries[] = {
    {"thrust", "thrust"}, {"cub", "CUB"}, {"cutlass", "CUTLASS"}, {"cute", "CuTe (CUTLASS)"},
    {"cublasdx", "cuBLASDx"}, {"cufftdx", "cuFFTDx"}, {"cusolverdx", "cuSOLVERDx"}, {"curanddx", "cuRANDDx"},
};

/* Always-allowed system header folders: the C and C++ libraries, gcc's own. */
static const char *const system_dirs[] = {"/usr/include", "/usr/lib/gcc"};

/* ---- small helpers --------------------------------------------------------- */

static int findings;
/* Findings wait here and are printed only when every check ran: an input
 * that cannot be read gives exit 2 and no half list. */
static char *found_text;
static size_t found_size;
static FILE *found;

static void finding(const char *kind, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void finding(const char *kind, const char *name, const char *fmt, ...)
{
    fprintf(found, "%s: %s: ", kind, name);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(found, fmt, ap);
    va_end(ap);
    fputc('\n', found);
    findings++;
}

static void cannot_run(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void cannot_run(const char *fmt, ...)
{
    fputs("inspect: ", stderr);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(EXIT_CANNOT_RUN);
}

typedef struct {
    const char **items;
    size_t n, cap;
} list;

static void list_add(list *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->items = realloc(l->items, l->cap * sizeof *l->items);
        if (!l->items)
            cannot_run("out of memory");
    }
    l->items[l->n++] = s;
}

static int list_has(const list *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->items[i], s))
            return 1;
    return 0;
}

/* The whole file, NUL-terminated; exits 2 when it cannot be read. */
static char *read_whole(const char *path, const char *what, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        cannot_run("cannot read %s %s: %s", what, path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, (cap *= 2) + 1);
    }
    if (!buf)
        cannot_run("out of memory reading %s", path);
    int failed = ferror(f);
    fclose(f);
    if (failed)
        cannot_run("cannot read %s %s: read error", what, path);
    buf[n] = '\0';
    *len = n;
    return buf;
}

/* Whether `name` matches one of the space-separated shell patterns. */
static int matches_any(const char *patterns, const char *name)
{
    char pattern[64];
    for (const char *p = patterns; *p;) {
        size_t len = strcspn(p, " ");
        if (len > 0 && len < sizeof pattern) {
            memcpy(pattern, p, len);
            pattern[len] = '\0';
            if (fnmatch(pattern, name, 0) == 0)
                return 1;
        }
        p += len;
        p += strspn(p, " ");
    }
    return 0;
}

/* libstdc++'s demangler: students read C++ names, not mangled ones. */
extern char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

/* What to call a symbol in a sentence: demangled, cut to a readable length. */
static const char *readable(const char *symbol)
{
    static char buf[160];
    if (!strncmp(symbol, "_GLOBAL__sub_I", 14))
        return "the initialiser of a global object (its constructor, or its destructor's registration)";
    if (!strncmp(symbol, "_GLOBAL__sub_D", 14))
        return "the destructor of a global object";
    int status = -1;
    char *demangled = strncmp(symbol, "_Z", 2) ? NULL : __cxa_demangle(symbol, NULL, NULL, &status);
    const char *text = status == 0 && demangled ? demangled : symbol;
    if (strlen(text) < sizeof buf)
        snprintf(buf, sizeof buf, "%s", text);
    else
        snprintf(buf, sizeof buf, "%.*s...", (int)sizeof buf - 4, text);
    free(demangled);
    return buf;
}

/* ---- the object file (ELF64, read with <elf.h>) ---------------------------- */

typedef struct {
    const char *path;
    unsigned char *data;
    size_t size;
    const Elf64_Shdr *sections;
    size_t nsections;
    const char *section_names;
    size_t section_names_size;
    const Elf64_Sym *symbols;
    size_t nsymbols, symtab_index;
    const char *names;
    size_t names_size;
} elf_object;

/* A section's bytes, or NULL when it has none in the file or they lie outside it. */
static const unsigned char *section_bytes(const elf_object *o, size_t index, size_t *size)
{
    const Elf64_Shdr *s = &o->sections[index];
    if (s->sh_type == SHT_NOBITS || s->sh_offset > o->size || s->sh_size > o->size - s->sh_offset)
        return NULL;
    *size = s->sh_size;
    return o->data + s->sh_offset;
}

static const char *string_at(const char *table, size_t size, size_t offset)
{
    if (!table || offset >= size || !memchr(table + offset, '\0', size - offset))
        return "";
    return table + offset;
}

static const char *section_name(const elf_object *o, size_t index)
{
    return string_at(o->section_names, o->section_names_size, o->sections[index].sh_name);
}

static const char *symbol_name(const elf_object *o, size_t index)
{
    return index < o->nsymbols ? string_at(o->names, o->names_size, o->symbols[index].st_name) : "";
}

static void elf_load(elf_object *o, const char *path)
{
    memset(o, 0, sizeof *o);
    o->path = path;
    o->data = (unsigned char *)read_whole(path, "the object file", &o->size);
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o->data;
    if (o->size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0)
        cannot_run("%s is not an ELF object file: pass the .o that nvcc -c wrote", path);
    if (eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB || eh->e_type != ET_REL)
        cannot_run("%s is not a 64-bit little-endian relocatable object: pass the .o that nvcc -c wrote "
                   "(not a linked program or library)", path);
    if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff > o->size || eh->e_shoff % 8)
        cannot_run("%s has no readable section table: is it truncated? Compile it again", path);
    o->sections = (const Elf64_Shdr *)(o->data + eh->e_shoff);
    o->nsections = eh->e_shnum;
    if (o->nsections == 0 && o->size - eh->e_shoff >= sizeof(Elf64_Shdr))
        o->nsections = o->sections[0].sh_size;   /* more than SHN_LORESERVE sections */
    if (o->nsections == 0 || o->nsections > (o->size - eh->e_shoff) / sizeof(Elf64_Shdr))
        cannot_run("%s has no readable section table: is it truncated? Compile it again", path);
    size_t names_index = eh->e_shstrndx == SHN_XINDEX ? o->sections[0].sh_link : eh->e_shstrndx;
    size_t size;
    if (names_index < o->nsections && section_bytes(o, names_index, &size)) {
        o->section_names = (const char *)section_bytes(o, names_index, &size);
        o->section_names_size = size;
    }
    for (size_t i = 0; i < o->nsections; i++) {
        if (o->sections[i].sh_type != SHT_SYMTAB)
            continue;
        const unsigned char *bytes = section_bytes(o, i, &size);
        size_t link = o->sections[i].sh_link;
        size_t names_size;
        const unsigned char *names = link < o->nsections ? section_bytes(o, link, &names_size) : NULL;
        if (!bytes || !names || (uintptr_t)bytes % 8)
            cannot_run("%s has a symbol table that cannot be read: is it truncated? Compile it again", path);
        o->symbols = (const Elf64_Sym *)bytes;
        o->nsymbols = size / sizeof(Elf64_Sym);
        o->symtab_index = i;
        o->names = (const char *)names;
        o->names_size = names_size;
    }
    if (!o->symbols)
        cannot_run("%s has no symbol table (stripped?): pass the .o exactly as nvcc -c wrote it", path);
}

/* Calls `visit` for every relocation that applies to section `target`
 * (every section when target is (size_t)-1). */
typedef void (*relocation_visitor)(const elf_object *o, size_t target, const Elf64_Rela *r, void *ctx);
static void each_relocation(const elf_object *o, size_t target, relocation_visitor visit, void *ctx)
{
    for (size_t i = 0; i < o->nsections; i++) {
        const Elf64_Shdr *s = &o->sections[i];
        if (s->sh_type == SHT_REL && s->sh_link == o->symtab_index)
            cannot_run("%s has REL relocations (no addends): inspect reads x86-64 and AArch64 objects, "
                       "which use RELA; compile for one of them", o->path);
        if (s->sh_type != SHT_RELA || s->sh_link != o->symtab_index)
            continue;
        if (target != (size_t)-1 && s->sh_info != target)
            continue;
        size_t size;
        const unsigned char *bytes = section_bytes(o, i, &size);
        if (!bytes || (uintptr_t)bytes % 8)
            cannot_run("%s has a relocation section that cannot be read: compile it again", o->path);
        for (size_t k = 0; k < size / sizeof(Elf64_Rela); k++)
            visit(o, s->sh_info, (const Elf64_Rela *)bytes + k, ctx);
    }
}

/* ---- check 1: calls that do the lab's work, or load code ------------------ */

static int is_allowed_call(const char *name, const list *extra)
{
    for (size_t i = 0; i < extra->n; i++)
        if (fnmatch(extra->items[i], name, 0) == 0)
            return 1;
    return 0;
}

/* The refusal row a call matches, or NULL when the call is the run time's to judge. */
static const struct refusal *refusal_of(const char *name)
{
    for (size_t i = 0; i < sizeof refusals / sizeof *refusals; i++)
        if (matches_any(refusals[i].patterns, name))
            return &refusals[i];
    return NULL;
}

static void refuse_call(const char *name, const char *context, const char *why, const char *next)
{
    finding("calls", name, "%s%s %s: not allowed in a lab file. Next: %s.", readable(name), context, why, next);
}

/* ---- the host code that can run: reachability over relocations ----------- */

/* nvcc compiles every file twice, and the host half holds code no launch ever
 * runs: the host copy of each non-inline __device__ function (a body that
 * calls exit, since a device function cannot run on the host), template and
 * cooperative-groups instances of those, unused inline helpers. The allow-list
 * judges only what can run: the functions reachable from the program's way
 * into the file (its launch functions and nvcc's registration, through
 * .init_array) and from its data (a table of function pointers is a way in
 * too). Edges are the object's relocations, function by function.
 *
 * A node is a sized function symbol, or the rest of a section (what no function
 * symbol covers). Roots: the launch functions (allowed_definitions), and every
 * data section but unwind and debug information (which name every function
 * but call none). A computed jump from a
 * reachable function into a dead one is not seen; that needs inline assembly,
 * which could as well make the system call itself: the sandbox, entered before
 * any of the file's code runs, is the boundary for both. */
typedef struct {
    size_t section;
    Elf64_Addr start, end;   /* a function's bytes; a section rest: the whole section */
    const char *name;        /* the function's symbol, or the section's name */
    int function, reachable;
    int blocked;             /* nvcc's registration, for launched_functions: it leads nowhere */
    int queued;              /* graph_reach: reached, its edges followed or about to be */
} code_node;

typedef struct {
    code_node *nodes;
    size_t n, functions;     /* nodes[0..functions) are functions, then one rest per section */
} code_graph;

/* Sections whose relocations are no calls: unwind tables, debug information. */
static int section_inert(const elf_object *o, size_t index)
{
    const char *name = section_name(o, index);
    return !strncmp(name, ".eh_frame", 9) || !strncmp(name, ".debug", 6) || !strncmp(name, ".note", 5) ||
           !strcmp(name, ".comment") || o->sections[index].sh_type == SHT_GROUP;
}

static int is_launch_function(const char *name);

static int compare_nodes(const void *a, const void *b)
{
    const code_node *x = a, *y = b;
    if (x->section != y->section)
        return x->section < y->section ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

static void graph_build(const elf_object *o, code_graph *g)
{
    g->nodes = calloc(o->nsymbols + o->nsections + 1, sizeof *g->nodes);
    if (!g->nodes)
        cannot_run("out of memory");
    for (size_t i = 1; i < o->nsymbols; i++) {
        const Elf64_Sym *sym = &o->symbols[i];
        int type = ELF64_ST_TYPE(sym->st_info);
        if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym->st_shndx == SHN_UNDEF ||
            sym->st_shndx >= o->nsections || sym->st_size == 0)
            continue;
        code_node *n = &g->nodes[g->n++];
        n->section = sym->st_shndx;
        n->start = sym->st_value;
        n->end = sym->st_value + sym->st_size;
        n->name = symbol_name(o, i);
        n->function = 1;
        int bind = ELF64_ST_BIND(sym->st_info);
        n->reachable = (bind == STB_GLOBAL || bind == STB_WEAK) && is_launch_function(n->name);
    }
    qsort(g->nodes, g->n, sizeof *g->nodes, compare_nodes);   /* by section and start: graph_at */
    g->functions = g->n;
    for (size_t i = 0; i < o->nsections; i++) {
        code_node *n = &g->nodes[g->n++];
        n->section = i;
        n->start = 0;
        n->end = o->sections[i].sh_size;
        n->name = section_name(o, i);
        /* Data is a way in (a table of function pointers); code no sized
         * symbol covers is reached like a function, by a reference to it. */
        n->reachable = i > 0 && (o->sections[i].sh_flags & SHF_ALLOC) && !(o->sections[i].sh_flags & SHF_EXECINSTR) &&
                       !section_inert(o, i);
    }
}

/* The node holding byte `at` of section `section`: a function, else the section's rest.
 * The functions are sorted by section and start (graph_build): a binary search, so a
 * file of many thousands of functions is read in a moment, not in minutes. */
static code_node *graph_at(const elf_object *o, code_graph *g, size_t section, Elf64_Addr at)
{
    size_t lo = 0, hi = g->functions;   /* the first node after (section, at) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const code_node *n = &g->nodes[mid];
        if (n->section < section || (n->section == section && n->start <= at))
            lo = mid + 1;
        else
            hi = mid;
    }
    /* Functions may overlap (aliases, a function inside another's bytes): a few back. */
    for (size_t i = lo, tries = 0; i > 0 && tries < 64; i--, tries++) {
        code_node *n = &g->nodes[i - 1];
        if (n->section != section)
            break;
        if (at >= n->start && at < n->end)
            return n;
    }
    return section < o->nsections ? &g->nodes[g->functions + section] : NULL;
}

/* PC-relative relocations address the byte after a 4-byte field: the target is addend + 4. */
static int pc_relative(const elf_object *o, const Elf64_Rela *r)
{
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)o->data;
    unsigned type = ELF64_R_TYPE(r->r_info);
    if (eh->e_machine != EM_X86_64)
        return 0;
    return type == R_X86_64_PC32 || type == R_X86_64_PLT32 || type == R_X86_64_GOTPCREL ||
           type == R_X86_64_GOTPCRELX || type == R_X86_64_REX_GOTPCRELX || type == R_X86_64_PC64;
}

/* What a relocation points at: a node of this object, or NULL for an undefined symbol. */
static code_node *graph_target(const elf_object *o, code_graph *g, const Elf64_Rela *r)
{
    size_t index = ELF64_R_SYM(r->r_info);
    if (index == 0 || index >= o->nsymbols)
        return NULL;
    const Elf64_Sym *sym = &o->symbols[index];
    if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= o->nsections)
        return NULL;
    Elf64_Addr at = sym->st_value;
    if (ELF64_ST_TYPE(sym->st_info) == STT_SECTION)
        at += (Elf64_Addr)(r->r_addend + (pc_relative(o, r) ? 4 : 0));
    return graph_at(o, g, sym->st_shndx, at);
}

/* The graph's edges, one per relocation between two of its nodes, grouped by
 * the node they leave (first[k]..first[k+1] in to[]). */
typedef struct {
    size_t *first, *to, n;
    size_t *pair_from, *pair_to, cap;
} graph_edges;

struct edge_scan {
    code_graph *g;
    graph_edges *e;
};

static void collect_edge(const elf_object *o, size_t target, const Elf64_Rela *r, void *ctx)
{
    struct edge_scan *scan = ctx;
    code_node *from = graph_at(o, scan->g, target, r->r_offset), *to = graph_target(o, scan->g, r);
    if (!from || !to || from == to)
        return;
    graph_edges *e = scan->e;
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 1024;
        e->pair_from = realloc(e->pair_from, e->cap * sizeof *e->pair_from);
        e->pair_to = realloc(e->pair_to, e->cap * sizeof *e->pair_to);
        if (!e->pair_from || !e->pair_to)
            cannot_run("out of memory");
    }
    e->pair_from[e->n] = (size_t)(from - scan->g->nodes);
    e->pair_to[e->n++] = (size_t)(to - scan->g->nodes);
}

static void reach(code_graph *g, size_t k, size_t *queue, size_t *tail)
{
    if (!g->nodes[k].queued) {
        g->nodes[k].reachable = 1;
        g->nodes[k].queued = 1;
        queue[(*tail)++] = k;
    }
}

/* Marks every node reachable from the roots: a walk over the edges, each node
 * once. The assembler resolves a call between two functions of one section
 * itself, leaving no relocation: so a section is judged whole. The file is
 * compiled with -ffunction-sections (mk/submission.mk), which gives each
 * function a section of its own; where several still share one (a section
 * attribute, top-level assembly), one reachable makes them all reachable. A
 * blocked node (nvcc's registration, for launched_functions) is reached but
 * leads nowhere. */
static void graph_reach(const elf_object *o, code_graph *g)
{
    graph_edges e = {0};
    struct edge_scan scan = {g, &e};
    each_relocation(o, (size_t)-1, collect_edge, &scan);
    e.first = calloc(g->n + 1, sizeof *e.first);
    e.to = malloc((e.n + 1) * sizeof *e.to);
    /* The functions of each section: section_first[s]..section_first[s+1] in section_nodes[]. */
    size_t *section_first = calloc(o->nsections + 1, sizeof *section_first);
    size_t *section_nodes = malloc((g->functions + 1) * sizeof *section_nodes);
    size_t *queue = malloc((g->n + 1) * sizeof *queue), head = 0, tail = 0;
    if (!e.first || !e.to || !section_first || !section_nodes || !queue)
        cannot_run("out of memory");
    for (size_t i = 0; i < e.n; i++)
        e.first[e.pair_from[i] + 1]++;
    for (size_t k = 0; k < g->n; k++)
        e.first[k + 1] += e.first[k];
    size_t *fill = calloc(g->n + 1, sizeof *fill);
    if (!fill)
        cannot_run("out of memory");
    for (size_t i = 0; i < e.n; i++)
        e.to[e.first[e.pair_from[i]] + fill[e.pair_from[i]]++] = e.pair_to[i];
    for (size_t k = 0; k < g->functions; k++)   /* sorted by section: each section's run is contiguous */
        section_first[g->nodes[k].section + 1]++, section_nodes[k] = k;
    for (size_t s = 0; s < o->nsections; s++)
        section_first[s + 1] += section_first[s];
    for (size_t k = 0; k < g->n; k++)
        if (g->nodes[k].reachable)
            reach(g, k, queue, &tail);
    while (head < tail) {
        size_t k = queue[head++];
        code_node *n = &g->nodes[k];
        if (n->blocked)
            continue;
        for (size_t i = e.first[k]; i < e.first[k + 1]; i++)
            if (!g->nodes[e.to[i]].queued)
                reach(g, e.to[i], queue, &tail);
        if (n->section < o->nsections) {
            for (size_t i = section_first[n->section]; i < section_first[n->section + 1]; i++)
                if (!g->nodes[section_nodes[i]].queued)
                    reach(g, section_nodes[i], queue, &tail);
            size_t rest = g->functions + n->section;
            if (n->function && !g->nodes[rest].queued)
                reach(g, rest, queue, &tail);
        }
    }
    free(fill), free(queue), free(section_nodes), free(section_first);
    free(e.first), free(e.to), free(e.pair_from), free(e.pair_to);
}

struct external_scan {
    code_graph *g;
    list *called;         /* undefined names referenced from reachable code or data */
    list *registering;    /* nvcc's registration entry points referenced from anywhere but nvcc's own code */
};

static void collect_external(const elf_object *o, size_t target, const Elf64_Rela *r, void *ctx)
{
    struct external_scan *scan = ctx;
    size_t index = ELF64_R_SYM(r->r_info);
    if (index == 0 || index >= o->nsymbols || o->symbols[index].st_shndx != SHN_UNDEF)
        return;
    code_node *from = graph_at(o, scan->g, target, r->r_offset);
    if (!from || !from->reachable)
        return;
    const char *name = symbol_name(o, index);
    if (!*name)
        return;
    if (!list_has(scan->called, name))
        list_add(scan->called, name);
    if (matches_any(registration_calls, name) && !(from->function && nvcc_registration(from->name)) &&
        !list_has(scan->registering, name))
        list_add(scan->registering, name);
}

/* The host functions the file's own code can reach without passing through
 * nvcc's registration (which names every kernel): a kernel whose host stub is
 * among them is one the launch functions (or a constructor, or a table in the
 * file's data) can launch; the others are left in the file and never run.
 * A jump that no relocation names is not seen: the run time's counts are the
 * judge of what ran (the tensor-pipe count of every kernel a request ran). */
static void launched_functions(const elf_object *o, list *launched)
{
    code_graph g = {0};
    graph_build(o, &g);
    for (size_t i = 0; i < g.functions; i++)
        g.nodes[i].blocked = nvcc_registration(g.nodes[i].name);
    graph_reach(o, &g);
    for (size_t i = 0; i < g.functions; i++)
        if (g.nodes[i].reachable && !g.nodes[i].blocked && !list_has(launched, g.nodes[i].name))
            list_add(launched, g.nodes[i].name);
    free(g.nodes);
}

static void check_calls(const elf_object *o, const list *extra)
{
    code_graph g = {0};
    graph_build(o, &g);
    graph_reach(o, &g);
    list called = {0}, registering = {0};
    struct external_scan scan = {&g, &called, &registering};
    each_relocation(o, (size_t)-1, collect_external, &scan);
    /* An undefined symbol no relocation names is no call: still, a weak or
     * global one with no use is harmless, so only the used ones are judged. */
    for (size_t i = 0; i < called.n; i++) {
        const char *name = called.items[i];
        if (is_allowed_call(name, extra))
            continue;
        const struct refusal *r = refusal_of(name);
        if (r)
            refuse_call(name, "", r->why, r->next);
        else if (list_has(&registering, name))
            refuse_call(name, " (called outside nvcc's own registration code)",
                        "registers a CUDA module of the file's own making (a fat binary kept as data), whose "
                        "kernels the inspector cannot read", NEXT_KERNEL);
    }
    free(called.items);
    free(registering.items);
    free(g.nodes);
}

/* ---- check 3: library code in the PTX -------------------------------------- */

/* The libraries (bit l: libraries[l]) whose namespaces `mangled` names as one
 * of its source names (<length><identifier>, Itanium ABI): a CUB kernel
 * instantiated with thrust iterators names both. Each digit run is tried as a
 * length; a wrong try only compares a few bytes. */
static unsigned libraries_of(const char *mangled)
{
    unsigned found = 0;
    for (const char *p = mangled; *p; p++) {
        if (*p < '0' || *p > '9' || (p > mangled && p[-1] >= '0' && p[-1] <= '9'))
            continue;
        char *end;
        unsigned long len = strtoul(p, &end, 10);
        for (size_t l = 0; l < sizeof libraries / sizeof *libraries; l++)
            if (strlen(libraries[l].ns) == len && !strncmp(end, libraries[l].ns, len))
                found |= 1u << l;
    }
    return found;
}

/* The name declared by a PTX `.entry` or `.func` line, into `name`; 0 when the
 * line declares none. `external` says whether it is an .extern declaration. */
static int ptx_declared(const char *line, char *name, size_t size, int *external)
{
    line += strspn(line, " \t");
    if (*line != '.')
        return 0;   /* instructions, labels, braces */
    const char *at = NULL;
    for (const char *p = line; (p = strstr(p, ".")); p++) {
        if (!strncmp(p, ".entry", 6) && (p[6] == ' ' || p[6] == '\t'))
            at = p + 6;
        else if (!strncmp(p, ".func", 5) && (p[5] == ' ' || p[5] == '\t' || p[5] == '('))
            at = p + 5;
        if (at)
            break;
    }
    if (!at)
        return 0;
    *external = strstr(line, ".extern") && strstr(line, ".extern") < at;
    at += strspn(at, " \t");
    if (*at == '(') {   /* the return parameter: .func (.param .b32 r) name( */
        at = strchr(at, ')');
        if (!at)
            return 0;
        at += 1 + strspn(at + 1, " \t");
    }
    size_t len = strcspn(at, " \t(;,\r\n");
    if (len == 0 || len >= size)
        return 0;
    memcpy(name, at, len);
    name[len] = '\0';
    return 1;
}

/* Static device memory (__device__ and __managed__ variables) a file may
 * declare, unless its rubric says otherwise: more is scratch, which no lab
 * needs (cudaMalloc is refused for the same reason). tilelab.h's pattern
 * table takes 1280 bytes of it. */
#define DEFAULT_STATIC_DEVICE_BYTES 65536.0

/* The bytes a PTX `.global` variable declaration holds ("  .global .align 4
 * .b8 scratch[4096];"), its name in `name`; -1 when the line declares none
 * (an .extern one allocates nothing). */
static double ptx_global_bytes(const char *line, char *name, size_t size)
{
    line += strspn(line, " \t");
    const char *global = strstr(line, ".global ");
    /* A kernel's parameter list holds no .global; `.attribute(.managed)` is a variable's. */
    if (*line != '.' || !global || strstr(line, ".extern") || strstr(line, ".entry") || strstr(line, ".func") ||
        (strchr(line, '(') && !strstr(line, ".attribute(")))
        return -1;
    static const struct { const char *type; int bytes; } types[] = {
        {".b8 ", 1}, {".u8 ", 1}, {".s8 ", 1}, {".b16 ", 2}, {".u16 ", 2}, {".s16 ", 2}, {".f16 ", 2},
        {".b32 ", 4}, {".u32 ", 4}, {".s32 ", 4}, {".f32 ", 4}, {".b64 ", 8}, {".u64 ", 8}, {".s64 ", 8},
        {".f64 ", 8}, {".b128 ", 16},
    };
    const char *at = NULL;
    double bytes = 0;
    for (size_t i = 0; i < sizeof types / sizeof *types && !at; i++)
        if ((at = strstr(global, types[i].type)))
            bytes = types[i].bytes, at += strlen(types[i].type);
    if (!at)
        return -1;
    at += strspn(at, " \t");
    size_t len = strcspn(at, "[ \t;=");
    snprintf(name, size, "%.*s", (int)(len < size ? len : size - 1), at);
    for (const char *p = at + len; *p == '['; ) {
        char *end;
        double n = strtod(p + 1, &end);
        if (*end != ']')
            break;
        bytes *= n > 0 ? n : 1;
        p = end + 1;
    }
    return bytes;
}

/* ---- tensor cores, kernel by kernel ------------------------------------------ */

/* A function of the PTX as the tensor rule reads it: the first tensor-core
 * instruction of its own body, and the functions it calls. */
typedef struct {
    char *name;
    int entry;
    char tensor[64];
    list calls;
} ptx_function;

typedef struct {
    ptx_function *f;
    size_t n, cap;
} ptx_functions;

static int ptx_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           c == '%' || c == '.';
}

/* The tensor-core instruction (mma.sync, wmma.*, wgmma.*, tcgen05.*) that starts at
 * `p`, or 0: wherever it stands in its line (after a predicate, a brace of an inline
 * asm scope, a label or another statement), since PTX does not care. */
static size_t ptx_tensor_at(const char *line, const char *p)
{
    static const char *const ops[] = {"mma.", "wmma.", "wgmma.", "tcgen05."};
    if (p > line && ptx_ident(p[-1]))
        return 0;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strncmp(p, ops[i], strlen(ops[i])))
            return strcspn(p, " \t;,{}");
    return 0;
}

/* The function a `call` at `p` names (call.uni (ret), name, (args);), into `name`. */
static int ptx_call_at(const char *line, const char *p, char *name, size_t size)
{
    if ((p > line && ptx_ident(p[-1])) || strncmp(p, "call", 4) || (p[4] != '.' && p[4] != ' ' && p[4] != '\t'))
        return 0;
    p += 4;
    p += strcspn(p, " \t");   /* .uni */
    p += strspn(p, " \t");
    if (*p == '(') {          /* the return parameter */
        p = strchr(p, ')');
        if (!p)
            return 0;
        p++;
        p += strspn(p, " \t,");
    }
    size_t len = 0;
    while (p[len] && ptx_ident(p[len]) && p[len] != '%' && p[len] != '.')
        len++;
    if (len == 0 || len >= size)
        return 0;   /* an indirect call (a register) names none: the run time's counts judge those */
    memcpy(name, p, len);
    name[len] = '\0';
    return 1;
}

/* The line with its comments blanked; `in_comment` carries a block comment over lines. */
static void ptx_blank_comments(char *line, int *in_comment)
{
    for (char *p = line; *p; p++) {
        if (*in_comment) {
            if (p[0] == '*' && p[1] == '/')
                *in_comment = 0, *p++ = ' ';
            *p = ' ';
        } else if (p[0] == '/' && p[1] == '/') {
            for (; *p && *p != '\n'; p++)
                *p = ' ';
            break;
        } else if (p[0] == '/' && p[1] == '*') {
            *in_comment = 1, *p++ = ' ', *p = ' ';
        } else if (*p == '"') {   /* a .file path: nothing of it is an instruction */
            for (*p++ = ' '; *p && *p != '"'; p++)
                *p = ' ';
            if (!*p)
                break;
            *p = ' ';
        }
    }
}

/* One statement of a function's body: its first tensor-core instruction, the functions it calls. */
static void ptx_statement(ptx_function *fn, const char *text)
{
    char callee[4096];
    size_t len;
    for (const char *p = text; *p; p++) {
        if (!fn->tensor[0] && (len = ptx_tensor_at(text, p)))
            snprintf(fn->tensor, sizeof fn->tensor, "%.*s", (int)(len < 63 ? len : 63), p);
        else if (ptx_call_at(text, p, callee, sizeof callee) && !list_has(&fn->calls, callee)) {
            char *copy = strdup(callee);
            if (!copy)
                cannot_run("out of memory");
            list_add(&fn->calls, copy);
        }
    }
}

static int compare_function_names(const void *a, const void *b)
{
    return strcmp(((const ptx_function *)a)->name, ((const ptx_function *)b)->name);
}

static ptx_function *ptx_function_named(ptx_functions *fs, const char *name)
{
    ptx_function key = {(char *)name, 0, "", {0}};
    return bsearch(&key, fs->f, fs->n, sizeof *fs->f, compare_function_names);
}

/* The kernels that use the tensor cores, in their own body or in a function they call
 * (however deep): a fixed point over the calls. */
static void ptx_tensor_closure(ptx_functions *fs)
{
    qsort(fs->f, fs->n, sizeof *fs->f, compare_function_names);
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < fs->n; i++) {
            ptx_function *f = &fs->f[i];
            for (size_t c = 0; !f->tensor[0] && c < f->calls.n; c++) {
                ptx_function *callee = ptx_function_named(fs, f->calls.items[c]);
                if (callee && callee->tensor[0])
                    snprintf(f->tensor, sizeof f->tensor, "%s", callee->tensor), changed = 1;
            }
        }
    }
}

static void check_ptx(const char *path, const list *launched)
{
    FILE *f = fopen(path, "r");
    if (!f)
        cannot_run("cannot read the PTX %s: %s", path, strerror(errno));
    enum { NLIB = sizeof libraries / sizeof *libraries };
    int count[NLIB] = {0};
    char example[NLIB][104] = {{0}};
    list seen = {0};   /* a .func may be declared before it is defined */
    char *line = NULL, name[4096];
    size_t cap = 0;
    int external;
    double static_bytes = 0, biggest = 0;
    char biggest_name[128] = "";
    ptx_functions fs = {0};
    long current = -1;         /* the function whose body this is, in fs */
    int depth = 0, in_comment = 0, pending_entry = 0;
    char pending[4096] = "";   /* declared at depth 0, its body not begun */
    char *statement = NULL;    /* the statement being read, over its lines */
    size_t statement_len = 0, statement_cap = 0;
    while (getline(&line, &cap, f) >= 0) {
        ptx_blank_comments(line, &in_comment);
        if (depth == 0 && ptx_declared(line, name, sizeof name, &external) && !external) {
            snprintf(pending, sizeof pending, "%s", name);
            pending_entry = strstr(line, ".entry") != NULL;
        }
        for (const char *p = line; *p; p++) {
            if (*p == '{') {
                if (depth++ == 0 && pending[0]) {
                    if (fs.n == fs.cap) {
                        fs.cap = fs.cap ? 2 * fs.cap : 64;
                        fs.f = realloc(fs.f, fs.cap * sizeof *fs.f);
                        if (!fs.f)
                            cannot_run("out of memory");
                    }
                    ptx_function *fn = &fs.f[fs.n];
                    memset(fn, 0, sizeof *fn);
                    fn->name = strdup(pending);
                    if (!fn->name)
                        cannot_run("out of memory");
                    fn->entry = pending_entry;
                    current = (long)fs.n++;
                    pending[0] = '\0';
                }
            } else if (*p == '}') {
                if (depth > 0 && --depth == 0)
                    current = -1;
            } else if (*p == ';' && depth == 0) {
                pending[0] = '\0';
            }
            /* A body is read statement by statement (to a ; or a brace), over its lines:
             * a call names its function on the line after "call.uni (retval0),". */
            if (current >= 0 && rubric.fp32_only) {
                int ends = *p == ';' || *p == '{' || *p == '}';
                if (!ends) {
                    if (statement_len + 2 > statement_cap) {
                        statement_cap = statement_cap ? 2 * statement_cap : 4096;
                        statement = realloc(statement, statement_cap);
                        if (!statement)
                            cannot_run("out of memory");
                    }
                    statement[statement_len++] = *p == '\n' || *p == '\r' ? ' ' : *p;
                    statement[statement_len] = '\0';
                } else if (statement_len) {
                    ptx_statement(&fs.f[current], statement);
                    statement_len = 0;
                }
            } else {
                statement_len = 0;
            }
        }
        char var[128];
        double bytes = ptx_global_bytes(line, var, sizeof var);
        if (bytes > 0) {
            static_bytes += bytes;
            if (bytes > biggest)
                biggest = bytes, snprintf(biggest_name, sizeof biggest_name, "%s", var);
        }
        if (!ptx_declared(line, name, sizeof name, &external) || list_has(&seen, name))
            continue;
        char *copy = strdup(name);
        if (!copy)
            cannot_run("out of memory");
        list_add(&seen, copy);
        unsigned found = libraries_of(name);
        for (size_t l = 0; l < NLIB; l++)
            if ((found >> l) & 1 && count[l]++ == 0)
                snprintf(example[l], sizeof example[l], "%.*s%s", 96, name, strlen(name) > 96 ? "..." : "");
        int allowed = 0;
        for (size_t i = 0; i < sizeof allowed_device_calls / sizeof *allowed_device_calls; i++)
            allowed |= !strcmp(name, allowed_device_calls[i]);
        int allocates = !strcmp(name, "malloc") || !strcmp(name, "free");
        if (external && !allowed)
            finding("ptx", copy,
                    "a kernel calls %s on the device%s: not allowed in a lab file (a kernel may call printf "
                    "and assert). Next: %s.",
                    copy, allocates ? ", which allocates scratch memory" : "",
                    allocates ? "use shared memory or the buffers you are given" : NEXT_KERNEL);
    }
    int failed = ferror(f);
    free(line);
    fclose(f);
    if (failed)
        cannot_run("cannot read the PTX %s: read error", path);
    double limit = rubric.static_device_bytes > 0 ? rubric.static_device_bytes : DEFAULT_STATIC_DEVICE_BYTES;
    if (static_bytes > limit)
        finding("ptx", "static-device-memory",
                "your file declares %.0f bytes of static device memory (__device__ or __managed__ variables; the "
                "largest, %s, holds %.0f) where this lab allows %.0f: that is scratch memory, which counts as an "
                "allocation and no lab needs (lab 5's transpose works in place). Next: work in the buffers the "
                "launch function is given, and keep per-block data in shared memory.",
                static_bytes, biggest_name, biggest, limit);
    if (rubric.fp32_only) {
        ptx_tensor_closure(&fs);
        for (size_t i = 0; i < fs.n; i++) {
            ptx_function *fn = &fs.f[i];
            if (!fn->entry || !fn->tensor[0] || (launched && !list_has(launched, fn->name)))
                continue;
            finding("ptx", "tensor-cores",
                    "a kernel uses the tensor cores (%s, in %s, which your host code launches): this lab teaches "
                    "FP32 arithmetic on the CUDA cores, and tensor-core arithmetic (TF32, FP16) is not FP32 (the "
                    "lab's rubric: arithmetic fp32). Next: compute with float multiply-adds, without wmma or mma.",
                    fn->tensor, readable(fn->name));
            break;
        }
    }
    for (size_t i = 0; i < fs.n; i++) {
        for (size_t c = 0; c < fs.f[i].calls.n; c++)
            free((char *)fs.f[i].calls.items[c]);
        free(fs.f[i].calls.items);
        free(fs.f[i].name);
    }
    free(fs.f);
    free(statement);
    for (size_t l = 0; l < NLIB; l++)
        if (count[l])
            finding("ptx", libraries[l].ns,
                    "your compiled file holds %d kernel%s or device function%s from %s (%s): library code is "
                    "not allowed in a lab file. Next: write the kernel yourself, without %s.",
                    count[l], count[l] == 1 ? "" : "s", count[l] == 1 ? "" : "s", libraries[l].name, example[l],
                    libraries[l].name);
    for (size_t i = 0; i < seen.n; i++)
        free((char *)seen.items[i]);
    free(seen.items);
}

/* ---- check 4: what the file includes ------------------------------------- */

/* realpath() with the cause on failure. */
static char *resolve(const char *path, const char *what)
{
    char *real = realpath(path, NULL);
    if (!real)
        cannot_run("cannot find %s %s (%s): run inspect in the folder nvcc ran in", what, path, strerror(errno));
    return real;
}

static int under(const char *path, const char *dir)
{
    size_t len = strlen(dir);
    return !strncmp(path, dir, len) && (path[len] == '/' || (len > 0 && dir[len - 1] == '/'));
}

/* Folders whose headers are allowed: the toolkit's and the system's, resolved. */
static void allowed_dirs(list *dirs, const char *cuda_home, const list *extra_system)
{
    char pattern[PATH_MAX];
    snprintf(pattern, sizeof pattern, "%s/include", cuda_home);
    char *real = realpath(pattern, NULL);
    if (real)
        list_add(dirs, real);
    snprintf(pattern, sizeof pattern, "%s/targets/*/include", cuda_home);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            if ((real = realpath(g.gl_pathv[i], NULL)))
                list_add(dirs, real);
        globfree(&g);
    }
    if (dirs->n == 0)
        cannot_run("no CUDA include folder under %s: pass --cuda-home (or set CUDA_HOME) to the toolkit nvcc is from",
                   cuda_home);
    for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++)
        if ((real = realpath(system_dirs[i], NULL)))
            list_add(dirs, real);
    for (size_t i = 0; i < extra_system->n; i++)
        list_add(dirs, resolve(extra_system->items[i], "the --system folder"));
}

/* The dependencies of a make rule file, unescaped ("\ " and "$$"), each once. */
static void parse_deps(const char *text, const char *path, list *deps)
{
    int after_colon = 0, rules = 0;
    char token[PATH_MAX];
    size_t len = 0;
    for (const char *p = text;; p++) {
        int end_of_line = *p == '\n' || *p == '\0';
        int continued = *p == '\\' && (p[1] == '\n' || (p[1] == '\r' && p[2] == '\n'));
        if (end_of_line || continued || *p == ' ' || *p == '\t' || *p == '\r') {
            token[len] = '\0';
            if (len == 0) {
            } else if (!after_colon && token[len - 1] == ':') {   /* "target:" or " : " */
                after_colon = 1, rules++;
            } else if (after_colon && !list_has(deps, token)) {
                char *copy = strdup(token);
                if (!copy)
                    cannot_run("out of memory");
                list_add(deps, copy);
            }
            len = 0;
            if (end_of_line)
                after_colon = 0;
            if (!*p)
                break;
            if (continued)
                p += p[1] == '\r' ? 2 : 1;
            continue;
        }
        if ((*p == '\\' && p[1] == ' ') || (*p == '$' && p[1] == '$'))
            p++;
        if (len + 1 >= sizeof token)
            cannot_run("%s holds a path longer than %d bytes: pass the file nvcc -M (or -MD -MF) wrote", path,
                       PATH_MAX);
        token[len++] = *p;
    }
    if (rules == 0)
        cannot_run("%s holds no make rule: pass the file nvcc -M (or -MD -MF) wrote", path);
}

/* A path as the student knows it: relative to here when under here. */
static const char *shown(const char *real, const char *cwd)
{
    return under(real, cwd) ? real + strlen(cwd) + 1 : real;
}

static void check_deps(const char *deps_path, const list *sources, const list *public_paths, const char *cuda_home,
                       const list *extra_system)
{
    size_t len;
    char *text = read_whole(deps_path, "the dependency file", &len);
    list deps = {0}, dirs = {0}, public_real = {0}, sources_real = {0};
    parse_deps(text, deps_path, &deps);
    allowed_dirs(&dirs, cuda_home, extra_system);
    for (size_t i = 0; i < public_paths->n; i++)
        list_add(&public_real, resolve(public_paths->items[i], "the public header"));
    for (size_t i = 0; i < sources->n; i++)
        list_add(&sources_real, resolve(sources->items[i], "the source file"));
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        cannot_run("cannot read the current folder: %s", strerror(errno));
    list refused = {0};
    for (size_t i = 0; i < deps.n; i++) {
        char *real = resolve(deps.items[i], "the dependency");
        int allowed = list_has(&sources_real, real);
        for (size_t k = 0; !allowed && k < public_real.n; k++)
            allowed = !strcmp(real, public_real.items[k]) || under(real, public_real.items[k]);
        for (size_t k = 0; !allowed && k < dirs.n; k++)
            allowed = under(real, dirs.items[k]);
        if (allowed || list_has(&refused, real)) {
            free(real);
            continue;
        }
        list_add(&refused, real);
        const char *name = shown(real, cwd);
        finding("includes", name,
                "your file includes %s: only tilelab.h and the CUDA and system headers are allowed. "
                "Next: remove that #include and write the code in your own file.",
                name);
    }
    for (size_t i = 0; i < refused.n; i++)
        free((char *)refused.items[i]);
    for (size_t i = 0; i < dirs.n; i++)
        free((char *)dirs.items[i]);
    for (size_t i = 0; i < public_real.n; i++)
        free((char *)public_real.items[i]);
    for (size_t i = 0; i < deps.n; i++)
        free((char *)deps.items[i]);
    free(refused.items), free(dirs.items), free(public_real.items), free(deps.items);
    for (size_t i = 0; i < sources_real.n; i++)
        free((char *)sources_real.items[i]);
    free(sources_real.items), free(text);
}

/* ---- where an #include may lead ---------------------------------------------
 * A lab file may include from its own folder, the kit's public headers, the
 * CUDA toolkit and the system. Any other file a literal #include reaches (a
 * "../" climb, an absolute path, a link planted in the file's folder) is
 * refused by name before the compiler opens it: the compiler would quote its
 * contents in an error, which the student sees (a board's secret, another
 * student's file). */

/* PATH made absolute against the current folder, "." and ".." taken by name. */
static void lexical(const char *path, char *out, size_t size)
{
    char joined[2 * PATH_MAX + 2], cwd[PATH_MAX] = "";
    if (path[0] != '/' && !getcwd(cwd, sizeof cwd))
        cwd[0] = '\0';
    snprintf(joined, sizeof joined, "%s/%s", cwd, path);
    path_by_name(joined, out, size);
}

/* The folders an #include may reach (resolved): the toolkit's, the system's, the kit's public headers'. */
static void include_roots(list *roots, const char *cuda_home, const list *publics)
{
    static const char *const patterns[] = {"%s/include", "%s/targets/*/include"};
    char pattern[PATH_MAX];
    for (size_t i = 0; i < sizeof patterns / sizeof *patterns; i++) {
        snprintf(pattern, sizeof pattern, patterns[i], cuda_home);
        glob_t g;
        if (glob(pattern, 0, NULL, &g) == 0) {
            for (size_t k = 0; k < g.gl_pathc; k++) {
                char *real = realpath(g.gl_pathv[k], NULL);
                if (real)
                    list_add(roots, real);
            }
            globfree(&g);
        }
    }
    static const char *const system[] = {"/usr/include", "/usr/lib/gcc", "/usr/local/include"};
    for (size_t i = 0; i < sizeof system / sizeof *system; i++) {
        char *real = realpath(system[i], NULL);
        if (real)
            list_add(roots, real);
    }
    for (size_t i = 0; i < publics->n; i++) {
        char path[PATH_MAX];
        lexical(publics->items[i], path, sizeof path);
        char *copy = strdup(path);
        if (copy)
            list_add(roots, copy);
    }
}

/* Folders the preprocessor searches for <NAME> (and for "NAME" after the file's own). */
static const char *const search_patterns[] = {"/usr/include", "/usr/local/include", "/usr/include/*-linux-gnu",
                                              "/usr/include/c++/*", "/usr/include/*-linux-gnu/c++/*",
                                              "/usr/lib/gcc/*/*/include"};

/* Whether CANDIDATE, where it exists, stays inside FOLDER (when given) or one of ROOTS. */
static int stays_inside(const char *candidate, const char *folder, const list *roots)
{
    char norm[PATH_MAX];
    lexical(candidate, norm, sizeof norm);
    const char *paths[] = {candidate, norm};
    for (int i = 0; i < 2; i++) {
        char *real = realpath(paths[i], NULL);
        if (!real)
            continue;   /* not there: the compiler says so, with the name alone */
        int inside = folder && under(real, folder);
        for (size_t k = 0; !inside && k < roots->n; k++)
            inside = !strcmp(real, roots->items[k]) || under(real, roots->items[k]);
        free(real);
        if (!inside)
            return 0;
    }
    return 1;
}

/* Why the #include of NAME (quoted: searched from DIR first) is refused, or NULL. */
static const char *include_escapes(const char *name, int quoted, const char *dir, const list *roots)
{
    static const char why[] = "outside the folders a lab file may include from (its own, the CUDA "
                              "toolkit's and the system's)";
    char candidate[2 * PATH_MAX + 2];
    if (name[0] == '/')
        return stays_inside(name, NULL, roots) ? NULL : why;
    if (quoted) {
        char *folder = realpath(dir, NULL);
        snprintf(candidate, sizeof candidate, "%s/%s", dir, name);
        int inside = stays_inside(candidate, folder, roots);
        free(folder);
        if (!inside)
            return why;
    }
    for (size_t k = 0; k < roots->n; k++) {
        snprintf(candidate, sizeof candidate, "%s/%s", roots->items[k], name);
        if (!stays_inside(candidate, NULL, roots))
            return why;
    }
    for (size_t i = 0; i < sizeof search_patterns / sizeof *search_patterns; i++) {
        glob_t g;
        if (glob(search_patterns[i], 0, NULL, &g) != 0)
            continue;
        int inside = 1;
        for (size_t k = 0; inside && k < g.gl_pathc; k++) {
            snprintf(candidate, sizeof candidate, "%s/%s", g.gl_pathv[k], name);
            inside = stays_inside(candidate, NULL, roots);
        }
        globfree(&g);
        if (!inside)
            return why;
    }
    return NULL;
}

/* ---- check 0, before the build: what the source names as an #include ------- */

/* Whether `path` is one the compiler may open: a regular file outside /dev,
 * /proc and /sys (a device file such as /dev/zero, a FIFO or /proc/kmsg never
 * ends, and the preprocessor would read it without limit). Stat only: nothing
 * is opened. A path that does not exist is the compiler's to report. */
static const char *include_refused(const char *path)
{
    static const char *const pseudo[] = {"/dev/", "/proc/", "/sys/"};
    char *real = realpath(path, NULL);
    const char *name = real ? real : path;
    const char *why = NULL;
    for (size_t i = 0; i < sizeof pseudo / sizeof *pseudo && !why; i++)
        if (!strncmp(name, pseudo[i], strlen(pseudo[i])) || !strncmp(path, pseudo[i], strlen(pseudo[i])))
            why = "a device or system file, not a header";
    struct stat st;
    if (!why && stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        why = S_ISDIR(st.st_mode) ? "a folder, not a header" : "not a regular file (a device, a pipe or a socket)";
    free(real);
    return why;
}

/* Comments blanked (newlines kept), as the preprocessor's phase 3 removes
 * them: #/ **\/include is #include. String and character literals stay. */
static void blank_comments(char *p)
{
    char quote = 0;
    for (; *p; p++) {
        if (quote) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == quote || *p == '\n')
                quote = 0;
        } else if (*p == '"' || *p == '\'') {
            quote = *p;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                *p++ = ' ';
            p--;
        } else if (p[0] == '/' && p[1] == '*') {
            *p++ = ' ';
            *p = ' ';
            while (p[1] && !(p[1] == '*' && p[2] == '/')) {
                p++;
                if (*p != '\n')
                    *p = ' ';
            }
            if (p[1])
                p[1] = p[2] = ' ', p += 2;
        }
    }
}

/* The #include, #include_next and #import lines of the source (a digraph %:
 * and comments between the words are read as the preprocessor reads them),
 * each quoted or angled path checked before the build opens it; `#include
 * MACRO` is the build's limits' to bound. */
static void check_source_includes(const char *src, const char *cuda_home, const list *publics)
{
    list roots = {0};
    include_roots(&roots, cuda_home, publics);
    size_t len;
    char *text = read_whole(src, "the source file", &len);
    if (!strncmp(text, "\xEF\xBB\xBF", 3))
        memset(text, ' ', 3);   /* a byte-order mark */
    /* Lines spliced with a backslash are one line to the preprocessor. */
    for (char *p = text; (p = strchr(p, '\\'));) {
        size_t n = p[1] == '\n' ? 2 : p[1] == '\r' && p[2] == '\n' ? 3 : 0;
        if (n)
            memset(p, ' ', n);
        p += n ? n : 1;
    }
    blank_comments(text);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", src);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[1] = '\0';
    else
        snprintf(dir, sizeof dir, "./");
    list seen = {0};
    for (char *line = text; line && *line;) {
        char *end = strchr(line, '\n');
        if (end)
            *end = '\0';
        char *p = line + strspn(line, " \t\r\f\v");
        int directive = *p == '#' ? 1 : (p[0] == '%' && p[1] == ':') ? 2 : 0;
        if (directive) {
            p += directive;
            p += strspn(p, " \t\r\f\v");
            size_t word = strspn(p, "abcdefghijklmnopqrstuvwxyz_");
            if ((word == 7 && !strncmp(p, "include", 7)) || (word == 12 && !strncmp(p, "include_next", 12)) ||
                (word == 6 && !strncmp(p, "import", 6))) {
                p += word + strspn(p + word, " \t\r\f\v");
                char close = *p == '"' ? '"' : *p == '<' ? '>' : 0;
                char *stop = close ? strchr(p + 1, close) : NULL;
                if (stop) {
                    char name[PATH_MAX], path[2 * PATH_MAX];
                    snprintf(name, sizeof name, "%.*s", (int)(stop - p - 1), p + 1);
                    if (name[0] == '/')
                        snprintf(path, sizeof path, "%s", name);
                    else
                        snprintf(path, sizeof path, "%s%s", dir, name);
                    const char *why = close == '>' && name[0] != '/' ? NULL : include_refused(path);
                    const char *escapes = why ? NULL : include_escapes(name, close == '"', dir, &roots);
                    if ((why || escapes) && !list_has(&seen, name)) {
                        char *copy = strdup(name);
                        if (!copy)
                            cannot_run("out of memory");
                        list_add(&seen, copy);
                        if (escapes)
                            finding("includes", copy,
                                    "your file includes %s, which is %s: a compiler error would show what it holds. "
                                    "Next: remove that #include; only tilelab.h and the CUDA and system headers are "
                                    "allowed.", copy, escapes);
                        else
                            finding("includes", copy,
                                "your file includes %s, which is %s: the compiler cannot read it as one (a device "
                                "file has no end). Next: remove that #include; only tilelab.h and the CUDA and "
                                "system headers are allowed.", copy, why);
                    }
                }
            }
        }
        line = end ? end + 1 : NULL;
    }
    for (size_t i = 0; i < roots.n; i++)
        free((char *)roots.items[i]);
    free(roots.items);
    for (size_t i = 0; i < seen.n; i++)
        free((char *)seen.items[i]);
    free(seen.items);
    free(text);
}

/* ---- check 5: what the file defines ----------------------------------------- */

/* A global definition matters only where another part of the worker's program
 * uses or defines the same name: there it would stand in for the kit's or a
 * library's (seccomp_load, prctl, write, tl_sandbox_enter, ...), or the link
 * would fail on two definitions. So a global name is refused only when it
 * collides with a name of the actual link: --link-symbols names every symbol
 * that the worker's own objects, the kit's library, libseccomp and every shared
 * library the worker loads define or import (mk/kit.mk writes it from the
 * linker's own trace). The launch functions are the names that must collide:
 * the worker calls them. Without --link-symbols, only the names that always
 * collide are refused (main, the kit's, namespace std's, operator new). */
static const char *const allowed_definitions[] = {
    /* the launch functions of every kind (launches.h) */
#define TL_LAUNCH(OP, name, params, wire, call, rule, cpu) "launch_" #name,
#include TL_LAUNCHES
#undef TL_LAUNCH
    /* g++'s hidden weak reference to the C++ personality routine (unwinding) */
    "DW.ref.__gxx_personality_v0",
};

static int is_launch_function(const char *name)
{
    for (size_t i = 0; i < sizeof allowed_definitions / sizeof *allowed_definitions; i++)
        if (!strcmp(name, allowed_definitions[i]))
            return !!strncmp(name, "DW.ref.", 7);
    return 0;
}

/* The link's names, sorted for bsearch: "NAME WHERE" lines of --link-symbols. */
typedef struct {
    char **names;   /* each "NAME\0WHERE" */
    size_t n;
} link_symbols;

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void link_symbols_load(link_symbols *l, const char *path)
{
    size_t len;
    char *text = read_whole(path, "the link's symbol list", &len);
    size_t cap = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *space = strchr(line, ' ');
        if (!space || space == line)
            continue;
        *space = '\0';
        if (l->n == cap) {
            cap = cap ? 2 * cap : 4096;
            l->names = realloc(l->names, cap * sizeof *l->names);
            if (!l->names)
                cannot_run("out of memory");
        }
        l->names[l->n++] = line;
    }
    if (l->n == 0)
        cannot_run("%s names no symbol: it is written by make from the worker's link (mk/kit.mk); rebuild the kit", path);
    qsort(l->names, l->n, sizeof *l->names, compare_names);
}

/* Where the link has `name` ("libc.so.6"), or NULL when it has not. */
static const char *link_symbols_where(const link_symbols *l, const char *name)
{
    const char *key = name;
    char **hit = l->names ? bsearch(&key, l->names, l->n, sizeof *l->names, compare_names) : NULL;
    return hit ? *hit + strlen(*hit) + 1 : NULL;
}

/* Whether a mangled name is an entity of namespace std: after _Z, a special
 * name's prefix (TV vtable, TI typeinfo, TS its name, TH/TW thread-local
 * wrappers, GV guard) and a nested name's N and qualifiers, `St` (std::) or a
 * standard abbreviation (Sa allocator, Sb basic_string, Ss string, Si istream,
 * So ostream, Sd iostream). */
static int mangled_std(const char *name)
{
    const char *p = name + 2;
    if (p[0] == 'T' && strchr("VISHW", p[1]) && p[1])
        p += 2;
    else if (p[0] == 'G' && p[1] == 'V')
        p += 2;
    if (*p == 'N') {
        p++;
        p += strspn(p, "rVK");
        if (*p == 'R' || *p == 'O')
            p++;
    }
    return p[0] == 'S' && p[1] && strchr("tabiosd", p[1]);
}

/* Why a global name may not be defined, and the colliding symbol's place in
 * `where`; NULL when it may. */
static const char *definition_refused(const char *name, int weak, const link_symbols *link, const char **where,
                                      const char **next)
{
    *where = NULL;
    *next = "rename it, or make it static (only the launch functions need to be global)";
    for (size_t i = 0; i < sizeof allowed_definitions / sizeof *allowed_definitions; i++)
        if (!strcmp(name, allowed_definitions[i]))
            return NULL;
    if (!strcmp(name, "main")) {
        *next = "remove main(): the grader and build/<lab> supply their own";
        return "the program's entry point";
    }
    const char *text = readable(name);
    if (!strncmp(name, "_Znw", 4) || !strncmp(name, "_Zna", 4) || !strncmp(name, "_Zdl", 4) ||
        !strncmp(name, "_Zda", 4) || !strncmp(text, "operator new", 12) || !strncmp(text, "operator delete", 15)) {
        *next = "remove it: a lab file needs no host allocation";
        return "a replacement of the program's global operator new or delete";
    }
    if (link->n) {
        *where = link_symbols_where(link, name);
        /* A weak instance of a std template (std::min<int>) yields to the library's: only a strong one stands in. */
        if (!*where || (weak && !strncmp(name, "_Z", 2) && mangled_std(name)))
            return NULL;
        return "a name the grader's worker program already has";
    }
    /* No link list: the names that always belong to someone else. */
    if (!strncmp(name, "tl_", 3) || !strncmp(text, "tl_", 3) || !strncmp(name, "__wrap_", 7) ||
        !strncmp(name, "__real_", 7))
        return "a name of the kit";
    if (!strncmp(name, "seccomp_", 8))
        return "a name of the kit's sandbox (libseccomp)";
    if (!weak && !strncmp(name, "_Z", 2) && mangled_std(name)) {
        *next = "move it out of namespace std";
        return "a definition in namespace std, which would stand in for the C++ library's";
    }
    return NULL;
}

static void check_definitions(const elf_object *o, const link_symbols *link)
{
    list seen = {0};
    for (size_t i = 1; i < o->nsymbols; i++) {
        const Elf64_Sym *sym = &o->symbols[i];
        int bind = ELF64_ST_BIND(sym->st_info), type = ELF64_ST_TYPE(sym->st_info);
        const char *name = symbol_name(o, i);
        if (sym->st_shndx == SHN_UNDEF || !*name || type == STT_SECTION || type == STT_FILE ||
            (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE) || list_has(&seen, name))
            continue;
        list_add(&seen, name);
        const char *where, *next, *why = definition_refused(name, bind == STB_WEAK, link, &where, &next);
        if (!why)
            continue;
        int function = type == STT_FUNC || type == STT_GNU_IFUNC;
        char in[128] = "";
        if (where)
            snprintf(in, sizeof in, " (%.100s defines or uses it)", where);
        finding("defines", name, "your file defines %s (%s %s), %s%s: two of one name collide. Next: %s.",
                readable(name), bind == STB_WEAK ? "weak" : "global", function ? "function" : "data", why, in, next);
    }
    free(seen.items);
}

/* ---- the rubric's allowed_calls, the command line ------------------------- */

/* What inspect takes from the lab's rubric: the patterns of its
 * `allowed_calls` line, if it has one, added to `allow`, and its
 * `arithmetic` and `static_device_bytes_max` lines. */
static void read_rubric(const char *path, list *allow)
{
    size_t len;
    char *text = read_whole(path, "the rubric", &len);   /* kept: `allow` points into it */
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        line[strcspn(line, "#")] = '\0';
        size_t key = strcspn(line, " \t");
        char *value = line + key + strspn(line + key, " \t");
        if (key == strlen("arithmetic") && !strncmp(line, "arithmetic", key))
            rubric.fp32_only = !strncmp(value, "fp32", 4);
        if (key == strlen("static_device_bytes_max") && !strncmp(line, "static_device_bytes_max", key))
            rubric.static_device_bytes = strtod(value, NULL);
        if (key != strlen("allowed_calls") || strncmp(line, "allowed_calls", key) != 0)
            continue;
        for (char *p = line + key; *p;) {
            p += strspn(p, " \t\r");
            size_t n = strcspn(p, " \t\r");
            if (n == 0)
                break;
            char *pattern = p;
            p += n;
            if (*p)
                *p++ = '\0';
            list_add(allow, pattern);
        }
    }
}

static void usage_error(const char *what)
{
    cannot_run("%s. Usage: inspect [--object FILE.o] [--ptx FILE.ptx] [--deps FILE.d --source FILE.cu] "
               "[--public PATH]... [--cuda-home DIR] [--system DIR]... [--allow PATTERN]... [--rubric FILE] "
               "[--link-symbols FILE] "
               "(the opening comment of grader/inspect.c says more)", what);
}

int main(int argc, char **argv)
{
    const char *object = NULL, *ptx = NULL, *deps = NULL, *source_includes = NULL, *cuda_home = getenv("CUDA_HOME");
    list sources = {0}, public_paths = {0}, extra_system = {0}, allow = {0};
    link_symbols link = {0};
    for (int i = 1; i < argc; i++) {
        const char *flag = argv[i];
        if (i + 1 >= argc) {
            char why[128];
            snprintf(why, sizeof why, "%s needs a value", flag);
            usage_error(why);
        }
        const char *value = argv[++i];
        if (!strcmp(flag, "--object"))
            object = value;
        else if (!strcmp(flag, "--ptx"))
            ptx = value;
        else if (!strcmp(flag, "--deps"))
            deps = value;
        else if (!strcmp(flag, "--source"))
            list_add(&sources, value);
        else if (!strcmp(flag, "--public"))
            list_add(&public_paths, value);
        else if (!strcmp(flag, "--cuda-home"))
            cuda_home = value;
        else if (!strcmp(flag, "--system"))
            list_add(&extra_system, value);
        else if (!strcmp(flag, "--allow"))
            list_add(&allow, value);
        else if (!strcmp(flag, "--source-includes"))
            source_includes = value;
        else if (!strcmp(flag, "--link-symbols"))
            link_symbols_load(&link, value);
        else if (!strcmp(flag, "--rubric"))
            read_rubric(value, &allow);
        else {
            char why[128];
            snprintf(why, sizeof why, "unknown flag '%.64s'", flag);
            usage_error(why);
        }
    }
    if (!object && !ptx && !deps && !source_includes)
        usage_error("nothing to inspect: give --object, --ptx, --deps or --source-includes");
    if (deps && !sources.n)
        usage_error("--deps needs --source, the student's file, to tell it from what it includes");
    if (!cuda_home || !*cuda_home)
        cuda_home = "/usr/local/cuda";

    found = open_memstream(&found_text, &found_size);
    if (!found)
        cannot_run("out of memory");
    /* Causes first: an included file or a library explains the calls it brings. */
    if (source_includes)
        check_source_includes(source_includes, cuda_home, &public_paths);
    if (deps)
        check_deps(deps, &sources, &public_paths, cuda_home, &extra_system);
    elf_object o;
    list launched = {0};
    if (object) {
        elf_load(&o, object);
        launched_functions(&o, &launched);
    }
    if (ptx)
        check_ptx(ptx, object ? &launched : NULL);
    if (object) {
        check_calls(&o, &allow);
        check_definitions(&o, &link);
        free(o.data);
    }
    free(launched.items);
    fclose(found);
    fputs(found_text, stdout);
    fflush(stdout);
    free(found_text), free(sources.items), free(public_paths.items), free(extra_system.items), free(allow.items);
    return findings ? EXIT_REFUSED : EXIT_CLEAN;
}

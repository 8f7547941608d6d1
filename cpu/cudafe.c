/*
 * cudafe.c — CPU mode's source step: what the host compiler cannot take
 * from a preprocessed lab file, rewritten into plain C++ (cpu/include/
 * cuda_runtime.h declares what it calls).
 *
 *   cudafe < file.ii > file.cpu.ii
 *
 *   kernel<<<grid, block[, shared[, stream]]>>>(args)     (also k<T, 4>, ns::k, (expr))
 *       -> ::tlc::launch([&](auto &&...tlc_a) { kernel(tlc_a...); }, "file", line,
 *                        grid, block[, ...])(args)
 *   __shared__ float tile[32][33], other[8];        (in a function)
 *       -> one copy per block: a reference into the block's shared memory,
 *          taken at the declaration, the same for every thread of the block
 *   extern __shared__ float dyn[];
 *       -> a pointer to the block's dynamic shared memory
 *   p.kernel<<<...>>>, s->kernel<<<...>>>    (a kernel held in a member)
 *       -> the same, with p.kernel called from the lambda
 *   cudaLaunchKernel((void *)kernel, grid, block, args, ...)
 *       -> ::tlc::launch_kernel("file", line, kernel, grid, block, args, ...)
 *   asm volatile("cp.async ..." ...);     (the lab file's, in a function)
 *       -> tlc_unsupported("inline PTX assembly (asm)", "file", line);
 *   __noinline__ (not inside a library's __attribute__((...)))
 *       -> __attribute__((noinline)); a macro could not tell the two apart
 *
 * Line markers are kept and no newline is added or removed, so the compiler
 * and the access hooks still name the lab file's own lines.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *src;
static size_t len, pos;
static char *out;
static size_t olen, ocap;
static char file[1024] = "?";
static char main_file[1024];   /* the lab file: the first line marker's */
static long line = 1;
static int depth;   /* brace depth: 0 is file scope */
/* Device code: cpu/include/cuda_runtime.h writes __global__ and __device__ as
 * __tlc_device__, which marks the next body at that depth (a declaration's
 * ';' first: none); device_depth is the depth outside the body being read. */
static int device_pending = -1, device_depth = -1;

static void put(const char *s, size_t n)
{
    if (olen + n + 1 > ocap) {
        ocap = (olen + n + 1) * 2;
        out = realloc(out, ocap);
        if (!out) { perror("cudafe"); exit(2); }
    }
    memcpy(out + olen, s, n);
    olen += n;
}
static void puts_(const char *s) { put(s, strlen(s)); }

static int ident(int c) { return isalnum(c) || c == '_'; }

/* Copies a string or character literal starting at pos. */
static void literal(void)
{
    char q = src[pos];
    size_t start = pos++;
    while (pos < len && src[pos] != q) {
        if (src[pos] == '\\')
            pos++;
        if (src[pos] == '\n')
            line++;
        pos++;
    }
    pos++;
    put(src + start, pos - start);
}

/* "# 12 \"labs/x.cu\" 2" at the start of a line: where the next line comes from. */
static void marker(void)
{
    size_t start = pos, end = pos;
    while (end < len && src[end] != '\n')
        end++;
    long n;
    char name[1024];
    if (sscanf(src + start, "# %ld \"%1023[^\"]\"", &n, name) == 2 ||
        sscanf(src + start, "#line %ld \"%1023[^\"]\"", &n, name) == 2) {
        snprintf(file, sizeof file, "%s", name);
        if (!main_file[0])
            snprintf(main_file, sizeof main_file, "%s", name);
        line = n - 1;   /* the newline ending the marker counts it up */
    }
    put(src + start, end - start);
    pos = end;
}

static char *trimmed(const char *s, size_t n)
{
    while (n && isspace((unsigned char)*s))
        s++, n--;
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    char *t = malloc(n + 1);
    memcpy(t, s, n);
    t[n] = 0;
    return t;
}

static void fail(const char *what)
{
    fprintf(stderr, "%s:%ld: not supported in CPU mode: %s\n", file, line, what);
    exit(1);
}

/* Takes `__attribute__((aligned(N)))` (what __align__(N) expands to) or
 * `alignas(N)` out of a __shared__ declaration's type, into `align` (N, or
 * "0" when there is none): a template argument cannot carry an attribute,
 * so the block's copy gets the alignment from shared_array instead. */
static void take_align(char *type, char *align, size_t len)
{
    static const char *const forms[][2] = {{"__attribute__((aligned(", ")))"}, {"alignas(", ")"}};
    snprintf(align, len, "0");
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        char *at = strstr(type, forms[f][0]);
        if (!at || (at > type && ident((unsigned char)at[-1])))
            continue;
        char *e = at + strlen(forms[f][0]);
        int d = 0;
        char *x = e;
        for (; *x && !(d == 0 && *x == ')'); x++)
            d += *x == '(' ? 1 : *x == ')' ? -1 : 0;
        size_t close = strlen(forms[f][1]);
        if (strncmp(x, forms[f][1], close) != 0)
            fail("an alignment in a __shared__ declaration the source step cannot read");
        snprintf(align, len, "(%.*s)", (int)(x - e), e);
        memmove(at, x + close, strlen(x + close) + 1);
        return;
    }
}

/* The __shared__ declaration at pos (just past the keyword), up to its ';'. */
static void shared_decl(int is_extern)
{
    size_t start = pos;
    int d = 0;
    while (pos < len && !(d == 0 && src[pos] == ';')) {
        if (strchr("([{", src[pos])) d++;
        if (strchr(")]}", src[pos])) d--;
        pos++;
    }
    if (pos >= len)
        fail("a __shared__ declaration without ';'");
    size_t end = pos++;
    int newlines = 0;
    for (size_t i = start; i < end; i++)
        newlines += src[i] == '\n';
    if (depth == 0)
        fail("__shared__ at file scope (declare it inside the kernel)");

    /* Split into declarators at top-level commas; the first holds the type. */
    char *type = NULL;
    char align[256] = "0";
    size_t s = start;
    d = 0;
    for (size_t i = start; i <= end; i++) {
        if (i < end && strchr("([{", src[i])) d++;
        if (i < end && strchr(")]}", src[i])) d--;
        if (i < end && !(d == 0 && src[i] == ','))
            continue;
        char *decl = trimmed(src + s, i - s);
        s = i + 1;
        if (strchr(decl, '='))
            fail("an initialised __shared__ variable");
        char *bracket = strchr(decl, '[');
        size_t name_end = bracket ? (size_t)(bracket - decl) : strlen(decl);
        while (name_end && isspace((unsigned char)decl[name_end - 1]))
            name_end--;
        size_t name_start = name_end;
        while (name_start && ident((unsigned char)decl[name_start - 1]))
            name_start--;
        if (name_start == name_end)
            fail("a __shared__ declaration the source step cannot read");
        if (!type) {
            type = trimmed(decl, name_start);
            take_align(type, align, sizeof align);
        } else if (name_start != 0)
            fail("a pointer or qualifier in the second declarator of a __shared__ declaration");
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(name_end - name_start), decl + name_start);
        const char *dims = bracket ? bracket : "";
        char buf[8192];
        if (is_extern) {
            if (strcmp(dims, "[]") != 0)
                fail("extern __shared__ other than `extern __shared__ T name[];`");
            snprintf(buf, sizeof buf, "%s *const %s = (%s *)::tlc::shared_dynamic(\"%s\", \"%s\", %ld, sizeof(%s)); ",
                     type, name, type, name, file, line, type);
        } else {
            snprintf(buf, sizeof buf,
                     "auto &%s = *::tlc::shared_array<%s %s>([] { static char k; return &k; }(), "
                     "\"%s\", \"%s\", %ld, %s); ",
                     name, type, dims, name, file, line, align);
        }
        puts_(buf);
        free(decl);
    }
    free(type);
    for (int i = 0; i < newlines; i++)
        puts_("\n");
    line += newlines;
}

/* Drops a trailing `word` (and the blanks after it) from the output; 1 if it was there. */
static int drop_trailing(const char *word)
{
    size_t e = olen;
    while (e && isspace((unsigned char)out[e - 1]) && out[e - 1] != '\n')
        e--;
    size_t n = strlen(word);
    if (e >= n && memcmp(out + e - n, word, n) == 0 && (e == n || !ident((unsigned char)out[e - n - 1]))) {
        olen = e - n;
        return 1;
    }
    return 0;
}

/* At "<<<": the kernel is what was just written: a name (`k`, `ns::k`), with
 * template arguments (`k<float, 32>`), or an expression in parentheses.
 * It is called from a generic lambda, so a template's arguments are
 * deduced from the launch's arguments, as nvcc does. */
static void launch(void)
{
    size_t e = olen;
    while (e && isspace((unsigned char)out[e - 1]))
        e--;
    size_t b = e;
    /* Back over one balanced group ending at b: `<...>` or `(...)`; 0 if none. */
    int paren = b && out[b - 1] == ')';
    if (b && (out[b - 1] == '>' || paren)) {
        char open = paren ? '(' : '<', close = out[b - 1];
        int d = 0;
        do {
            b--;
            d += out[b] == close ? 1 : out[b] == open ? -1 : 0;
        } while (b && d);
        if (d)
            fail("a <<<...>>> launch whose kernel the source step cannot read");
        while (!paren && b && isspace((unsigned char)out[b - 1]))
            b--;
    }
    /* A name, or a member reached through `.` or `->` (p.kernel, s->k, a[i].k). */
    if (!paren)
        for (;;) {
            while (b && (ident((unsigned char)out[b - 1]) || out[b - 1] == ':'))
                b--;
            size_t m = b;
            if (m && out[m - 1] == '.')
                m--;
            else if (m >= 2 && out[m - 1] == '>' && out[m - 2] == '-')
                m -= 2;
            else
                break;
            while (m && out[m - 1] == ']') {   /* an index before the member: a[i].k */
                int d = 0;
                do {
                    m--;
                    d += out[m] == ']' ? 1 : out[m] == '[' ? -1 : 0;
                } while (m && d);
                if (d)
                    fail("a <<<...>>> launch whose kernel the source step cannot read");
            }
            if (!m || !ident((unsigned char)out[m - 1]))
                fail("a <<<...>>> launch of a member of something other than a named object");
            b = m;
        }
    if (b == e || (!paren && !ident((unsigned char)out[e - 1]) && out[e - 1] != '>'))
        fail("a <<<...>>> launch of something other than a kernel's name");
    char name[512];
    if (e - b >= sizeof name)
        fail("a <<<...>>> launch whose kernel is a longer expression than the source step reads");
    snprintf(name, sizeof name, "%.*s", (int)(e - b), out + b);
    olen = b;
    char buf[2048];
    snprintf(buf, sizeof buf, "::tlc::launch([&](auto &&...tlc_a) { %s(tlc_a...); }, \"%s\", %ld, ", name, file, line);
    puts_(buf);
    pos += 3;
    char *close = strstr(src + pos, ">>>");
    if (!close)
        fail("a <<< without >>>");
    for (; src + pos < close; pos++) {
        if (src[pos] == '\n')
            line++;
        put(src + pos, 1);
    }
    pos += 3;
    puts_(")");
}

/* At `cudaLaunchKernel(` (pos past the name): CPU mode needs the kernel's
 * parameter types to read `args`, so a cast of the kernel to `void *` or
 * `const void *`, which the runtime API's examples write, is dropped:
 *   cudaLaunchKernel((void *)k, grid, block, args, shared, stream)
 *       -> ::tlc::launch_kernel("file", line, k, grid, block, args, shared, stream)
 * Any other first argument is passed as it is (a pointer whose type hides
 * the kernel's is refused when it compiles, with a sentence). */
static void launch_kernel_call(void)
{
    size_t p = pos;
    while (p < len && isspace((unsigned char)src[p]))
        p++;
    if (p >= len || src[p] != '(') {   /* the name alone: its address, or a declaration */
        puts_("cudaLaunchKernel");
        return;
    }
    char buf[1280];
    snprintf(buf, sizeof buf, "::tlc::launch_kernel(\"%s\", %ld, ", file, line);
    puts_(buf);
    pos = p + 1;
    while (pos < len && isspace((unsigned char)src[pos]))
        pos++;
    if (src[pos] == '(') {   /* (void *), (const void *), (void*)& ... */
        size_t q = pos + 1;
        while (q < len && src[q] != ')' && src[q] != '\n' && (ident((unsigned char)src[q]) || strchr(" \t*", src[q])))
            q++;
        char cast[256];
        snprintf(cast, sizeof cast, "%.*s", (int)(q - pos - 1), src + pos + 1);
        if (q < len && src[q] == ')' && strstr(cast, "void") && strchr(cast, '*'))
            pos = q + 1;
    }
}

/* At an `asm` statement in the lab file's device code (pos past the
 * word): the CPU cannot run PTX, so the statement becomes a call that stops
 * the run with "not supported in CPU mode: inline PTX assembly (asm) at
 * file:line" when it is reached. A path the GPU takes (CPU mode compiles
 * with __CUDA_ARCH__ = 900, cpu/cpu.mk) is never skipped silently. */
static int inline_asm(void)
{
    if (device_depth < 0 || strcmp(file, main_file) != 0)
        return 0;
    size_t p = pos;
    for (;;) {   /* volatile, __volatile__, goto, inline */
        while (p < len && isspace((unsigned char)src[p]))
            p++;
        size_t w = p;
        while (p < len && ident((unsigned char)src[p]))
            p++;
        if (p == w)
            break;
    }
    if (p >= len || src[p] != '(')
        return 0;
    int d = 0, newlines = 0;
    for (; p < len; p++) {
        if (src[p] == '"' || src[p] == '\'') {   /* a string with a ')' in it */
            char q = src[p++];
            while (p < len && src[p] != q)
                p += src[p] == '\\' ? 2 : 1;
            continue;
        }
        newlines += src[p] == '\n';
        d += src[p] == '(' ? 1 : src[p] == ')' ? -1 : 0;
        if (d == 0)
            break;
    }
    if (p >= len)
        fail("an asm statement without its closing ')'");
    char buf[1280];
    snprintf(buf, sizeof buf, "tlc_unsupported(\"inline PTX assembly (asm)\", \"%s\", %ld)", file, line);
    puts_(buf);
    for (int i = 0; i < newlines; i++)
        puts_("\n");
    line += newlines;
    pos = p + 1;
    return 1;
}

/* 1 when the output ends inside an attribute's list, `__attribute__((` or
 * after a `,` there: a library header's `__attribute__((__noinline__))`,
 * which must stay as it is. */
static int in_attribute(void)
{
    size_t e = olen;
    while (e && isspace((unsigned char)out[e - 1]))
        e--;
    return e && (out[e - 1] == '(' || out[e - 1] == ',');
}

int main(void)
{
    size_t cap = 1 << 20;
    src = malloc(cap);
    size_t n;
    while ((n = fread(src + len, 1, cap - len, stdin)) > 0) {
        len += n;
        if (len == cap)
            src = realloc(src, cap *= 2);
    }
    int bol = 1;
    while (pos < len) {
        char c = src[pos];
        if (bol && c == '#') {
            marker();
            continue;
        }
        bol = 0;
        if (c == '\n') {
            line++;
            bol = 1;
            put(&c, 1);
            pos++;
        } else if (c == '"' || c == '\'') {
            literal();
        } else if (c == '<' && pos + 2 < len && src[pos + 1] == '<' && src[pos + 2] == '<') {
            launch();
        } else if (ident((unsigned char)c)) {
            size_t s = pos;
            while (pos < len && ident((unsigned char)src[pos]))
                pos++;
            int is_asm = (pos - s == 3 && memcmp(src + s, "asm", 3) == 0) ||
                         (pos - s == 7 && memcmp(src + s, "__asm__", 7) == 0) ||
                         (pos - s == 5 && memcmp(src + s, "__asm", 5) == 0);
            if (is_asm && inline_asm()) {
                ;
            } else if (pos - s == 14 && memcmp(src + s, "__tlc_device__", 14) == 0) {
                if (device_depth < 0)
                    device_pending = depth;
            } else if (pos - s == 16 && memcmp(src + s, "cudaLaunchKernel", 16) == 0 && (s == 0 || !ident((unsigned char)src[s - 1]))) {
                launch_kernel_call();
            } else if (pos - s == 12 && memcmp(src + s, "__noinline__", 12) == 0 && !in_attribute()) {
                puts_("__attribute__((noinline))");
            } else if (pos - s == 10 && memcmp(src + s, "__shared__", 10) == 0 && (s == 0 || !ident((unsigned char)src[s - 1]))) {
                int is_extern = drop_trailing("extern");
                drop_trailing("static");
                shared_decl(is_extern);
            } else {
                put(src + s, pos - s);
            }
        } else {
            if (c == '{' && device_pending == depth)
                device_depth = depth, device_pending = -1;
            if (c == ';' && device_pending == depth)
                device_pending = -1;
            if (c == '{') depth++;
            if (c == '}' && --depth == device_depth)
                device_depth = -1;
            put(&c, 1);
            pos++;
        }
    }
    fwrite(out, 1, olen, stdout);
    return ferror(stdout) ? 2 : 0;
}

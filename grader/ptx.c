/* ptx.c — kernel structure from nvcc's PTX (see ptx.h). */
#include "ptx.h"
#include "counters.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- small helpers --------------------------------------------------------- */

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "ptx: out of memory\n");
        exit(2);
    }
    return q;
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = xrealloc(NULL, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static void say(char *buf, size_t len, const char *fmt, ...)
{
    if (!buf || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
}

/* Characters of a PTX identifier (labels and names: $L__BB0_3, _Z3fooPf, %r1). */
static int is_ident(int c)
{
    return isalnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

static int is_name_char(int c)
{
    return isalnum(c) || c == '_' || c == '$';
}

static const char *skip_space(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p))
        p++;
    return p;
}

/* ---- cleaning: comments and the directives that end without ';' ------------- */

/* The line directives that end without a ';' (.loc 1 23 5, .file 1 "x.cu",
 * .version 9.0, .target sm_75, .address_size 64): split on ';', they would
 * glue onto the next statement. */
static int unterminated_directive(const char *t, const char *eol)
{
    static const char *const names[] = {".loc", ".file", ".version", ".target", ".address_size"};
    size_t w = strcspn(t, " \t\r\n");
    if (t + w > eol)
        w = (size_t)(eol - t);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == w && !strncmp(t, names[i], w))
            return 1;
    return 0;
}

/* Copies text without comments and without those directives, except that
 * .loc and .file become statements of their own (a ';' added): the source
 * lines of what follows (ptx_line_accesses). Strings are kept whole. */
static char *clean(const char *text)
{
    size_t n = strlen(text);
    char *out = xrealloc(NULL, 2 * n + 1), *o = out;   /* room for a ';' a line */
    const char *p = text;
    int in_block = 0;
    while (*p) {
        const char *eol = strchr(p, '\n');
        if (!eol)
            eol = p + strlen(p);
        const char *q = p;
        if (!in_block) {
            const char *t = skip_space(p, eol);
            if (unterminated_directive(t, eol)) {
                if (!strncmp(t, ".loc", 4) || !strncmp(t, ".file", 5)) {
                    const char *e = eol;
                    if (e > t && e[-1] == '\r')
                        e--;
                    memcpy(o, t, (size_t)(e - t));
                    o += e - t;
                    *o++ = ';';
                }
                p = *eol ? eol + 1 : eol;
                *o++ = '\n';
                continue;
            }
        }
        int in_string = 0;
        while (q < eol) {
            if (in_block) {
                if (q[0] == '*' && q + 1 < eol && q[1] == '/') {
                    in_block = 0;
                    q += 2;
                } else
                    q++;
                continue;
            }
            if (*q == '"')
                in_string = !in_string;
            if (!in_string && q[0] == '/' && q + 1 < eol && q[1] == '/')
                break;
            if (!in_string && q[0] == '/' && q + 1 < eol && q[1] == '*') {
                in_block = 1;
                q += 2;
                continue;
            }
            *o++ = *q++;
        }
        *o++ = '\n';
        p = *eol ? eol + 1 : eol;
    }
    *o = '\0';
    return out;
}

/* ---- declarations ------------------------------------------------------------ */

static int has_token(const char *s, const char *end, const char *tok)
{
    size_t n = strlen(tok);
    for (const char *p = s; p + n <= end; p++)
        if (!strncmp(p, tok, n) && (p == s || !is_ident((unsigned char)p[-1])) &&
            (p + n == end || !is_ident((unsigned char)p[n])))
            return 1;
    return 0;
}

static long type_bytes(const char *t, size_t n)
{
    static const struct { const char *name; long bytes; } types[] = {
        {".b8", 1}, {".u8", 1}, {".s8", 1},
        {".b16", 2}, {".u16", 2}, {".s16", 2}, {".f16", 2}, {".bf16", 2},
        {".b32", 4}, {".u32", 4}, {".s32", 4}, {".f32", 4}, {".f16x2", 4}, {".bf16x2", 4},
        {".b64", 8}, {".u64", 8}, {".s64", 8}, {".f64", 8},
        {".b128", 16},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strlen(types[i].name) == n && !strncmp(types[i].name, t, n))
            return types[i].bytes;
    return 0;
}

/* `.shared .align 4 .b8 name[4224]`, `.extern .shared .align 16 .b8 smem[]`,
 * `.shared .v4 .f32 v[8], w[8]`: appends each array. */
static void parse_shared_decl(const char *s, const char *end, ptx_array **arrays, int *n)
{
    long elem = 1, vec = 1, align = 1;
    int is_extern = has_token(s, end, ".extern");
    const char *p = s;
    while (p < end) {
        p = skip_space(p, end);
        if (p >= end)
            break;
        if (*p == '.') {
            const char *t = p;
            while (p < end && is_ident((unsigned char)*p) && !(p > t && *p == '.'))
                p++;
            size_t tn = (size_t)(p - t);
            if (tn == 6 && !strncmp(t, ".align", 6)) {
                p = skip_space(p, end);
                align = strtol(p, NULL, 10) > 0 ? strtol(p, NULL, 10) : 1;
                while (p < end && isdigit((unsigned char)*p))
                    p++;
            } else if (tn == 3 && !strncmp(t, ".v2", 3))
                vec = 2;
            else if (tn == 3 && !strncmp(t, ".v4", 3))
                vec = 4;
            else if (tn == 3 && !strncmp(t, ".v8", 3))
                vec = 8;
            else if (type_bytes(t, tn))
                elem = type_bytes(t, tn);
            continue;
        }
        if (*p == ',') {
            p++;
            continue;
        }
        if (!is_name_char((unsigned char)*p)) {
            p++;
            continue;
        }
        const char *name = p;
        while (p < end && is_name_char((unsigned char)*p))
            p++;
        size_t name_len = (size_t)(p - name);
        long count = 1;
        int unsized = 0;
        while ((p = skip_space(p, end)) < end && *p == '[') {
            p++;
            p = skip_space(p, end);
            if (p < end && *p == ']')
                unsized = 1;
            else
                count *= strtol(p, NULL, 10);
            while (p < end && *p != ']')
                p++;
            if (p < end)
                p++;
        }
        while (p < end && *p != ',')   /* an initializer, if any */
            p++;
        *arrays = xrealloc(*arrays, (size_t)(*n + 1) * sizeof **arrays);
        (*arrays)[*n].name = xstrndup(name, name_len);
        (*arrays)[*n].bytes = unsized || is_extern ? -1 : count * elem * vec;
        (*arrays)[*n].align = align;
        (*n)++;
    }
}

/* ---- instructions ------------------------------------------------------------ */

static int component_is(const char *c, size_t n, const char *what)
{
    return strlen(what) == n && !strncmp(c, what, n);
}

static int component_is_shared(const char *c, size_t n)
{
    return component_is(c, n, "shared") || (n > 8 && !strncmp(c, "shared::", 8));
}

/* The opcode's dotted components decide: ld.shared.v4.f32 -> a shared load. */
static ptx_op classify(const char *op, size_t n)
{
    const char *comp[16];
    size_t len[16];
    int k = 0;
    const char *p = op, *end = op + n;
    while (p < end && k < 16) {
        const char *q = p;
        while (q < end && *q != '.')
            q++;
        comp[k] = p;
        len[k++] = (size_t)(q - p);
        p = q < end ? q + 1 : q;
    }
    if (!k)
        return PTX_OTHER;
    if (component_is(comp[0], len[0], "bar") || component_is(comp[0], len[0], "barrier")) {
        int sync = 0;
        for (int i = 1; i < k; i++) {
            /* bar.warp.sync is __syncwarp; a cluster barrier is not the block's */
            if (component_is(comp[i], len[i], "warp") || component_is(comp[i], len[i], "cluster"))
                return PTX_OTHER;
            if (component_is(comp[i], len[i], "sync") || component_is(comp[i], len[i], "red") ||
                component_is(comp[i], len[i], "arrive"))
                sync = 1;
        }
        return sync ? PTX_BARRIER : PTX_OTHER;
    }
    if (component_is(comp[0], len[0], "bra"))
        return PTX_BRANCH;
    if (component_is(comp[0], len[0], "call"))
        return PTX_CALL;
    int shared_at = -1, global_at = -1;
    for (int i = 1; i < k; i++) {
        if (shared_at < 0 && component_is_shared(comp[i], len[i]))
            shared_at = i;
        if (global_at < 0 && component_is(comp[i], len[i], "global"))
            global_at = i;
    }
    if (shared_at < 0)
        return PTX_OTHER;
    if (component_is(comp[0], len[0], "ld") || component_is(comp[0], len[0], "ldu") ||
        component_is(comp[0], len[0], "ldmatrix"))
        return PTX_SHARED_LD;
    if (component_is(comp[0], len[0], "st") || component_is(comp[0], len[0], "stmatrix"))
        return PTX_SHARED_ST;
    if (component_is(comp[0], len[0], "atom") || component_is(comp[0], len[0], "red"))
        return PTX_SHARED_ATOM;
    if (component_is(comp[0], len[0], "wmma") && k > 1)
        return component_is(comp[1], len[1], "load") ? PTX_SHARED_LD :
               component_is(comp[1], len[1], "store") ? PTX_SHARED_ST : PTX_OTHER;
    if (component_is(comp[0], len[0], "cp"))   /* cp.async.<dst>.<src>: shared first = filled */
        return global_at < 0 || shared_at < global_at ? PTX_SHARED_ST : PTX_SHARED_LD;
    return PTX_OTHER;   /* cvta.shared, mapa, mbarrier...: addresses and async barriers */
}

static const ptx_array *find_array(const ptx_array *a, int n, const char *name, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(a[i].name) == len && !strncmp(a[i].name, name, len))
            return &a[i];
    return NULL;
}

static void add_ref(ptx_function *f, const char *name)
{
    for (int i = 0; i < f->n_refs; i++)
        if (!strcmp(f->refs[i], name))
            return;
    f->refs = xrealloc(f->refs, (size_t)(f->n_refs + 1) * sizeof *f->refs);
    f->refs[f->n_refs++] = xstrndup(name, strlen(name));
}

/* One statement of a body (between ';', '{' and '}'), labels first. */
static void parse_statement(ptx_module *m, ptx_function *f, const char *s, const char *end)
{
    for (;;) {
        s = skip_space(s, end);
        const char *q = s;
        while (q < end && is_ident((unsigned char)*q))
            q++;
        if (q > s && q < end && *q == ':' && (q + 1 >= end || q[1] != ':')) {
            f->labels = xrealloc(f->labels, (size_t)(f->n_labels + 1) * sizeof *f->labels);
            f->labels[f->n_labels].name = xstrndup(s, (size_t)(q - s));
            f->labels[f->n_labels++].insn = f->n_insns;
            s = q + 1;
            continue;
        }
        break;
    }
    if (s >= end)
        return;
    if (*s == '.') {   /* a directive: .loc, .reg, .param, .pragma, or a shared array */
        if (end - s > 4 && !strncmp(s, ".loc", 4) && isspace((unsigned char)s[4])) {
            /* .loc FILE LINE COL[, function_name ..., inlined_at ...]: the innermost place */
            char *after;
            long file = strtol(s + 4, &after, 10);
            f->loc_file = (int)file;
            f->loc_line = (int)strtol(after, NULL, 10);
            return;
        }
        if (has_token(s, end, ".shared"))
            parse_shared_decl(s, end, &f->arrays, &f->n_arrays);
        return;
    }
    const char *statement = s;
    if (*s == '@') {   /* the guard predicate: @%p1, @!%p1 */
        while (s < end && !isspace((unsigned char)*s))
            s++;
        s = skip_space(s, end);
    }
    const char *op = s;
    while (s < end && !isspace((unsigned char)*s))
        s++;
    ptx_insn in = {classify(op, (size_t)(s - op)), NULL, xstrndup(statement, (size_t)(end - statement)),
                   f->loc_file, f->loc_line};
    const char *p = skip_space(s, end);
    if (in.op == PTX_BRANCH || in.op == PTX_CALL) {
        if (in.op == PTX_CALL && p < end && *p == '(') {   /* (retval0), */
            int depth = 0;
            do {
                depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
                p++;
            } while (p < end && depth > 0);
            p = skip_space(p, end);
            if (p < end && *p == ',')
                p = skip_space(p + 1, end);
        }
        const char *t = p;
        while (p < end && is_ident((unsigned char)*p))
            p++;
        if (p > t)
            in.target = xstrndup(t, (size_t)(p - t));
    }
    /* Module-scope shared arrays the instruction names (mov.u64 %rd1, smem;). */
    for (p = s; p < end;) {
        if (is_name_char((unsigned char)*p) && (p == s || !is_ident((unsigned char)p[-1]))) {
            const char *t = p;
            while (p < end && is_name_char((unsigned char)*p))
                p++;
            const ptx_array *a = find_array(m->arrays, m->n_arrays, t, (size_t)(p - t));
            if (a)
                add_ref(f, a->name);
        } else
            p++;
    }
    f->insns = xrealloc(f->insns, (size_t)(f->n_insns + 1) * sizeof *f->insns);
    f->insns[f->n_insns++] = in;
}

static void parse_body(ptx_module *m, ptx_function *f, const char *s, const char *end)
{
    const char *start = s;
    for (const char *p = s; p <= end; p++) {
        if (p == end || *p == ';' || *p == '{' || *p == '}') {
            parse_statement(m, f, start, p);
            start = p + 1;
        }
    }
}

/* The brace that closes the one at `open`, or NULL. */
static const char *match_brace(const char *open, const char *end)
{
    int depth = 0;
    for (const char *p = open; p < end; p++) {
        if (*p == '"') {
            for (p++; p < end && *p != '"'; p++)
                ;
            continue;
        }
        if (*p == '{')
            depth++;
        else if (*p == '}' && --depth == 0)
            return p;
    }
    return NULL;
}

int ptx_parse(const char *text, ptx_module *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    char *c = clean(text);
    const char *p = c, *end = c + strlen(c);
    int status = 0;
    while ((p = skip_space(p, end)) < end) {
        /* One top-level statement: up to ';' or the '{' of a body. */
        const char *s = p;
        while (p < end && *p != ';' && *p != '{') {
            if (*p == '"')
                for (p++; p < end && *p != '"'; p++)
                    ;
            p++;
        }
        if (p >= end)
            break;
        int entry = has_token(s, p, ".entry"), func = has_token(s, p, ".func");
        if (*p == ';') {
            if (!strncmp(s, ".file", 5) && isspace((unsigned char)s[5])) {   /* .file 1 "path"[, time, size] */
                char *after;
                long id = strtol(s + 5, &after, 10);
                const char *q1 = memchr(after, '"', (size_t)(p - after)), *q2 = q1 ? memchr(q1 + 1, '"', (size_t)(p - q1 - 1)) : NULL;
                if (q2) {
                    m->files = xrealloc(m->files, (size_t)(m->n_files + 1) * sizeof *m->files);
                    m->file_ids = xrealloc(m->file_ids, (size_t)(m->n_files + 1) * sizeof *m->file_ids);
                    m->files[m->n_files] = xstrndup(q1 + 1, (size_t)(q2 - q1 - 1));
                    m->file_ids[m->n_files++] = (int)id;
                }
                p++;
                continue;
            }
            if (!entry && !func && has_token(s, p, ".shared"))
                parse_shared_decl(s, p, &m->arrays, &m->n_arrays);
            p++;   /* a prototype, .version, .target, a global: nothing to count */
            continue;
        }
        const char *close = match_brace(p, end);
        if (!close) {
            say(err, errlen, "unbalanced braces after '%.40s': the PTX is cut short or not nvcc's -ptx output", s);
            status = -1;
            break;
        }
        if (entry || func) {
            const char *q = strstr(s, entry ? ".entry" : ".func") + (entry ? 6 : 5);
            q = skip_space(q, p);
            if (q < p && *q == '(') {   /* .func (.param .b32 func_retval0) name( */
                int depth = 0;
                do {
                    depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
                    q++;
                } while (q < p && depth > 0);
                q = skip_space(q, p);
            }
            const char *name = q;
            while (q < p && is_name_char((unsigned char)*q))
                q++;
            m->funcs = xrealloc(m->funcs, (size_t)(m->n_funcs + 1) * sizeof *m->funcs);
            ptx_function *f = &m->funcs[m->n_funcs++];
            memset(f, 0, sizeof *f);
            f->name = xstrndup(name, (size_t)(q - name));
            f->is_entry = entry;
            parse_body(m, f, p + 1, close);
        }
        p = close + 1;   /* other blocks (debug sections): skipped whole */
    }
    free(c);
    if (status == 0 && m->n_funcs == 0) {
        say(err, errlen, "no .entry or .func in the PTX: is it nvcc -ptx output of a .cu file with kernels?");
        status = -1;
    }
    return status;
}

int ptx_read_file(const char *path, ptx_module *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    FILE *f = fopen(path, "rb");
    if (!f) {
        say(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    char *text = xrealloc(NULL, cap);
    size_t got;
    while ((got = fread(text + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n - 1 == 0)
            text = xrealloc(text, cap *= 2);
    }
    fclose(f);
    text[n] = '\0';
    char why[400] = "";
    int r = ptx_parse(text, m, why, sizeof why);
    free(text);
    if (r)
        say(err, errlen, "%s: %s", path, why);
    return r;
}

void ptx_free(ptx_module *m)
{
    for (int i = 0; i < m->n_funcs; i++) {
        ptx_function *f = &m->funcs[i];
        free(f->name);
        free(f->demangled);
        for (int j = 0; j < f->n_arrays; j++)
            free(f->arrays[j].name);
        free(f->arrays);
        for (int j = 0; j < f->n_refs; j++)
            free(f->refs[j]);
        free(f->refs);
        for (int j = 0; j < f->n_insns; j++) {
            free(f->insns[j].target);
            free(f->insns[j].text);
        }
        free(f->insns);
        for (int j = 0; j < f->n_labels; j++)
            free(f->labels[j].name);
        free(f->labels);
    }
    free(m->funcs);
    for (int i = 0; i < m->n_arrays; i++)
        free(m->arrays[i].name);
    free(m->arrays);
    for (int i = 0; i < m->n_files; i++)
        free(m->files[i]);
    free(m->files);
    free(m->file_ids);
    memset(m, 0, sizeof *m);
}

/* ---- counting, through calls ------------------------------------------------- */

static const ptx_function *find_function(const ptx_module *m, const char *name)
{
    for (int i = 0; i < m->n_funcs; i++)
        if (!strcmp(m->funcs[i].name, name))
            return &m->funcs[i];
    return NULL;
}

typedef struct {
    int ld, st, atom, barriers, calls, unresolved;
} counts;

#define MAX_CALL_DEPTH 16

static void count_range(const ptx_module *m, const ptx_function *f, int first, int last, counts *c,
                        const ptx_function **stack, int depth);

static void count_call(const ptx_module *m, const ptx_insn *in, counts *c, const ptx_function **stack, int depth)
{
    c->calls++;
    const ptx_function *g = in->target ? find_function(m, in->target) : NULL;
    if (!g) {
        c->unresolved++;
        return;
    }
    for (int i = 0; i < depth; i++)   /* recursion: counted once on this path */
        if (stack[i] == g)
            return;
    if (depth >= MAX_CALL_DEPTH)
        return;
    stack[depth] = g;
    count_range(m, g, 0, g->n_insns - 1, c, stack, depth + 1);
}

static void count_range(const ptx_module *m, const ptx_function *f, int first, int last, counts *c,
                        const ptx_function **stack, int depth)
{
    for (int i = first; i <= last && i < f->n_insns; i++) {
        switch (f->insns[i].op) {
        case PTX_SHARED_LD: c->ld++; break;
        case PTX_SHARED_ST: c->st++; break;
        case PTX_SHARED_ATOM: c->atom++; break;
        case PTX_BARRIER: c->barriers++; break;
        case PTX_CALL: count_call(m, &f->insns[i], c, stack, depth); break;
        default: break;
        }
    }
}

/* The shared events of a range in text order, calls expanded:
 * 'L' load, 'S' store, 'A' atomic (both), '|' barrier. */
typedef struct {
    char *s;
    size_t n, cap;
} events;

static void push_event(events *e, char c)
{
    if (e->n + 1 >= e->cap)
        e->s = xrealloc(e->s, e->cap = e->cap ? 2 * e->cap : 256);
    e->s[e->n++] = c;
    e->s[e->n] = '\0';
}

static void collect_events(const ptx_module *m, const ptx_function *f, int first, int last, events *e,
                           const ptx_function **stack, int depth)
{
    for (int i = first; i <= last && i < f->n_insns; i++) {
        const ptx_insn *in = &f->insns[i];
        switch (in->op) {
        case PTX_SHARED_LD: push_event(e, 'L'); break;
        case PTX_SHARED_ST: push_event(e, 'S'); break;
        case PTX_SHARED_ATOM: push_event(e, 'A'); break;
        case PTX_BARRIER: push_event(e, '|'); break;
        case PTX_CALL: {
            const ptx_function *g = in->target ? find_function(m, in->target) : NULL;
            int seen = !g || depth >= MAX_CALL_DEPTH;
            for (int k = 0; !seen && k < depth; k++)
                seen = stack[k] == g;
            if (!seen) {
                stack[depth] = g;
                collect_events(m, g, 0, g->n_insns - 1, e, stack, depth + 1);
            }
            break;
        }
        default: break;
        }
    }
}

/* Supersteps of a loop: the stretches between barriers, the last one wrapping
 * round to the first. Counts those that both store and load shared memory. */
static int fill_and_read_supersteps(const char *ev)
{
    size_t n = strlen(ev);
    size_t first_bar = strcspn(ev, "|");
    if (first_bar == n)
        return 0;
    int count = 0, ld = 0, st = 0;
    for (size_t k = 1; k <= n; k++) {   /* from just after the first barrier, around */
        char c = ev[(first_bar + k) % n];
        if (c == '|') {
            count += ld && st;
            ld = st = 0;
        } else {
            ld |= c == 'L' || c == 'A';
            st |= c == 'S' || c == 'A';
        }
    }
    return count;
}

static int label_index(const ptx_function *f, const char *name)
{
    for (int i = 0; i < f->n_labels; i++)
        if (!strcmp(f->labels[i].name, name))
            return f->labels[i].insn;
    return -1;
}

static void add_used(ptx_kernel_stats *s, const ptx_array *a)
{
    for (int i = 0; i < s->n_used; i++)
        if (s->used[i] == a)
            return;
    if (s->n_used < PTX_MAX_USED_ARRAYS)
        s->used[s->n_used++] = a;
    if (a->bytes < 0)
        s->dynamic = 1;
    else
        s->static_bytes += a->bytes;
}

static void collect_arrays(const ptx_module *m, const ptx_function *f, ptx_kernel_stats *s,
                           const ptx_function **stack, int depth)
{
    for (int i = 0; i < f->n_arrays; i++)
        add_used(s, &f->arrays[i]);
    for (int i = 0; i < f->n_refs; i++) {
        const ptx_array *a = find_array(m->arrays, m->n_arrays, f->refs[i], strlen(f->refs[i]));
        if (a)
            add_used(s, a);
    }
    for (int i = 0; i < f->n_insns; i++) {
        if (f->insns[i].op != PTX_CALL || !f->insns[i].target)
            continue;
        const ptx_function *g = find_function(m, f->insns[i].target);
        int seen = !g || depth >= MAX_CALL_DEPTH;
        for (int k = 0; !seen && k < depth; k++)
            seen = stack[k] == g;
        if (!seen) {
            stack[depth] = g;
            collect_arrays(m, g, s, stack, depth + 1);
        }
    }
}

void ptx_kernel_stats_of(const ptx_module *m, const ptx_function *fn, ptx_kernel_stats *s)
{
    memset(s, 0, sizeof *s);
    s->fn = fn;
    const ptx_function *stack[MAX_CALL_DEPTH + 1] = {fn};
    collect_arrays(m, fn, s, stack, 1);

    counts all = {0};
    count_range(m, fn, 0, fn->n_insns - 1, &all, stack, 1);
    s->shared_ld = all.ld;
    s->shared_st = all.st;
    s->shared_atom = all.atom;
    s->barriers = all.barriers;
    s->calls = all.calls;
    s->unresolved_calls = all.unresolved;

    /* Loops: each label's farthest backward branch. */
    int n = fn->n_insns;
    char *in_loop = xrealloc(NULL, (size_t)n + 1);
    memset(in_loop, 0, (size_t)n + 1);
    ptx_loop *loops = NULL;
    int n_loops = 0;
    for (int i = 0; i < n; i++) {
        const ptx_insn *in = &fn->insns[i];
        if (in->op != PTX_BRANCH || !in->target)
            continue;
        int first = label_index(fn, in->target);
        if (first < 0 || first > i)
            continue;
        int k;
        for (k = 0; k < n_loops && loops[k].first != first; k++)
            ;
        if (k == n_loops) {
            loops = xrealloc(loops, (size_t)(n_loops + 1) * sizeof *loops);
            memset(&loops[n_loops++], 0, sizeof *loops);
            loops[k].first = first;
        }
        if (i > loops[k].last)
            loops[k].last = i;
    }
    for (int k = 0; k < n_loops; k++) {
        ptx_loop *l = &loops[k];
        counts c = {0};
        count_range(m, fn, l->first, l->last, &c, stack, 1);
        l->barriers = c.barriers;
        l->shared_ld = c.ld;
        l->shared_st = c.st;
        l->shared_atom = c.atom;
        events e = {0};
        collect_events(m, fn, l->first, l->last, &e, stack, 1);
        l->fill_and_read = e.s ? fill_and_read_supersteps(e.s) : 0;
        free(e.s);
        memset(in_loop + l->first, 1, (size_t)(l->last - l->first + 1));
    }
    s->loops = n_loops;
    for (int i = 0; i < n; i++) {
        if (!in_loop[i])
            continue;
        if (fn->insns[i].op == PTX_BARRIER)
            s->barriers_in_loops++;
        else if (fn->insns[i].op == PTX_CALL) {
            counts c = {0};
            count_range(m, fn, i, i, &c, stack, 1);
            s->barriers_in_loops += c.barriers;
        }
    }
    /* The K-loop: a loop with shared loads and a barrier holding no other
     * such loop (the innermost); of several, the one with most shared loads. */
    int best = -1;
    for (int k = 0; k < n_loops; k++) {
        const ptx_loop *l = &loops[k];
        if (!l->barriers || !(l->shared_ld + l->shared_atom))
            continue;
        int holds_one = 0;
        for (int j = 0; j < n_loops && !holds_one; j++) {
            const ptx_loop *o = &loops[j];
            holds_one = j != k && o->barriers && (o->shared_ld + o->shared_atom) && o->first >= l->first &&
                        o->last <= l->last && (o->first != l->first || o->last != l->last);
        }
        if (holds_one)
            continue;
        if (best < 0 || l->shared_ld > loops[best].shared_ld)
            best = k;
    }
    if (best >= 0) {
        s->has_kloop = 1;
        s->kloop = loops[best];
    }
    free(loops);
    free(in_loop);
}

/* ---- rules -------------------------------------------------------------------- */

int ptx_uses_shared_and_barrier(const ptx_kernel_stats *s, int n, char *why, size_t len)
{
    char name[256];
    for (int i = 0; i < n; i++) {
        if (s[i].shared_ld + s[i].shared_st + s[i].shared_atom > 0 && s[i].barriers > 0) {
            say(why, len, "%s uses shared memory (%d shared ld/st) and a barrier (%d)",
                ptx_display_name(s[i].fn, name, sizeof name), s[i].shared_ld + s[i].shared_st + s[i].shared_atom,
                s[i].barriers);
            return 1;
        }
    }
    if (n == 0) {
        say(why, len, "no kernel to judge");
        return 0;
    }
    /* Say what the first kernel lacks: the usual case is one kernel. */
    int accesses = s[0].shared_ld + s[0].shared_st + s[0].shared_atom;
    say(why, len, "%s%s has %s and %s", n > 1 ? "no kernel that ran uses both; " : "",
        ptx_display_name(s[0].fn, name, sizeof name),
        accesses ? "shared loads/stores" : "no shared loads or stores",
        s[0].barriers ? "a barrier" : "no barrier");
    return 0;
}

ptx_dbuf_verdict ptx_double_buffered(const ptx_kernel_stats *s, long tile_bytes, long dynamic_bytes,
                                     char *why, size_t len)
{
    char name[256];
    ptx_display_name(s->fn, name, sizeof name);
    if (tile_bytes <= 0)
        tile_bytes = PTX_LAB5_TILE_BYTES;
    long need = 2 * 2 * tile_bytes;
    if (!s->has_kloop) {
        say(why, len, "%s has no loop with shared loads and a barrier: no K-loop to double-buffer "
            "(%d barrier%s, %d shared load%s in all)", name, s->barriers, s->barriers == 1 ? "" : "s",
            s->shared_ld, s->shared_ld == 1 ? "" : "s");
        return PTX_DBUF_NO;
    }
    const ptx_loop *k = &s->kloop;
    if (k->fill_and_read < k->barriers) {
        say(why, len, "%s's K-loop has %d barrier%s per trip, and %d of its %d supersteps only %s shared memory: "
            "lab 4's schedule (fill, barrier, multiply, barrier); double buffering fills the next tile "
            "while multiplying the current one, one barrier per K-step",
            name, k->barriers, k->barriers == 1 ? "" : "s", k->barriers - k->fill_and_read, k->barriers,
            k->shared_st ? "fill or only read" : "read");
        return PTX_DBUF_NO;
    }
    long bytes = s->static_bytes + (s->dynamic && dynamic_bytes > 0 ? dynamic_bytes : 0);
    if (s->dynamic && dynamic_bytes < 0 && bytes < need) {
        say(why, len, "%s's K-loop has one barrier per K-step; its buffers are dynamic shared memory, "
            "sized at launch, so their count is not verified (%ld B static)", name, s->static_bytes);
        return PTX_DBUF_UNVERIFIED;
    }
    if (bytes < need) {
        say(why, len, "%s's K-loop has one barrier per K-step, but its %ld B of shared memory hold one "
            "buffer per operand: two %ld B tiles per operand (A and B) need %ld B", name, bytes, tile_bytes, need);
        return PTX_DBUF_NO;
    }
    say(why, len, "%s: one barrier per K-step (%d per K-loop trip), %ld B of shared memory: two %ld B "
        "buffers per operand", name, k->barriers, bytes, tile_bytes);
    return PTX_DBUF_YES;
}

/* ---- names -------------------------------------------------------------------- */

/* c++filt (binutils) on every mangled name at once. PTX names are
 * [A-Za-z0-9_$], so they pass through the shell as they are. */
int ptx_demangle(ptx_module *m)
{
    if (m->demangle_tried)
        return m->demangle_failed ? -1 : 0;
    m->demangle_tried = 1;
    m->demangle_failed = 1;   /* until c++filt has answered */
    size_t len = 64;
    int any = 0;
    for (int i = 0; i < m->n_funcs; i++) {
        const char *n = m->funcs[i].name;
        if (strncmp(n, "_Z", 2))
            continue;
        for (const char *p = n; *p; p++)
            if (!is_name_char((unsigned char)*p))
                return -1;
        len += strlen(n) + 1;
        any = 1;
    }
    if (!any) {
        m->demangle_failed = 0;
        return 0;
    }
    char *cmd = xrealloc(NULL, len);
    strcpy(cmd, "c++filt");
    for (int i = 0; i < m->n_funcs; i++)
        if (!strncmp(m->funcs[i].name, "_Z", 2)) {
            strcat(cmd, " ");
            strcat(cmd, m->funcs[i].name);
        }
    strcat(cmd, " 2>/dev/null");
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p)
        return -1;
    char line[4096];
    int ok = 1;
    for (int i = 0; i < m->n_funcs; i++) {
        if (strncmp(m->funcs[i].name, "_Z", 2))
            continue;
        if (!fgets(line, sizeof line, p)) {
            ok = 0;
            break;
        }
        line[strcspn(line, "\n")] = '\0';
        if (strcmp(line, m->funcs[i].name))   /* c++filt echoes what it cannot demangle */
            m->funcs[i].demangled = xstrndup(line, strlen(line));
    }
    int status = pclose(p);
    if (!ok || status != 0) {
        for (int i = 0; i < m->n_funcs; i++) {
            free(m->funcs[i].demangled);
            m->funcs[i].demangled = NULL;
        }
        return -1;
    }
    m->demangle_failed = 0;
    return 0;
}

/* Without c++filt: the name of `_Z<len><name>...` or `_ZN<len><a><len><b>...E`
 * (a::b), template arguments and parameters left out. */
static void base_of_mangled(const char *mangled, char *out, size_t len)
{
    const char *p = mangled + 2;
    size_t o = 0;
    int nested = *p == 'N';
    if (nested)
        p++;
    while (*p == 'K' || *p == 'V' || *p == 'L')
        p++;
    out[0] = '\0';
    while (isdigit((unsigned char)*p)) {
        char *next;
        long n = strtol(p, &next, 10);
        if (n <= 0 || (long)strlen(next) < n)
            break;
        if (o && o + 2 < len) {
            out[o++] = ':';
            out[o++] = ':';
        }
        for (long i = 0; i < n && o + 1 < len; i++)
            out[o++] = next[i];
        out[o] = '\0';
        p = next + n;
        if (!nested)
            break;
    }
    if (!o)
        snprintf(out, len, "%s", mangled);
}

typedef struct {
    char base[512];     /* qualified name, no template arguments, no spaces */
    char targs[1024];   /* canonical template arguments, '|'-separated; "" when none */
    char params[2048];  /* canonical parameter types, '|'-separated */
    int nparams;
    int has_params;     /* the name came with its parameter list */
} signature;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A type as its sorted words and symbols: "const float *" and "float const*"
 * both give "* const float". A template argument's literal loses its cast
 * and suffix: "(int)32", "32u", "32" all give "32". */
static void canon_item(const char *s, const char *end, int literal, char *out, size_t len)
{
    s = skip_space(s, end);
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    if (literal) {
        const char *p = s;
        if (p < end && *p == '(') {   /* a cast */
            while (p < end && *p != ')')
                p++;
            p++;
        }
        const char *d = p;
        if (d < end && *d == '-')
            d++;
        const char *digits = d;
        while (d < end && isdigit((unsigned char)*d))
            d++;
        const char *after = d;
        while (d < end && strchr("uUlL", *d))
            d++;
        if (after > digits && d == end) {
            snprintf(out, len, "%.*s", (int)(after - p), p);
            return;
        }
    }
    char *tokens[128];
    int n = 0;
    for (const char *p = s; p < end && n < 128;) {
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        const char *t = p;
        if (is_name_char((unsigned char)*p) || *p == ':')
            while (p < end && (is_name_char((unsigned char)*p) || *p == ':'))
                p++;
        else
            p++;
        tokens[n++] = xstrndup(t, (size_t)(p - t));
    }
    qsort(tokens, (size_t)n, sizeof *tokens, cmp_str);
    size_t o = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%s", i ? " " : "", tokens[i]);
        free(tokens[i]);
    }
}

/* Splits a list at its top-level commas and canonicalises each item. */
static int canon_list(const char *s, const char *end, int literal, char *out, size_t len)
{
    out[0] = '\0';
    const char *t = skip_space(s, end);
    const char *e = end;
    while (e > t && isspace((unsigned char)e[-1]))
        e--;
    if (e == t || (e - t == 4 && !strncmp(t, "void", 4)))
        return 0;
    int depth = 0, n = 0;
    size_t o = 0;
    const char *item = t;
    for (const char *p = t; p <= e; p++) {
        if (p < e && strchr("<([", *p))
            depth++;
        else if (p < e && strchr(">)]", *p))
            depth--;
        if (p == e || (*p == ',' && depth == 0)) {
            char one[512];
            canon_item(item, p, literal, one, sizeof one);
            o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%s", n ? "|" : "", one);
            n++;
            item = p + 1;
        }
    }
    return n;
}

static void parse_signature(const char *text, signature *sig)
{
    memset(sig, 0, sizeof *sig);
    const char *s = skip_space(text, text + strlen(text));
    const char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1]))
        end--;
    const char *name_end = end;
    if (end > s && end[-1] == ')') {   /* the parameter list: the group that ends the text */
        int depth = 0;
        const char *p = end - 1;
        for (; p >= s; p--) {
            depth += *p == ')' ? 1 : *p == '(' ? -1 : 0;
            if (depth == 0)
                break;
        }
        if (p > s) {
            sig->has_params = 1;
            sig->nparams = canon_list(p + 1, end - 1, 0, sig->params, sizeof sig->params);
            name_end = p;
        }
    }
    /* Drop a return type: the name is the last word outside <> and (). */
    const char *name = s;
    int depth = 0;
    for (const char *p = s; p < name_end; p++) {
        depth += (*p == '<' || *p == '(') ? 1 : (*p == '>' || *p == ')') ? -1 : 0;
        if (depth == 0 && isspace((unsigned char)*p))
            name = p + 1;
    }
    const char *lt = NULL;
    depth = 0;
    for (const char *p = name; p < name_end && !lt; p++) {
        depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
        if (*p == '<' && depth == 0)
            lt = p;
    }
    const char *base_end = lt ? lt : name_end;
    size_t o = 0;
    for (const char *p = name; p < base_end && o + 1 < sizeof sig->base; p++)
        if (!isspace((unsigned char)*p))
            sig->base[o++] = *p;
    sig->base[o] = '\0';
    if (lt) {
        const char *gt = name_end;
        while (gt > lt && gt[-1] != '>')
            gt--;
        if (gt > lt + 1)
            canon_list(lt + 1, gt - 1, 1, sig->targs, sizeof sig->targs);
    }
}

int ptx_same_signature(const char *a, const char *b)
{
    signature x, y;
    parse_signature(a, &x);
    parse_signature(b, &y);
    return !strcmp(x.base, y.base) && !strcmp(x.targs, y.targs) && x.has_params == y.has_params &&
           !strcmp(x.params, y.params);
}

/* What a function's name says, as a signature: c++filt's demangling, or the
 * base of the mangled name without it, or the plain (extern "C") name. */
static void signature_of(const ptx_function *f, signature *sig)
{
    if (f->demangled)
        parse_signature(f->demangled, sig);
    else if (!strncmp(f->name, "_Z", 2)) {
        memset(sig, 0, sizeof *sig);
        base_of_mangled(f->name, sig->base, sizeof sig->base);
    } else
        parse_signature(f->name, sig);
}

const char *ptx_display_name(const ptx_function *fn, char *buf, size_t len)
{
    if (!fn) {
        say(buf, len, "(none)");
        return buf;
    }
    if (!fn->demangled) {
        if (!strncmp(fn->name, "_Z", 2))
            base_of_mangled(fn->name, buf, len);
        else
            say(buf, len, "%s", fn->name);
        return buf;
    }
    /* c++filt's text without the return type and parameter list. */
    const char *s = fn->demangled, *end = s + strlen(s);
    if (end > s && end[-1] == ')') {
        int depth = 0;
        for (const char *p = end - 1; p >= s; p--) {
            depth += *p == ')' ? 1 : *p == '(' ? -1 : 0;
            if (depth == 0) {
                end = p;
                break;
            }
        }
    }
    const char *name = s;
    int depth = 0;
    for (const char *p = s; p < end; p++) {
        depth += (*p == '<' || *p == '(') ? 1 : (*p == '>' || *p == ')') ? -1 : 0;
        if (depth == 0 && *p == ' ')
            name = p + 1;
    }
    say(buf, len, "%.*s", (int)(end - name), name);
    return buf;
}

static void list_kernels(const ptx_module *m, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (int i = 0; i < m->n_funcs; i++) {
        if (!m->funcs[i].is_entry)
            continue;
        const char *n = m->funcs[i].demangled ? m->funcs[i].demangled : m->funcs[i].name;
        o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%s", o ? "; " : "", n);
    }
}

const ptx_function *ptx_find_kernel(ptx_module *m, const char *name, char *err, size_t errlen)
{
    for (int i = 0; i < m->n_funcs; i++)
        if (m->funcs[i].is_entry && !strcmp(m->funcs[i].name, name))
            return &m->funcs[i];
    ptx_demangle(m);
    signature q;
    parse_signature(name, &q);
    const ptx_function *exact = NULL, *loose = NULL;
    int n_exact = 0, n_loose = 0;
    for (int i = 0; i < m->n_funcs; i++) {
        const ptx_function *f = &m->funcs[i];
        if (!f->is_entry)
            continue;
        signature k;
        signature_of(f, &k);
        if (strcmp(q.base, k.base))
            continue;
        int targs_agree = !q.targs[0] || !strcmp(q.targs, k.targs) || (!k.targs[0] && !f->demangled);
        if (q.has_params && k.has_params) {
            if (targs_agree && !strcmp(q.params, k.params)) {
                exact = exact ? exact : f;
                n_exact++;
            } else if (q.nparams == k.nparams) {
                loose = loose ? loose : f;
                n_loose++;
            }
        } else if (targs_agree) {   /* a bare name, or no c++filt: the name alone */
            loose = loose ? loose : f;
            n_loose++;
        }
    }
    if (n_exact == 1)
        return exact;
    if (n_exact == 0 && n_loose == 1)
        return loose;
    char kernels[2048];
    list_kernels(m, kernels, sizeof kernels);
    if (n_exact > 1 || n_loose > 1)
        say(err, errlen, "'%s' matches %d kernels in the PTX: name one with its parameters as ncu prints them "
            "(kernels: %s)", name, n_exact > 1 ? n_exact : n_loose, kernels);
    else
        say(err, errlen, "no kernel '%s' in the PTX (kernels: %s)", name, kernels[0] ? kernels : "none");
    if (m->demangle_failed) {
        size_t used = strlen(err);
        say(err + used, errlen - used, "; c++filt (binutils) did not run, so names were compared without their "
            "parameters: install binutils");
    }
    return NULL;
}

/* ---- ncu's CSV ------------------------------------------------------------------ */

/* Splits one CSV line of quoted fields in place ("a","b,c"; "" is a quote). */
static int split_csv(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (*p && *p != '\n' && *p != '\r' && n < max) {
        if (*p == '"') {
            char *o = ++p;
            fields[n++] = o;
            while (*p) {
                if (*p == '"' && p[1] == '"') {
                    *o++ = '"';
                    p += 2;
                } else if (*p == '"') {
                    p++;
                    break;
                } else
                    *o++ = *p++;
            }
            *o = '\0';
            while (*p && *p != ',')
                p++;
        } else {
            fields[n++] = p;
            while (*p && *p != ',' && *p != '\n' && *p != '\r')
                p++;
            if (*p == ',') {
                *p++ = '\0';
                continue;
            }
            *p = '\0';
            break;
        }
        if (*p == ',')
            p++;
        else
            break;
    }
    return n;
}

static long bytes_with_unit(const char *value, const char *unit)
{
    char digits[64];
    size_t o = 0;
    for (const char *p = value; *p && o + 1 < sizeof digits; p++)
        if (isdigit((unsigned char)*p) || *p == '.')
            digits[o++] = *p;   /* ncu may print thousands separators */
    digits[o] = '\0';
    if (!o)
        return -1;
    double v = strtod(digits, NULL);
    if (!strcasecmp(unit, "kbyte") || !strcasecmp(unit, "kb"))
        v *= 1000;
    else if (!strcasecmp(unit, "kibyte") || !strcasecmp(unit, "kib"))
        v *= 1024;
    else if (!strcasecmp(unit, "mbyte") || !strcasecmp(unit, "mb"))
        v *= 1e6;
    return (long)(v + 0.5);
}

int ptx_ncu_kernels(const char *csv_path, char ***names, long **dynamic_bytes, char *err, size_t errlen)
{
    return ptx_ncu_kernels_work(csv_path, names, dynamic_bytes, NULL, NULL, err, errlen);
}

int ptx_ncu_kernels_work(const char *csv_path, char ***names, long **dynamic_bytes, double **ffma, double **tensor,
                         char *err, size_t errlen)
{
    *names = NULL;
    *dynamic_bytes = NULL;
    if (ffma)
        *ffma = NULL;
    if (tensor)
        *tensor = NULL;
    double *hfma2 = NULL;   /* each kernel's HFMA2.MMA, taken from its tensor-pipe count at the end */
    FILE *f = fopen(csv_path, "r");
    if (!f) {
        say(err, errlen, "cannot read ncu's CSV %s: %s", csv_path, strerror(errno));
        return -1;
    }
    enum { MAX_FIELDS = 64 };
    char line[16384];
    char *fields[MAX_FIELDS];
    int col_kernel = -1, col_metric = -1, col_unit = -1, col_value = -1, n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] != '"')   /* ==PROF== lines and the program's own output */
            continue;
        int nf = split_csv(line, fields, MAX_FIELDS);
        if (col_kernel < 0) {
            for (int i = 0; i < nf; i++) {
                if (!strcmp(fields[i], "Kernel Name"))
                    col_kernel = i;
                else if (!strcmp(fields[i], "Metric Name"))
                    col_metric = i;
                else if (!strcmp(fields[i], "Metric Unit"))
                    col_unit = i;
                else if (!strcmp(fields[i], "Metric Value"))
                    col_value = i;
            }
            continue;
        }
        if (col_kernel >= nf)
            continue;
        int k;
        for (k = 0; k < n && strcmp((*names)[k], fields[col_kernel]); k++)
            ;
        if (k == n) {
            *names = xrealloc(*names, (size_t)(n + 1) * sizeof **names);
            *dynamic_bytes = xrealloc(*dynamic_bytes, (size_t)(n + 1) * sizeof **dynamic_bytes);
            if (ffma)
                *ffma = xrealloc(*ffma, (size_t)(n + 1) * sizeof **ffma), (*ffma)[n] = -1;
            hfma2 = xrealloc(hfma2, (size_t)(n + 1) * sizeof *hfma2), hfma2[n] = 0;
            if (tensor)
                *tensor = xrealloc(*tensor, (size_t)(n + 1) * sizeof **tensor), (*tensor)[n] = -1;
            (*names)[n] = xstrndup(fields[col_kernel], strlen(fields[col_kernel]));
            (*dynamic_bytes)[n++] = -1;
        }
        /* The arithmetic each kernel did: FP32 FMAs, adds and multiplies (together), and
         * tensor-pipe instructions, every launch summed. */
        if (col_metric >= 0 && col_value >= 0 && col_metric < nf && col_value < nf) {
            const char *metric = fields[col_metric];
            int is_ffma = !strcmp(metric, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum") ||
                          !strcmp(metric, "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum") ||
                          !strcmp(metric, "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum");
            int sign = tl_tensor_metric_sign(metric);   /* HFMA2.MMA taken away (counters.h) */
            double *into = is_ffma && ffma ? &(*ffma)[k] : sign > 0 && tensor ? &(*tensor)[k]
                         : sign < 0 && tensor ? &hfma2[k] : NULL;
            if (into) {
                char digits[64];
                size_t d = 0;
                for (const char *v = fields[col_value]; *v && d + 1 < sizeof digits; v++)
                    if (*v != ',')
                        digits[d++] = *v;
                digits[d] = '\0';
                *into = (*into < 0 ? 0 : *into) + strtod(digits, NULL);
            }
        }
        if (col_metric >= 0 && col_value >= 0 && col_metric < nf && col_value < nf &&
            !strcmp(fields[col_metric], "launch__shared_mem_per_block_dynamic")) {
            long b = bytes_with_unit(fields[col_value], col_unit >= 0 && col_unit < nf ? fields[col_unit] : "");
            if (b > (*dynamic_bytes)[k])
                (*dynamic_bytes)[k] = b;
        }
    }
    fclose(f);
    for (int k = 0; tensor && k < n; k++)
        if ((*tensor)[k] >= 0)
            (*tensor)[k] = (*tensor)[k] > hfma2[k] ? (*tensor)[k] - hfma2[k] : 0;
    free(hfma2);
    if (col_kernel < 0) {
        say(err, errlen, "%s has no \"Kernel Name\" column: is it ncu --csv output? (ncu's own messages: "
            "grep ==ERROR== %s)", csv_path, csv_path);
        return -1;
    }
    return n;
}

/* ---- accesses per source line (ptx.h: ptx_line_accesses) --------------------- */

int ptx_same_path(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la < lb) {
        const char *t = a;
        a = b, b = t;
        size_t n = la;
        la = lb, lb = n;
    }
    while (lb > 2 && !strncmp(b, "./", 2))
        b += 2, lb -= 2;
    return lb && !strcmp(a + la - lb, b) && (la == lb || a[la - lb - 1] == '/');
}

/* Alignments are powers of two, kept up to 16 bytes: the widest access. */
enum { ALIGN_TOP = 16 };

static long pow2_of(long long v)
{
    if (v == 0)
        return ALIGN_TOP;
    long a = 1;
    while (a < ALIGN_TOP && !(v & a))
        a <<= 1;
    return a;
}

static long align_product(long a, long b)
{
    long p = a * b;
    return p > ALIGN_TOP ? ALIGN_TOP : p;
}

/* An instruction's text from its opcode on: past its guard predicate (@%p1, @!%p1), if any. */
static const char *after_guard(const char *text)
{
    if (*text == '@')
        text += strcspn(text, " \t\n");
    return skip_space(text, text + strlen(text));
}

/* Operand i (0 first) of an instruction's text, up to ',' or ';' (brackets kept whole). */
static int operand(const char *text, int i, char *out, size_t len)
{
    const char *p = after_guard(text);
    p += strcspn(p, " \t\n");   /* the opcode */
    for (int k = 0;; k++) {
        p = skip_space(p, p + strlen(p));
        if (!*p)
            return 0;
        const char *q = p;
        int depth = 0;
        while (*q && (depth || *q != ',')) {
            depth += *q == '[' || *q == '{' ? 1 : *q == ']' || *q == '}' ? -1 : 0;
            q++;
        }
        if (k == i) {
            while (q > p && isspace((unsigned char)q[-1]))
                q--;
            snprintf(out, len, "%.*s", (int)(q - p), p);
            return 1;
        }
        if (!*q)
            return 0;
        p = q + 1;
    }
}

static int starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* The registers of one function and what is known of their values' alignment. */
typedef struct {
    char **names;
    long *align;
    int *array;   /* the shared array its value points into: SYM_UNSEEN, SYM_NONE, or an index (array_at) */
    int n;
} reg_aligns;

enum { SYM_UNSEEN = -2, SYM_NONE = -1 };

static int reg_index(reg_aligns *r, const char *name, int add)
{
    for (int i = 0; i < r->n; i++)
        if (!strcmp(r->names[i], name))
            return i;
    if (!add)
        return -1;
    r->names = xrealloc(r->names, (size_t)(r->n + 1) * sizeof *r->names);
    r->align = xrealloc(r->align, (size_t)(r->n + 1) * sizeof *r->align);
    r->array = xrealloc(r->array, (size_t)(r->n + 1) * sizeof *r->array);
    r->names[r->n] = xstrndup(name, strlen(name));
    r->align[r->n] = ALIGN_TOP;   /* optimistic until a definition says less (below) */
    r->array[r->n] = SYM_UNSEEN;
    return r->n++;
}

/* Where a kernel's own shared arrays lie: declared in order, each at the next
 * multiple of its .align from 0 (ptxas places a kernel's static shared memory
 * at the start of the block's window, whose start is aligned). An array of
 * module scope (and dynamic shared memory) is known by its .align alone. */
static long symbol_align(const ptx_module *m, const ptx_function *f, const char *name)
{
    long at = 0;
    for (int i = 0; i < f->n_arrays; i++) {
        const ptx_array *a = &f->arrays[i];
        long al = a->align > 0 ? a->align : 1;
        at = (at + al - 1) / al * al;
        if (!strcmp(a->name, name))
            return pow2_of(at);
        at += a->bytes > 0 ? a->bytes : 0;
    }
    for (int i = 0; i < m->n_arrays; i++)
        if (!strcmp(m->arrays[i].name, name))
            return m->arrays[i].align < ALIGN_TOP ? m->arrays[i].align : ALIGN_TOP;
    return 1;
}

/* Shared arrays by index: the function's own first, then the module's. */
static const ptx_array *array_at(const ptx_module *m, const ptx_function *f, int i)
{
    return i < 0 ? NULL : i < f->n_arrays ? &f->arrays[i] : i - f->n_arrays < m->n_arrays ? &m->arrays[i - f->n_arrays] : NULL;
}

static int array_named(const ptx_module *m, const ptx_function *f, const char *name)
{
    for (int i = 0; i < f->n_arrays; i++)
        if (!strcmp(f->arrays[i].name, name))
            return i;
    for (int i = 0; i < m->n_arrays; i++)
        if (!strcmp(m->arrays[i].name, name))
            return f->n_arrays + i;
    return SYM_NONE;
}

/* The shared array an operand points into (a register's, as far as known). */
static int value_array(const ptx_module *m, const ptx_function *f, reg_aligns *r, const char *v)
{
    if (*v == '%') {
        char name[96];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(v, "#"), v);
        int i = reg_index(r, name, 0);
        return i < 0 ? SYM_NONE : r->array[i];
    }
    return isdigit((unsigned char)*v) || *v == '-' ? SYM_NONE : array_named(m, f, v);
}

/* What an instruction leaves in its destination: which array it points into.
 * Moves keep it; an add or sub of an array's address and an offset is that
 * array's; anything else points into none (that we know of). */
static int defined_array(const ptx_module *m, const ptx_function *f, reg_aligns *r, const ptx_insn *in)
{
    const char *t = after_guard(in->text);
    char a[128], b[128], c[128];
    int na = operand(in->text, 1, a, sizeof a), nb = operand(in->text, 2, b, sizeof b), nc = operand(in->text, 3, c, sizeof c);
    if ((starts(t, "mov.") || starts(t, "cvta.") || starts(t, "cvt.")) && na && !nb)
        return value_array(m, f, r, a);
    if ((starts(t, "add.") || starts(t, "sub.")) && na && nb && !nc) {
        int x = value_array(m, f, r, a), y = value_array(m, f, r, b);
        return x >= 0 && y < 0 ? x : y >= 0 && x < 0 && starts(t, "add.") ? y : SYM_NONE;
    }
    if ((starts(t, "mad.lo.") || starts(t, "mad.wide.")) && na && nb && nc) {
        int x = value_array(m, f, r, c);
        return value_array(m, f, r, a) < 0 && value_array(m, f, r, b) < 0 ? x : SYM_NONE;
    }
    return SYM_NONE;
}

/* The name the source gave a shared array: a static one in a function is
 * "demoted" under its mangled local name (_ZZ12matmul_tiledPKfS0_PfiiiE2As:
 * As), one at file scope keeps its own. */
static void source_name(const char *ptx_name, char *out, size_t len)
{
    snprintf(out, len, "%s", ptx_name);
    if (strncmp(ptx_name, "_ZZ", 3))
        return;
    size_t n = strlen(ptx_name);
    for (size_t i = n; i-- > 3;) {   /* E<length><name>, maybe with a _<number> after it */
        if (ptx_name[i] != 'E' || !isdigit((unsigned char)ptx_name[i + 1]))
            continue;
        char *end;
        long l = strtol(ptx_name + i + 1, &end, 10);
        size_t rest = n - (size_t)(end - ptx_name);
        if (l > 0 && (size_t)l <= rest && (rest == (size_t)l || end[l] == '_')) {
            snprintf(out, len, "%.*s", (int)l, end);
            return;
        }
    }
}

/* The alignment of an operand: a register's, an immediate's, a shared array's. */
static long value_align(const ptx_module *m, const ptx_function *f, reg_aligns *r, const char *v)
{
    if (*v == '%') {
        char name[96];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(v, "#"), v);   /* "%r7#2": %r7 after 2 definitions */
        int i = reg_index(r, name, 0);
        return i < 0 ? 1 : r->align[i];   /* %tid.x and the like: anything */
    }
    if (isdigit((unsigned char)*v) || *v == '-') {
        if (v[0] == '0' && (v[1] == 'f' || v[1] == 'd' || v[1] == 'F' || v[1] == 'D'))
            return 1;   /* a float's bits */
        return pow2_of(strtoll(v, NULL, 0));
    }
    return symbol_align(m, f, v);
}

/* What an instruction leaves in its destination register, as an alignment:
 * moves and conversions keep it, add and sub the lesser of two, shl, mul and
 * mad multiply it, an and with a mask of low zeros sets it; anything else
 * (a load, %tid, arithmetic of other kinds): nothing known. -1: no destination. */
static long defined_align(const ptx_module *m, const ptx_function *f, reg_aligns *r, const ptx_insn *in, char *dest, size_t len)
{
    if (in->op == PTX_BRANCH || in->op == PTX_CALL || in->op == PTX_BARRIER)
        return -1;
    const char *t = after_guard(in->text);   /* a guarded definition: one of the register's definitions all the same */
    if (starts(t, "st.") || starts(t, "st ") || starts(t, "red.") || starts(t, "ret") || starts(t, "exit") ||
        starts(t, "membar") || starts(t, "fence") || starts(t, "cp."))
        return -1;
    if (!operand(in->text, 0, dest, len) || *dest != '%')
        return -1;
    char a[128], b[128], c[128];
    int na = operand(in->text, 1, a, sizeof a), nb = operand(in->text, 2, b, sizeof b), nc = operand(in->text, 3, c, sizeof c);
    if ((starts(t, "mov.") || starts(t, "cvta.") || starts(t, "cvt.")) && na && !nb)
        return value_align(m, f, r, a);
    if ((starts(t, "add.") || starts(t, "sub.")) && na && nb && !nc) {
        long x = value_align(m, f, r, a), y = value_align(m, f, r, b);
        return x < y ? x : y;
    }
    if (starts(t, "shl.") && na && nb && isdigit((unsigned char)*b)) {
        long s = strtol(b, NULL, 10), x = value_align(m, f, r, a);
        while (s-- > 0 && x < ALIGN_TOP)
            x <<= 1;
        return x;
    }
    if ((starts(t, "mul.lo.") || starts(t, "mul.wide.")) && na && nb && !nc)
        return align_product(value_align(m, f, r, a), value_align(m, f, r, b));
    if ((starts(t, "mad.lo.") || starts(t, "mad.wide.")) && na && nb && nc) {
        long p = align_product(value_align(m, f, r, a), value_align(m, f, r, b)), q = value_align(m, f, r, c);
        return p < q ? p : q;
    }
    if (starts(t, "and.") && na && nb && (isdigit((unsigned char)*b) || *b == '-')) {
        long x = value_align(m, f, r, a), k = pow2_of(strtoll(b, NULL, 0));
        return x > k ? x : k;
    }
    return 1;   /* a load, %tid, other arithmetic: nothing known */
}

/* Every register's alignment, over all its definitions (a loop's register is
 * defined twice: the least of them), to a fixed point. */
static void align_registers(const ptx_module *m, const ptx_function *f, reg_aligns *r)
{
    char dest[128];
    for (int changed = 1, rounds = 0; changed && rounds < 64; rounds++) {
        changed = 0;
        for (int i = 0; i < f->n_insns; i++) {
            long a = defined_align(m, f, r, &f->insns[i], dest, sizeof dest);
            if (a < 0)
                continue;
            int k = reg_index(r, dest, 1);
            if (a < r->align[k]) {
                r->align[k] = a;
                changed = 1;
            }
            /* Its array: the one all its definitions agree on, else none. */
            int x = defined_array(m, f, r, &f->insns[i]);
            if (r->array[k] != x && r->array[k] != SYM_NONE && !(x == SYM_UNSEEN)) {
                r->array[k] = r->array[k] == SYM_UNSEEN ? x : SYM_NONE;
                changed = 1;
            }
        }
    }
}

/* One global or shared load or store of the PTX. */
typedef struct {
    int index;             /* the instruction's */
    int shared, store, width, line, file;
    char base[96];         /* [base+offset]: a register or a symbol */
    long long offset;
    char guard[32];
    int epoch;             /* what may not be merged across: counted up by barriers, calls, aliasing */
    int array;             /* the shared array it reads or writes, SYM_NONE when not known */
    int merged;            /* 1: folded into an earlier access */
} mem_access;

/* Parses a load or store of global or shared memory; 0 when the instruction is none. */
static int parse_access(const ptx_insn *in, mem_access *a)
{
    const char *t = in->text;
    memset(a, 0, sizeof *a);
    if (*t == '@') {
        size_t n = strcspn(t, " \t\n");
        snprintf(a->guard, sizeof a->guard, "%.*s", (int)n, t);
        t = skip_space(t + n, t + strlen(t));
    }
    size_t n = strcspn(t, " \t\n");
    int ld = starts(t, "ld.") || starts(t, "ldu."), st = starts(t, "st.");
    if (!ld && !st)
        return 0;
    int shared = 0, global = 0, vec = 1;
    long type = 0;
    for (const char *p = t; p < t + n;) {
        const char *q = p + 1;
        while (q < t + n && *q != '.')
            q++;
        size_t cn = (size_t)(q - p);
        if (p != t) {
            if (component_is(p + 1, cn - 1, "shared") || (cn > 9 && !strncmp(p + 1, "shared::", 8)))
                shared = 1;
            else if (component_is(p + 1, cn - 1, "global"))
                global = 1;
            else if (component_is(p + 1, cn - 1, "volatile") || component_is(p + 1, cn - 1, "relaxed") ||
                     component_is(p + 1, cn - 1, "acquire") || component_is(p + 1, cn - 1, "release"))
                return 0;   /* ordered accesses: never merged, and not what the counters watch */
            else if (component_is(p + 1, cn - 1, "v2"))
                vec = 2;
            else if (component_is(p + 1, cn - 1, "v4"))
                vec = 4;
            else if (component_is(p + 1, cn - 1, "v8"))
                vec = 8;
            else if (type_bytes(p, cn))
                type = type_bytes(p, cn);
        }
        p = q;
    }
    if ((!shared && !global) || !type)
        return 0;
    a->shared = shared, a->store = st, a->width = (int)(type * vec);
    a->line = in->line, a->file = in->file;
    const char *open = strchr(t, '['), *close = open ? strchr(open, ']') : NULL;
    if (!open || !close)
        return 1;
    const char *p = skip_space(open + 1, close), *q = p;
    while (q < close && *q != '+' && *q != '-' && !isspace((unsigned char)*q))
        q++;
    snprintf(a->base, sizeof a->base, "%.*s", (int)(q - p), p);
    q = skip_space(q, close);
    if (q < close && (*q == '+' || *q == '-')) {
        int neg = *q == '-';
        q = skip_space(q + 1, close);
        neg ^= *q == '-';
        a->offset = strtoll(q + (*q == '-'), NULL, 0) * (neg ? -1 : 1);
    }
    return 1;
}

static int has_offset(const mem_access *acc, int n, int from, const mem_access *like, long long offset)
{
    for (int j = from; j < n; j++) {
        const mem_access *b = &acc[j];
        if (!b->merged && b->offset == offset && b->shared == like->shared && b->store == like->store &&
            b->width == like->width && b->epoch == like->epoch && !strcmp(b->base, like->base) &&
            !strcmp(b->guard, like->guard))
            return j;
    }
    return -1;
}

/* ptxas's merge, as modelled (ptx.h): access i and those that complete an
 * aligned chunk of `chunk` bytes with it fold into one. 1 when they did. */
static int merge_chunk(mem_access *acc, int n, int i, long base_align, int chunk)
{
    mem_access *a = &acc[i];
    if (base_align < chunk || a->width >= chunk || a->offset % chunk)
        return 0;
    int parts = chunk / a->width, at[8];
    if (parts > 8)
        return 0;
    for (int k = 1; k < parts; k++)
        if ((at[k] = has_offset(acc, n, i + 1, a, a->offset + (long long)k * a->width)) < 0)
            return 0;
    for (int k = 1; k < parts; k++)
        acc[at[k]].merged = 1;
    a->width = chunk;
    return 1;
}

static int by_line_space(const void *x, const void *y)
{
    const ptx_line_access *a = x, *b = y;
    return a->line != b->line ? a->line - b->line : a->shared != b->shared ? a->shared - b->shared :
           a->store != b->store ? a->store - b->store : strcmp(a->array, b->array);
}

int ptx_line_accesses(const ptx_module *m, const char *source, ptx_line_access **out, char *err, size_t errlen)
{
    *out = NULL;
    int file = -1;
    for (int i = 0; i < m->n_files && file < 0; i++)
        if (!source || ptx_same_path(m->files[i], source))
            file = m->file_ids[i];
    if (file < 0) {
        if (!m->n_files)
            say(err, errlen, "the PTX has no line information (.file, .loc: compiled without -lineinfo?)");
        else
            say(err, errlen, "the PTX names no file %s (its first: %s)", source ? source : "", m->files[0]);
        return -1;
    }
    ptx_line_access *lines = NULL;
    int n_lines = 0;
    for (int fi = 0; fi < m->n_funcs; fi++) {
        const ptx_function *f = &m->funcs[fi];
        reg_aligns regs = {0};
        align_registers(m, f, &regs);
        mem_access *acc = xrealloc(NULL, (size_t)(f->n_insns + 1) * sizeof *acc);
        /* Per space (0 global, 1 shared): the run accesses may merge within,
         * and the direction of its last access. */
        int n = 0, epoch[2] = {0, 0}, last_store[2] = {-1, -1}, label = 0;
        reg_aligns defs = {0};   /* per register, how many definitions so far (in .align) */
        char dest[128];
        for (int i = 0; i < f->n_insns; i++) {
            const ptx_insn *in = &f->insns[i];
            /* A basic block ends at a label and a branch; a barrier, a call,
             * a fence or an atomic orders memory: nothing merges across them. */
            for (; label < f->n_labels && f->labels[label].insn <= i; label++)
                if (f->labels[label].insn == i)
                    epoch[0]++, epoch[1]++;
            const char *op = after_guard(in->text);
            if (in->op == PTX_BARRIER || in->op == PTX_CALL || in->op == PTX_BRANCH || in->op == PTX_SHARED_ATOM ||
                starts(op, "membar") || starts(op, "fence") || starts(op, "atom") || starts(op, "red") ||
                starts(op, "bar.warp") || starts(op, "shfl") || starts(op, "cp.async")) {
                epoch[0]++, epoch[1]++;
                continue;
            }
            mem_access a;
            if (parse_access(in, &a)) {
                /* A store may alias the loads before it in its space, and a
                 * load the stores: a change of direction ends the run. */
                if (last_store[a.shared] != a.store)
                    epoch[a.shared]++;
                last_store[a.shared] = a.store;
                a.index = i;
                a.epoch = epoch[a.shared];
                if (a.base[0] == '%') {   /* the base as defined so far: a redefinition is another address */
                    int k = reg_index(&defs, a.base, 0);
                    size_t bl = strlen(a.base);
                    snprintf(a.base + bl, sizeof a.base - bl, "#%ld", k < 0 ? 0L : defs.align[k]);
                }
                acc[n++] = a;
            } else if ((starts(op, "ld") || starts(op, "st")) && !starts(op, "ld.param") && !starts(op, "ld.local") &&
                       !starts(op, "st.local") && !starts(op, "ld.const") && !starts(op, "st.param") && !starts(op, "ldmatrix")) {
                epoch[0]++, epoch[1]++;   /* a generic access: either space */
            }
            if (defined_align(m, f, &regs, in, dest, sizeof dest) >= 0) {
                int k = reg_index(&defs, dest, 0);
                if (k < 0) {
                    k = reg_index(&defs, dest, 1);
                    defs.align[k] = 0;
                }
                defs.align[k]++;
            }
        }
        for (int i = 0; i < defs.n; i++)
            free(defs.names[i]);
        free(defs.names);
        free(defs.align);
        free(defs.array);
        for (int i = 0; i < n; i++) {
            mem_access *a = &acc[i];
            if (a->merged)
                continue;
            long base_align = a->base[0] ? value_align(m, f, &regs, a->base) : 1;
            if (!merge_chunk(acc, n, i, base_align, 16))
                merge_chunk(acc, n, i, base_align, 8);
        }
        for (int i = 0; i < n; i++) {
            const mem_access *a = &acc[i];
            if (a->file != file || a->line <= 0)
                continue;
            char array[64] = "";
            if (a->shared) {
                int x = a->base[0] ? value_array(m, f, &regs, a->base) : SYM_NONE;
                if (x >= 0)
                    source_name(array_at(m, f, x)->name, array, sizeof array);
            }
            ptx_line_access *l = NULL;
            for (int k = 0; k < n_lines && !l; k++)
                if (lines[k].line == a->line && lines[k].shared == a->shared && lines[k].store == a->store &&
                    !strcmp(lines[k].array, array))
                    l = &lines[k];
            if (!l) {
                lines = xrealloc(lines, (size_t)(n_lines + 1) * sizeof *lines);
                l = &lines[n_lines++];
                memset(l, 0, sizeof *l);
                l->line = a->line, l->shared = a->shared, l->store = a->store;
                snprintf(l->array, sizeof l->array, "%s", array);
            }
            l->ptx_insns++;
            if (!a->merged) {
                l->insns++;
                l->bytes += a->width;
            }
        }
        free(acc);
        for (int i = 0; i < regs.n; i++)
            free(regs.names[i]);
        free(regs.names);
        free(regs.align);
        free(regs.array);
    }
    if (n_lines)
        qsort(lines, (size_t)n_lines, sizeof *lines, by_line_space);
    *out = lines;
    return n_lines;
}

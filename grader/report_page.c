/*
 * report_page.c — report.html beside results.json (report --html PATH): the
 * text report's grade, drawn. One static page, inline SVG and CSS, no script,
 * a Content Security Policy that lets nothing load, so it opens offline.
 *
 * What the pictures draw is CPU mode's typed record of the counters case,
 * cpu-check.json in the same folder (cpu/judge.c, write_sample): per access
 * instruction its counts, its requests by cost and one sample warp, lane by
 * lane. Instructions of one source line and one kind of access (an unrolled
 * loop's copies) are drawn as one figure. The page states each figure's
 * numbers as data- attributes too, so tests read the DOM, not pixels
 * (tests/cpu/report_page.c). A GPU grade has no such record: the page says so.
 * Lab 7's record adds "branches" (cpu/judge.c, the branches case): per warp
 * and per stretch between barriers, whether its lanes ran the same basic
 * blocks, for the student's sparse kernel and the kit's wide-tile one; the
 * page draws the two grids side by side.
 */
#include "report.h"

#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { MAX_LINES = 64, MAX_SOURCE_LINES = 4000, MAX_COST = 65, MAX_FINDINGS = 128 };

/* One figure: a source line's accesses of one space and direction, and of one array where
 * the record names it (lab 4's line 31 loads As and Bs: two figures). */
typedef struct {
    int line;
    char space[8], op[4], name[64];   /* name: the array's, "As" of "As[32][32]"; "" when not known */
    double requests, units, ideal, above;   /* units: sectors (global) or wavefronts (shared) */
    double by_cost[MAX_COST];
    int has_warp;
    int bytes, warp_units, warp_ideal;
    long long block, warp;
    char array[96];
    long long lane[32];   /* byte offsets; -1: no access */
} access_line;

/* A finding of CPU mode's checks: a race (two lines), a barrier, out of bounds. */
typedef struct {
    char kind[16], text[600], superstep[64];
    int line, line2;
} check_finding;

/* Lab 7: one kernel's warps (rows) by stretches between barriers (columns). */
enum { MAX_BR_WARPS = 32, MAX_BR_STEPS = 256 };
typedef struct {
    char kernel[16], source[256], why[300];
    int recorded, warps, steps;
    double warp_steps, divergent_steps;   /* every block's */
    signed char divergent[MAX_BR_WARPS][MAX_BR_STEPS];   /* -1: the warp ran nothing there */
    unsigned blocks[MAX_BR_WARPS][MAX_BR_STEPS];
} branch_grid;

typedef struct {
    access_line lines[MAX_LINES];
    int nlines;
    char shape[64];
    check_finding findings[MAX_FINDINGS];   /* from every cpu-check*.json of the run */
    int nfindings;
    int read;   /* a record was found */
    branch_grid branches[2];   /* lab 7: the student's kernel, the contrast */
    int nbranches;
    char branch_shape[32];
    double branch_density;
} traces;

/* ---- text ------------------------------------------------------------------- */

static void text(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if (*p < 0x20 && *p != '\n' && *p != '\t')
                fputs("\xef\xbf\xbd", f);
            else
                fputc(*p, f);
        }
    }
}

static const char *what(const access_line *a)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "%s %s", a->space, strcmp(a->op, "st") ? "load" : "store");
    return buf;
}

/* "fig-23-global-st": the anchor of a figure. */
static const char *fig_id(const access_line *a)
{
    static char buf[160];
    int n = snprintf(buf, sizeof buf, "fig-%d-%s-%s", a->line, a->space, a->op);
    if (a->name[0] && n > 0 && (size_t)n < sizeof buf - 1) {
        snprintf(buf + n, sizeof buf - (size_t)n, "-%s", a->name);
        for (char *p = buf + n + 1; *p; p++)   /* an id's characters only */
            if (!isalnum((unsigned char)*p) && *p != '_')
                *p = '_';
    }
    return buf;
}

/* ---- reading CPU mode's record -------------------------------------------- */

static void read_findings(traces *t, const tl_json *root)
{
    const tl_json *all = tl_json_get(root, "findings");
    for (const tl_json *x = all ? all->child : NULL; x && t->nfindings < MAX_FINDINGS; x = x->next) {
        check_finding *k = &t->findings[t->nfindings++];
        snprintf(k->kind, sizeof k->kind, "%s", tl_json_string(x, "kind", ""));
        snprintf(k->text, sizeof k->text, "%s", tl_json_string(x, "text", ""));
        snprintf(k->superstep, sizeof k->superstep, "%s", tl_json_string(x, "superstep", ""));
        k->line = (int)tl_json_number(x, "line", 0);
        k->line2 = (int)tl_json_number(x, "line2", 0);
    }
}

static void read_branches(traces *t, const tl_json *root)
{
    const tl_json *br = tl_json_get(root, "branches"), *all = tl_json_get(br, "kernels");
    if (!all)
        return;
    snprintf(t->branch_shape, sizeof t->branch_shape, "%s", tl_json_string(br, "shape", "?"));
    t->branch_density = tl_json_number(br, "block_density", 0);
    for (const tl_json *k = all->child; k && t->nbranches < 2; k = k->next) {
        branch_grid *g = &t->branches[t->nbranches++];
        memset(g, 0, sizeof *g);
        memset(g->divergent, -1, sizeof g->divergent);
        snprintf(g->kernel, sizeof g->kernel, "%s", tl_json_string(k, "kernel", "?"));
        snprintf(g->source, sizeof g->source, "%s", tl_json_string(k, "source", ""));
        snprintf(g->why, sizeof g->why, "%s", tl_json_string(k, "why", ""));
        const tl_json *rec = tl_json_get(k, "recorded");
        g->recorded = rec && rec->type == TL_JSON_BOOL && rec->number != 0;
        g->warp_steps = tl_json_number(k, "warp_steps", 0);
        g->divergent_steps = tl_json_number(k, "divergent_steps", 0);
        const tl_json *warps = tl_json_get(k, "warps");
        for (const tl_json *w = warps ? warps->child : NULL; w && g->warps < MAX_BR_WARPS; w = w->next, g->warps++) {
            const tl_json *d = tl_json_get(w, "divergent"), *b = tl_json_get(w, "blocks");
            int step = 0;
            for (const tl_json *x = d ? d->child : NULL; x && step < MAX_BR_STEPS; x = x->next, step++)
                g->divergent[g->warps][step] = x->type == TL_JSON_BOOL ? (signed char)(x->number != 0) : -1;
            g->steps = step > g->steps ? step : g->steps;
            step = 0;
            for (const tl_json *x = b ? b->child : NULL; x && step < MAX_BR_STEPS; x = x->next, step++)
                g->blocks[g->warps][step] = x->type == TL_JSON_NUMBER && x->number > 0 ? (unsigned)x->number : 0;
        }
    }
}

static void read_traces(traces *t, const tl_json *root)
{
    if (!root)
        return;
    t->read = 1;
    read_findings(t, root);
    read_branches(t, root);
    const tl_json *c = tl_json_get(root, "counters");
    snprintf(t->shape, sizeof t->shape, "%s", tl_json_string(c, "shape", ""));
    const tl_json *sites = tl_json_get(c, "sites");
    for (const tl_json *s = sites ? sites->child : NULL; s; s = s->next) {
        int line = (int)tl_json_number(s, "line", 0);
        const char *space = tl_json_string(s, "space", "?"), *op = tl_json_string(s, "op", "?");
        int shared = !strcmp(space, "shared");
        char name[64];
        const char *array = tl_json_string(tl_json_get(s, "warp"), "array", "");
        snprintf(name, sizeof name, "%.*s", (int)strcspn(array, "["), array);
        access_line *a = NULL;
        for (int i = 0; i < t->nlines && !a; i++)
            if (t->lines[i].line == line && !strcmp(t->lines[i].space, space) && !strcmp(t->lines[i].op, op) &&
                !strcmp(t->lines[i].name, name))
                a = &t->lines[i];
        if (!a) {
            if (t->nlines == MAX_LINES)
                continue;
            a = &t->lines[t->nlines++];
            memset(a, 0, sizeof *a);
            a->line = line;
            snprintf(a->space, sizeof a->space, "%s", space);
            snprintf(a->op, sizeof a->op, "%s", op);
            snprintf(a->name, sizeof a->name, "%s", name);
        }
        a->requests += tl_json_number(s, "requests", 0);
        a->units += tl_json_number(s, shared ? "wavefronts" : "sectors", 0);
        a->ideal += tl_json_number(s, "ideal", 0);
        a->above += tl_json_number(s, "requests_above_ideal", 0);
        const tl_json *cost = tl_json_get(s, "requests_by_cost");
        for (const tl_json *k = cost ? cost->child : NULL; k; k = k->next) {
            int units = atoi(k->key ? k->key : "0");
            if (units >= 0 && units < MAX_COST)
                a->by_cost[units] += k->number;
        }
        const tl_json *w = tl_json_get(s, "warp");
        long long block = (long long)tl_json_number(w, "block", -1);
        /* The figure's warp: the lowest block's, as each instruction's is. */
        if (!w || (a->has_warp && block >= a->block))
            continue;
        a->has_warp = 1;
        a->block = block;
        a->warp = (long long)tl_json_number(w, "warp", 0);
        a->bytes = (int)tl_json_number(w, "bytes", 4);
        a->warp_units = (int)tl_json_number(w, shared ? "wavefronts" : "sectors", 0);
        a->warp_ideal = (int)tl_json_number(w, "ideal", 0);
        snprintf(a->array, sizeof a->array, "%s", tl_json_string(w, "array", ""));
        const tl_json *lanes = tl_json_get(w, "lanes");
        int l = 0;
        for (const tl_json *x = lanes ? lanes->child : NULL; x && l < 32; x = x->next, l++)
            a->lane[l] = x->type == TL_JSON_NUMBER ? (long long)x->number : -1;
        for (; l < 32; l++)
            a->lane[l] = -1;
    }
    /* In line order, loads before stores, global before shared. */
    for (int i = 1; i < t->nlines; i++)
        for (int j = i; j > 0; j--) {
            access_line *x = &t->lines[j - 1], *y = &t->lines[j];
            int c = x->line != y->line ? x->line - y->line : strcmp(x->op, y->op) ? strcmp(x->op, y->op)
                    : strcmp(x->space, y->space) ? strcmp(x->space, y->space) : strcmp(x->name, y->name);
            if (c <= 0)
                break;
            access_line tmp = *x;
            *x = *y;
            *y = tmp;
        }
}

/* ---- the student's file ------------------------------------------------------ */

typedef struct {
    char *text;
    char *line[MAX_SOURCE_LINES + 1];   /* 1-based */
    int n;
} source_file;

static void read_source(source_file *s, const char *path)
{
    memset(s, 0, sizeof *s);
    /* A regular file only, opened without waiting: a FIFO or a device given as
     * the source (a grade interrupted while it read one) must not hang the report. */
    int fd = path ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        if (fd >= 0)
            close(fd);
        return;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return;
    }
    size_t cap = 256 << 10;   /* a lab file is a few KiB; the page stays small whatever it is given */
    s->text = malloc(cap + 1);
    size_t n = s->text ? fread(s->text, 1, cap, f) : 0;
    fclose(f);
    if (!s->text)
        return;
    s->text[n] = 0;
    for (char *p = s->text; *p && s->n < MAX_SOURCE_LINES;) {
        s->line[++s->n] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = 0;
        if (nl > p && nl[-1] == '\r')   /* CRLF */
            nl[-1] = 0;
        p = nl + 1;
    }
}

static const char *source_line(const source_file *s, int line)
{
    return line >= 1 && line <= s->n ? s->line[line] : "";
}

/* The line, trimmed, at most 90 characters. */
static void code_cell(FILE *f, const source_file *s, int line)
{
    const char *c = source_line(s, line);
    while (*c == ' ' || *c == '\t')
        c++;
    char buf[96];
    snprintf(buf, sizeof buf, "%.90s", c);
    fputs("<code>", f);
    text(f, buf);
    fputs(strlen(c) > 90 ? "…</code>" : "</code>", f);
}

/* The size of what the last figure function drew (for the handouts' pictures,
 * write_figure_files), and whether it draws the picture alone, without the
 * page's caption and findings. */
static int drawn_w, drawn_h, bare;

/* ---- global accesses: one warp's lanes against the sectors they touch ------ */

static int is_trace_file(const struct dirent *d)
{
    size_t n = strlen(d->d_name);
    return !strcmp(d->d_name, "cpu-check.json") ||
           (!strncmp(d->d_name, "cpu-check-", 10) && n > 15 && !strcmp(d->d_name + n - 5, ".json"));
}

static int cmp_ll(const void *x, const void *y)
{
    long long a = *(const long long *)x, b = *(const long long *)y;
    return a < b ? -1 : a > b;
}

static void global_figure(FILE *f, const access_line *a)
{
    long long sectors[32];
    int n = 0;
    for (int l = 0; l < 32; l++)
        if (a->lane[l] >= 0)
            sectors[n++] = a->lane[l] / 32;
    qsort(sectors, n, sizeof *sectors, cmp_ll);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!k || sectors[i] != sectors[k - 1])
            sectors[k++] = sectors[i];
    /* Sectors in rows of 16, 8 words each; a gap where the next is not adjacent. */
    const int lane_w = 22, left = 48, cell = 5, sector_w = 8 * cell, gap = 6, per_row = 16;
    const int lanes_y = 22, sectors_y = 96, row_h = 40;
    int rows = (k + per_row - 1) / per_row;
    int width = left + 32 * lane_w + 10, height = sectors_y + rows * row_h + 8;
    if (width < left + per_row * (sector_w + gap) + 10)
        width = left + per_row * (sector_w + gap) + 10;
    int excess = a->warp_units > a->warp_ideal;
    fprintf(f, "<svg class=\"global-map\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">"
            "<title>one warp's %d-byte %s: %d sectors of 32 bytes, ideal %d</title>",
            width, height, width, height, a->bytes, strcmp(a->op, "st") ? "load" : "store", k, a->warp_ideal);
    fprintf(f, "<text x=\"0\" y=\"%d\" class=\"axis\">lanes</text><text x=\"0\" y=\"%d\" class=\"axis\">sectors</text>",
            lanes_y + 12, sectors_y + 12);
    double sx[32], sy[32];
    for (int i = 0; i < k; i++) {
        int r = i / per_row, c = i % per_row;
        sx[i] = left + c * (sector_w + gap);
        sy[i] = sectors_y + r * row_h;
    }
    /* Lines first, under the boxes: lane to the words it touches. */
    for (int l = 0; l < 32; l++) {
        if (a->lane[l] < 0)
            continue;
        long long sec = a->lane[l] / 32;
        int i = 0;
        while (i < k && sectors[i] != sec)
            i++;
        double x1 = left + l * lane_w + 9, x2 = sx[i] + (a->lane[l] % 32) / 4 * cell + a->bytes / 4.0 * cell / 2;
        fprintf(f, "<line class=\"lane\" x1=\"%.0f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.0f\"/>", x1, lanes_y + 16, x2, sy[i]);
    }
    for (int l = 0; l < 32; l++)
        fprintf(f, "<rect class=\"lanebox%s\" x=\"%d\" y=\"%d\" width=\"18\" height=\"16\"><title>lane %d%s</title></rect>"
                "<text x=\"%d\" y=\"%d\" class=\"lanenum\">%d</text>",
                a->lane[l] < 0 ? " idle" : "", left + l * lane_w, lanes_y, l, a->lane[l] < 0 ? ": no access" : "",
                left + l * lane_w + 9, lanes_y + 12, l);
    for (int i = 0; i < k; i++) {
        int used = 0;
        for (int w = 0; w < 8; w++) {
            int hit = 0;
            for (int l = 0; l < 32 && !hit; l++)
                hit = a->lane[l] >= 0 && a->lane[l] / 32 == sectors[i] && (a->lane[l] % 32) / 4 <= w &&
                      w < (a->lane[l] % 32) / 4 + (a->bytes + 3) / 4;
            used += hit;
            fprintf(f, "<rect class=\"word%s\" x=\"%.0f\" y=\"%.0f\" width=\"%d\" height=\"14\"/>", hit ? " used" : "",
                    sx[i] + w * cell, sy[i], cell);
        }
        fprintf(f, "<rect class=\"sector%s\" data-words-used=\"%d\" x=\"%.0f\" y=\"%.0f\" width=\"%d\" height=\"14\">"
                "<title>sector +%lld B: %d of 8 words used</title></rect>",
                used < 8 && excess ? " wasted" : "", used, sx[i], sy[i], sector_w, (sectors[i] - sectors[0]) * 32, used);
        if (i + 1 < k && sectors[i + 1] != sectors[i] + 1 && (i + 1) % per_row)
            fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" class=\"jump\">|</text>", sx[i] + sector_w + 1, sy[i] + 11);
    }
    fputs("</svg>", f);
    /* The ideal beside it: the same bytes in as few sectors as hold them. */
    int iw = a->warp_ideal * (sector_w + 2);
    fprintf(f, "<svg class=\"ideal-map\" width=\"%d\" height=\"40\" viewBox=\"0 0 %d 40\" role=\"img\"><title>ideal: "
            "%d sectors, every word used</title><text x=\"0\" y=\"12\" class=\"axis\">ideal</text>",
            iw + 4, iw + 4, a->warp_ideal);
    for (int i = 0; i < a->warp_ideal && i < 64; i++)
        fprintf(f, "<rect class=\"sector ideal\" x=\"%d\" y=\"18\" width=\"%d\" height=\"14\"/>", i * (sector_w + 2),
                sector_w);
    fputs("</svg>", f);
    /* On the page side by side (or wrapped); alone, the ideal below. */
    drawn_w = width > iw + 4 ? width : iw + 4, drawn_h = height + 4 + 40;
}

/* ---- shared accesses: which lane hits which bank in each pass -------------- */

/* The extents of "tile[32][33]", and how many. */
static int extents_of(const char *array, long ext[4])
{
    int n = 0;
    for (const char *p = strchr(array, '['); p && n < 4; p = strchr(p + 1, '['))
        ext[n++] = atol(p + 1);
    return n;
}

/* "tile[5][0]" for the element at byte `offset`, elements of `bytes` bytes. */
static void element(char *out, size_t len, const char *array, long long offset, int bytes)
{
    long ext[4];
    int n = extents_of(array, ext);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(array, "["), array[0] ? array : "shared");
    long long index = offset / (bytes > 0 ? bytes : 4);
    if (n == 0) {
        snprintf(out, len, "%s[%lld]", name, index);
        return;
    }
    long long idx[4];
    for (int d = n - 1; d >= 0; d--) {
        long e = ext[d] > 0 ? ext[d] : 1;
        idx[d] = d ? index % e : index;
        index /= e;
    }
    int used = snprintf(out, len, "%s", name);
    for (int d = 0; d < n && used < (int)len; d++)
        used += snprintf(out + used, len - used, "[%lld]", idx[d]);
}

static void shared_figure(FILE *f, const access_line *a)
{
    /* Per phase (32, 16 or 8 lanes for 4-, 8-, 16-byte accesses), each bank's
     * distinct words in order: the k-th is served in the phase's k-th pass. */
    int per_phase = a->bytes <= 4 ? 32 : a->bytes <= 8 ? 16 : 8, phases = 32 / per_phase;
    int words_per_lane = (a->bytes + 3) / 4;
    typedef struct { long long word; int lane, lanes; } slot;
    static slot bank[4][32][128];
    int depth[4][32] = {{0}}, passes[4] = {0};
    for (int p = 0; p < phases; p++)
        for (int l = p * per_phase; l < (p + 1) * per_phase; l++)
            for (int w = 0; w < words_per_lane && a->lane[l] >= 0; w++) {
                long long word = a->lane[l] / 4 + w;
                int b = (int)(word % 32), i = 0;
                while (i < depth[p][b] && bank[p][b][i].word != word)
                    i++;
                if (i < depth[p][b]) {
                    bank[p][b][i].lanes++;   /* one word for several lanes: a broadcast */
                    continue;
                }
                if (depth[p][b] == 128)
                    continue;
                bank[p][b][depth[p][b]++] = (slot){word, l, 1};
                if (depth[p][b] > passes[p])
                    passes[p] = depth[p][b];
            }
    const int cw = 21, ch = 15, left = phases > 1 ? 118 : 64, top = 26;
    int total_rows = 0;
    for (int p = 0; p < phases; p++)
        total_rows += passes[p] ? passes[p] : 0;
    int width = left + 32 * cw + 8, height = top + total_rows * ch + (phases - 1) * 6 + 6;
    drawn_w = width, drawn_h = height;
    fprintf(f, "<svg class=\"bank-map\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">"
            "<title>one warp's %d-byte %s of ", width, height, width, height, a->bytes, strcmp(a->op, "st") ? "load" : "store");
    text(f, a->array[0] ? a->array : "shared memory");
    fputs(": banks across, passes down</title>", f);
    for (int b = 0; b < 32; b++)
        fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"banknum\">%d</text>", left + b * cw + cw / 2, top - 8, b);
    fprintf(f, "<text x=\"0\" y=\"%d\" class=\"axis\">bank</text>", top - 8);
    int y = top;
    for (int p = 0; p < phases; p++) {
        for (int r = 0; r < passes[p]; r++) {
            if (phases > 1 && r == 0)
                fprintf(f, "<text x=\"0\" y=\"%d\" class=\"axis\">lanes %d-%d</text>", y + 11, p * per_phase,
                        (p + 1) * per_phase - 1);
            fprintf(f, "<text x=\"%d\" y=\"%d\" class=\"axis\">pass %d</text>", left - 46, y + r * ch + 11, r + 1);
        }
        for (int b = 0; b < 32; b++)
            for (int i = 0; i < depth[p][b]; i++) {
                const slot *s = &bank[p][b][i];
                char el[96];
                element(el, sizeof el, a->array, s->word * 4 - (s->word * 4) % (a->bytes > 4 ? a->bytes : 4), a->bytes);
                /* A bank asked for more than one word in a phase: each word past the first is a conflict. */
                int conflict = depth[p][b] > 1;
                fprintf(f, "<rect class=\"cell%s%s\" data-bank=\"%d\" data-pass=\"%d\" data-lane=\"%d\" x=\"%d\" y=\"%d\" "
                        "width=\"%d\" height=\"%d\"><title>lane %d%s: ", conflict ? " conflict" : "",
                        s->lanes > 1 ? " broadcast" : "", b, i + 1, s->lane, left + b * cw, y + i * ch, cw - 1, ch - 1,
                        s->lane, s->lanes > 1 ? " and others (one word, a broadcast)" : "");
                text(f, el);
                fprintf(f, ", bank %d, pass %d</title></rect><text x=\"%d\" y=\"%d\" class=\"cellnum\">%d</text>", b,
                        i + 1, left + b * cw + cw / 2, y + i * ch + 11, s->lane);
            }
        y += passes[p] * ch + 6;
    }
    fputs("</svg>", f);
}

/* ---- the figures ------------------------------------------------------------ */

static void by_cost(FILE *f, const access_line *a, const char *unit)
{
    int shown = 0;
    fputs("<span class=\"by-cost\">requests by cost: ", f);
    for (int u = 0; u < MAX_COST; u++) {
        if (!a->by_cost[u])
            continue;
        if (shown++ == 4) {
            fputs(", …", f);
            break;
        }
        fprintf(f, "%s%.0f with %d%s %s", shown > 1 ? ", " : "", a->by_cost[u], u, u == MAX_COST - 1 ? "+" : "", unit);
    }
    fputs("</span>", f);
}

static void figure(FILE *f, const access_line *a, const source_file *src)
{
    int shared = !strcmp(a->space, "shared");
    double per = a->requests ? a->units / a->requests : 0, ideal = a->requests ? a->ideal / a->requests : 0;
    double conflicts = shared ? a->units - a->ideal : 0, excess_sectors = shared ? 0 : a->units - a->ideal;
    fprintf(f, "<figure class=\"access %s%s\" id=\"%s\" data-line=\"%d\" data-space=\"%s\" data-op=\"%s\" data-bytes=\"%d\" "
            "data-requests=\"%.0f\" data-%s=\"%.0f\" data-ideal=\"%.0f\" data-%s=\"%.0f\" data-warp-%s=\"%d\" "
            "data-warp-ideal=\"%d\">\n",
            a->space, a->units > a->ideal ? " off-ideal" : "", fig_id(a), a->line, a->space, a->op, a->bytes,
            a->requests, shared ? "wavefronts" : "sectors", a->units, a->ideal, shared ? "conflicts" : "excess-sectors",
            shared ? conflicts : excess_sectors, shared ? "wavefronts" : "sectors", a->warp_units, a->warp_ideal);
    fprintf(f, "<figcaption><a href=\"#L%d\">line %d</a> ", a->line, a->line);
    code_cell(f, src, a->line);
    fprintf(f, "<br>%s of %d bytes a lane%s", what(a), a->bytes, shared && a->array[0] ? ", " : "");
    text(f, shared ? a->array : "");
    fputs(": ", f);
    if (shared)
        fprintf(f, "<b class=\"%s\">%.2f bank conflicts a request</b> (ideal 0; %.0f wavefronts for %.0f requests). ",
                conflicts > 0 ? "bad" : "good", per - ideal, a->units, a->requests);
    else
        fprintf(f, "<b class=\"%s\">%.2f sectors a request</b> (ideal %.2f; %.0f requests, one a warp-level access). ",
                per > ideal + 1e-9 ? "bad" : "good", per, ideal, a->requests);
    if (shared && a->bytes > 4)
        fprintf(f, "%d-byte accesses are served %d lanes at a time, each group in passes of its own. ", a->bytes,
                a->bytes <= 8 ? 16 : 8);
    by_cost(f, a, shared ? "wavefronts" : "sectors");
    fprintf(f, "<br><span class=\"sample\">Drawn: warp %lld of block %lld, whose request took %d %s (ideal %d).</span>",
            a->warp, a->block, a->warp_units, shared ? "passes" : "sectors", a->warp_ideal);
    fputs("</figcaption>\n", f);
    if (shared)
        shared_figure(f, a);
    else
        global_figure(f, a);
    fputs("\n</figure>\n", f);
}

/* ---- findings ---------------------------------------------------------------- */

static int findings_at(const traces *t, int line)
{
    int n = 0;
    for (int i = 0; i < t->nfindings; i++)
        n += line > 0 && (t->findings[i].line == line || t->findings[i].line2 == line);
    return n;
}

static void finding_list(FILE *f, const traces *t, int line)
{
    for (int i = 0; i < t->nfindings; i++) {
        const check_finding *x = &t->findings[i];
        if (x->line != line && x->line2 != line)
            continue;
        fputs("<div class=\"finding\">", f);
        text(f, x->kind);
        fputs(": ", f);
        text(f, x->text);
        fputs("</div>", f);
    }
}

/* ---- races and barriers: the kernel's supersteps, in source order ------------ */

/* A kernel of the file: its lines, and the barriers in it, in source order. A
 * barrier is a __syncthreads() line, or the closing brace of a SUPERSTEP(name)
 * { ... } (tilelab.h: the macro's barrier runs there). */
enum { MAX_KERNELS = 16, MAX_BARRIERS = 24 };
typedef struct {
    char name[64];
    int first, last;
    int barrier[MAX_BARRIERS], nbarriers;
    char step[MAX_BARRIERS + 1][64];   /* the SUPERSTEP an interval lies in, "" if none */
} kernel;

/* The file's lines with comments and string literals blanked (a barrier named
 * in a comment is none), one buffer per line of `code`. */
static void strip_comments(const source_file *s, char **code)
{
    int in_block = 0;
    for (int l = 1; l <= s->n; l++) {
        code[l] = strdup(s->line[l]);
        char *c = code[l];
        for (size_t i = 0; c && c[i]; i++) {
            if (in_block) {
                if (c[i] == '*' && c[i + 1] == '/')
                    in_block = 0, c[i + 1] = ' ';
                c[i] = ' ';
            } else if (c[i] == '/' && c[i + 1] == '*') {
                in_block = 1, c[i] = ' ';
            } else if (c[i] == '/' && c[i + 1] == '/') {
                c[i] = 0;
                break;
            } else if (c[i] == '"') {
                for (i++; c[i] && c[i] != '"'; i++)
                    c[i] = ' ';
                if (!c[i])
                    break;
            }
        }
    }
}

static int find_kernels(const source_file *s, kernel *k)
{
    static char *code[MAX_SOURCE_LINES + 1];
    strip_comments(s, code);
    int n = 0;
    for (int l = 1; l <= s->n; l++) {
        const char *g = code[l] ? strstr(code[l], "__global__") : NULL;
        if (!g || n == MAX_KERNELS)
            continue;
        kernel *x = &k[n++];
        memset(x, 0, sizeof *x);
        /* The name before the parameters' parenthesis, past __launch_bounds__(...). */
        const char *paren = strchr(g, '('), *lb = strstr(g, "__launch_bounds__");
        if (lb && paren && lb < paren) {
            const char *close = strchr(paren, ')');
            paren = close ? strchr(close, '(') : NULL;
        }
        const char *name = paren;
        while (name && name > g && (name[-1] == ' ' || name[-1] == '\t'))
            name--;
        const char *start = name;
        while (start && start > g && (start[-1] == '_' || (start[-1] >= '0' && start[-1] <= '9') ||
                                      ((start[-1] | 32) >= 'a' && (start[-1] | 32) <= 'z')))
            start--;
        snprintf(x->name, sizeof x->name, "%.*s", name && start ? (int)(name - start) : 0, start ? start : "");
        if (!x->name[0])
            snprintf(x->name, sizeof x->name, "kernel at line %d", l);
        x->first = l;
        x->last = s->n;
        if (n > 1)
            k[n - 2].last = l - 1;
    }
    /* Barriers, and the supersteps' extents: from SUPERSTEP( to its braces' close. */
    for (int i = 0; i < n; i++) {
        kernel *x = &k[i];
        char open_step[64] = "";
        int depth = 0, in_step = 0;
        for (int l = x->first; l <= x->last; l++) {
            const char *c = code[l] ? code[l] : "";
            const char *ss = strstr(c, "SUPERSTEP(");
            if (ss && !strstr(c, "#define") && x->nbarriers < MAX_BARRIERS) {
                sscanf(ss, "SUPERSTEP(%63[A-Za-z0-9_]", open_step);
                snprintf(x->step[x->nbarriers], sizeof x->step[0], "%s", open_step);
                in_step = 1, depth = 0;
                c = ss;
            }
            if (strstr(c, "__syncthreads(") && x->nbarriers < MAX_BARRIERS)
                x->barrier[x->nbarriers++] = l;
            for (; in_step && *c; c++) {
                depth += *c == '{';
                depth -= *c == '}';
                if (*c == '}' && depth == 0) {
                    in_step = 0;
                    if (x->nbarriers < MAX_BARRIERS)
                        x->barrier[x->nbarriers++] = l;
                }
            }
        }
    }
    for (int l = 1; l <= s->n; l++)
        free(code[l]), code[l] = NULL;
    return n;
}

/* The interval of kernel `k` that holds `line`: 0 before its first barrier. */
static int interval_of(const kernel *k, int line)
{
    int i = 0;
    while (i < k->nbarriers && line > k->barrier[i])
        i++;
    return i;
}

/* One kernel's timeline: its intervals between barriers across, each shared
 * access line and each line a finding names as a row, placed in its
 * interval; a race joins its two lines, red, in the interval they share. */
static void timeline(FILE *f, const traces *t, const source_file *src, const kernel *k)
{
    int rows[2 * MAX_LINES], nrows = 0;
    const char *row_what[2 * MAX_LINES];
    for (int i = 0; i < t->nlines && nrows < MAX_LINES; i++) {
        const access_line *a = &t->lines[i];
        if (strcmp(a->space, "shared") || a->line < k->first || a->line > k->last)
            continue;
        row_what[nrows] = strcmp(a->op, "st") ? "shared load" : "shared store";
        rows[nrows++] = a->line;
    }
    int races = 0, barrier_findings = 0;
    for (int i = 0; i < t->nfindings; i++) {
        const check_finding *x = &t->findings[i];
        int in = x->line >= k->first && x->line <= k->last;
        races += in && !strcmp(x->kind, "race");
        barrier_findings += in && !strcmp(x->kind, "barrier");
        for (int j = 0; j < 2 && in && !strcmp(x->kind, "race"); j++) {
            int line = j ? x->line2 : x->line, seen = 0;
            for (int r = 0; r < nrows; r++)
                seen |= rows[r] == line;
            if (!seen && line > 0 && nrows < 2 * MAX_LINES)
                row_what[nrows] = "access in a race", rows[nrows++] = line;
        }
    }
    if (!nrows && !k->nbarriers && !races && !barrier_findings)
        return;
    for (int i = 1; i < nrows; i++)   /* rows in line order */
        for (int j = i; j > 0 && rows[j - 1] > rows[j]; j--) {
            int tl = rows[j];
            const char *tw = row_what[j];
            rows[j] = rows[j - 1], row_what[j] = row_what[j - 1];
            rows[j - 1] = tl, row_what[j - 1] = tw;
        }
    int intervals = k->nbarriers + 1;
    const int left = 230, col = intervals > 4 ? 640 / intervals : 150, top = 40, rh = 22;
    int width = left + intervals * col + 10, height = top + (nrows ? nrows : 1) * rh + 10;
    drawn_w = width, drawn_h = height;
    if (bare)
        goto svg;
    fprintf(f, "<figure class=\"timeline\" data-kernel=\"");
    text(f, k->name);
    fprintf(f, "\" data-barriers=\"%d\" data-races=\"%d\" data-barrier-findings=\"%d\">\n<figcaption><b>", k->nbarriers,
            races, barrier_findings);
    text(f, k->name);
    fprintf(f, "</b> (<a href=\"#L%d\">line %d</a>): %d barrier%s, so %d interval%s in source order; %s</figcaption>\n",
            k->first, k->first, k->nbarriers, k->nbarriers == 1 ? "" : "s", intervals, intervals == 1 ? "" : "s",
            races ? "<b class=\"bad\">two threads touch one word with no barrier between (red)</b>."
                  : "no race: every shared access of one thread is ordered by a barrier before another reads it.");
svg:
    fprintf(f, "<svg class=\"timeline\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">", width, height,
            width, height);
    for (int i = 0; i < intervals; i++) {
        char label[80];
        int fits = col / 6 - 1 < 60 ? col / 6 - 1 : 60;   /* characters of 6 px */
        if (k->step[i][0] && i < k->nbarriers)
            snprintf(label, sizeof label, "%.*s%s", fits, k->step[i], (int)strlen(k->step[i]) > fits ? "…" : "");
        else
            snprintf(label, sizeof label, "lines %d-%d", i ? k->barrier[i - 1] : k->first,
                     i < k->nbarriers ? k->barrier[i] : k->last);
        fprintf(f, "<rect class=\"interval\" data-interval=\"%d\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>"
                "<text x=\"%d\" y=\"%d\" class=\"steplabel\">", i, left + i * col, top - 4, col, height - top - 2,
                left + i * col + col / 2, top - 10);
        text(f, label);
        fputs("</text>", f);
    }
    for (int b = 0; b < k->nbarriers; b++) {
        int bad = 0;
        for (int i = 0; i < t->nfindings; i++)
            bad |= !strcmp(t->findings[i].kind, "barrier") && t->findings[i].line == k->barrier[b];
        fprintf(f, "<line class=\"barrier%s\" data-line=\"%d\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"><title>barrier "
                "at line %d%s</title></line>", bad ? " broken" : "", k->barrier[b], left + (b + 1) * col, top - 20,
                left + (b + 1) * col, height - 4, k->barrier[b], bad ? ": not every thread reaches it" : "");
    }
    for (int r = 0; r < nrows; r++) {
        int iv = interval_of(k, rows[r]);
        fprintf(f, "<text x=\"0\" y=\"%d\" class=\"axis\">line %d %s</text>", top + r * rh + 14, rows[r], row_what[r]);
        fprintf(f, "<circle class=\"access\" data-line=\"%d\" data-interval=\"%d\" cx=\"%d\" cy=\"%d\" r=\"6\">"
                "<title>line %d: ", rows[r], iv, left + iv * col + col / 2, top + r * rh + 10, rows[r]);
        char code[96];
        snprintf(code, sizeof code, "%.90s", source_line(src, rows[r]));
        text(f, code);
        fputs("</title></circle>", f);
    }
    for (int i = 0; i < t->nfindings; i++) {
        const check_finding *x = &t->findings[i];
        if (strcmp(x->kind, "race") || x->line < k->first || x->line > k->last)
            continue;
        int r1 = -1, r2 = -1;
        for (int r = 0; r < nrows; r++) {
            if (rows[r] == x->line && r1 < 0)
                r1 = r;
            if (rows[r] == x->line2)
                r2 = r;
        }
        if (r1 < 0 || r2 < 0)
            continue;
        int iv = interval_of(k, x->line), cx = left + iv * col + col / 2 + 12;
        fprintf(f, "<path class=\"race\" data-line=\"%d\" data-line2=\"%d\" data-interval=\"%d\" data-same-interval=\"%d\" "
                "d=\"M %d %d C %d %d %d %d %d %d\"><title>", x->line, x->line2, iv, iv == interval_of(k, x->line2),
                cx - 6, top + r1 * rh + 10, cx + 22, top + r1 * rh + 10, cx + 22, top + r2 * rh + 10, cx - 6,
                top + r2 * rh + 10);
        text(f, x->text);
        fputs("</title></path>", f);
    }
    fputs("</svg>\n", f);
    for (int i = 0; i < t->nfindings && !bare; i++) {
        const check_finding *x = &t->findings[i];
        if ((strcmp(x->kind, "race") && strcmp(x->kind, "barrier")) || x->line < k->first || x->line > k->last)
            continue;
        fputs("<div class=\"finding\">", f);
        text(f, x->text);
        if (x->superstep[0]) {
            fputs(" [SUPERSTEP ", f);
            text(f, x->superstep);
            fputs("]", f);
        }
        fputs("</div>\n", f);
    }
    if (!bare)
        fputs("</figure>\n", f);
}

static void timelines(FILE *f, const traces *t, const source_file *src)
{
    static kernel k[MAX_KERNELS];
    int n = find_kernels(src, k);
    fputs("<h2 id=\"barriers\">Races and barriers: each kernel's intervals between barriers</h2>\n", f);
    int drawn = 0;
    for (int i = 0; i < n; i++) {
        int before = (int)ftell(f);
        timeline(f, t, src, &k[i]);
        drawn += (int)ftell(f) != before;
    }
    if (!drawn)
        fputs("<p class=\"na\">No kernel with shared memory or a barrier.</p>\n", f);
}

/* ---- lab 7: the skip, warp by warp -------------------------------------------- */

static const char *branch_title(const branch_grid *g)
{
    return !strcmp(g->kernel, "yours") ? "your kernel" : "the kit's wide-tile kernel";
}

/* One kernel's grid: block 0's warps down, its stretches between barriers
 * across (the first: from the kernel's start to its first barrier). A cell is
 * blue where every lane ran the same basic blocks (darker: more of them, so
 * less skipped), red where they differed, grey where the warp ran nothing. */
static void branch_grid_svg(FILE *f, const branch_grid *g)
{
    const int left = 52, top = 30, cell = g->steps > 40 ? (560 / g->steps > 5 ? 560 / g->steps : 5) : 14;
    int width = left + g->steps * cell + 8, height = top + g->warps * cell + 30;
    if (width < 300)
        width = 300;
    unsigned most = 1;
    int cells = 0, divergent = 0;
    for (int w = 0; w < g->warps; w++)
        for (int k = 0; k < g->steps; k++) {
            most = g->blocks[w][k] > most ? g->blocks[w][k] : most;
            cells += g->divergent[w][k] >= 0;
            divergent += g->divergent[w][k] > 0;
        }
    fprintf(f, "<svg class=\"branches\" data-kernel=\"%s\" data-warps=\"%d\" data-steps=\"%d\" data-cells=\"%d\" "
            "data-divergent-cells=\"%d\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">",
            g->kernel, g->warps, g->steps, cells, divergent, width, height, width, height);
    fputs("<text x=\"0\" y=\"11\" class=\"title\">", f);
    text(f, branch_title(g));
    fprintf(f, ": %d of %d diverged</text><text x=\"%d\" y=\"%d\" class=\"axis\">barrier to barrier, along K &#8594;</text>",
            divergent, cells, left, top - 6);
    for (int w = 0; w < g->warps; w++) {
        fprintf(f, "<text x=\"0\" y=\"%d\" class=\"axis\">warp %d</text>", top + w * cell + cell - 3, w);
        for (int k = 0; k < g->steps; k++) {
            int d = g->divergent[w][k];
            /* Four shades of work, each a quarter of the grid's most. */
            int shade = 1 + (int)(3.999 * g->blocks[w][k] / most);
            if (d < 0)
                fprintf(f, "<rect class=\"step idle\"");
            else if (d)
                fprintf(f, "<rect class=\"step divergent\"");
            else
                fprintf(f, "<rect class=\"step uniform w%d\"", shade);
            fprintf(f, " data-warp=\"%d\" data-step=\"%d\" data-blocks=\"%u\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\"/>",
                    w, k, g->blocks[w][k], left + k * cell, top + w * cell, cell - 1, cell - 1);
        }
    }
    int ly = top + g->warps * cell + 8;
    fprintf(f, "<rect class=\"legend uniform w3\" x=\"0\" y=\"%d\" width=\"10\" height=\"10\"/><text x=\"14\" y=\"%d\" "
            "class=\"axis\">uniform (darker: more work)</text><rect class=\"legend divergent\" x=\"190\" y=\"%d\" "
            "width=\"10\" height=\"10\"/><text x=\"204\" y=\"%d\" class=\"axis\">divergent</text></svg>",
            ly, ly + 9, ly, ly + 9);
    drawn_w = width, drawn_h = height;
}

/* Lab 7's two grids side by side: the student's sparse kernel and the kit's wide-tile contrast. */
static void branch_figures(FILE *f, const traces *t)
{
    if (!t->nbranches)
        return;
    fprintf(f, "<h2 id=\"branches\">Lab 7: the skip, warp by warp</h2>\n<p>Traced by CPU mode at %s (MxKxN) with "
            "B's K-blocks zero with probability %g: for each warp of block 0 (a row) and each stretch of its work "
            "between two barriers (a column, in order along K), did all 32 lanes run the same basic blocks? Blue: they "
            "did, so the warp skipped or computed each K-block together; red: the lanes took different branches and "
            "the warp ran both ways. On a GPU, ncu's divergent branches are what part 3 scores.</p>\n"
            "<div class=\"pair\">\n", t->branch_shape, 1 - t->branch_density);
    for (int i = 0; i < t->nbranches; i++) {
        const branch_grid *g = &t->branches[i];
        fprintf(f, "<figure class=\"branches\" data-kernel=\"%s\" data-recorded=\"%d\" data-warp-steps=\"%.0f\" "
                "data-divergent-steps=\"%.0f\">\n<figcaption><b>", g->kernel, g->recorded, g->warp_steps,
                g->divergent_steps);
        text(f, branch_title(g));
        fputs("</b> (", f);
        text(f, g->source);
        fputs(")<br>", f);
        if (!g->recorded) {
            fputs("<span class=\"na\">not traced: ", f);
            text(f, g->why);
            fputs("</span></figcaption></figure>\n", f);
            continue;
        }
        fprintf(f, "<b class=\"%s\">lanes diverged in %.0f of %.0f</b> warp-stretches of the grid; block 0's %d "
                "warps drawn.</figcaption>\n", g->divergent_steps > 0 ? "bad" : "good", g->divergent_steps,
                g->warp_steps, g->warps);
        branch_grid_svg(f, g);
        fputs("\n</figure>\n", f);
    }
    fputs("</div>\n", f);
}

/* ---- the table of lines ------------------------------------------------------ */

static void line_table(FILE *f, const traces *t, const source_file *src)
{
    fputs("<table class=\"lines\"><thead><tr><th>line</th><th class=\"code\">source</th><th>access</th>"
          "<th>requests</th><th>per request</th><th>ideal</th><th>excess sectors</th><th>bank conflicts</th>"
          "<th>requests above ideal</th><th class=\"code\">findings</th></tr></thead><tbody>\n", f);
    for (int i = 0; i < t->nlines; i++) {
        const access_line *a = &t->lines[i];
        int shared = !strcmp(a->space, "shared");
        double per = a->requests ? a->units / a->requests : 0, ideal = a->requests ? a->ideal / a->requests : 0;
        fprintf(f, "<tr class=\"%s%s\" data-line=\"%d\" data-space=\"%s\" data-op=\"%s\"><td><a href=\"#L%d\">%d</a></td><td class=\"code\">",
                a->units > a->ideal ? "off" : "ok", findings_at(t, a->line) ? " finding" : "", a->line, a->space, a->op,
                a->line, a->line);
        code_cell(f, src, a->line);
        fprintf(f, "</td><td><a href=\"#%s\">%s</a> %d B</td><td>%.0f</td><td>%.2f %s</td><td>%.2f</td>", fig_id(a),
                what(a), a->bytes, a->requests, per, shared ? "wavefronts" : "sectors", ideal);
        if (shared)
            fprintf(f, "<td></td><td class=\"n\">%.0f</td>", a->units - a->ideal);
        else
            fprintf(f, "<td class=\"n\">%.0f</td><td></td>", a->units - a->ideal);
        fprintf(f, "<td>%.0f</td><td class=\"code\">", a->above);
        int first = 1;
        for (int j = 0; j < i; j++)
            first &= t->lines[j].line != a->line;
        if (first)
            finding_list(f, t, a->line);
        fputs("</td></tr>\n", f);
    }
    /* Lines with findings and no counted access (a barrier, a race on a line the counters case passed). */
    int listed[MAX_LINES * 2], nlisted = 0;
    for (int k = 0; k < t->nfindings; k++) {
        int line = t->findings[k].line, counted = 0, seen = 0;
        for (int i = 0; i < t->nlines; i++)
            counted |= t->lines[i].line == line;
        for (int i = 0; i < nlisted; i++)
            seen |= listed[i] == line;
        if (counted || seen || nlisted == MAX_LINES * 2)
            continue;
        listed[nlisted++] = line;
        fprintf(f, "<tr class=\"off\" data-line=\"%d\" data-space=\"\" data-op=\"\"><td>", line);
        if (line > 0)
            fprintf(f, "<a href=\"#L%d\">%d</a>", line, line);
        fputs("</td><td class=\"code\">", f);
        if (line > 0)
            code_cell(f, src, line);
        fputs("</td><td></td><td></td><td></td><td></td><td></td><td></td><td></td><td class=\"code\">", f);
        finding_list(f, t, line);
        fputs("</td></tr>\n", f);
    }
    fputs("</tbody></table>\n", f);
}

/* ---- the source, each line an anchor ---------------------------------------- */

static void source_listing(FILE *f, const traces *t, const source_file *src)
{
    fputs("<pre class=\"source\">", f);
    for (int l = 1; l <= src->n; l++) {
        int off = 0, counted = 0;
        const access_line *first = NULL;
        for (int i = 0; i < t->nlines; i++)
            if (t->lines[i].line == l) {
                counted = 1;
                off |= t->lines[i].units > t->lines[i].ideal;
                if (!first)
                    first = &t->lines[i];
            }
        int found = findings_at(t, l);
        fprintf(f, "<span id=\"L%d\" class=\"ln%s%s%s\">", l, counted ? " counted" : "", off ? " off" : "",
                found ? " finding" : "");
        if (first)
            fprintf(f, "<a class=\"num\" href=\"#%s\">%4d</a> ", fig_id(first), l);
        else
            fprintf(f, "<span class=\"num\">%4d</span> ", l);
        text(f, src->line[l]);
        fputs("</span>", f);   /* each line a block of its own: no newline between them */
    }
    fputs("</pre>\n", f);
}

/* ---- performance: this run beside the references measured with it --------- */

typedef struct { char name[96]; double value; int yours; } bar;

static void add_bar(bar *b, int *n, const char *name, double value, int yours)
{
    if (!(value > 0) || *n >= 8)
        return;
    snprintf(b[*n].name, sizeof b[*n].name, "%s", name);
    b[*n].value = value;
    b[*n].yours = yours;
    ++*n;
}

static void performance(FILE *f, const grade *g, const options *o)
{
    const lab_kind *k = kind_of(&g->rubric);
    fputs("<section id=\"performance\"><h2>Performance</h2>\n", f);
    if (o->cpu_mode) {
        fputs("<p class=\"na\" data-measured=\"0\">no GPU: not measured. CPU mode times nothing; "
              "./grade on a machine with an NVIDIA GPU measures your kernel beside the references.</p></section>\n", f);
        return;
    }
    char err[256];
    tl_json *m = o->measure_json ? tl_json_parse_file(o->measure_json, err, sizeof err) : NULL;
    bar bars[8];
    int n = 0;
    const char *unit = k->matrix_product ? "GFLOP/s" : "GB/s";
    if (m && k->matrix_product) {
        const tl_json *mm = tl_json_get(m, "matmul");
        add_bar(bars, &n, "your kernel", tl_json_number(mm, "gflops", 0), 1);
        add_bar(bars, &n, "cuBLAS FP32", tl_json_number(mm, "cublas_gflops", 0), 0);
        add_bar(bars, &n, "naive kernel", tl_json_number(mm, "naive_gflops", 0), 0);
    } else if (m) {
        const tl_json *b = tl_json_get(m, "bench");
        add_bar(bars, &n, "your kernel", tl_json_number(b, "work_gbps", 0), 1);
        add_bar(bars, &n, "copy (the kit's copy kernel)", tl_json_number(b, "copy_gbps", 0), 0);
        add_bar(bars, &n, "copy (CUDA events)", tl_json_number(b, "copy_event_gbps", 0), 0);
        const tl_json *base = tl_json_get(m, "baseline");
        if (base) {
            char name[96];
            snprintf(name, sizeof name, "your %s", g->rubric.baseline[0] ? g->rubric.baseline : "baseline");
            add_bar(bars, &n, name, tl_json_number(tl_json_get(base, "bench"), "work_gbps", 0), 0);
        }
        const tl_json *lib = tl_json_get(m, "library");
        if (lib)
            add_bar(bars, &n, tl_json_string(lib, "source", "library"), tl_json_number(lib, "work_gbps", 0), 0);
    }
    if (!n || !g->measured) {
        fputs("<p class=\"na\" data-measured=\"0\">not measured in this run", f);
        if (!g->measured)
            fputs(" (speed is measured only once every test passes)", f);
        fputs(".</p>", f);
    } else {
        double top = 0;
        for (int i = 0; i < n; i++)
            top = fmax(top, bars[i].value);
        /* Every bar as a fraction of the reference the grade uses: copy, or cuBLAS. */
        double ref = 0;
        for (int i = 0; i < n && !(ref > 0); i++)
            ref = !bars[i].yours ? bars[i].value : 0;
        fprintf(f, "<p data-measured=\"1\" data-fraction=\"%.4f\">Your kernel: <b>%.1f %%</b> of %s, all measured in "
                "this run on %s.</p>\n<svg class=\"perf\" width=\"640\" height=\"%d\" viewBox=\"0 0 640 %d\" role=\"img\">",
                g->fraction, 100 * g->fraction, k->reference, g->device[0] ? "the GPU below" : "this GPU", 22 * n + 4,
                22 * n + 4);
        for (int i = 0; i < n; i++) {
            double w = 360 * bars[i].value / top;
            fprintf(f, "<text x=\"0\" y=\"%d\" class=\"axis\">", 22 * i + 15);
            text(f, bars[i].name);
            fprintf(f, "</text><rect class=\"bar%s\" x=\"200\" y=\"%d\" width=\"%.1f\" height=\"16\"/>"
                    "<text x=\"%.1f\" y=\"%d\" class=\"axis\">%.0f %s", bars[i].yours ? " yours" : "", 22 * i + 3,
                    w, 206 + w, 22 * i + 15, bars[i].value, unit);
            if (ref > 0 && bars[i].value != ref)
                fprintf(f, " (%.2f of %s)", bars[i].value / ref, k->reference);
            fputs("</text>", f);
        }
        fputs("</svg>\n", f);
    }
    tl_json_free(m);
    fputs("</section>\n", f);
}

/* ---- the page ------------------------------------------------------------------ */

static const char *const style =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:1.5rem auto;max-width:80rem;"
    "padding:0 1rem;color:#1d2127;background:#fff}h1{font-size:1.4rem;margin:0 0 .2rem}h2{font-size:1.15rem;"
    "margin:1.6rem 0 .4rem;border-bottom:1px solid #dde}p.sub{color:#555;margin:0 0 1rem}.na{color:#666}"
    "table{border-collapse:collapse}th,td{padding:.25rem .5rem;border-bottom:1px solid #e2e5e9;text-align:right;"
    "vertical-align:top}th{background:#f4f6f8;font-weight:600}td.code,th.code{text-align:left}td.n{font-weight:600}"
    "tr.off td.n{color:#b3261e}tr.off td:first-child,tr.finding td:first-child{border-left:3px solid #b3261e}"
    "code{font:12.5px ui-monospace,Menlo,Consolas,monospace}b.bad{color:#b3261e}b.good{color:#1b7a3a}"
    "figure{margin:1rem 0;padding:.6rem;border:1px solid #e2e5e9;border-radius:6px;overflow-x:auto}"
    "figure.off-ideal{border-color:#e8b4ae}figcaption{margin-bottom:.4rem}span.by-cost,span.sample{color:#555}"
    "svg text{font:10px ui-monospace,Menlo,Consolas,monospace;fill:#333}svg text.lanenum,svg text.banknum,"
    "svg text.cellnum{text-anchor:middle}svg text.cellnum{font-size:9px}svg text.jump{fill:#999}"
    "rect.lanebox{fill:#dfe9f5;stroke:#3b6ea5}rect.lanebox.idle{fill:#f2f2f2;stroke:#bbb}"
    "line.lane{stroke:#3b6ea5;stroke-opacity:.45}rect.word{fill:#fff;stroke:#ccd}rect.word.used{fill:#3b6ea5}"
    "rect.sector{fill:none;stroke:#333}rect.sector.wasted{stroke:#b3261e;stroke-width:1.5}"
    "rect.sector.ideal{fill:#9cc3e6;stroke:#333}svg.ideal-map{margin-left:1rem}"
    "rect.cell{fill:#cfe8d5;stroke:#1b7a3a}rect.cell.conflict{fill:#f4c7c3;stroke:#b3261e}"
    "rect.cell.broadcast{fill:#fff2cc}rect.bar{fill:#9aa7b5}rect.bar.yours{fill:#3b6ea5}"
    "pre.source{font:12.5px/1.35 ui-monospace,Menlo,Consolas,monospace;background:#fafbfc;border:1px solid #e2e5e9;"
    "padding:.5rem 0;overflow-x:auto}pre.source span.ln{display:block;padding:0 .6rem}"
    "pre.source .num{color:#999;text-decoration:none}pre.source a.num{color:#3b6ea5}"
    "pre.source span.counted{background:#eef6ee}pre.source span.off{background:#fdeceb}"
    "pre.source span.finding{background:#fff2cc}pre.source span:target{outline:2px solid #3b6ea5}"
    "div.finding{color:#8a3a00;max-width:36rem}table.points td.name{text-align:left}"
    "details{margin:.2rem 0}details pre{white-space:pre-wrap;font-size:12px}"
    "rect.interval{fill:#f7f9fb;stroke:#e2e5e9}svg text.steplabel{text-anchor:middle}"
    "line.barrier{stroke:#333;stroke-width:3}line.barrier.broken{stroke:#b3261e;stroke-dasharray:4 3}"
    "circle.access{fill:#3b6ea5}path.race{fill:none;stroke:#b3261e;stroke-width:2.5}"
    "div.pair{display:flex;flex-wrap:wrap;gap:1rem}div.pair figure{margin:0}svg text.title{font-weight:600}"
    "rect.step.idle{fill:#eee}rect.step.divergent{fill:#d9534f}rect.step.w1{fill:#c6dbef}rect.step.w2{fill:#9ecae1}"
    "rect.step.w3,rect.legend.w3{fill:#4292c6}rect.step.w4{fill:#08519c}rect.legend.divergent{fill:#d9534f}";

/* cpu-check.json, and a lab of several kernels' cpu-check-UNIT.json, in name
 * order; none older than `since` (an earlier grade's, left in a reused --out
 * folder, is not this one's). */
static void load_traces(traces *t, const char *dir, time_t since)
{
    memset(t, 0, sizeof *t);
    struct dirent **names = NULL;
    int n = dir ? scandir(dir, &names, is_trace_file, alphasort) : 0;
    for (int i = 0; i < n; i++) {
        char path[4400], err[256];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
        struct stat st;
        if (stat(path, &st) != 0 || st.st_mtime < since) {
            free(names[i]);
            continue;
        }
        tl_json *root = tl_json_parse_file(path, err, sizeof err);
        read_traces(t, root);
        tl_json_free(root);
        free(names[i]);
    }
    free(names);
}

/* One picture, alone on a page of its own: PREFIX-NAME.html, and a line
 * "PATH WIDTH HEIGHT" on stdout for the screenshot (tools/handouts/figures.sh). */
static FILE *picture_begin(const char *prefix, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s-%s.html", prefix, name);
    FILE *f = fopen(path, "w");
    if (f)
        fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" "
                "content=\"default-src 'none'; style-src 'unsafe-inline'\">\n<title>%s</title>\n<style>%s"
                "body{margin:0;padding:8px;max-width:none}svg{display:block}svg.ideal-map{margin:4px 0 0 0}"
                "</style>\n</head>\n<body>",
                name, style);
    return f;
}

static int picture_end(FILE *f, const char *path)
{
    fputs("</body>\n</html>\n", f);
    if (fclose(f) != 0)
        return -1;
    printf("%s %d %d\n", path, drawn_w + 16, drawn_h + 16);
    return 0;
}

int write_figure_files(const char *dir, const char *source, const char *prefix)
{
    static traces t;
    load_traces(&t, dir, 0);
    static source_file src;
    read_source(&src, source);
    if (!t.read) {
        fprintf(stderr, "report: no cpu-check.json in %s (a CPU-mode grade's folder)\n", dir);
        return -1;
    }
    int bad = 0;
    bare = 1;
    for (int i = 0; i < t.nlines; i++) {
        const access_line *a = &t.lines[i];
        if (!a->has_warp)
            continue;
        /* labN-shared-ld; a second line of the same kind: labN-shared-ld-2. */
        int nth = 1;
        for (int j = 0; j < i; j++)
            nth += t.lines[j].has_warp && !strcmp(t.lines[j].space, a->space) && !strcmp(t.lines[j].op, a->op);
        char name[64], path[4200];
        snprintf(name, sizeof name, nth > 1 ? "%s-%s-%d" : "%s-%s", a->space, a->op, nth);
        FILE *f = picture_begin(prefix, name, path, sizeof path);
        if (!f)
            return -1;
        if (strcmp(a->space, "shared"))
            global_figure(f, a);
        else
            shared_figure(f, a);
        bad |= picture_end(f, path);
    }
    static kernel k[MAX_KERNELS];
    int n = find_kernels(&src, k);
    for (int i = 0; i < n; i++) {
        char name[96], path[4200];
        snprintf(name, sizeof name, "timeline-%.60s", k[i].name);
        FILE *f = picture_begin(prefix, name, path, sizeof path);
        if (!f)
            return -1;
        long before = ftell(f);
        timeline(f, &t, &src, &k[i]);
        if (ftell(f) == before) {   /* nothing to draw: no shared memory, no barrier */
            fclose(f);
            remove(path);
            continue;
        }
        bad |= picture_end(f, path);
    }
    if (t.nbranches) {   /* lab 7: both grids in one picture */
        char path[4200];
        FILE *f = picture_begin(prefix, "branches", path, sizeof path);
        if (!f)
            return -1;
        int w = 0, h = 0;
        fputs("<div class=\"pair\">", f);
        for (int i = 0; i < t.nbranches; i++)
            if (t.branches[i].recorded) {
                branch_grid_svg(f, &t.branches[i]);
                w += drawn_w + 16, h = drawn_h > h ? drawn_h : h;
            }
        fputs("</div>", f);
        drawn_w = w, drawn_h = h;
        bad |= picture_end(f, path);
    }
    bare = 0;
    free(src.text);
    return bad;
}

int write_report_page(const grade *g, const options *o, const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    static traces t;
    /* This grade's own: written since it started (--elapsed), a second's slack. */
    load_traces(&t, o->cpu_mode ? dir : NULL, time(NULL) - (time_t)o->elapsed - 2);
    static source_file src;
    read_source(&src, o->source);

    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        free(src.text);
        return -1;
    }
    char title[256];
    snprintf(title, sizeof title, "%s: %s — tilelab report", g->rubric.id, g->rubric.title);
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          /* Nothing may load or run: the page opens offline, and a line of the
           * student's source can never become a script. */
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
          "img-src data:\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    text(f, title);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body data-mode=\"%s\" data-lab=\"", style, o->cpu_mode ? "cpu" : "gpu");
    text(f, g->rubric.id);
    fputs("\">\n<h1>", f);
    text(f, g->rubric.id);
    fputs(": ", f);
    text(f, g->rubric.title);
    if (g->could_not_grade)
        fputs(" — could not grade</h1>\n", f);
    else
        fprintf(f, " — <span id=\"score\" data-score=\"%.2f\" data-max=\"%.2f\">Score: %.2f/%.2f</span></h1>\n",
                total(g, 0), total(g, 1), total(g, 0), total(g, 1));
    fputs("<p class=\"sub\">", f);
    text(f, o->source);
    fputs(", seed ", f);
    text(f, o->seed);
    fputs(o->cpu_mode ? "; graded in CPU mode (no GPU)" : "", f);
    if (g->device[0]) {
        fputs("; ", f);
        text(f, g->device);
    }
    fputs(". The text report (./grade's output, results.json) is the grade; this page draws it.</p>\n", f);
    if (g->could_not_grade) {
        fputs("<pre class=\"problem\">", f);
        text(f, g->problem);
        fputs("</pre>\n", f);
    }

    performance(f, g, o);

    fputs("<section id=\"accesses\"><h2>Memory accesses, line by line</h2>\n", f);
    if (!o->cpu_mode)
        fputs("<p class=\"na\" data-traces=\"0\">These pictures need CPU mode's exact traces (per line, per warp, per lane); "
              "this GPU grade has ncu's totals only, in the text report. ./grade --cpu draws them.</p>\n", f);
    else if (!t.read)
        fputs("<p class=\"na\" data-traces=\"0\">No record of CPU mode's checks in this grade (it stopped before "
              "them): nothing to draw.</p>\n", f);
    else if (!t.nlines) {
        fputs("<p class=\"na\" data-traces=\"1\">No counters case in this grade (a lab of several kernels is checked "
              "kernel by kernel, without one): no accesses to draw, only the checks' findings.</p>\n", f);
        line_table(f, &t, &src);
        timelines(f, &t, &src);
        branch_figures(f, &t);
    } else {
        fprintf(f, "<p data-traces=\"1\">Counted at %s by CPU mode, by the hardware's rules: a warp-level request to "
                "global memory moves 32-byte sectors; one to shared memory is served in passes (wavefronts), one per "
                "distinct 4-byte word a bank is asked for. Red marks what costs more than the ideal.</p>\n",
                t.shape[0] ? t.shape : "the counters shape");
        line_table(f, &t, &src);
        int nglobal = 0, nshared = 0;
        for (int i = 0; i < t.nlines; i++)
            nglobal += !strcmp(t.lines[i].space, "global") && t.lines[i].has_warp,
            nshared += !strcmp(t.lines[i].space, "shared") && t.lines[i].has_warp;
        fputs("<h2 id=\"global\">Global accesses: one warp's lanes and the sectors they touch</h2>\n", f);
        if (!nglobal)
            fputs("<p class=\"na\">No global access was counted.</p>\n", f);
        for (int i = 0; i < t.nlines; i++)
            if (!strcmp(t.lines[i].space, "global") && t.lines[i].has_warp)
                figure(f, &t.lines[i], &src);
        fputs("<h2 id=\"shared\">Shared accesses: the bank map, which lane each bank serves in each pass</h2>\n", f);
        if (!nshared)
            fputs("<p class=\"na\">No shared-memory access was counted.</p>\n", f);
        for (int i = 0; i < t.nlines; i++)
            if (!strcmp(t.lines[i].space, "shared") && t.lines[i].has_warp)
                figure(f, &t.lines[i], &src);
        timelines(f, &t, &src);
        branch_figures(f, &t);
    }
    fputs("</section>\n", f);

    fputs("<section id=\"points\"><h2>Points</h2>\n<table class=\"points\"><tbody>\n", f);
    for (int i = 0; i < g->ntests; i++) {
        const graded_test *x = &g->tests[i];
        fprintf(f, "<tr data-passed=\"%d\"><td class=\"name\"><details><summary>", x->passed);
        text(f, x->name);
        fputs("</summary><pre>", f);
        text(f, x->output);
        fprintf(f, "</pre></details></td><td>%.2f/%.2f</td></tr>\n", x->score, x->max_score);
    }
    fputs("</tbody></table></section>\n", f);

    if (src.n) {
        fputs("<section id=\"source\"><h2>Your file</h2>\n", f);
        source_listing(f, &t, &src);
        fputs("</section>\n", f);
    }
    fputs("</body>\n</html>\n", f);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    free(src.text);
    if (bad || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

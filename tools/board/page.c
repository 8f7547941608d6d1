/*
 * page.c — a board as a static page (inline CSS, no script, a Content
 * Security Policy that lets nothing load), as CSV (the kit's CSV writer, its
 * formula guard included), and as Gradescope's leaderboard entries.
 */
#include "board.h"
#include "csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- HTML text ------------------------------------------------------------ */

void html_text(FILE *out, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    while (*p) {
        unsigned char c = *p;
        int len = c < 0x80 ? 1 : c >= 0xc2 && c < 0xe0 ? 2 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xf0 && c < 0xf5 ? 4 : 0;
        int ok = len > 0;
        for (int i = 1; ok && i < len; i++)
            ok = (p[i] & 0xc0) == 0x80;
        if (!ok) {
            fputs("\xef\xbf\xbd", out);   /* U+FFFD for a byte that is not UTF-8 */
            p++;
            continue;
        }
        if (len > 1) {
            fwrite(p, 1, len, out);
            p += len;
            continue;
        }
        switch (c) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            if (c < 0x20 || c == 0x7f)
                fputs("\xef\xbf\xbd", out);
            else
                fputc(c, out);
        }
        p++;
    }
}

/* ---- Gradescope's leaderboard --------------------------------------------- */

/*
 * Gradescope's documented format (gradescope-autograders.readthedocs.io,
 * "Autograder Specifications" and "Leaderboards"):
 *
 *   "leaderboard": // Optional, will set up leaderboards for these values
 *     [
 *       {"name": "Accuracy", "value": .926},
 *       {"name": "Time", "value": 15.1, "order": "asc"},
 *       {"name": "Stars", "value": "*****"}
 *     ]
 *
 *   "your autograder must export a top-level "leaderboard" section in the
 *   results.json output. This will be an array, with objects defining the
 *   different quantities to be displayed on the leaderboard."
 *   "You can specify the sort order for a quantity by specifying an "order"
 *   property. The default is "desc" for descending, i.e. higher scores rank
 *   higher, but for quantities like execution time you may want to sort them
 *   in ascending order."
 *
 * So: an array of objects; each has a string "name" and a "value" that is a
 * number or a string, and may have "order", "asc" or "desc". Nothing else is
 * documented, so nothing else is accepted; a name twice would be two columns
 * of one name, so names are unique.
 */
int check_leaderboard(const tl_json *lb, char *err, size_t errlen)
{
    if (!lb || lb->type != TL_JSON_ARRAY) {
        snprintf(err, errlen, "\"leaderboard\" is not an array");
        return -1;
    }
    int i = 0;
    for (const tl_json *e = lb->child; e; e = e->next, i++) {
        if (e->type != TL_JSON_OBJECT) {
            snprintf(err, errlen, "entry %d is not an object", i);
            return -1;
        }
        const tl_json *name = tl_json_get(e, "name"), *value = tl_json_get(e, "value"),
                      *order = tl_json_get(e, "order");
        if (!name || name->type != TL_JSON_STRING || !name->string[0]) {
            snprintf(err, errlen, "entry %d has no \"name\" string", i);
            return -1;
        }
        if (!value || (value->type != TL_JSON_NUMBER && value->type != TL_JSON_STRING)) {
            snprintf(err, errlen, "entry %d (%s): \"value\" is missing or neither a number nor a string", i,
                     name->string);
            return -1;
        }
        if (order && (order->type != TL_JSON_STRING || (strcmp(order->string, "asc") && strcmp(order->string, "desc")))) {
            snprintf(err, errlen, "entry %d (%s): \"order\" is neither \"asc\" nor \"desc\"", i, name->string);
            return -1;
        }
        for (const tl_json *m = e->child; m; m = m->next)
            if (strcmp(m->key, "name") && strcmp(m->key, "value") && strcmp(m->key, "order")) {
                snprintf(err, errlen, "entry %d (%s): \"%s\" is not a documented field (name, value, order)", i,
                         name->string, m->key);
                return -1;
            }
        for (const tl_json *f = lb->child; f != e; f = f->next)
            if (!strcmp(tl_json_string(f, "name", ""), name->string)) {
                snprintf(err, errlen, "entry %d: the name \"%s\" twice", i, name->string);
                return -1;
            }
    }
    return 0;
}

static tl_json *node(tl_json_type type, const char *key)
{
    tl_json *n = calloc(1, sizeof *n);
    if (!n) {
        fprintf(stderr, "board: out of memory\n");
        exit(2);
    }
    n->type = type;
    n->key = key ? strdup(key) : NULL;
    return n;
}

static void add_entry(tl_json *array, tl_json **last, const char *name, double value, const char *order)
{
    tl_json *e = node(TL_JSON_OBJECT, NULL), *n = node(TL_JSON_STRING, "name"), *v = node(TL_JSON_NUMBER, "value"),
            *o = node(TL_JSON_STRING, "order");
    n->string = strdup(name);
    v->number = round(value * 1e4) / 1e4;
    o->string = strdup(order);
    e->child = n;
    n->next = v;
    v->next = o;
    if (*last)
        (*last)->next = e;
    else
        array->child = e;
    *last = e;
}

/* The board's columns as leaderboard quantities; speed and fraction under the
 * names the grader's own results.json gives them (grader/lab_kinds.c). */
tl_json *entry_leaderboard(const board *b, const entry *e)
{
    tl_json *lb = node(TL_JSON_ARRAY, "leaderboard"), *last = NULL;
    const run *r = e->best;
    const char *speed = b->matmul ? "GFLOP/s" : "Bandwidth (GB/s)";
    const char *fraction = b->matmul ? "Fraction of cuBLAS" : "Fraction of copy";
    for (const tl_json *g = r->leaderboard ? r->leaderboard->child : NULL; g; g = g->next) {
        const char *name = tl_json_string(g, "name", "");
        if (!strncmp(name, "Fraction", 8))
            fraction = name;
        else if (name[0])
            speed = name;
    }
    add_entry(lb, &last, speed, r->speed, "desc");
    add_entry(lb, &last, fraction, e->fraction, "desc");
    add_entry(lb, &last, "Board rank (ties share one)", e->rank, "asc");
    add_entry(lb, &last, "Noise (%)", 100 * e->noise, "asc");
    if (r->has_counters) {
        add_entry(lb, &last, "Sectors/request, loads", r->ld_sectors, "asc");
        add_entry(lb, &last, "Sectors/request, stores", r->st_sectors, "asc");
        if (r->has_shared) {
            add_entry(lb, &last, "Bank conflicts/request, loads", r->ld_conflicts, "asc");
            add_entry(lb, &last, "Bank conflicts/request, stores", r->st_conflicts, "asc");
        }
    }
    if (r->kernel_lines >= 0)
        add_entry(lb, &last, "Kernel lines", r->kernel_lines, "asc");
    char err[256];
    if (check_leaderboard(lb, err, sizeof err) != 0) {   /* the kit's own bug: stop rather than write it */
        fprintf(stderr, "board: internal error, a leaderboard Gradescope would refuse: %s\n", err);
        exit(2);
    }
    return lb;
}

int write_leaderboard_json(FILE *f, const tl_json *lb)
{
    fputc('[', f);
    for (const tl_json *e = lb->child; e; e = e->next) {
        fputs(e == lb->child ? "\n  {" : ",\n  {", f);
        for (const tl_json *m = e->child; m; m = m->next) {
            fprintf(f, "%s\"%s\": ", m == e->child ? "" : ", ", m->key);
            if (m->type == TL_JSON_STRING)
                tl_json_write_escaped(f, m->string);
            else
                fprintf(f, "%.10g", m->number);
        }
        fputc('}', f);
    }
    fputs("\n]", f);
    return 0;
}

/* ---- the page ------------------------------------------------------------- */

static const char *const style =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:2rem auto;max-width:72rem;"
    "padding:0 1rem;color:#1d2127;background:#fff}"
    "h1{font-size:1.5rem;margin:0 0 .2rem}p.sub{color:#555;margin:0 0 1.2rem}"
    "table{border-collapse:collapse;width:100%}th,td{padding:.35rem .6rem;border-bottom:1px solid #e2e5e9;"
    "text-align:right;vertical-align:middle;white-space:nowrap}th{background:#f4f6f8;font-weight:600}"
    /* At phone width (480 px) the nine columns do not fit: the table scrolls sideways in its own
     * box, and a pseudonym keeps 9rem (it was squeezed to one character a line). */
    "div.scroll{overflow-x:auto}"
    "td.name,th.name{text-align:left;white-space:normal;overflow-wrap:anywhere;min-width:9rem;max-width:22rem}"
    "td.rank{font-weight:700}tr.tie td.rank{color:#8a5a00}span.tie{font-size:.75rem;background:#fff2cc;"
    "border:1px solid #e0c060;border-radius:.6rem;padding:0 .35rem;margin-left:.3rem}"
    "span.pm{color:#666;font-size:.85em}td.na{color:#999}svg.spark{vertical-align:middle}"
    "footer{color:#555;font-size:.85rem;margin-top:1.2rem}footer dt{font-weight:600}footer dd{margin:0 0 .4rem 1rem}"
    "ul.boards li{margin:.3rem 0}"
    "@media (max-width:600px){body{margin:1rem auto;padding:0 .5rem;font-size:14px}th,td{padding:.3rem .4rem}}";

static void page_head(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          /* Nothing may load or run: a name that slipped past the escaping
           * could not fetch or execute anything, and the browser test would
           * see the blocked attempt in the console. */
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
          "img-src data:\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    html_text(f, title);
    fprintf(f, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
}

/* The history as an inline SVG polyline, scaled to its own range. */
static void sparkline(FILE *f, const entry *e)
{
    const int w = 96, h = 22, pad = 3;
    double lo = e->history[0], hi = e->history[0];
    for (int i = 1; i < e->nhistory; i++) {
        lo = fmin(lo, e->history[i]);
        hi = fmax(hi, e->history[i]);
    }
    fprintf(f, "<svg class=\"spark\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\"><title>", w, h,
            w, h);
    for (int i = 0; i < e->nhistory; i++)
        fprintf(f, "%s%.1f %%", i ? ", " : "history: ", 100 * e->history[i]);
    fputs("</title>", f);
    double x[HISTORY_MAX], y[HISTORY_MAX];
    for (int i = 0; i < e->nhistory; i++) {
        x[i] = e->nhistory == 1 ? w / 2.0 : pad + (w - 2.0 * pad) * i / (e->nhistory - 1);
        y[i] = hi > lo ? h - pad - (h - 2.0 * pad) * (e->history[i] - lo) / (hi - lo) : h / 2.0;
    }
    if (e->nhistory > 1) {
        fputs("<polyline fill=\"none\" stroke=\"#3b6ea5\" stroke-width=\"1.5\" points=\"", f);
        for (int i = 0; i < e->nhistory; i++)
            fprintf(f, "%s%.1f,%.1f", i ? " " : "", x[i], y[i]);
        fputs("\"/>", f);
    }
    fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.2\" fill=\"#3b6ea5\"/></svg>", x[e->nhistory - 1],
            y[e->nhistory - 1]);
}

static void number_cell(FILE *f, int present, double v, const char *fmt)
{
    if (!present) {
        fputs("<td class=\"na\">—</td>", f);
        return;
    }
    fputs("<td>", f);
    fprintf(f, fmt, v);
    fputs("</td>", f);
}

int write_board_html(const char *path, const board *b, const char *index_href)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "board: cannot write %s\n", path);
        return 2;
    }
    char title[512];
    snprintf(title, sizeof title, "%s on %s — class board", b->lab, b->gpu);
    page_head(f, title);
    fputs("<h1>", f);
    html_text(f, b->lab);
    fputs(" on ", f);
    html_text(f, b->gpu);
    fprintf(f, "</h1>\n<p class=\"sub\">%d student%s. Each one's best run that passed every hidden test, as a "
               "fraction of %s measured in the same run. ",
            b->n, b->n == 1 ? "" : "s", b->matmul ? "cuBLAS FP32" : "the GPU's copy");
    if (b->rerun_rounds)
        fprintf(f, "The order is the deadline re-run's: each file graded again in %d interleaved rounds with a fresh "
                   "secret seed, the median shown. ", b->rerun_rounds);
    fprintf(f, "<a href=\"%s\">All boards</a></p>\n", index_href);
    fprintf(f, "<div class=\"scroll\"><table>\n<thead><tr><th>rank</th><th class=\"name\">pseudonym</th><th>fraction of %s</th>"
               "<th>%s</th><th>sectors/request<br>loads · stores</th><th>conflicts/request<br>loads · stores</th>"
               "<th>kernel lines</th><th>history</th><th>runs</th></tr></thead>\n<tbody>\n",
            b->matmul ? "cuBLAS" : "copy", b->matmul ? "GFLOP/s" : "GB/s");
    for (int i = 0; i < b->n; i++) {
        const entry *e = &b->entries[i];
        const run *r = e->best;
        fprintf(f, "<tr%s><td class=\"rank\">%d%s</td><td class=\"name\"><bdi>", e->tied ? " class=\"tie\"" : "",
                e->rank, e->tied ? "=" : "");
        html_text(f, e->name);
        fputs("</bdi>", f);
        if (e->tied)
            fputs("<span class=\"tie\" title=\"within the measured noise of another result\">tie</span>", f);
        fprintf(f, "</td><td>%.1f %% <span class=\"pm\">± %.1f</span></td>", 100 * e->fraction,
                100 * e->fraction * e->noise);
        number_cell(f, r->speed > 0, r->speed, "%.0f");
        if (r->has_counters)
            fprintf(f, "<td>%.2f · %.2f</td>", r->ld_sectors, r->st_sectors);
        else
            fputs("<td class=\"na\">—</td>", f);
        if (r->has_counters && r->has_shared)
            fprintf(f, "<td>%.2f · %.2f</td>", r->ld_conflicts, r->st_conflicts);
        else
            fputs("<td class=\"na\">—</td>", f);
        number_cell(f, r->kernel_lines >= 0, r->kernel_lines, "%.0f");
        fputs("<td>", f);
        sparkline(f, e);
        fprintf(f, "</td><td>%d</td></tr>\n", e->runs);
    }
    fputs("</tbody>\n</table></div>\n<footer><dl>\n"
          "<dt>rank</dt><dd>one more than the number of results clearly ahead. <b>=</b> and <i>tie</i>: this "
          "result's range (fraction ± its measured noise) overlaps another's, so their order is luck, not "
          "speed.</dd>\n"
          "<dt>sectors/request</dt><dd>32-byte sectors per global load or store request (ncu, or CPU mode's count "
          "by the same rules); 4 is a warp reading 32 consecutive floats.</dd>\n"
          "<dt>conflicts/request</dt><dd>shared-memory bank conflicts per request; — where the kernel uses no "
          "shared memory or was not counted.</dd>\n"
          "<dt>kernel lines</dt><dd>lines of code in the file's <code>__global__</code> functions.</dd>\n"
          "<dt>history</dt><dd>the fraction of every run of this student on this board that passed, oldest "
          "first.</dd>\n"
          "<dt>pseudonym</dt><dd>chosen with a <code>// board-name: ...</code> line in the lab file (2 to 32 "
          "characters), or generated. Names, logins and IDs are never shown.</dd>\n"
          "</dl></footer>\n</body>\n</html>\n",
          f);
    if (fclose(f) != 0) {
        fprintf(stderr, "board: error writing %s\n", path);
        return 2;
    }
    return 0;
}

int write_board_csv(const char *path, const board *b)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "board: cannot write %s\n", path);
        return 2;
    }
    static const char *const header[] = {"rank", "tied", "pseudonym", "lab", "gpu", "fraction", "noise", "speed",
                                         "speed_unit", "ld_sectors_per_request", "st_sectors_per_request",
                                         "ld_conflicts_per_request", "st_conflicts_per_request", "kernel_lines",
                                         "runs"};
    enum { COLS = sizeof header / sizeof header[0] };
    tl_csv_row(f, header, COLS);
    for (int i = 0; i < b->n; i++) {
        const entry *e = &b->entries[i];
        const run *r = e->best;
        char rank[16], frac[32], noise[32], speed[32], lds[32] = "", sts[32] = "", ldc[32] = "", stc[32] = "",
             lines[16] = "", runs[16];
        snprintf(rank, sizeof rank, "%d", e->rank);
        snprintf(frac, sizeof frac, "%.4f", e->fraction);
        snprintf(noise, sizeof noise, "%.4f", e->noise);
        snprintf(speed, sizeof speed, "%.1f", r->speed);
        if (r->has_counters) {
            snprintf(lds, sizeof lds, "%.2f", r->ld_sectors);
            snprintf(sts, sizeof sts, "%.2f", r->st_sectors);
        }
        if (r->has_counters && r->has_shared) {
            snprintf(ldc, sizeof ldc, "%.2f", r->ld_conflicts);
            snprintf(stc, sizeof stc, "%.2f", r->st_conflicts);
        }
        if (r->kernel_lines >= 0)
            snprintf(lines, sizeof lines, "%d", r->kernel_lines);
        snprintf(runs, sizeof runs, "%d", e->runs);
        const char *row[COLS] = {rank, e->tied ? "yes" : "no", e->name, b->lab, b->gpu, frac, noise, speed,
                                 b->matmul ? "GFLOP/s" : "GB/s", lds, sts, ldc, stc, lines, runs};
        tl_csv_row(f, row, COLS);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "board: error writing %s\n", path);
        return 2;
    }
    return 0;
}

int write_index_html(const char *path, board *boards, int n)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "board: cannot write %s\n", path);
        return 2;
    }
    page_head(f, "Class boards");
    fputs("<h1>Class boards</h1>\n<p class=\"sub\">One board per lab and GPU model: fractions of copy carry across "
          "GPUs, ranks do not.</p>\n",
          f);
    if (n == 0)
        fputs("<p>No board yet: no run has passed every hidden test with a measurement.</p>\n", f);
    else
        fputs("<ul class=\"boards\">\n", f);
    for (int k = 0; k < n; k++) {
        fprintf(f, "<li><a href=\"%s.html\">", boards[k].slug);
        html_text(f, boards[k].lab);
        fputs(" on ", f);
        html_text(f, boards[k].gpu);
        fprintf(f, "</a> — %d student%s%s</li>\n", boards[k].n, boards[k].n == 1 ? "" : "s",
                boards[k].rerun_rounds ? ", ordered by the deadline re-run" : "");
    }
    if (n)
        fputs("</ul>\n", f);
    fputs("</body>\n</html>\n", f);
    return fclose(f) == 0 ? 0 : 2;
}

/*
 * board.c — the class board: build/tools/board (./grade --board, make board).
 *
 *   board GRADEBOOK_DIR [--out DIR] [--lab labN]...
 *       one board per lab and GPU model, from every run the gradebooks name:
 *       OUT/index.html, OUT/<lab>-<gpu>.html, .csv and .json (Gradescope's
 *       leaderboard entries, by pseudonym), and beside each board run's
 *       results.json a leaderboard.json to merge into it (default OUT:
 *       GRADEBOOK_DIR/board)
 *   board GRADEBOOK_DIR --void RESULTS.json --why TEXT   void a run, then build
 *   board GRADEBOOK_DIR --plan-rerun --gpu MODEL --rounds N --seed S1,...,SN [--lab labN]...
 *       the deadline re-run's rounds (rerun.c), a fresh seed each; tools/board/board runs them
 *   board --check-leaderboard FILE...   Gradescope's leaderboard format, checked
 *
 * GRADEBOOK_DIR is what `./grade --batch --out DIR` writes: gradebook.csv,
 * DIR/<student>/<lab>/results.json. Earlier batches kept side by side in its
 * subfolders (DIR/week1/gradebook.csv, ...) are runs too: history is their
 * folder names' order, then DIR's own gradebook (the newest). DIR/voids.csv
 * holds the voided runs, DIR/board-secret the key of generated pseudonyms.
 *
 * A run is on a board when it passed every hidden test (graded, no gradebook
 * flag, its tests.json without a failure) and was measured; each student's
 * best such run is theirs. Ranks: a student is ahead of another only when
 * their ranges (fraction ± noise) do not overlap; overlapping ranges are a tie.
 */
#define _DEFAULT_SOURCE   /* realpath */
#include "board.h"
#include "counters.h"
#include "csv.h"

#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* ---- small helpers -------------------------------------------------------- */

static void die_oom(void)
{
    fprintf(stderr, "board: out of memory\n");
    exit(2);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        die_oom();
    return p;
}

void pathf(char *out, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(out, len, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= len) {
        fprintf(stderr, "board: a path is too long: %.80s...\n", out);
        exit(2);
    }
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

void gpu_model(const char *device, char *out, size_t len)
{
    const char *paren = strstr(device, " (");
    size_t n = paren ? (size_t)(paren - device) : strlen(device);
    snprintf(out, len, "%.*s", (int)n, device);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* ---- the runs ------------------------------------------------------------- */

typedef struct {
    run *v;
    int n, cap;
} run_list;

/* Lines of the kernels' bodies in a source file: the lines between each
 * __global__ function's braces that hold code (comments and blank lines are
 * not code). -1 when the file cannot be read. */
static int kernel_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    /* Comments become blanks (newlines kept), so only code is left to count. */
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '"' || text[i] == '\'') {
            char q = text[i];
            for (i++; i < n && text[i] != q && text[i] != '\n'; i++)
                if (text[i] == '\\')
                    i++;
        } else if (text[i] == '/' && text[i + 1] == '/') {
            for (; i < n && text[i] != '\n'; i++)
                text[i] = ' ';
        } else if (text[i] == '/' && text[i + 1] == '*') {
            size_t j = i;
            for (; j < n && !(text[j] == '*' && text[j + 1] == '/'); j++)
                if (text[j] != '\n')
                    text[j] = ' ';
            if (j < n)
                text[j] = text[j + 1] = ' ';
            i = j + 1;
        }
    }
    int lines = 0;
    for (const char *k = strstr(text, "__global__"); k; k = strstr(k + 1, "__global__")) {
        const char *open = k;
        while (*open && *open != '{' && *open != ';')
            open++;
        if (*open != '{')
            continue;   /* a declaration */
        const char *close = open;
        for (int depth = 0; *close; close++)
            if ((*close == '{' && ++depth == 0) || (*close == '}' && --depth == 0))
                break;
        /* Each line between the braces with a byte of code (not only braces) counts. */
        int code = 0;
        for (const char *c = open + 1; c <= close; c++) {
            if (*c == '\n' || c == close) {
                lines += code;
                code = 0;
            } else if (!strchr(" \t\r{}", *c)) {
                code = 1;
            }
        }
        k = *close ? close : close - 1;
    }
    return lines;
}

/* Whether the words of `flags` hold any flag (every flag means a hidden test,
 * a sanitizer or the build failed, or the run was not graded). */
static int any_flag(const char *flags)
{
    for (const char *p = flags; *p; p++)
        if (*p != ' ' && *p != '\t')
            return 1;
    return 0;
}

/* Whether `flags` holds no word but "not-graded": the grade stopped for no
 * reason of the file's own (no GPU or nvcc at the time, the kit's fault), as
 * the batch's gradebook tool judges it (is_done there): a batch grades it again. */
static int only_not_graded(const char *flags)
{
    char words[1024];
    snprintf(words, sizeof words, "%s", flags);
    for (char *save = NULL, *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        if (strcmp(w, "not-graded") != 0)
            return 0;
    return 1;
}

void read_run(run *r, const char *dir_of_results)
{
    char err[256] = "";
    tl_json *j = tl_json_parse_file(r->results, err, sizeof err);
    r->kernel_lines = -1;
    if (!j || j->type != TL_JSON_OBJECT) {
        fprintf(stderr, "board: %s: %s (left out)\n", r->results, j ? "not a JSON object" : err);
        tl_json_free(j);
        return;
    }
    r->readable = 1;
    const tl_json *extra = tl_json_get(j, "extra_data");
    const tl_json *graded = extra ? tl_json_get(extra, "graded") : NULL;
    r->graded = extra && !(graded && graded->type == TL_JSON_BOOL && graded->number == 0);
    pathf(r->source, sizeof r->source, "%s", tl_json_string(extra, "source", ""));
    gpu_model(tl_json_string(extra, "gpu", ""), r->gpu, sizeof r->gpu);
    const char *lab = tl_json_string(extra, "lab", "");
    if (lab[0] && strcmp(lab, r->lab) != 0)
        fprintf(stderr, "board: %s: says %s, its gradebook row %s (the gradebook's is used)\n", r->results, lab,
                r->lab);
    r->clean = r->graded && !any_flag(tl_json_string(extra, "flags", ""));
    r->could_not_grade = !r->graded && only_not_graded(tl_json_string(extra, "flags", ""));
    const tl_json *copy = extra ? tl_json_get(extra, "fraction_of_copy") : NULL;
    const tl_json *cublas = extra ? tl_json_get(extra, "fraction_of_cublas") : NULL;
    const tl_json *frac = cublas && cublas->type == TL_JSON_NUMBER ? cublas : copy;
    if (frac && frac->type == TL_JSON_NUMBER && frac->number > 0 && r->gpu[0]) {
        r->measured = 1;
        r->matmul = frac == cublas;
        r->fraction = frac->number;
        r->noise = tl_json_number(extra, "noise", 0);
        r->speed = tl_json_number(extra, r->matmul ? "gflops" : "gbps", 0);
    }
    /* Kept: the board's entries carry the grader's own names for speed and fraction. */
    for (tl_json **p = &j->child; *p; p = &(*p)->next)
        if ((*p)->type == TL_JSON_ARRAY && (*p)->key && !strcmp((*p)->key, "leaderboard")) {
            r->leaderboard = *p;
            *p = r->leaderboard->next;
            r->leaderboard->next = NULL;
            break;
        }
    tl_json_free(j);

    /* The hidden tests' own record, where the run kept it: every one passed. */
    char path[4200];
    pathf(path, sizeof path, "%s/tests.json", dir_of_results);
    tl_json *t = exists(path) ? tl_json_parse_file(path, err, sizeof err) : NULL;
    if (t && (tl_json_number(t, "failed", 0) > 0 || tl_json_number(t, "errored", 0) > 0))
        r->clean = 0;
    tl_json_free(t);

    /* The counters at the timed shape where the rubric asks for them, else at the counted shape. */
    tl_counters c;
    pathf(path, sizeof path, "%s/counters-timed.csv", dir_of_results);
    if (!exists(path) || tl_counters_read(path, &c, err, sizeof err) != 0)
        pathf(path, sizeof path, "%s/counters.csv", dir_of_results);
    if (exists(path) && tl_counters_read(path, &c, err, sizeof err) == 0) {
        r->has_counters = 1;
        r->ld_sectors = tl_per_request(c.global_ld_sectors, c.global_ld_requests);
        r->st_sectors = tl_per_request(c.global_st_sectors, c.global_st_requests);
        r->has_shared = c.shared_ld_requests + c.shared_st_requests > 0;
        r->ld_conflicts = tl_per_request(c.shared_ld_conflicts, c.shared_ld_requests);
        r->st_conflicts = tl_per_request(c.shared_st_conflicts, c.shared_st_requests);
    }
    if (r->source[0])
        r->kernel_lines = kernel_lines(r->source);
}

/* The rows of one gradebook, appended as runs. `rel` is its folder relative to
 * GRADEBOOK_DIR ("" for DIR itself). */
static void load_gradebook(const char *dir, const char *rel, run_list *runs, const char *const *labs, int nlabs)
{
    char book_dir[4096], path[4200];
    pathf(book_dir, sizeof book_dir, "%s%s%s", dir, rel[0] ? "/" : "", rel);
    pathf(path, sizeof path, "%s/gradebook.csv", book_dir);
    csv_row *rows;
    int nrows;
    if (csv_read(path, &rows, &nrows) != 0)
        return;
    int cs = nrows ? csv_column(&rows[0], "student") : -1, cl = nrows ? csv_column(&rows[0], "lab") : -1,
        cr = nrows ? csv_column(&rows[0], "results") : -1;
    if (cs < 0 || cl < 0 || cr < 0) {
        fprintf(stderr, "board: %s: not a gradebook (no student, lab and results columns); left out\n", path);
        csv_free(rows, nrows);
        return;
    }
    for (int i = 1; i < nrows; i++) {
        const csv_row *row = &rows[i];
        if (row->n <= cs || row->n <= cl || row->n <= cr)
            continue;
        const char *lab = row->fields[cl];
        int wanted = nlabs == 0;
        for (int k = 0; k < nlabs; k++)
            wanted |= !strcmp(labs[k], lab);
        if (!wanted)
            continue;
        if (runs->n == runs->cap) {
            runs->cap = runs->cap ? 2 * runs->cap : 64;
            runs->v = realloc(runs->v, runs->cap * sizeof *runs->v);
            if (!runs->v)
                die_oom();
        }
        run *r = &runs->v[runs->n];
        memset(r, 0, sizeof *r);
        r->order = runs->n;
        runs->n++;
        snprintf(r->student, sizeof r->student, "%s", row->fields[cs]);
        snprintf(r->lab, sizeof r->lab, "%s", lab);
        /* Batch's layout first (the folder may have moved since), else the path the row names. */
        char layout[4200], run_dir[4200];
        pathf(layout, sizeof layout, "%s/%s/%s/results.json", book_dir, r->student, r->lab);
        if (exists(layout) || !exists(row->fields[cr])) {
            pathf(r->results, sizeof r->results, "%s", layout);
            pathf(r->run_key, sizeof r->run_key, "%s%s%s/%s/results.json", rel, rel[0] ? "/" : "", r->student,
                     r->lab);
        } else {
            pathf(r->results, sizeof r->results, "%s", row->fields[cr]);
            pathf(r->run_key, sizeof r->run_key, "%s", row->fields[cr]);
        }
        pathf(run_dir, sizeof run_dir, "%s", r->results);
        char *slash = strrchr(run_dir, '/');
        if (slash)
            *slash = '\0';
        else
            pathf(run_dir, sizeof run_dir, ".");
        read_run(r, run_dir);
    }
    csv_free(rows, nrows);
}

/* Every gradebook of GRADEBOOK_DIR: its subfolders' by name, then its own. */
static int load_runs(const char *dir, run_list *runs, const char *const *labs, int nlabs)
{
    char pattern[4200];
    pathf(pattern, sizeof pattern, "%s/*/gradebook.csv", dir);
    glob_t g;
    int books = 0;
    if (glob(pattern, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++) {
            char rel[4096];
            const char *p = g.gl_pathv[i] + strlen(dir) + 1;
            snprintf(rel, sizeof rel, "%.*s", (int)(strrchr(p, '/') - p), p);
            if (!strcmp(rel, "rerun") || !strcmp(rel, "board"))
                continue;   /* the re-run's rounds are merged, not runs of their own */
            load_gradebook(dir, rel, runs, labs, nlabs);
            books++;
        }
        globfree(&g);
    }
    pathf(pattern, sizeof pattern, "%s/gradebook.csv", dir);
    if (exists(pattern)) {
        load_gradebook(dir, "", runs, labs, nlabs);
        books++;
    }
    return books;
}

/* ---- voids ---------------------------------------------------------------- */

/* DIR/voids.csv: the voided runs, each named relative to GRADEBOOK_DIR (voids.h). */
static void apply_voids(const char *dir, run_list *runs)
{
    char path[4200];
    pathf(path, sizeof path, "%s/voids.csv", dir);
    void_register reg;
    voids_load(path, &reg);
    for (int k = 0; k < runs->n; k++) {
        const char *why = voids_why(&reg, runs->v[k].run_key);
        if (!why)
            continue;
        runs->v[k].voided = 1;
        snprintf(runs->v[k].void_why, sizeof runs->v[k].void_why, "%s", why);
    }
    voids_free(&reg);
}

/* The run --void names: its results.json or its folder, as a path from here. */
static const run *find_run(const run_list *runs, const char *file)
{
    char want[4200], have[4200];
    char given[4200];
    snprintf(given, sizeof given, "%s", file);
    size_t n = strlen(given);
    if (n > 0 && given[n - 1] == '/')
        given[n - 1] = '\0';
    if (n < 13 || strcmp(given + strlen(given) - 13, "/results.json") != 0)
        strncat(given, "/results.json", sizeof given - strlen(given) - 1);
    if (!realpath(given, want))
        return NULL;
    for (int k = 0; k < runs->n; k++)
        if (realpath(runs->v[k].results, have) && !strcmp(have, want))
            return &runs->v[k];
    return NULL;
}

static int record_void(const char *dir, const run_list *runs, const char *file, const char *why)
{
    const run *r = find_run(runs, file);
    if (!r) {
        fprintf(stderr, "board: --void %s: no run of %s's gradebooks has this results.json (name a "
                        "<student>/<lab>/results.json or its folder)\n", file, dir);
        return 2;
    }
    if (!why || !why[0]) {
        fprintf(stderr, "board: --void needs --why \"...\": the reason is shown in the gradebook\n");
        return 2;
    }
    char path[4200];
    pathf(path, sizeof path, "%s/voids.csv", dir);
    if (voids_record(path, r->run_key, why) != 0) {
        fprintf(stderr, "board: cannot write %s\n", path);
        return 2;
    }
    printf("board: voided %s (%s): %s\n", r->run_key, r->lab, why);
    return 0;
}

/* Each gradebook row of a voided run says so: "void" among its flags and the
 * reason after it ("void: REASON" in the flags column), rewritten whole. The
 * batch's gradebook writer reads the register too (voids.h), so its next
 * gradebook says it as well; this marks the gradebooks a void is new to. */
static void mark_voids_in_gradebooks(const char *dir, const run_list *runs)
{
    char pattern[4200];
    pathf(pattern, sizeof pattern, "%s/*/gradebook.csv", dir);
    glob_t g;
    memset(&g, 0, sizeof g);
    glob(pattern, 0, NULL, &g);
    char own[4200];
    pathf(own, sizeof own, "%s/gradebook.csv", dir);
    for (size_t i = 0; i <= g.gl_pathc; i++) {
        const char *book = i < g.gl_pathc ? g.gl_pathv[i] : own;
        csv_row *rows;
        int nrows;
        if (csv_read(book, &rows, &nrows) != 0 || nrows == 0)
            continue;
        int cs = csv_column(&rows[0], "student"), cl = csv_column(&rows[0], "lab"), cf = csv_column(&rows[0], "flags"),
            cr = csv_column(&rows[0], "results");
        int changed = 0;
        for (int k = 1; cs >= 0 && cl >= 0 && cf >= 0 && cr >= 0 && k < nrows; k++) {
            csv_row *row = &rows[k];
            if (row->n <= cf || row->n <= cr || row->n <= cs || row->n <= cl)
                continue;
            for (int m = 0; m < runs->n; m++) {
                const run *r = &runs->v[m];
                if (!r->voided || strcmp(r->student, row->fields[cs]) || strcmp(r->lab, row->fields[cl]))
                    continue;
                char layout[4200], rel_dir[4200];
                pathf(rel_dir, sizeof rel_dir, "%s", book);
                *strrchr(rel_dir, '/') = '\0';
                pathf(layout, sizeof layout, "%s/%s/%s/results.json", rel_dir, r->student, r->lab);
                if (strcmp(layout, r->results) && strcmp(row->fields[cr], r->results))
                    continue;
                char flags[2048];
                void_flags(flags, sizeof flags, row->fields[cf], r->void_why);
                if (!strcmp(flags, row->fields[cf]))
                    break;
                free(row->fields[cf]);
                row->fields[cf] = strdup(flags);
                changed = 1;
                break;
            }
        }
        if (changed) {
            char tmp[4300];
            pathf(tmp, sizeof tmp, "%s.board.tmp", book);
            FILE *f = fopen(tmp, "w");
            if (f) {
                for (int k = 0; k < nrows; k++)
                    tl_csv_row(f, (const char *const *)rows[k].fields, rows[k].n);
                if (fclose(f) != 0 || rename(tmp, book) != 0)
                    fprintf(stderr, "board: cannot rewrite %s\n", book);
            }
        }
        csv_free(rows, nrows);
    }
    globfree(&g);
}

/* ---- pseudonyms ----------------------------------------------------------- */

typedef struct {
    const char *student;
    char name[NAME_LEN];
    int chosen;
} pseudonym;

static int by_student(const void *a, const void *b)
{
    return strcmp(((const pseudonym *)a)->student, ((const pseudonym *)b)->student);
}

/* One pseudonym per student: their newest run's valid `// board-name:`, else
 * generated. A chosen name that holds any student's folder name (a login, a
 * name) is refused; names two students share get a suffix from the hash. */
static pseudonym *assign_names(const run_list *runs, const unsigned char key[16], int *count)
{
    pseudonym *p = xcalloc(runs->n, sizeof *p);
    int n = 0;
    for (int i = 0; i < runs->n; i++) {
        int seen = 0;
        for (int k = 0; k < n && !seen; k++)
            seen = !strcmp(p[k].student, runs->v[i].student);
        if (!seen)
            p[n++].student = runs->v[i].student;
    }
    qsort(p, n, sizeof *p, by_student);
    for (int k = 0; k < n; k++) {
        char why[256];
        const char *tried = NULL;
        /* The newest run's file first; an older run's file only when it is another file. */
        for (int i = runs->n - 1; i >= 0 && !p[k].chosen; i--) {
            const run *r = &runs->v[i];
            if (strcmp(r->student, p[k].student) || !r->source[0] || (tried && !strcmp(tried, r->source)))
                continue;
            tried = r->source;
            if (board_name_from_source(r->source, p[k].name, sizeof p[k].name, why, sizeof why) != 0) {
                if (strncmp(why, "no ", 3) != 0 && strncmp(why, "cannot ", 7) != 0)
                    fprintf(stderr, "board: %s's board-name was refused (%s): a generated one is shown\n",
                            p[k].student, why);
                continue;
            }
            int names_someone = 0;
            for (int s = 0; s < n && !names_someone; s++)
                names_someone = strlen(p[s].student) >= 3 && board_contains_ci(p[k].name, p[s].student);
            if (names_someone)
                fprintf(stderr, "board: %s's board-name was refused (it holds a student's folder name): a "
                                "generated one is shown\n", p[k].student);
            else
                p[k].chosen = 1;
        }
        if (!p[k].chosen)
            board_generated_name(key, p[k].student, 0, p[k].name, sizeof p[k].name);
    }
    /* A generated name that happens to hold a folder name ("Lynx" for a
     * student called lynx) draws again, and so does one taken already;
     * a chosen name two students share gets " #xxxx" on both. */
    unsigned salt = 1;
    for (int k = 0; k < n; k++) {
        for (int s = 0; !p[k].chosen && s < n; s++)
            if (strlen(p[s].student) >= 3 && board_contains_ci(p[k].name, p[s].student)) {
                board_generated_name(key, p[k].student, salt++, p[k].name, sizeof p[k].name);
                s = -1;
            }
        for (int s = 0; s < k; s++) {
            if (strcasecmp(p[k].name, p[s].name) != 0)
                continue;
            if (!p[k].chosen) {
                board_generated_name(key, p[k].student, salt++, p[k].name, sizeof p[k].name);
                k--;   /* check the new name from the start */
                break;
            }
            for (int w = 0; w < 2; w++) {
                pseudonym *q = w ? &p[s] : &p[k];
                if (!q->chosen || strstr(q->name, " #"))
                    continue;
                char tag[NAME_LEN];
                board_generated_name(key, q->student, 0, tag, sizeof tag);
                unsigned h = 0;
                for (const char *c = tag; *c; c++)
                    h = h * 31 + (unsigned char)*c;
                size_t len = strlen(q->name);
                snprintf(q->name + len, sizeof q->name - len, " #%04x", h & 0xffff);
            }
        }
    }
    *count = n;
    return p;
}

static const char *name_of(const pseudonym *p, int n, const char *student)
{
    for (int k = 0; k < n; k++)
        if (!strcmp(p[k].student, student))
            return p[k].name;
    return "?";
}

/* ---- boards --------------------------------------------------------------- */

/* A is clearly ahead of B: their ranges (fraction ± noise × fraction) do not meet. */
static int ahead(const entry *a, const entry *b)
{
    return a->fraction * (1 - a->noise) > b->fraction * (1 + b->noise);
}

static int by_fraction(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->fraction != b->fraction)
        return a->fraction < b->fraction ? 1 : -1;
    return strcmp(a->name, b->name);
}

/* Ranks with ties: one more than the number of entries clearly ahead; tied
 * when another entry's range overlaps this one's. */
void rank_board(board *b)
{
    qsort(b->entries, b->n, sizeof *b->entries, by_fraction);
    for (int i = 0; i < b->n; i++) {
        entry *e = &b->entries[i];
        e->rank = 1;
        e->tied = 0;
        for (int k = 0; k < b->n; k++) {
            if (k == i)
                continue;
            if (ahead(&b->entries[k], e))
                e->rank++;
            else if (!ahead(e, &b->entries[k]))
                e->tied = 1;
        }
    }
}

/* "lab3-nvidia-h100-80gb-hbm3": lower-case letters, digits and single dashes only. */
static void slugify(const char *lab, const char *gpu, char *out, size_t len)
{
    size_t n = 0;
    int dash = 1;
    char both[600];
    snprintf(both, sizeof both, "%s-%s", lab, gpu);
    for (const char *c = both; *c && n + 1 < len; c++) {
        char ch = *c;
        if (ch >= 'A' && ch <= 'Z')
            ch = ch - 'A' + 'a';
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
            out[n++] = ch;
            dash = 0;
        } else if (!dash) {
            out[n++] = '-';
            dash = 1;
        }
    }
    while (n > 0 && out[n - 1] == '-')
        n--;
    out[n] = '\0';
}

static board *build_boards(const run_list *runs, const pseudonym *names, int nnames, int *count)
{
    board *boards = xcalloc(runs->n, sizeof *boards);
    int nb = 0;
    for (int i = 0; i < runs->n; i++) {
        const run *r = &runs->v[i];
        if (!r->clean || !r->measured || r->voided)
            continue;
        board *b = NULL;
        for (int k = 0; k < nb && !b; k++)
            if (!strcmp(boards[k].lab, r->lab) && !strcmp(boards[k].gpu, r->gpu))
                b = &boards[k];
        if (!b) {
            b = &boards[nb++];
            snprintf(b->lab, sizeof b->lab, "%s", r->lab);
            snprintf(b->gpu, sizeof b->gpu, "%s", r->gpu);
            slugify(r->lab, r->gpu, b->slug, sizeof b->slug);
            b->matmul = r->matmul;
            b->entries = xcalloc(runs->n, sizeof *b->entries);
        }
        entry *e = NULL;
        for (int k = 0; k < b->n && !e; k++)
            if (!strcmp(b->entries[k].best->student, r->student))
                e = &b->entries[k];
        if (!e) {
            e = &b->entries[b->n++];
            e->best = r;
            snprintf(e->name, sizeof e->name, "%s", name_of(names, nnames, r->student));
        }
        e->runs++;
        if (e->nhistory < HISTORY_MAX)
            e->history[e->nhistory++] = r->fraction;
        if (r->fraction > e->best->fraction)
            e->best = r;
    }
    for (int k = 0; k < nb; k++) {
        for (int i = 0; i < boards[k].n; i++) {
            entry *e = &boards[k].entries[i];
            e->fraction = e->best->fraction;
            e->noise = e->best->noise;
        }
        rank_board(&boards[k]);
    }
    *count = nb;
    return boards;
}

/* ---- outputs -------------------------------------------------------------- */

static int write_outputs(const char *out, board *boards, int nb)
{
    if (mkdir(out, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "board: cannot make %s: %s\n", out, strerror(errno));
        return 2;
    }
    int status = 0;
    for (int k = 0; k < nb; k++) {
        board *b = &boards[k];
        char path[4400];
        pathf(path, sizeof path, "%s/%s.html", out, b->slug);
        status |= write_board_html(path, b, "index.html");
        pathf(path, sizeof path, "%s/%s.csv", out, b->slug);
        status |= write_board_csv(path, b);
        /* Gradescope's leaderboard entries: by pseudonym here (public), and
         * beside each board run's results.json (private, to merge into it). */
        pathf(path, sizeof path, "%s/%s.json", out, b->slug);
        FILE *all = fopen(path, "w");
        if (!all) {
            fprintf(stderr, "board: cannot write %s\n", path);
            return 2;
        }
        tl_json_writer w;
        tl_jw_init(&w, all);
        tl_jw_object_begin(&w, NULL);
        tl_jw_string(&w, "lab", b->lab);
        tl_jw_string(&w, "gpu", b->gpu);
        tl_jw_array_begin(&w, "entries");
        for (int i = 0; i < b->n; i++) {
            const entry *e = &b->entries[i];
            tl_json *lb = entry_leaderboard(b, e);
            tl_jw_object_begin(&w, NULL);
            tl_jw_string(&w, "pseudonym", e->name);
            tl_jw_int(&w, "rank", e->rank);
            tl_jw_bool(&w, "tied", e->tied);
            fprintf(all, ",\n%*s\"leaderboard\": ", 2 * w.depth, "");
            write_leaderboard_json(all, lb);
            tl_jw_object_end(&w);
            char own[4400];
            pathf(own, sizeof own, "%s", e->best->results);
            char *slash = strrchr(own, '/');
            snprintf(slash ? slash + 1 : own, sizeof own - (slash ? (size_t)(slash + 1 - own) : 0),
                     "leaderboard.json");
            FILE *f = fopen(own, "w");
            if (f) {
                fputs("{\"leaderboard\": ", f);
                write_leaderboard_json(f, lb);
                fputs("}\n", f);
            }
            if (!f || fclose(f) != 0)
                fprintf(stderr, "board: cannot write %s (the board itself is written)\n", own);
            tl_json_free(lb);
        }
        tl_jw_array_end(&w);
        tl_jw_object_end(&w);
        fputc('\n', all);
        if (fclose(all) != 0)
            status = 2;
        printf("board: %s/%s.html: %s on %s, %d student%s%s\n", out, b->slug, b->lab, b->gpu, b->n,
               b->n == 1 ? "" : "s", b->rerun_rounds ? " (ordered by the deadline re-run)" : "");
    }
    char path[4400];
    pathf(path, sizeof path, "%s/index.html", out);
    status |= write_index_html(path, boards, nb);
    return status ? 2 : 0;
}

/* ---- Gradescope's format, checked on files -------------------------------- */

static int check_files(int argc, char **argv)
{
    int bad = 0;
    for (int i = 0; i < argc; i++) {
        char err[512] = "";
        tl_json *j = tl_json_parse_file(argv[i], err, sizeof err);
        const tl_json *lb = j ? tl_json_get(j, "leaderboard") : NULL;
        const tl_json *entries = j ? tl_json_get(j, "entries") : NULL;
        if (j && !lb && entries && entries->type == TL_JSON_ARRAY) {   /* a board's file: each entry's */
            int k = 0, ok = 1;
            for (const tl_json *e = entries->child; e && ok; e = e->next, k++)
                if (check_leaderboard(tl_json_get(e, "leaderboard"), err, sizeof err) != 0) {
                    printf("%s: entry %d: %s\n", argv[i], k, err);
                    ok = 0;
                    bad = 1;
                }
            if (ok)
                printf("%s: %d leaderboards ok\n", argv[i], k);
        } else if (!j)
            printf("%s: not JSON: %s\n", argv[i], err), bad = 1;
        else if (!lb)
            printf("%s: no leaderboard\n", argv[i]), bad = 1;
        else if (check_leaderboard(lb, err, sizeof err) != 0)
            printf("%s: %s\n", argv[i], err), bad = 1;
        else
            printf("%s: leaderboard ok (%zu entries)\n", argv[i], tl_json_length(lb));
        tl_json_free(j);
    }
    return bad;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: board GRADEBOOK_DIR [--out DIR] [--lab labN]...\n"
            "       board GRADEBOOK_DIR --void RESULTS.json --why TEXT\n"
            "       board GRADEBOOK_DIR --plan-rerun --gpu MODEL --rounds N --seed S1,...,SN [--lab labN]...\n"
            "       board --check-leaderboard FILE...\n");
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "--check-leaderboard"))
        return check_files(argc - 2, argv + 2);
    const char *dir = NULL, *out = NULL, *void_file = NULL, *why = NULL, *gpu = NULL, *seed = NULL;
    const char *labs[64];
    int nlabs = 0, plan = 0, rounds = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int takes = !strcmp(a, "--out") || !strcmp(a, "--lab") || !strcmp(a, "--void") || !strcmp(a, "--why") ||
                    !strcmp(a, "--gpu") || !strcmp(a, "--rounds") || !strcmp(a, "--seed");
        if (takes && i + 1 >= argc) {
            fprintf(stderr, "board: %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "--out")) out = argv[++i];
        else if (!strcmp(a, "--lab") && nlabs < 64) labs[nlabs++] = argv[++i];
        else if (!strcmp(a, "--void")) void_file = argv[++i];
        else if (!strcmp(a, "--why")) why = argv[++i];
        else if (!strcmp(a, "--gpu")) gpu = argv[++i];
        else if (!strcmp(a, "--rounds")) rounds = atoi(argv[++i]);
        else if (!strcmp(a, "--seed")) seed = argv[++i];
        else if (!strcmp(a, "--plan-rerun")) plan = 1;
        else if (a[0] == '-') {
            fprintf(stderr, "board: unknown option %s\n", a);
            usage(stderr);
            return 2;
        } else if (!dir) dir = a;
        else {
            fprintf(stderr, "board: one gradebook folder only ('%s', then '%s')\n", dir, a);
            return 2;
        }
    }
    if (!dir) {
        usage(stderr);
        return 2;
    }
    if (why && !void_file) {
        fprintf(stderr, "board: --why goes with --void FILE\n");
        return 2;
    }
    run_list runs = {0};
    if (load_runs(dir, &runs, labs, nlabs) == 0) {
        fprintf(stderr, "board: %s holds no gradebook.csv (./grade --batch CLASS --out %s writes one)\n", dir, dir);
        return 2;
    }
    if (void_file) {
        int s = record_void(dir, &runs, void_file, why);
        if (s)
            return s;
    }
    apply_voids(dir, &runs);
    mark_voids_in_gradebooks(dir, &runs);

    char secret_path[4200], err[256];
    unsigned char key[16];
    pathf(secret_path, sizeof secret_path, "%s/board-secret", dir);
    if (board_secret(secret_path, key, err, sizeof err) != 0) {
        fprintf(stderr, "board: %s\n", err);
        return 2;
    }
    int nnames, nb;
    pseudonym *names = assign_names(&runs, key, &nnames);
    board *boards = build_boards(&runs, names, nnames, &nb);
    if (plan) {
        if (!gpu || !gpu[0] || !seed || rounds < 1 || rounds > 64) {
            fprintf(stderr, "board: --plan-rerun needs --gpu MODEL, --seed S1,...,SN and --rounds N (1 to 64)\n");
            return 2;
        }
        return rerun_plan(dir, boards, nb, gpu, rounds, seed);
    }
    if (rerun_apply(dir, boards, nb) < 0)
        return 2;
    for (int k = 0; k < nb; k++)
        rank_board(&boards[k]);
    char out_default[4200];
    pathf(out_default, sizeof out_default, "%s/board", dir);
    int status = write_outputs(out ? out : out_default, boards, nb);
    if (nb == 0)
        printf("board: no run passed every hidden test with a measurement yet: no board (index.html says so)\n");
    return status;
}

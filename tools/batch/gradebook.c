/*
 * gradebook.c — the batch grader's reader and writer of results.json files
 * (tools/batch/batch runs it; the shell never parses JSON).
 *
 *   gradebook --csv OUT.csv RESULTS.json...   the gradebook: a header and one row
 *                                             per file, in the order given
 *   gradebook --line RESULTS.json             "score/max flags" for a progress line
 *   gradebook --done RESULTS.json             exit 0 when the file holds a finished
 *                                             grading (see is_done), else 1
 *   gradebook --stub RESULTS.json --lab L --rubric R --source F --seed N
 *             --flags WORDS --output TEXT [--elapsed S] [--mode cpu]
 *                                             a results.json for a submission the
 *                                             grader never finished (time-out, crash)
 *   gradebook --find CLASS LAB...               the submissions of a class, a line each
 *                                             (find_submissions: names kept whole)
 *
 * A results file lies at <out>/<student>/<lab>/results.json: the student and
 * the lab are its folder names. Gradebook columns (fixed; plots/ reads them):
 *   student,lab,score,max_score,fraction_of_copy,flags,results,mode
 * flags: space-separated words among compile-error not-allowed timeout race
 * out-of-bounds wrong crash not-graded, taken from extra_data.flags; without
 * it, "not-graded" when extra_data.graded is false; then "void: REASON" when
 * the class board's void register names the run (tools/board/voids.h:
 * OUT's folder's voids.csv, or its parent's for a batch kept in a subfolder
 * of the board's folder, as week1/), so that a void outlives every batch
 * after it. mode: "CPU mode" when
 * extra_data.mode is "cpu" (./grade --cpu: no performance points, its maximum
 * without them), "GPU" for any other graded file, empty when not graded on
 * either.
 */
#define _GNU_SOURCE   /* realpath, nftw */
#include "csv.h"
#include "json.h"
#include "rubric.h"
#include "voids.h"

#include <ctype.h>
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct {
    int readable;           /* the file exists and is valid JSON */
    int graded;             /* extra_data.graded (true when absent) */
    char score[32], max_score[32], fraction[32];
    char flags[256];
    char mode[16];          /* the gradebook's mode column */
} outcome;

/* 2 decimals at most, no trailing zeros: 80, 66.67, 0.5. */
static void format_points(char *buf, size_t len, double v)
{
    snprintf(buf, len, "%.2f", v);
    char *dot = strchr(buf, '.');
    if (!dot)
        return;
    char *end = buf + strlen(buf) - 1;
    while (end > dot && *end == '0')
        *end-- = '\0';
    if (end == dot)
        *end = '\0';
}

/* Words separated by single spaces, without leading or trailing blanks. */
static void normalise_words(char *dst, size_t len, const char *src)
{
    size_t n = 0;
    for (const char *p = src; *p && n + 1 < len; p++) {
        int blank = *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r';
        if (!blank)
            dst[n++] = *p;
        else if (n > 0 && dst[n - 1] != ' ')
            dst[n++] = ' ';
    }
    while (n > 0 && dst[n - 1] == ' ')
        n--;
    dst[n] = '\0';
}

static void read_outcome(const char *path, outcome *o)
{
    memset(o, 0, sizeof *o);
    char err[256] = "";
    tl_json *r = tl_json_parse_file(path, err, sizeof err);
    if (!r || r->type != TL_JSON_OBJECT) {
        fprintf(stderr, "gradebook: %s: %s\n", path, r ? "not a JSON object" : err);
        tl_json_free(r);
        snprintf(o->flags, sizeof o->flags, "not-graded");
        return;
    }
    o->readable = 1;
    const tl_json *extra = tl_json_get(r, "extra_data");
    const tl_json *graded = extra ? tl_json_get(extra, "graded") : NULL;
    o->graded = !(graded && graded->type == TL_JSON_BOOL && graded->number == 0);
    const tl_json *score = tl_json_get(r, "score"), *max = tl_json_get(r, "max_score");
    if (score && score->type == TL_JSON_NUMBER)
        format_points(o->score, sizeof o->score, score->number);
    if (max && max->type == TL_JSON_NUMBER)
        format_points(o->max_score, sizeof o->max_score, max->number);
    const tl_json *fraction = extra ? tl_json_get(extra, "fraction_of_copy") : NULL;
    if (fraction && fraction->type == TL_JSON_NUMBER)
        snprintf(o->fraction, sizeof o->fraction, "%.4f", fraction->number);
    const tl_json *flags = extra ? tl_json_get(extra, "flags") : NULL;
    if (flags && flags->type == TL_JSON_STRING)
        normalise_words(o->flags, sizeof o->flags, flags->string);
    else if (!o->graded)
        snprintf(o->flags, sizeof o->flags, "not-graded");
    const tl_json *mode = extra ? tl_json_get(extra, "mode") : NULL;
    if (mode && mode->type == TL_JSON_STRING && !strcmp(mode->string, "cpu"))
        snprintf(o->mode, sizeof o->mode, "CPU mode");
    else if (o->graded)
        snprintf(o->mode, sizeof o->mode, "GPU");
    tl_json_free(r);
}

/* Finished: graded, or not graded for a reason of the submission's own (a flag
 * other than not-graded). "Could not grade" with no reason (no GPU or no nvcc at
 * the time) is not finished: the next batch run tries again. */
static int is_done(const outcome *o)
{
    if (!o->readable)
        return 0;
    if (o->graded)
        return 1;
    char words[256];
    snprintf(words, sizeof words, "%s", o->flags);
    for (char *save = NULL, *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
        if (strcmp(w, "not-graded") != 0)
            return 1;
    return 0;
}

/* The last two folder names of .../<student>/<lab>/results.json. */
static void student_and_lab(const char *path, char *student, size_t slen, char *lab, size_t llen)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    char *parts[3] = {NULL, NULL, NULL};   /* file, lab, student */
    for (int i = 0; i < 3; i++) {
        char *slash = strrchr(copy, '/');
        parts[i] = slash ? slash + 1 : copy;
        if (!slash)
            break;
        *slash = '\0';
    }
    snprintf(lab, llen, "%s", parts[1] ? parts[1] : "");
    snprintf(student, slen, "%s", parts[2] ? parts[2] : "");
}

static const char *const columns[] = {"student", "lab", "score", "max_score", "fraction_of_copy", "flags", "results", "mode"};
enum { COLUMNS = sizeof columns / sizeof columns[0] };

/* The void registers that can name this gradebook's runs: the board's folder
 * is the gradebook's own (runs "<student>/<lab>/results.json") or its parent,
 * where the gradebook is an earlier batch kept in a subfolder ("<sub>/<student>/..."). */
typedef struct {
    void_register own, parent;
    char sub[PATH_MAX];
} void_registers;

static void load_void_registers(const char *csv, void_registers *v)
{
    char dir[PATH_MAX], real[PATH_MAX], path[PATH_MAX + 16];
    snprintf(dir, sizeof dir, "%s", csv);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    v->sub[0] = '\0';
    snprintf(path, sizeof path, "%s/voids.csv", dir);
    voids_load(path, &v->own);
    v->parent.v = NULL;
    v->parent.n = 0;
    if (!realpath(dir, real) || !(slash = strrchr(real, '/')) || !slash[1])
        return;
    snprintf(v->sub, sizeof v->sub, "%s", slash + 1);
    *slash = '\0';
    snprintf(path, sizeof path, "%s/voids.csv", real[0] ? real : "/");
    voids_load(path, &v->parent);
}

/* The reason the run of `student` and `lab` in this gradebook was voided, or NULL. */
static const char *void_reason(const void_registers *v, const char *student, const char *lab)
{
    char run[4200];
    snprintf(run, sizeof run, "%s/%s/results.json", student, lab);
    const char *why = voids_why(&v->own, run);
    if (!why && v->sub[0]) {
        snprintf(run, sizeof run, "%s/%s/%s/results.json", v->sub, student, lab);
        why = voids_why(&v->parent, run);
    }
    return why;
}

static int write_csv(const char *csv, int n, char **paths)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", csv);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "gradebook: cannot write %s\n", tmp);
        return 2;
    }
    void_registers voids;
    load_void_registers(csv, &voids);
    tl_csv_row(f, columns, COLUMNS);
    for (int i = 0; i < n; i++) {
        outcome o;
        char student[256], lab[64];
        read_outcome(paths[i], &o);
        student_and_lab(paths[i], student, sizeof student, lab, sizeof lab);
        char flags[2048];
        const char *why = void_reason(&voids, student, lab);
        if (why)
            void_flags(flags, sizeof flags, o.flags, why);
        else
            snprintf(flags, sizeof flags, "%s", o.flags);
        const char *row[COLUMNS] = {student, lab, o.score, o.max_score, o.fraction, flags, paths[i], o.mode};
        tl_csv_row(f, row, COLUMNS);
    }
    voids_free(&voids.own);
    voids_free(&voids.parent);
    /* Written whole, then renamed: a reader never sees half a gradebook. */
    if (fclose(f) != 0 || rename(tmp, csv) != 0) {
        fprintf(stderr, "gradebook: cannot write %s\n", csv);
        return 2;
    }
    return 0;
}

static int write_stub(const char *path, int argc, char **argv)
{
    const char *lab = NULL, *rubric_path = NULL, *source = "", *seed = "", *flags = "", *output = "", *mode = NULL;
    double elapsed = 0;
    for (int i = 0; i < argc; i += 2) {
        if (i + 1 >= argc) {
            fprintf(stderr, "gradebook: %s needs a value\n", argv[i]);
            return 2;
        }
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--lab")) lab = v;
        else if (!strcmp(k, "--rubric")) rubric_path = v;
        else if (!strcmp(k, "--source")) source = v;
        else if (!strcmp(k, "--seed")) seed = v;
        else if (!strcmp(k, "--flags")) flags = v;
        else if (!strcmp(k, "--output")) output = v;
        else if (!strcmp(k, "--elapsed")) elapsed = atof(v);
        else if (!strcmp(k, "--mode")) mode = v;
        else {
            fprintf(stderr, "gradebook: unknown option %s\n", k);
            return 2;
        }
    }
    /* The maximum the lab could have given, as the report states it when it cannot grade
     * (in CPU mode, without the points CPU mode never measures: as its graded rows). */
    double max = 0;
    tl_rubric rubric;
    char err[256];
    if (rubric_path && tl_rubric_load(rubric_path, &rubric, err, sizeof err) == 0) {
        max = mode && !strcmp(mode, "cpu") ? tl_rubric_cpu_max_points(&rubric) : tl_rubric_max_points(&rubric);
        if (!lab)
            lab = rubric.id;
    } else if (rubric_path) {
        fprintf(stderr, "gradebook: %s\n", err);
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gradebook: cannot write %s\n", path);
        return 2;
    }
    char text[4096];
    snprintf(text, sizeof text, "Could not grade: %s", output);
    char words[256];
    normalise_words(words, sizeof words, flags);
    tl_json_writer w;
    tl_jw_init(&w, f);
    tl_jw_object_begin(&w, NULL);
    tl_jw_number(&w, "score", 0);
    tl_jw_number(&w, "max_score", max);
    tl_jw_number(&w, "execution_time", elapsed);
    tl_jw_string(&w, "output", text);
    tl_jw_string(&w, "output_format", "text");
    tl_jw_string(&w, "visibility", "visible");
    tl_jw_string(&w, "stdout_visibility", "hidden");
    tl_jw_array_begin(&w, "tests");
    tl_jw_array_end(&w);
    tl_jw_object_begin(&w, "extra_data");
    tl_jw_string(&w, "lab", lab ? lab : "");
    tl_jw_string(&w, "source", source);
    tl_jw_string(&w, "seed", seed);
    tl_jw_bool(&w, "graded", 0);
    tl_jw_string(&w, "flags", words);
    if (mode)
        tl_jw_string(&w, "mode", mode);
    tl_jw_object_end(&w);
    tl_jw_object_end(&w);
    fputc('\n', f);
    if (fclose(f) != 0) {
        fprintf(stderr, "gradebook: error writing %s\n", path);
        return 2;
    }
    return 0;
}

static int strcmp_pointers(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- gradebook --find: a class's submissions, names kept whole -------------- */

/* One lab file candidate of a student: its path under the student's folder, how deep, what it is. */
typedef struct {
    char *rel;
    int depth;
    char kind;   /* f a regular file, l a symbolic link, p a FIFO, o anything else */
} candidate;

static candidate *found_files;
static size_t nfound, capfound;
static size_t student_prefix;   /* the length of "<student folder>/" in nftw's paths */

static int collect(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)ftw;
    if (flag == FTW_D || flag == FTW_DP || flag == FTW_DNR)
        return 0;
    size_t len = strlen(path);
    if (len < 3 || strcmp(path + len - 3, ".cu") || len <= student_prefix)
        return 0;
    if (nfound == capfound) {
        capfound = capfound ? 2 * capfound : 64;
        found_files = realloc(found_files, capfound * sizeof *found_files);
        if (!found_files)
            return -1;
    }
    candidate *c = &found_files[nfound++];
    c->rel = strdup(path + student_prefix);
    c->depth = 1;
    for (const char *p = c->rel; *p; p++)
        c->depth += *p == '/';
    c->kind = flag == FTW_SL || S_ISLNK(st->st_mode) ? 'l' : S_ISREG(st->st_mode) ? 'f' : S_ISFIFO(st->st_mode) ? 'p' : 'o';
    return 0;
}

/* Whether REL (a path under a student's folder) is the student's file for LAB: its
 * own name or a folder's on the way starts with LAB and then anything but a letter
 * or a digit, any case; nothing under a hidden folder or __MACOSX. */
static int is_lab_file(const char *rel, const char *lab)
{
    char low[PATH_MAX + 2];
    snprintf(low, sizeof low, "/%s", rel);
    for (char *p = low; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    if (strstr(low, "/.") || strstr(low, "/__macosx"))
        return 0;
    size_t n = strlen(lab);
    for (const char *p = low; (p = strchr(p, '/')); p++)
        if (!strncmp(p + 1, lab, n) && p[1 + n] && !isalnum((unsigned char)p[1 + n]))
            return 1;
    return 0;
}

static int by_depth_then_name(const void *a, const void *b)
{
    const candidate *x = *(candidate *const *)a, *y = *(candidate *const *)b;
    return x->depth != y->depth ? x->depth - y->depth : strcmp(x->rel, y->rel);
}

/* TEXT as a field of a queue line: \ as \\, newline as \n, tab as \t (printf %b reads it back). */
static void put_field(const char *text)
{
    for (const char *p = text; *p; p++)
        if (*p == '\\')
            fputs("\\\\", stdout);
        else if (*p == '\n')
            fputs("\\n", stdout);
        else if (*p == '\t')
            fputs("\\t", stdout);
        else
            putchar(*p);
}

/* gradebook --find CLASS LAB...: a line per submission, "STUDENT<TAB>LAB<TAB>FILE<TAB>KIND",
 * STUDENT and FILE as put_field writes them (FILE is CLASS/STUDENT/PATH), KIND f, l, p or o
 * (above); several files for one lab: the shallowest, then the first by name, the others
 * named in a warning on stderr. Student folders are CLASS's folders, hidden ones left out. */
static int find_submissions(const char *class, int nlabs, char **labs)
{
    DIR *d = opendir(class);
    if (!d) {
        fprintf(stderr, "gradebook: cannot read the class folder %s\n", class);
        return 2;
    }
    char **students = NULL;
    size_t nstudents = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char path[PATH_MAX];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", class, e->d_name);
        if (e->d_name[0] == '.' || stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        students = realloc(students, (nstudents + 1) * sizeof *students);
        students[nstudents++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(students, nstudents, sizeof *students, strcmp_pointers);
    for (size_t s = 0; s < nstudents; s++) {
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s/%s", class, students[s]);
        nfound = 0;
        student_prefix = strlen(dir) + 1;
        nftw(dir, collect, 16, FTW_PHYS);
        candidate **matches = malloc((nfound + 1) * sizeof *matches);
        for (int l = 0; l < nlabs; l++) {
            size_t n = 0;
            for (size_t i = 0; i < nfound; i++)
                if (is_lab_file(found_files[i].rel, labs[l]))
                    matches[n++] = &found_files[i];
            if (!n)
                continue;
            qsort(matches, n, sizeof *matches, by_depth_then_name);
            if (n > 1) {
                fprintf(stderr, "batch: warning: %s %s: several files match; grading %s (not:", students[s], labs[l],
                        matches[0]->rel);
                for (size_t i = 1; i < n; i++)
                    fprintf(stderr, " %s", matches[i]->rel);
                fprintf(stderr, ")\n");
            }
            char file[2 * PATH_MAX];
            snprintf(file, sizeof file, "%s/%s", dir, matches[0]->rel);
            put_field(students[s]);
            printf("\t%s\t", labs[l]);
            put_field(file);
            printf("\t%c\n", matches[0]->kind);
        }
        free(matches);
        for (size_t i = 0; i < nfound; i++)
            free(found_files[i].rel);
        free(students[s]);
    }
    free(students);
    free(found_files);
    return 0;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: gradebook --csv OUT.csv RESULTS.json...\n"
                 "       gradebook --line RESULTS.json | --done RESULTS.json\n"
                 "       gradebook --stub RESULTS.json --lab L --rubric R --source F --seed N --flags WORDS --output TEXT [--elapsed S] [--mode cpu]\n"
                 "       gradebook --find CLASS LAB...\n");
}

int main(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "--csv"))
        return write_csv(argv[2], argc - 3, argv + 3);
    if (argc == 3 && !strcmp(argv[1], "--line")) {
        outcome o;
        read_outcome(argv[2], &o);
        if (!o.readable)
            printf("not graded (no readable results.json)\n");
        else
            printf("%s/%s%s%s\n", o.score[0] ? o.score : "?", o.max_score[0] ? o.max_score : "?",
                   o.flags[0] ? " " : "", o.flags);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "--done")) {
        outcome o;
        FILE *f = fopen(argv[2], "r");   /* a missing file is simply not done: no warning */
        if (!f)
            return 1;
        fclose(f);
        read_outcome(argv[2], &o);
        return is_done(&o) ? 0 : 1;
    }
    if (argc >= 3 && !strcmp(argv[1], "--stub"))
        return write_stub(argv[2], argc - 3, argv + 3);
    if (argc >= 3 && !strcmp(argv[1], "--find"))
        return find_submissions(argv[2], argc - 3, argv + 3);
    usage(stderr);
    return 2;
}

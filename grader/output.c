/*
 * output.c — what the student and the gradebook read: the printed report,
 * Gradescope's results.json (with the command that repeats the run) and the
 * history CSV's row.
 */
#include "report.h"
#include "csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *const flag_words[] = {"compile-error", "not-allowed", "timeout", "race",
                                         "out-of-bounds", "wrong", "crash", "not-graded"};

static int colour;

static const char *paint(const char *code) { return colour ? code : ""; }
#define GREEN paint("\033[32m")
#define RED paint("\033[31m")
#define BOLD paint("\033[1m")
#define RESET paint("\033[0m")

static void print_indented(const char *text)
{
    const char *p = text;
    while (*p) {
        size_t n = strcspn(p, "\n");
        printf("        %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
}

void print_report(const grade *g, const options *o)
{
    colour = isatty(STDOUT_FILENO) && !getenv("NO_COLOR");
    printf("\n%s%s: %s%s\n", BOLD, g->rubric.id, g->rubric.title, RESET);
    printf("  file  %s\n", o->source);
    if (g->device[0])
        printf("  GPU   %s\n", g->device);
    if (o->cpu_mode)
        printf("  GPU   none: graded in CPU mode\n  note  %s\n", o->cpu_mode);
    if (o->cases_reduced)
        printf("  NOT A GRADE  %s\n", o->cases_reduced);
    for (const char *p = o->retried_alone; p && *p;) {
        size_t n = strcspn(p, "\n");
        if (n)
            printf("  again %.*s\n", (int)n, p);
        p += n + (p[n] == '\n');
    }
    if (o->seed[0])
        printf("  seed  %s   (./grade --seed %s reproduces the hidden tests)\n", o->seed, o->seed);
    printf("\n");
    if (g->could_not_grade) {
        printf("%sCould not grade:%s\n", RED, RESET);
        print_indented(g->problem);
        printf("\nScore: not graded\n");   /* not 0/100: nothing was scored */
        return;
    }
    for (int i = 0; i < g->ntests; i++) {
        const graded_test *t = &g->tests[i];
        if (t->heading[0])
            printf("\n  %s%s%s\n", BOLD, t->heading, RESET);
        if (t->beyond_correctness && (i == 0 || !g->tests[i - 1].beyond_correctness)) {
            if (g->note[0])
                printf("  %sNote:%s %s\n", BOLD, RESET, g->note);
            printf("\n");
        }
        const char *tag = t->max_score == 0 && t->beyond_correctness ? "INFO"
                        : t->passed ? "PASS" : t->score > 0 ? "PART" : "FAIL";
        printf("  %s%-4s%s  %-46s %6.2f/%-6.2f\n", t->passed || !strcmp(tag, "INFO") ? GREEN : RED, tag, RESET,
               t->name, t->score, t->max_score);
        if (t->output[0])
            print_indented(t->output);
    }
    printf("\n%sScore: %.2f/%g%s\n", BOLD, total(g, 0), total(g, 1), RESET);
}

/* `text` as one sh word: as it is when it needs no quotes, else in single quotes. */
static void sh_word(char *out, size_t len, const char *text)
{
    if (*text && strspn(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./+,:=@%-") ==
                     strlen(text)) {
        appendf(out, len, "%s", text);
        return;
    }
    appendf(out, len, "'");
    for (const char *c = text; *c; c++)
        appendf(out, len, *c == '\'' ? "'\\''" : "%c", *c);
    appendf(out, len, "'");
}

/* "./grade lab2 --file labs/lab2-shared-tile/transpose.cu --seed 7", run from the kit's folder. */
static void reproduce_command(const grade *g, const options *o, char *out, size_t len)
{
    snprintf(out, len, "./grade ");
    sh_word(out, len, g->rubric.id[0] ? g->rubric.id : "labN");
    appendf(out, len, " --file ");
    sh_word(out, len, o->source);
    if (o->seed[0])
        appendf(out, len, " --seed %s", o->seed);
    if (o->cpu_mode)
        appendf(out, len, " --cpu");
}

/* Written whole under a temporary name beside it, then renamed: a reader (or
 * a grade running at the same time) sees the old file or the new one, never
 * half of one. */
void write_results(const grade *g, const options *o)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", o->results, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "grade: cannot write %s\n", o->results);
        return;
    }
    const tl_rubric *r = &g->rubric;
    /* Not graded: out of what this mode could have given, so one class's
     * gradebook in CPU mode has one maximum. */
    double max = !g->could_not_grade ? total(g, 1) : o->cpu_mode ? tl_rubric_cpu_max_points(r) : tl_rubric_max_points(r);
    tl_json_writer w;
    tl_jw_init(&w, f);
    tl_jw_object_begin(&w, NULL);
    tl_jw_number(&w, "score", g->could_not_grade ? 0 : total(g, 0));
    tl_jw_number(&w, "max_score", max);
    tl_jw_number(&w, "execution_time", o->elapsed);
    /* The verdict, then what names the run: GPU, seed, the command that repeats it, the kit. */
    static char text[OUTPUT_LEN + 2048];
    char command[1024];
    reproduce_command(g, o, command, sizeof command);
    text[0] = '\0';
    if (o->cases_reduced)
        appendf(text, sizeof text, "NOT A GRADE: %s\n", o->cases_reduced);
    if (g->could_not_grade)
        appendf(text, sizeof text, "Could not grade: %s\n", g->problem);
    else if (g->note[0])
        appendf(text, sizeof text, "%s\n\n", g->note);
    if (o->cpu_mode)
        appendf(text, sizeof text, "CPU mode (no GPU): %s\n", o->cpu_mode);
    if (o->retried_alone && o->retried_alone[0])
        appendf(text, sizeof text, "Ran again with the GPU alone:\n%s%s", o->retried_alone,
                o->retried_alone[strlen(o->retried_alone) - 1] == '\n' ? "" : "\n");
    appendf(text, sizeof text, "GPU: %s\nseed: %s\nrepeat this run: %s\nkit: tilelab %s\n",
            g->device[0] ? g->device : o->cpu_mode ? "none (CPU mode)" : "not known (the GPU was not reached)",
            o->seed[0] ? o->seed : "none",
            command, o->kit_version ? o->kit_version : "unknown");
    tl_jw_string(&w, "output", text);
    tl_jw_string(&w, "output_format", "text");   /* plain text, its line breaks kept */
    tl_jw_string(&w, "visibility", "visible");
    tl_jw_string(&w, "stdout_visibility", "hidden");
    tl_jw_array_begin(&w, "tests");
    if (g->could_not_grade) {   /* Gradescope shows tests: the reason as one, failed, worth nothing */
        tl_jw_object_begin(&w, NULL);
        tl_jw_string(&w, "name", "could not grade");
        tl_jw_number(&w, "score", 0);
        tl_jw_number(&w, "max_score", 0);
        tl_jw_string(&w, "status", "failed");
        tl_jw_string(&w, "output", g->problem);
        tl_jw_string(&w, "visibility", "visible");
        tl_jw_object_end(&w);
    }
    for (int i = 0; i < g->ntests; i++) {
        tl_jw_object_begin(&w, NULL);
        tl_jw_string(&w, "name", g->tests[i].name);
        tl_jw_number(&w, "score", g->tests[i].score);
        tl_jw_number(&w, "max_score", g->tests[i].max_score);
        tl_jw_string(&w, "status", g->tests[i].passed ? "passed" : "failed");
        tl_jw_string(&w, "output", g->tests[i].output);
        tl_jw_string(&w, "visibility", "visible");
        tl_jw_object_end(&w);
    }
    tl_jw_array_end(&w);
    if (g->measured) {
        tl_jw_array_begin(&w, "leaderboard");
        tl_jw_object_begin(&w, NULL);
        const lab_kind *kind = kind_of(&g->rubric);
        tl_jw_string(&w, "name", kind->leaderboard_speed);
        tl_jw_number(&w, "value", kind->matrix_product ? g->gflops : g->gbps);
        tl_jw_string(&w, "order", "desc");
        tl_jw_object_end(&w);
        tl_jw_object_begin(&w, NULL);
        tl_jw_string(&w, "name", kind->leaderboard_fraction);
        tl_jw_number(&w, "value", g->fraction);
        tl_jw_string(&w, "order", "desc");
        tl_jw_object_end(&w);
        tl_jw_array_end(&w);
    }
    tl_jw_object_begin(&w, "extra_data");
    tl_jw_string(&w, "lab", g->rubric.id);
    tl_jw_string(&w, "source", o->source);
    tl_jw_string(&w, "seed", o->seed);
    tl_jw_string(&w, "gpu", g->device);
    if (o->cpu_mode)   /* absent on a GPU, as before */
        tl_jw_string(&w, "mode", "cpu");
    if (o->cases_reduced)   /* absent on a real grade */
        tl_jw_string(&w, "cases", "reduced");
    tl_jw_string(&w, "kit_version", o->kit_version ? o->kit_version : "unknown");
    tl_jw_string(&w, "command", command);
    tl_jw_bool(&w, "graded", !g->could_not_grade);
    char flags[128] = "";
    for (unsigned i = 0; i < sizeof flag_words / sizeof flag_words[0]; i++)
        if (g->flags & (1u << i))
            appendf(flags, sizeof flags, "%s%s", flags[0] ? " " : "", flag_words[i]);
    tl_jw_string(&w, "flags", flags);
    if (o->retried_alone && o->retried_alone[0]) {   /* absent when nothing ran again */
        tl_jw_array_begin(&w, "retried_alone");
        for (const char *p = o->retried_alone; *p;) {
            size_t n = strcspn(p, "\n");
            char line[512];
            snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
            if (n)
                tl_jw_string(&w, NULL, line);
            p += n + (p[n] == '\n');
        }
        tl_jw_array_end(&w);
    }
    if (g->measured && kind_of(&g->rubric)->matrix_product) {
        tl_jw_int(&w, "m", g->rows);
        tl_jw_int(&w, "k", g->depth);
        tl_jw_int(&w, "n", g->cols);
        tl_jw_number(&w, "gflops", g->gflops);
        tl_jw_number(&w, "naive_gflops", g->naive_gflops);
        tl_jw_number(&w, "cublas_gflops", g->cublas_gflops);
        tl_jw_number(&w, "fraction_of_cublas", g->fraction);
        tl_jw_number(&w, "noise", g->noise);
    } else if (g->measured) {
        tl_jw_int(&w, "rows", g->rows);
        tl_jw_int(&w, "cols", g->cols);
        tl_jw_number(&w, "gbps", g->gbps);
        tl_jw_number(&w, "copy_gbps", g->copy_gbps);
        tl_jw_number(&w, "fraction_of_copy", g->fraction);
        tl_jw_number(&w, "noise", g->noise);
    }
    /* Lab 5, part 3 (a lab of matrix products wrote its GFLOP/s above). */
    if (g->rubric.speedup_unit[0] && g->gflops > 0 && !(g->measured && kind_of(&g->rubric)->matrix_product)) {
        tl_jw_number(&w, "gflops", g->gflops);
        tl_jw_number(&w, "naive_gflops", g->naive_gflops);
    }
    if (g->baseline_speedup > 0)   /* lab 5: over lab 4's kernel */
        tl_jw_number(&w, "speedup_over_baseline", g->baseline_speedup);
    if (g->sparse_over_cublas > 0)   /* lab 7, part 2 */
        tl_jw_number(&w, "sparse_speedup_over_cublas_quarter", g->sparse_over_cublas);
    tl_jw_object_end(&w);
    tl_jw_object_end(&w);
    if (fclose(f) != 0 || rename(tmp, o->results) != 0) {
        fprintf(stderr, "grade: error writing %s\n", o->results);
        remove(tmp);
    }
}

/* Columns of the history CSV (documented in README.md, read by plots/). */
static const char *const history_header[] = {
    "time_utc", "lab", "source", "gpu", "rows", "cols", "gbps", "copy_gbps",
    "fraction_of_copy", "score", "max_score", "seed", "depth", "gflops", "cublas_gflops", "fraction_of_cublas"};
enum { HISTORY_COLUMNS = sizeof history_header / sizeof history_header[0] };

void append_history(const grade *g, const options *o)
{
    if (!o->history || g->could_not_grade || o->cases_reduced)   /* a reduced run is no grade to plot */
        return;
    char when[32], rows[16] = "", cols[16] = "", gbps[32] = "", copy[32] = "", frac[32] = "",
         score[32], max[32], depth[16] = "", gflops[32] = "", cublas[32] = "", frac_cublas[32] = "";
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    int matmul = kind_of(&g->rubric)->matrix_product;
    if (g->measured && matmul) {   /* rows = M, cols = N, depth = K */
        snprintf(rows, sizeof rows, "%d", g->rows);
        snprintf(cols, sizeof cols, "%d", g->cols);
        snprintf(depth, sizeof depth, "%d", g->depth);
        snprintf(gflops, sizeof gflops, "%.1f", g->gflops);
        snprintf(cublas, sizeof cublas, "%.1f", g->cublas_gflops);
        snprintf(frac_cublas, sizeof frac_cublas, "%.4f", g->fraction);
    } else if (g->measured) {
        snprintf(rows, sizeof rows, "%d", g->rows);
        snprintf(cols, sizeof cols, "%d", g->cols);
        snprintf(gbps, sizeof gbps, "%.2f", g->gbps);
        snprintf(copy, sizeof copy, "%.2f", g->copy_gbps);
        snprintf(frac, sizeof frac, "%.4f", g->fraction);
    }
    if (!matmul && g->gflops > 0)   /* lab 5: part 3's GFLOP/s beside part 2's bandwidth */
        snprintf(gflops, sizeof gflops, "%.1f", g->gflops);

    snprintf(score, sizeof score, "%.2f", total(g, 0));
    snprintf(max, sizeof max, "%g", total(g, 1));
    const char *row[HISTORY_COLUMNS] = {when, g->rubric.id, o->source, g->device, rows, cols,
                                        gbps, copy, frac, score, max, o->seed, depth, gflops, cublas, frac_cublas};
    if (tl_csv_append(o->history, history_header, row, HISTORY_COLUMNS) != 0)
        fprintf(stderr, "grade: cannot append to %s\n", o->history);
}


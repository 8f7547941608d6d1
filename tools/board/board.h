/*
 * board.h — the class board's parts (build/tools/board). board.c reads the
 * gradebooks and decides who is on which board and in what order; names.c
 * gives each student a pseudonym; page.c writes the board as HTML, CSV and
 * Gradescope leaderboard entries; rerun.c plans the deadline re-run and
 * merges its rounds; voids.c keeps the void register (shared with the
 * batch's gradebook writer) and reads CSV. Internal to the board.
 */
#ifndef TILELAB_BOARD_H
#define TILELAB_BOARD_H

#include "json.h"
#include "voids.h"

#include <stddef.h>
#include <stdio.h>

enum { NAME_MAX_CHARS = 32, NAME_MIN_CHARS = 2, NAME_LEN = 4 * NAME_MAX_CHARS + 1, HISTORY_MAX = 64 };

/* One graded run: a row of a gradebook and what its results.json says. */
typedef struct {
    char student[256];        /* the gradebook's student: private, never shown */
    char lab[32];
    char results[4096];       /* its results.json, as found */
    char run_key[4096];       /* the results.json relative to GRADEBOOK_DIR: what --void names */
    char source[4096];        /* extra_data.source: the file that was graded */
    char gpu[256];            /* the GPU model: extra_data.gpu up to " (" */
    int order;                /* history order: gradebooks by folder name, then rows */
    int readable, graded;
    int clean;                /* passed every hidden test: graded, no flag, tests.json clean */
    int could_not_grade;      /* not graded for no reason of the file's own (no GPU or nvcc
                                 then): a batch run again grades it again */
    int measured;             /* a fraction of copy or of cuBLAS */
    int matmul;               /* fraction of cuBLAS, speed in GFLOP/s */
    double fraction, noise, speed;
    tl_json *leaderboard;     /* the run's own leaderboard entries, when it has them */
    int has_counters, has_shared;
    double ld_sectors, st_sectors, ld_conflicts, st_conflicts;
    int kernel_lines;         /* -1: the source is gone */
    char void_why[1024];      /* voided: the instructor's reason */
    int voided;
} run;

/* A student on a board: the best run, the rank, the pseudonym. */
typedef struct {
    const run *best;
    char name[NAME_LEN];
    double history[HISTORY_MAX];
    int nhistory, runs;
    int rank, tied;
    double fraction, noise;   /* the run's, or the deadline re-run's median and spread */
    int rerun;                /* ordered by the re-run */
} entry;

typedef struct {
    char lab[32], gpu[256], slug[320];
    int matmul;
    entry *entries;
    int n;
    int rerun_rounds;         /* the deadline re-run decided the order, over this many rounds */
} board;

/* ---- names.c ------------------------------------------------------------ */

/* The `// board-name: ...` line of a source file, checked: 0 and the name in
 * `out`, or -1 with why it was refused (or that there is none) in `why`. */
int board_name_from_source(const char *path, char *out, size_t len, char *why, size_t whylen);
/* Whether `name` passes the length and character rules; why not in `why`. */
int board_name_ok(const char *name, char *why, size_t whylen);
/* A generated pseudonym: a keyed hash (SipHash-2-4, the class's secret key)
 * of the student's folder name and `salt`, as "Adjective Animal NN". */
void board_generated_name(const unsigned char key[16], const char *student, unsigned salt, char *out, size_t len);
/* Whether `text` holds `word` in any case (ASCII). */
int board_contains_ci(const char *text, const char *word);
/* The class's secret key, from `path` (32 hex digits), made from /dev/urandom when absent. 0 on success. */
int board_secret(const char *path, unsigned char key[16], char *err, size_t errlen);

/* ---- page.c ------------------------------------------------------------- */

/* `text` as HTML text or attribute value: & < > " ' escaped, control bytes and
 * bytes that are not UTF-8 as U+FFFD. */
void html_text(FILE *out, const char *text);
int write_board_html(const char *path, const board *b, const char *index_href);
int write_board_csv(const char *path, const board *b);
int write_index_html(const char *path, board *boards, int n);
/* The leaderboard array of an entry (Gradescope's results.json field), built and checked. */
tl_json *entry_leaderboard(const board *b, const entry *e);
/* Writes `{"leaderboard": [...]}` for one entry; 0 on success. */
int write_leaderboard_json(FILE *f, const tl_json *leaderboard);
/* Gradescope's documented leaderboard format (quoted in page.c): 0 when
 * `lb` is valid, else -1 and why in `err`. */
int check_leaderboard(const tl_json *lb, char *err, size_t errlen);

/* ---- rerun.c ------------------------------------------------------------- */

/* The re-run's plan: its rounds' class folders under DIR/rerun, interleaved;
 * `seeds` "S1,S2,...", one per round, kept in DIR/rerun/seed a line each. */
int rerun_plan(const char *dir, board *boards, int nboards, const char *gpu, int rounds, const char *seeds);
/* When DIR/rerun holds a plan and its rounds' results: the pinned GPU's
 * boards take the re-run's figures (median of the rounds, their spread as
 * noise) and lose whoever did not pass every round. 0 when there is none. */
int rerun_apply(const char *dir, board *boards, int nboards);

/* ---- board.c: shared helpers -------------------------------------------- */

/* printf into a path buffer; a path too long for it stops the tool (a
 * truncated path would name another file). */
void pathf(char *out, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Reads r->results (r->lab set) and the files beside it, in `dir_of_results`. */
void read_run(run *r, const char *dir_of_results);
/* Ranks a board's entries (after the re-run changed them). */
void rank_board(board *b);

/* The GPU model of an extra_data.gpu text: up to " (". */
void gpu_model(const char *device, char *out, size_t len);
/* Sorting of numbers for medians. */
double median(double *v, int n);

#endif

/*
 * voids.h — the void register, GRADEBOOK_DIR/voids.csv (run,why,voided_utc),
 * and the CSV reader it needs. One reader and writer for the two tools that
 * use it: the board (build/tools/board), which records voids and leaves the
 * runs off its boards, and the batch's gradebook writer (build/tools/gradebook),
 * which shows "void: REASON" in every gradebook it writes, so that a void
 * survives the next batch into the folder.
 *
 * A run is named by its results.json relative to GRADEBOOK_DIR, as the board
 * finds it: "<student>/<lab>/results.json" for the folder's own gradebook,
 * "week1/<student>/<lab>/results.json" for an earlier batch kept in a
 * subfolder. The void holds for whatever run is graded there: a regrade in
 * place (--force, or a new file from the student) stays void until its line
 * leaves voids.csv.
 */
#ifndef TILELAB_VOIDS_H
#define TILELAB_VOIDS_H

#include <stddef.h>

/* Reads the CSV file's rows (RFC 4180: quoted fields may hold commas, quotes,
 * newlines) as fields; the caller frees with csv_free. -1 when it cannot be
 * opened. */
typedef struct { char **fields; int n; } csv_row;
int csv_read(const char *path, csv_row **rows, int *nrows);
void csv_free(csv_row *rows, int nrows);
/* The column named `name` in a header row, or -1. */
int csv_column(const csv_row *header, const char *name);

typedef struct {
    char *run, *why;
} void_entry;
typedef struct {
    void_entry *v;
    int n;
} void_register;

/* The register at `path` (a voids.csv); an absent file is an empty register. */
void voids_load(const char *path, void_register *reg);
void voids_free(void_register *reg);
/* The reason `run` was voided (the latest line naming it), or NULL when it was not. */
const char *voids_why(const void_register *reg, const char *run);
/* Appends a void to the register at `path` (its header first when new). 0 on success. */
int voids_record(const char *path, const char *run, const char *why);
/* The gradebook's flags of a voided run: FLAGS then "void: WHY" ("void: WHY"
 * alone when FLAGS is empty); a "void: ..." FLAGS already holds is replaced. */
void void_flags(char *out, size_t len, const char *flags, const char *why);

#endif

/*
 * csv.h — RFC 4180 rows for the kit's CSV files (grade history, benchmarks),
 * which gnuplot and spreadsheets read. Columns are fixed per file and listed
 * in its header row.
 */
#ifndef TILELAB_CSV_H
#define TILELAB_CSV_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One field; quoted only when it holds a comma, quote, CR or LF. NULL writes an
 * empty field. A field a spreadsheet would take for a formula (it begins with
 * = + - @, a tab or a CR, and is not a plain number) gets a leading single
 * quote first (OWASP, CSV injection): student folder and file names reach the
 * gradebook and the grade history. */
void tl_csv_field(FILE *out, const char *field);
void tl_csv_row(FILE *out, const char *const *fields, int count);

/* Append a row to `path`, writing `header` first when the file is new or empty. 0 on success. */
int tl_csv_append(const char *path, const char *const *header, const char *const *fields, int count);

#ifdef __cplusplus
}
#endif

#endif

/*
 * voids.c — the void register (voids.h): GRADEBOOK_DIR/voids.csv, read by the
 * board and by the batch's gradebook writer, written by ./grade --board --void.
 */
#include "voids.h"
#include "csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void die_oom(void)
{
    fprintf(stderr, "out of memory\n");
    exit(2);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        die_oom();
    return p;
}

int csv_read(const char *path, csv_row **rows_out, int *nrows_out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    csv_row *rows = NULL;
    int nrows = 0, cap = 0;
    size_t flen = 0, fcap = 256;
    char *field = xcalloc(fcap, 1);
    char **fields = NULL;
    int nfields = 0, fieldcap = 0, quoted = 0, c, any = 0;
    for (;;) {
        c = fgetc(f);
        if (quoted) {
            if (c == EOF)
                break;
            if (c == '"') {
                int next = fgetc(f);
                if (next != '"') {
                    quoted = 0;
                    if (next != EOF)
                        ungetc(next, f);
                    continue;
                }
            }
        } else if (c == '"' && flen == 0) {
            quoted = 1;
            any = 1;
            continue;
        } else if (c == ',' || c == '\n' || c == EOF) {
            if (c == EOF && !any && nfields == 0 && flen == 0)
                break;
            if (c == '\n' && flen > 0 && field[flen - 1] == '\r')
                flen--;
            if (nfields == fieldcap) {
                fieldcap = fieldcap ? 2 * fieldcap : 8;
                fields = realloc(fields, fieldcap * sizeof *fields);
                if (!fields)
                    die_oom();
            }
            field[flen] = '\0';
            fields[nfields++] = strdup(field);
            flen = 0;
            any = 0;
            if (c == ',') {
                any = 1;
                continue;
            }
            if (nrows == cap) {
                cap = cap ? 2 * cap : 64;
                rows = realloc(rows, cap * sizeof *rows);
                if (!rows)
                    die_oom();
            }
            rows[nrows].fields = fields;
            rows[nrows++].n = nfields;
            fields = NULL;
            nfields = fieldcap = 0;
            if (c == EOF)
                break;
            continue;
        }
        any = 1;
        if (flen + 2 > fcap) {
            fcap *= 2;
            field = realloc(field, fcap);
            if (!field)
                die_oom();
        }
        field[flen++] = (char)c;
    }
    free(field);
    free(fields);
    fclose(f);
    *rows_out = rows;
    *nrows_out = nrows;
    return 0;
}

void csv_free(csv_row *rows, int nrows)
{
    for (int i = 0; i < nrows; i++) {
        for (int j = 0; j < rows[i].n; j++)
            free(rows[i].fields[j]);
        free(rows[i].fields);
    }
    free(rows);
}

int csv_column(const csv_row *header, const char *name)
{
    for (int i = 0; i < header->n; i++)
        if (!strcmp(header->fields[i], name))
            return i;
    return -1;
}

/* ---- the register --------------------------------------------------------- */

static const char *const void_columns[] = {"run", "why", "voided_utc"};

void voids_load(const char *path, void_register *reg)
{
    reg->v = NULL;
    reg->n = 0;
    csv_row *rows;
    int nrows;
    if (csv_read(path, &rows, &nrows) != 0)
        return;
    int cr = nrows ? csv_column(&rows[0], "run") : -1, cw = nrows ? csv_column(&rows[0], "why") : -1;
    if (cr < 0 && nrows)
        fprintf(stderr, "%s: no \"run\" column: no void in it is applied\n", path);
    reg->v = xcalloc(nrows, sizeof *reg->v);
    for (int i = 1; cr >= 0 && i < nrows; i++) {
        if (rows[i].n <= cr || !rows[i].fields[cr][0])
            continue;
        const char *why = cw >= 0 && rows[i].n > cw ? rows[i].fields[cw] : "";
        if (why[0] == '\'' && why[1] && strchr("=+-@\t\r", why[1]))
            why++;   /* the CSV writer's formula guard, not part of the reason */
        reg->v[reg->n].run = strdup(rows[i].fields[cr]);
        reg->v[reg->n].why = strdup(why);
        if (!reg->v[reg->n].run || !reg->v[reg->n].why)
            die_oom();
        reg->n++;
    }
    csv_free(rows, nrows);
}

void voids_free(void_register *reg)
{
    for (int i = 0; i < reg->n; i++) {
        free(reg->v[i].run);
        free(reg->v[i].why);
    }
    free(reg->v);
    reg->v = NULL;
    reg->n = 0;
}

const char *voids_why(const void_register *reg, const char *run)
{
    for (int i = reg->n - 1; i >= 0; i--)
        if (!strcmp(reg->v[i].run, run))
            return reg->v[i].why;
    return NULL;
}

int voids_record(const char *path, const char *run, const char *why)
{
    char when[32];
    time_t now = time(NULL);
    struct tm utc;
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &utc));
    const char *row[] = {run, why, when};
    return tl_csv_append(path, void_columns, row, 3);
}

void void_flags(char *out, size_t len, const char *flags, const char *why)
{
    /* The grader's flags are single words; "void: " starts the reason the board added. */
    size_t keep = strlen(flags);
    for (const char *p = strstr(flags, "void: "); p; p = strstr(p + 1, "void: "))
        if (p == flags || p[-1] == ' ') {
            keep = (size_t)(p - flags);
            break;
        }
    while (keep > 0 && flags[keep - 1] == ' ')
        keep--;
    snprintf(out, len, "%.*s%svoid: %s", (int)keep, flags, keep ? " " : "", why);
}

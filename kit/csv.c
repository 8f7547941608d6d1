/* csv.c — CSV rows with RFC 4180 quoting. */
#include "csv.h"

#include <stdlib.h>
#include <string.h>

/* Whether a spreadsheet would read the cell as a formula: it begins with = + - @
 * (or a tab or CR, which some strip first), and is not simply a number ("-0.5"
 * is data, "-1+2" or "=cmd|..." is not). OWASP's CSV-injection advice: such a
 * cell gets a leading single quote, which spreadsheets show as text. */
static int looks_like_formula(const char *field)
{
    if (!strchr("=+-@\t\r", field[0]) || field[0] == '\0')
        return 0;
    char *end;
    strtod(field, &end);
    return end == field || *end != '\0';
}

void tl_csv_field(FILE *out, const char *field)
{
    if (!field)
        return;
    const char *guard = looks_like_formula(field) ? "'" : "";
    if (!strpbrk(field, ",\"\r\n")) {
        fputs(guard, out);
        fputs(field, out);
        return;
    }
    fputc('"', out);
    fputs(guard, out);
    for (const char *p = field; *p; p++) {
        if (*p == '"')
            fputc('"', out);   /* a quote inside a quoted field is doubled */
        fputc(*p, out);
    }
    fputc('"', out);
}

void tl_csv_row(FILE *out, const char *const *fields, int count)
{
    for (int i = 0; i < count; i++) {
        if (i)
            fputc(',', out);
        tl_csv_field(out, fields[i]);
    }
    fputc('\n', out);
}

int tl_csv_append(const char *path, const char *const *header, const char *const *fields, int count)
{
    FILE *f = fopen(path, "a");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    if (ftell(f) == 0)
        tl_csv_row(f, header, count);
    tl_csv_row(f, fields, count);
    return fclose(f) == 0 ? 0 : -1;
}

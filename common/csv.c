/* csv.c — CSV rows with RFC 4180 quoting. */
#include "csv.h"

#include <string.h>

void tl_csv_field(FILE *out, const char *field)
{
    if (!field)
        return;
    if (!strpbrk(field, ",\"\r\n")) {
        fputs(field, out);
        return;
    }
    fputc('"', out);
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

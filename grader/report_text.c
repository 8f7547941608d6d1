/* report_text.c — the report's texts are fixed-size buffers, appended to and never overrun. */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void appendf(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

/* Append up to `max_lines` lines of a file, optionally only those containing `filter`. */
void append_file(char *buf, size_t len, const char *path, const char *filter, int max_lines)
{
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f)
        return;
    char line[1024];
    int n = 0;
    while (n < max_lines && fgets(line, sizeof line, f)) {
        if (filter && !strstr(line, filter))
            continue;
        appendf(buf, len, "    %s", line);
        if (!strchr(line, '\n'))
            appendf(buf, len, "\n");
        n++;
    }
    fclose(f);
}


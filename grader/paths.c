/* paths.c — see paths.h. */
#define _POSIX_C_SOURCE 200809L   /* strtok_r */
#include "paths.h"

#include <stdio.h>
#include <string.h>

void path_by_name(const char *absolute, char *out, size_t size)
{
    char parts[8192];
    snprintf(parts, sizeof parts, "%s", absolute);
    size_t used = 0;
    out[0] = '\0';
    for (char *save = NULL, *part = strtok_r(parts, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
        if (!strcmp(part, "."))
            continue;
        if (!strcmp(part, "..")) {
            while (used > 0 && out[--used] != '/')
                ;
            out[used] = '\0';
            continue;
        }
        used += (size_t)snprintf(out + used, size - used, "/%s", part);
        if (used >= size)
            used = size - 1;
    }
    if (!out[0])
        snprintf(out, size, "/");
}

/*
 * paths.h — a path named as the shell names it, without asking the file
 * system: build/tools/plan (the folder a link to a lab file points at) and
 * build/tools/inspect (where an #include leads) both need it.
 */
#ifndef TILELAB_PATHS_H
#define TILELAB_PATHS_H

#include <stddef.h>

/* ABSOLUTE (a path from /) with "." and ".." taken by name, as `cd` takes
 * them, into OUT; "/" at the least. Links are not followed. */
void path_by_name(const char *absolute, char *out, size_t size);

#endif

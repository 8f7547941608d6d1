/*
 * tool.h — what the instructor-tool tests share (tool.c): running a command
 * as a fresh top-level make would run, building a tool from its makefile
 * fragment, and reading what it wrote.
 */
#ifndef TILELAB_TOOL_TEST_H
#define TILELAB_TOOL_TEST_H

#include <stddef.h>

/* Runs `cmd` with sh; the make it starts is a fresh top-level one (the flags
 * of the make running these tests, -s, -j, its jobserver, do not leak in).
 * Its exit status, or -1 when it did not exit normally. */
int tool_sh(const char *cmd);

/* The whole file (up to 4 MiB), NUL-terminated, in one buffer that the next
 * call reuses; "" when it cannot be read. `len` may be NULL. */
char *tool_read(const char *path, size_t *len);

/* Builds `target` with the makefile fragment `fragment` alone (the rule the
 * Makefile includes), its output in `work`/build.log; fails the test when
 * make does. */
void tool_make(const char *fragment, const char *target, const char *work);

/* Where the suite run's kits are made: `make tool-tests` empties it first. */
#define TOOL_KITS "build/tests/kits"

/* The suite run's one copy of FILE, which `make TARGET DIST=TOOL_KITS` writes
 * (dist-student: tilelab-student.tar.gz; gradescope LAB=lab2:
 * tilelab-gradescope-lab2.zip): made by the first test that asks, under a
 * lock, and copied by the others instead of each making the kit again. Fails
 * the test when make does. Its path. */
const char *tool_kit(const char *target, const char *file);

/* Runs `prepare` (sh, in the kit's folder) once per suite run under the same
 * lock, unless TOOL_KITS/`done` exists; `prepare` makes `done` last. Fails the
 * test, with TOOL_KITS/`done`.log, when it fails. */
void tool_kit_once(const char *done, const char *prepare);

/* Newlines in `text`. */
int tool_lines(const char *text);

#endif

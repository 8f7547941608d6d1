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

/* Newlines in `text`. */
int tool_lines(const char *text);

#endif

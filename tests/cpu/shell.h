/* shell.h — what the CPU-mode test files that run the kit's own commands share: a command run
 * through sh as a fresh top-level make would see it, and a small file read back whole. */
#ifndef TILELAB_TESTS_CPU_SHELL_H
#define TILELAB_TESTS_CPU_SHELL_H
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static int sh_(const char *cmd)
{
    unsetenv("MAKEFLAGS");   /* a fresh top-level make inside */
    unsetenv("MAKELEVEL");
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The file's first 64 KiB, in a buffer the next call overwrites. */
static const char *read_all(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    return buf;
}
#endif

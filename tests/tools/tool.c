/* tool.c — shared by the instructor-tool tests (see tool.h). */
#include "tool.h"

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

int tool_sh(const char *cmd)
{
    unsetenv("MAKEFLAGS");
    unsetenv("MAKELEVEL");
    unsetenv("MFLAGS");
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

char *tool_read(const char *path, size_t *len)
{
    static char buf[4 << 20];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

int tool_lines(const char *text)
{
    int n = 0;
    for (const char *p = text; *p; p++)
        n += *p == '\n';
    return n;
}

void tool_make(const char *fragment, const char *target, const char *work)
{
    char cmd[4096], log[1024];
    snprintf(log, sizeof log, "%s/build.log", work);
    snprintf(cmd, sizeof cmd, "mkdir -p %s && make -s --no-print-directory -f %s %s > %s 2>&1", work, fragment,
             target, log);
    int status = tool_sh(cmd);
    cr_assert_eq(status, 0, "make -f %s %s exited %d:\n%s", fragment, target, status, tool_read(log, NULL));
}

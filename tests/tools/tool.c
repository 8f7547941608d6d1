/* tool.c — shared by the instructor-tool tests (see tool.h). */
#include "tool.h"

#include <criterion/criterion.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

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

void tool_kit_once(const char *done, const char *prepare)
{
    char path[512], log[512];
    snprintf(path, sizeof path, TOOL_KITS "/%s", done);
    snprintf(log, sizeof log, TOOL_KITS "/%s.log", done);
    cr_assert_eq(tool_sh("mkdir -p " TOOL_KITS), 0, "cannot make " TOOL_KITS);
    /* Tests that run at once wait here for the one that makes it. */
    int lock = open(TOOL_KITS "/.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    cr_assert(lock >= 0 && flock(lock, LOCK_EX) == 0, "cannot lock " TOOL_KITS "/.lock");
    if (access(path, F_OK) != 0) {
        char cmd[8192];
        snprintf(cmd, sizeof cmd, "{ %s; } > %s 2>&1", prepare, log);
        int status = tool_sh(cmd);
        if (status != 0 || access(path, F_OK) != 0) {
            close(lock);
            cr_assert_fail("making %s for this suite run failed (exit %d):\n%s", path, status, tool_read(log, NULL));
        }
    }
    close(lock);
}

const char *tool_kit(const char *target, const char *file)
{
    static char path[512];
    char prepare[1024];
    snprintf(prepare, sizeof prepare, "MAKEFLAGS= MAKELEVEL= make -s --no-print-directory %s DIST=" TOOL_KITS, target);
    tool_kit_once(file, prepare);
    snprintf(path, sizeof path, TOOL_KITS "/%s", file);
    return path;
}

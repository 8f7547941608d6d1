/*
 * Issue 43, what a student meets: ./grade's own words. `--open` where no
 * browser can open the page says so plainly, with the page's path and how
 * to open it (it used to print "opening ..." while nothing happened), and
 * `./grade --help` names --board beside --batch. No GPU needed: the grade
 * stops early (an unreadable file: could not grade), and its report.html is
 * what --open is asked to open.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <stdio.h>
#include <string.h>

#define WORK "build/tests/student-meets"

/* ./grade --open on a file that is not there, with `env` before it; its output. */
static const char *open_with(const char *name, const char *env)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "rm -rf " WORK "/%s && mkdir -p " WORK "/%s/bin && "
             "printf '#!/bin/sh\\necho \"xdg-open: no method available for opening $1\" >&2\\nexit 3\\n' > " WORK "/%s/bin/xdg-open && "
             "chmod +x " WORK "/%s/bin/xdg-open && "
             "%s PATH=$PWD/" WORK "/%s/bin:$PATH TILELAB_CPU_FALLBACK=0 ./grade lab1 --open --file " WORK "/%s/missing.cu "
             "--out " WORK "/%s/out > " WORK "/%s/log 2>&1",
             name, name, name, name, env, name, name, name, name);
    cr_assert_eq(tool_sh(cmd), 2, "%s", cmd);
    char log[512];
    snprintf(log, sizeof log, WORK "/%s/log", name);
    return tool_read(log, NULL);
}

Test(student_meets, open_without_a_browser_says_so_and_where_the_page_is)
{
    const char *out = open_with("no-browser", "DISPLAY=:99");
    cr_expect(strstr(out, "out/report.html (not opened: xdg-open found no browser: xdg-open: no method available"),
              "%s", out);
    cr_expect(strstr(out, "open it in a browser"), "%s", out);
    cr_expect(strncmp(out, "opening ", 8) && !strstr(out, "\nopening "), "it claims to open the page:\n%s", out);
}

Test(student_meets, open_without_a_display_says_so)
{
    const char *out = open_with("no-display", "DISPLAY= WAYLAND_DISPLAY=");
    cr_expect(strstr(out, "out/report.html (not opened: no display here"), "%s", out);
    cr_expect(strncmp(out, "opening ", 8) && !strstr(out, "\nopening "), "it claims to open the page:\n%s", out);
}

Test(student_meets, help_names_the_board)
{
    cr_assert_eq(tool_sh("mkdir -p " WORK " && ./grade --help > " WORK "/help.log 2>&1; ./grade --help > /dev/null"), 0);
    const char *out = tool_read(WORK "/help.log", NULL);
    cr_expect(strstr(out, "./grade --board DIR"), "%s", out);
    cr_expect(strstr(out, "--board --help"), "%s", out);
}

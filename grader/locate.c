/*
 * locate.c — where in the student's file a sanitizer finding points: a small
 * C lexer (comments and literals blanked, braces counted) that names the
 * kernel and the superstep of a line, for the BSP rule's words (lab 5).
 */
#include "report.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Where a line of the student's file sits: its kernel and its superstep
 * (SUPERSTEP(name) { ... }, tilelab.h). Braces are counted; // comments are
 * skipped. 0 when the file cannot be read or is shorter. */
typedef struct {
    char kernel[64], superstep[64];   /* the function (a kernel or a __device__ helper) */
    int helper;                       /* a __device__ function: its superstep is its caller's */
} place;

/* One line with comments and literals blanked: `in_comment` carries a
 * block comment over to the next line. */
static void code_only(char *line, int *in_comment)
{
    for (char *c = line; *c; c++) {
        if (*in_comment) {
            if (c[0] == '*' && c[1] == '/') {
                *in_comment = 0;
                *c++ = ' ';
            }
            *c = ' ';
        } else if (c[0] == '/' && c[1] == '*') {
            *in_comment = 1;
            *c++ = ' ';
            *c = ' ';
        } else if (c[0] == '/' && c[1] == '/') {
            *c = '\0';
            return;
        } else if (*c == '"' || *c == '\'') {   /* a literal: blank it up to its closing quote */
            char quote = *c;
            for (*c++ = ' '; *c && *c != quote; c++) {
                if (*c == '\\' && c[1])
                    *c++ = ' ';
                *c = ' ';
            }
            if (!*c)
                return;
            *c = ' ';
        }
    }
}

static int locate(const char *source, int line, place *p)
{
    FILE *f = source && line > 0 ? fopen(source, "r") : NULL;
    char buf[1024], pending[64] = "";
    int n = 0, depth = 0, step_depth = -1, in_comment = 0;
    memset(p, 0, sizeof *p);
    while (f && n < line && fgets(buf, sizeof buf, f)) {
        n++;
        code_only(buf, &in_comment);
        char *s;
        if (depth == 0 && ((s = strstr(buf, "__global__")) != NULL || (s = strstr(buf, "__device__")) != NULL)) {
            char *paren = strchr(s, '('), *start = paren;
            while (start && start > s && (start[-1] == '_' || isalnum((unsigned char)start[-1])))
                start--;
            if (paren && start < paren) {
                snprintf(p->kernel, sizeof p->kernel, "%.*s", (int)(paren - start), start);
                p->helper = s[2] == 'd';
            }
        }
        char *step = strstr(buf, "SUPERSTEP(");
        for (char *c = buf; *c; c++) {
            if (c == step && sscanf(step, "SUPERSTEP(%63[A-Za-z0-9_]", pending) != 1)
                pending[0] = '\0';
            if (*c == ';') {   /* SUPERSTEP(name) is followed by its { ... }, never by a statement */
                pending[0] = '\0';
            } else if (*c == '{' && ++depth && pending[0] && step_depth < 0) {
                step_depth = depth;
                snprintf(p->superstep, sizeof p->superstep, "%s", pending);
                pending[0] = '\0';
            } else if (*c == '}') {
                if (depth == step_depth) {
                    step_depth = -1;
                    p->superstep[0] = '\0';
                }
                depth--;
            }
        }
    }
    if (f)
        fclose(f);
    return line > 0 && n == line;
}

/* The lines of the student's file a sanitizer finding names (".../file.cu:42"). */
static int finding_lines(const char *finding, const char *source, int *lines, int max)
{
    const char *base = source ? strrchr(source, '/') : NULL;
    base = base ? base + 1 : source;
    int n = 0;
    for (const char *at = base ? strstr(finding, base) : NULL; at && n < max; at = strstr(at + 1, base)) {
        int line;
        int whole_name = at == finding || at[-1] == '/' || at[-1] == ' ';   /* not the tail of another name */
        if (whole_name && at[strlen(base)] == ':' && sscanf(at + strlen(base) + 1, "%d", &line) == 1)
            lines[n++] = line;
    }
    return n;
}

/* Part and superstep of the lines a finding names, and what the BSP rule says. */
void explain_places(char *out, size_t len, const char *finding, const char *source, const char *tool,
                    const tl_rubric_unit *unit)
{
    int lines[2], n = finding_lines(finding, source, lines, 2);
    place p[2];
    int located = 0;
    for (int i = 0; i < n; i++) {
        if (!locate(source, lines[i], &p[i]))
            continue;
        located++;
        char part[32] = "";
        if (unit)
            snprintf(part, sizeof part, "part %d, ", unit->part);
        if (p[i].helper && !p[i].superstep[0])
            appendf(out, len, "  line %d: %sin %s, a __device__ function: the superstep is its caller's\n",
                    lines[i], part, p[i].kernel);
        else
            appendf(out, len, "  line %d: %sin %s, %s%s%s\n", lines[i], part, p[i].kernel[0] ? p[i].kernel : "your file",
                    p[i].superstep[0] ? "superstep '" : "in no superstep", p[i].superstep, p[i].superstep[0] ? "'" : "");
    }
    if (located < n || !n || strcmp(tool, "racecheck") != 0 || (n == 2 && (p[0].helper || p[1].helper)))
        return;
    if (n == 2 && p[0].superstep[0] && !strcmp(p[0].superstep, p[1].superstep))
        appendf(out, len, "  Both accesses sit in superstep '%s': a write and a read (or a read and a later "
                "write) of the same shared word by different threads belong in different supersteps.\n",
                p[0].superstep);
    else if (n == 2 && (!p[0].superstep[0] || !p[1].superstep[0]))
        appendf(out, len, "  No superstep barrier separates these two accesses: put them in different "
                "supersteps.\n");
}

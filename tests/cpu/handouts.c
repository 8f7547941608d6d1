/*
 * The handouts' commands (issue 29): every command a handout tells students
 * to run is run here, in CPU mode, and must exit and print as the handout
 * says. One test per handouts/labN-*.md, found by name: a new lab's handout
 * needs no C.
 *
 * The convention, in the handouts: a command students run sits in a fenced
 * block whose info string is `console`, as a terminal shows it:
 *
 *     ```console
 *     $ build/lab1 --rows 31 --cols 33   # any shape you like
 *     31x33   ok
 *     ...
 *     2 of 2 cases right.
 *     ```
 *
 * - `$ ` starts a command; a line ending in `\` goes on on the next line; a
 *   `# ...` after it is for the reader (the shell ignores it). An assignment
 *   alone (`M=...`) is a command too, and holds for the block's later ones.
 * - The lines after a command, up to the next `$ ` or the block's end, are
 *   what it prints, in part: each must appear, in that order, within a line
 *   of its output (stdout and stderr), runs of spaces counting as one; a
 *   `...` line stands for lines left out. The output shown is CPU mode's
 *   (what runs here, and on a machine without a GPU).
 * - It must exit 0, unless a line `[exit N]` among its output says N.
 * - A command that cannot run without a GPU says `# GPU only: why` and is
 *   counted as such, never run; the test prints how many there are.
 *
 * How: a copy of the kit per handout (the tracked and new files, what is
 * already built, times kept), with every lab's reference solution in place
 * of its skeleton: a student who has done the labs, and the handout's lab
 * made first (a handout may show a command sections before its `make labN`).
 * The commands run there, in order, from the kit's folder, with no GPU
 * visible (CUDA_VISIBLE_DEVICES empty: CPU mode even on a machine that has
 * one) and the toolkit's bin/ on PATH after the caller's (for nvcc).
 * TILELAB_HANDOUT=lab1,lab3 runs those handouts' commands alone.
 *
 * On a GPU: TILELAB_HANDOUT_GPU=1 leaves the GPU visible and runs every
 * command, the GPU-only ones too; each must exit as the handout says, and
 * what it prints is not compared (the handouts show CPU mode's output).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define WORK "build/tests/handout-commands"
#define MAX_COMMANDS 64
#define MAX_EXPECT 24

typedef struct {
    char path[128];   /* handouts/lab1-naive-transpose.md */
    char lab[16];     /* lab1 */
} handout;

typedef struct {
    int line;                     /* where the command starts in the handout */
    char text[1024];              /* the command, continuations joined */
    int assignment;               /* NAME=VALUE alone: kept for the block's later commands */
    int gpu_only;                 /* `# GPU only: ...`: counted, not run */
    int exit_status;              /* 0 unless `[exit N]` */
    int nexpect;
    char expect[MAX_EXPECT][256]; /* lines of its output, in order */
    int block;                    /* which console block */
} command;

static int sh(const char *cmd)
{
    unsetenv("MAKEFLAGS");   /* the commands run as a student's would, not under make */
    unsetenv("MAKELEVEL");
    unsetenv("MFLAGS");
    int status = system(cmd);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static char *slurp(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    size_t n = fread(buf, 1, (size_t)len, f);
    fclose(f);
    buf[n] = 0;
    if (len_out)
        *len_out = n;
    return buf;
}

static void trim_end(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
}

/* Runs of blanks as one space, none at either end: table columns are padded. */
static void squeeze(const char *in, char *out, size_t len)
{
    size_t o = 0;
    int blank = 0;
    for (; *in == ' ' || *in == '\t'; in++)
        ;
    for (; *in && o + 1 < len; in++) {
        if (*in == ' ' || *in == '\t') {
            blank = 1;
            continue;
        }
        if (blank && o + 1 < len)
            out[o++] = ' ';
        blank = 0;
        out[o++] = *in;
    }
    out[o] = 0;
}

/* The handout's console blocks, as commands with their expected output. */
static int read_commands(const char *path, command *cmds, int max)
{
    size_t len;
    char *text = slurp(path, &len);
    cr_assert(text, "cannot read %s", path);
    int n = 0, in_console = 0, in_other = 0, block = 0, lineno = 0;
    command *cur = NULL;
    for (char *l = text; l && *l;) {
        char *nl = strchr(l, '\n');
        if (nl)
            *nl = 0;
        lineno++;
        char line[1024];
        snprintf(line, sizeof line, "%s", l);
        trim_end(line);
        l = nl ? nl + 1 : NULL;
        if (!in_console && !in_other && !strncmp(line, "```", 3)) {
            const char *info = line + 3;
            if (!strcmp(info, "console"))
                in_console = 1, block++, cur = NULL;
            else
                in_other = 1;
            continue;
        }
        if ((in_console || in_other) && !strcmp(line, "```")) {
            in_console = in_other = 0;
            cur = NULL;
            continue;
        }
        if (!in_console)
            continue;
        if (!strncmp(line, "$ ", 2)) {
            cr_assert(n < max, "%s: more than %d commands", path, max);
            cur = &cmds[n++];
            memset(cur, 0, sizeof *cur);
            cur->line = lineno, cur->block = block;
            snprintf(cur->text, sizeof cur->text, "%s", line + 2);
            /* a continued command: the next lines, as the shell joins them */
            while (cur->text[0] && cur->text[strlen(cur->text) - 1] == '\\' && l && *l) {
                nl = strchr(l, '\n');
                if (nl)
                    *nl = 0;
                lineno++;
                snprintf(line, sizeof line, "%s", l);
                trim_end(line);
                l = nl ? nl + 1 : NULL;
                size_t used = strlen(cur->text);
                snprintf(cur->text + used - 1, sizeof cur->text - used + 1, " %s", line);
            }
            cur->gpu_only = strstr(cur->text, "# GPU only:") != NULL;
            /* NAME=VALUE and nothing else (no space: no command after it) */
            const char *p = cur->text;
            while (isalnum((unsigned char)*p) || *p == '_')
                p++;
            cur->assignment = p > cur->text && *p == '=' && !strpbrk(p, " \t;&|");
            continue;
        }
        if (!cur || !line[0] || !strcmp(line, "..."))
            continue;
        int status;
        if (sscanf(line, "[exit %d]", &status) == 1) {
            cur->exit_status = status;
            continue;
        }
        cr_assert(cur->nexpect < MAX_EXPECT, "%s:%d: more than %d expected lines", path, lineno, MAX_EXPECT);
        squeeze(line, cur->expect[cur->nexpect++], sizeof cur->expect[0]);
    }
    free(text);
    return n;
}

/* The first expected line not found, in order, in `output` (NULL: all found). */
static const char *first_missing(const command *c, const char *output)
{
    const char *at = output;
    for (int e = 0; e < c->nexpect; e++) {
        int found = 0;
        while (*at && !found) {
            size_t n = strcspn(at, "\n");
            char raw[2048], line[2048];
            snprintf(raw, sizeof raw, "%.*s", (int)(n < sizeof raw ? n : sizeof raw - 1), at);
            squeeze(raw, line, sizeof line);
            found = strstr(line, c->expect[e]) != NULL;
            at += n + (at[n] == '\n');
        }
        if (!found)
            return c->expect[e];
    }
    return NULL;
}

/* The last `lines` lines of `s`, for a failure's message. */
static const char *tail(const char *s, int lines)
{
    const char *p = s + strlen(s);
    while (p > s && lines >= 0)
        if (*--p == '\n')
            lines--;
    return p == s ? s : p + 1;
}

/* A copy of the kit in `dir`, with the reference solutions in the labs' folders. */
static void kit_copy(const char *dir)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "rm -rf '%s' && mkdir -p '%s' && "
             "git ls-files -co --exclude-standard -z | xargs -0 cp -p --parents -t '%s' && "
             "{ [ ! -d .deps ] || cp -a .deps '%s/'; } && "
             "for k in build/*/kit build/cpu build/tools; do [ -d \"$k\" ] || continue; "
             "mkdir -p \"%s/$(dirname \"$k\")\" && cp -a \"$k\" \"%s/$k\"; done && "
             "for s in solutions/*/*.cu; do cp -p \"$s\" \"%s/labs/${s#solutions/}\"; done",
             dir, dir, dir, dir, dir, dir, dir);
    cr_assert_eq(sh(cmd), 0, "cannot copy the kit: %s", cmd);
}

ParameterizedTestParameters(handouts, commands)
{
    glob_t g;
    handout *h = NULL;
    size_t n = 0;
    if (glob("handouts/lab*.md", 0, NULL, &g) == 0) {
        h = cr_malloc(g.gl_pathc * sizeof *h);
        for (size_t i = 0; i < g.gl_pathc; i++, n++) {
            snprintf(h[n].path, sizeof h[n].path, "%s", g.gl_pathv[i]);
            snprintf(h[n].lab, sizeof h[n].lab, "%.*s", (int)strcspn(g.gl_pathv[i] + 9, "-"), g.gl_pathv[i] + 9);
        }
        globfree(&g);
    }
    return cr_make_param_array(handout, h, n);
}

ParameterizedTest(handout *h, handouts, commands, .timeout = 600)
{
    const char *only = getenv("TILELAB_HANDOUT");   /* lab1,lab3: these handouts only */
    if (only && *only && !strstr(only, h->lab))
        cr_skip_test("%s: not in TILELAB_HANDOUT=%s", h->path, only);
    static command cmds[MAX_COMMANDS];
    int n = read_commands(h->path, cmds, MAX_COMMANDS);
    cr_assert(n > 0, "%s has no ```console block: the commands students run go in one (tests/cpu/handouts.c)", h->path);

    char dir[256], cmd[8192];
    snprintf(dir, sizeof dir, WORK "/%s", h->lab);
    kit_copy(dir);
    /* The lab made once before any command: a handout may show a command
     * (build/lab2 --tool racecheck) sections before it says `make lab2`. */
    snprintf(cmd, sizeof cmd, "cd '%s' && make -s --no-print-directory %s > make.log 2>&1", dir, h->lab);
    cr_assert_eq(sh(cmd), 0, "make %s in the kit's copy failed: see %s/make.log", h->lab, dir);
    const char *cuda = getenv("CUDA_HOME") ? getenv("CUDA_HOME") : "/usr/local/cuda";
    int on_gpu = getenv("TILELAB_HANDOUT_GPU") && !strcmp(getenv("TILELAB_HANDOUT_GPU"), "1");
    int ran = 0, gpu_only = 0, failed = 0;
    char here[1024];
    cr_assert(getcwd(here, sizeof here), "getcwd");
    char gpu_list[1024] = "";
    for (int i = 0; i < n; i++) {
        command *c = &cmds[i];
        if (c->gpu_only && !on_gpu) {
            gpu_only++;
            size_t used = strlen(gpu_list);
            snprintf(gpu_list + used, sizeof gpu_list - used, "\n  %s:%d: %s", h->path, c->line, c->text);
            continue;
        }
        /* The block's earlier assignments, then the command, in one shell. */
        char script[4096] = "";
        for (int j = 0; j < i; j++)
            if (cmds[j].block == c->block && cmds[j].assignment) {
                size_t used = strlen(script);
                snprintf(script + used, sizeof script - used, "%s\n", cmds[j].text);
            }
        size_t used = strlen(script);
        snprintf(script + used, sizeof script - used, "%s\n", c->text);
        char script_path[512], out_path[512];
        snprintf(script_path, sizeof script_path, "%s/.handout-%d.sh", dir, i + 1);
        snprintf(out_path, sizeof out_path, WORK "/%s-%d.out", h->lab, i + 1);
        FILE *f = fopen(script_path, "w");
        cr_assert(f, "cannot write %s", script_path);
        fputs(script, f);
        fclose(f);
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && NO_COLOR=1 %s PATH=\"$PATH:%s/bin\" "
                 "timeout 300 sh .handout-%d.sh > '%s/%s' 2>&1",
                 dir, on_gpu ? "" : "CUDA_VISIBLE_DEVICES=", cuda, i + 1, here, out_path);
        int status = sh(cmd);
        ran++;
        char *output = slurp(out_path, NULL);
        if (!output)
            output = strdup("");
        const char *missing = on_gpu ? NULL : first_missing(c, output);
        if (status != c->exit_status || missing) {
            failed++;
            cr_expect(0, "%s:%d: $ %s\n%s%s%s%d, expected %d); its output ends:\n%s", h->path, c->line, c->text,
                      missing ? "does not print: " : "", missing ? missing : "", missing ? "\n(exit " : "(exit ",
                      status, c->exit_status, tail(output, 25));
        }
        free(output);
    }
    cr_log_info("%s: %d commands run%s, %d failed, %d GPU only (not run)%s", h->path, ran,
                on_gpu ? " on the GPU (exit status only)" : "", failed, gpu_only, gpu_list);
}

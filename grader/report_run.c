/*
 * report_run.c — report --run DIR: a grade's run folder read back into the
 * report's options (issue 32). Each step of ./grade leaves its status file
 * and its log in DIR, and the plan (DIR/plan.sh, build/tools/plan) says
 * which steps were to run; the verdicts drawn from them (the counters, the
 * FMA counts, the structure, double buffering, CPU mode's counters and its
 * note) are drawn here, where ./grade once drew them with grep and sed.
 */
#define _GNU_SOURCE   /* strcasestr */
#include "report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <dirent.h>
#include <fcntl.h>

int ptx_structure_main(int argc, char **argv);   /* ptx_structure.c, built into the report */

/* ---- the plan: key=value lines, values shell-quoted by build/tools/plan --------- */

enum { MAX_KEYS = 64 };
static struct {
    char *key, *value;
} plan[MAX_KEYS];
static int nplan;

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t size = 0, cap = 4096;
    char *text = malloc(cap);
    for (size_t n; text && (n = fread(text + size, 1, cap - size - 1, f)) > 0;) {
        size += n;
        if (size + 1 >= cap)
            text = realloc(text, cap *= 2);
    }
    fclose(f);
    if (text)
        text[size] = '\0';
    return text;
}

/* The plan's words: a value is plain characters, '...' quotes and \-escapes, up to an unquoted newline. */
static void read_plan(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/plan.sh", dir);
    char *text = read_all(path), *p = text;
    while (p && *p && nplan < MAX_KEYS) {
        char *eq = strchr(p, '=');
        if (!eq)
            break;
        char *value = malloc(strlen(eq) + 1), *v = value;
        plan[nplan].key = strndup(p, (size_t)(eq - p));
        for (p = eq + 1; *p && *p != '\n'; p++) {
            if (*p == '\'') {
                for (p++; *p && *p != '\''; p++)
                    *v++ = *p;
            } else if (*p == '\\' && p[1])
                *v++ = *++p;
            else
                *v++ = *p;
        }
        *v = '\0';
        plan[nplan++].value = value;
        if (*p)
            p++;
    }
    free(text);
}

static const char *planned(const char *key)
{
    for (int i = nplan - 1; i >= 0; i--)
        if (!strcmp(plan[i].key, key))
            return plan[i].value;
    return "";
}

/* ---- the run folder's files ---------------------------------------------------- */

static const char *run_dir;

static char *in_run(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", run_dir, name);
    return strdup(path);
}

static int exists(const char *name)
{
    struct stat st;
    char *path = in_run(name);
    int found = stat(path, &st) == 0;
    free(path);
    return found;
}

static int not_empty(const char *name)
{
    struct stat st;
    char *path = in_run(name);
    int found = stat(path, &st) == 0 && st.st_size > 0;
    free(path);
    return found;
}

/* A step's exit status as its .status file holds it ("" when it left none). */
static const char *status_of(const char *name, char *out, size_t size)
{
    char *path = in_run(name), *text = read_all(path);
    snprintf(out, size, "%s", text ? text : "");
    out[strcspn(out, "\n")] = '\0';
    free(path);
    free(text);
    return out;
}

/* The first line of a run file that `match` accepts, copied into out; 0 when none. */
static int first_line(const char *name, int (*match)(const char *line, const void *arg), const void *arg, char *out,
                      size_t size)
{
    char *path = in_run(name), *text = read_all(path);
    int found = 0;
    free(path);
    for (char *line = text; line && *line && !found;) {
        char *end = line + strcspn(line, "\n"), saved = *end;
        *end = '\0';
        if (match(line, arg)) {
            snprintf(out, size, "%s", line);
            found = 1;
        }
        *end = saved;
        line = *end ? end + 1 : end;
    }
    free(text);
    return found;
}

static int starts_with(const char *line, const void *prefix)
{
    return !strncmp(line, prefix, strlen(prefix));
}

static int contains(const char *line, const void *text)
{
    return strstr(line, text) != NULL;
}

/* `text` cut to its first `max` bytes (as cut -c). */
static char *cut(char *text, size_t max)
{
    if (strlen(text) > max)
        text[max] = '\0';
    return text;
}

/* ---- the counters (ncu) on a GPU ----------------------------------------------- */

static int ncu_error(const char *line, const void *unused)
{
    (void)unused;
    return strstr(line, "==ERROR==") && !strstr(line, "The application returned an error code");
}

static int error_line(const char *line, const void *unused)
{
    (void)unused;
    return strstr(line, "==ERROR==") || strstr(line, "rror");
}

static int shape_line(const char *line, const void *unused)
{
    (void)unused;
    line += strspn(line, " ");
    size_t digits = strspn(line, "0123456789");
    return digits && line[digits] == 'x' && line[digits + 1] >= '0' && line[digits + 1] <= '9';
}

/* The check's own line for the counters shape, its numbers dropped: what went wrong there. */
static void check_says(const char *line, char *out, size_t size)
{
    /* grade's sed dropped the first word, then every number, dot, minus and space */
    const char *p = line + strcspn(line, " ");
    p += strspn(p, "-0123456789. ");
    snprintf(out, size, "%s", p);
}

static void gpu_counters(options *o, int tests_passed)
{
    static char missing[1024], failed[1024], timed_failed[512], shape[64];
    char status[32], line[1024];
    snprintf(shape, sizeof shape, "%s", planned("counters_shape"));
    if (!shape[0])
        return;
    o->counters_shape = shape;
    if (planned("counters_missing")[0]) {
        snprintf(missing, sizeof missing, "%s", planned("counters_missing"));
    } else {
        o->counters = in_run("counters.csv");
        status_of("counters.status", status, sizeof status);
        if (first_line("counters.csv", contains, "ERR_NVGPUCTRPERM", line, sizeof line) ||
            first_line("counters.log", contains, "ERR_NVGPUCTRPERM", line, sizeof line)) {
            snprintf(missing, sizeof missing, "ncu may not read the GPU's counters here (ERR_NVGPUCTRPERM: profiling is "
                     "restricted to admin users; see https://developer.nvidia.com/ERR_NVGPUCTRPERM)");
        } else if (!strcmp(status, "0")) {
        } else if (strcmp(status, "2") && !first_line("counters.csv", ncu_error, NULL, line, sizeof line)) {
            /* ncu itself was fine: the student's launch failed or hung at the
             * counters shape. Lost, not left out: a kernel that special-cases a
             * shape must not leave the maximum (the check says what went wrong). */
            if (!strcmp(status, "124"))
                snprintf(failed, sizeof failed, "it did not finish within 90 s");
            else {
                char prefix[80], says[1024] = "";
                snprintf(prefix, sizeof prefix, "%s ", shape);
                if (first_line("counters.log", starts_with, prefix, line, sizeof line))
                    check_says(line, says, sizeof says);
                cut(says, 300);
                if (!says[0])
                    snprintf(says, sizeof says, "the kit's check failed (exit %s); see counters.log", status);
                snprintf(failed, sizeof failed, "%s (see it with build/%s --shape %s)", says, planned("lab"), shape);
            }
            o->counters_failed = failed;
            o->counters = NULL;
        } else {
            /* grep -m1 over both files: each file's first error line, without its file name */
            char csv_line[1024] = "", log_line[1024] = "";
            first_line("counters.csv", error_line, NULL, csv_line, sizeof csv_line);
            first_line("counters.log", error_line, NULL, log_line, sizeof log_line);
            snprintf(missing, sizeof missing, "ncu failed (exit %s): %s%s%s", status, cut(csv_line, 200),
                     csv_line[0] && log_line[0] ? "\n" : "", cut(log_line, 200));
        }
    }
    if (missing[0]) {
        o->counters_missing = missing;
        o->counters = NULL;
        /* said on stderr when ncu ran and every test passed (the report will want them);
         * an ncu not found is the report's alone */
        if (tests_passed && !planned("counters_missing")[0])
            fprintf(stderr, "grade: counters not checked: %s\n", missing);
        return;
    }
    if (!o->counters)
        return;
    /* At the timed shape: the same verdicts, for the report to compare. */
    if (exists("counters-timed.status")) {
        status_of("counters-timed.status", status, sizeof status);
        if (!strcmp(status, "0"))
            o->counters_timed = in_run("counters-timed.csv");
        else if (!strcmp(status, "124"))
            o->counters_timed_failed = "it did not finish within 90 s";
        else {
            if (!first_line("counters-timed.log", shape_line, NULL, timed_failed, sizeof timed_failed))
                snprintf(timed_failed, sizeof timed_failed, "the kit's check failed (exit %s); see counters-timed.log",
                         status);
            o->counters_timed_failed = cut(timed_failed, 300);
        }
    }
    if (exists("ffma-quarter.status")) {
        char dense[32];
        if (!strcmp(status_of("ffma-dense.status", dense, sizeof dense), "0") &&
            !strcmp(status_of("ffma-quarter.status", status, sizeof status), "0")) {
            o->ffma_dense = in_run("ffma-dense.csv");
            o->ffma_quarter = in_run("ffma-quarter.csv");
        } else
            o->ffma_failed = "your launch failed under ncu at the timed shape (see ffma-dense.log, ffma-quarter.log)";
    }
}

/* ---- CPU mode's counters, computed by its check -------------------------------- */

static void cpu_counters(options *o)
{
    static char failed[1024], shape[64];
    char line[1024] = "", prefix[80], status[32];
    snprintf(shape, sizeof shape, "%s", planned("cpu_counters_shape"));
    if (!shape[0])
        return;
    o->counters_shape = shape;
    snprintf(prefix, sizeof prefix, "%s (counters) ", shape);
    first_line("cpu-check.log", starts_with, prefix, line, sizeof line);
    const char *after = strstr(line, "(counters)") ? strstr(line, "(counters)") + strlen("(counters)") : "";
    after += strspn(after, " \t");
    if (!strncmp(after, "ok", 2) && (!after[2] || after[2] == ' ' || after[2] == '\t'))
        o->counters = in_run("counters.csv");
    else if (!after[0])
        snprintf(failed, sizeof failed, "CPU mode's check did not reach it (exit %s); see cpu-check.log",
                 status_of("cpu-check.status", status, sizeof status));
    else {
        char says[1024];
        snprintf(says, sizeof says, "%s", after);
        snprintf(failed, sizeof failed, "%s (see it with build/%s --cpu --shape %s)", cut(says, 300), planned("lab"),
                 shape);
    }
    if (failed[0])
        o->counters_failed = failed;
}

/* ---- the structure, from the PTX (ptx_structure.c, run in a child) ------------ */

/* ptx-structure ARGS... with its output in LOG, as the tool would write it; its exit status. */
/* The rubric's arithmetic is FP32 (read_run): tensor-pipe work the counts show is refused. */
static int fp32_arithmetic;

static int ptx_structure(const char *log, const char *ncu_csv, int dbuf)
{
    char *argv[9];
    int argc = 0;
    argv[argc++] = "ptx-structure";
    argv[argc++] = "--ptx";
    argv[argc++] = (char *)planned("ptx");
    if (dbuf)
        argv[argc++] = "--double-buffered";
    if (dbuf && fp32_arithmetic)
        argv[argc++] = "--fp32";
    if (ncu_csv) {
        argv[argc++] = "--ncu-csv";
        argv[argc++] = (char *)ncu_csv;
    }
    argv[argc] = NULL;
    char *path = in_run(log);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0)
            _exit(2);
        dup2(fd, 1);
        dup2(fd, 2);
        int status = ptx_structure_main(argc, argv);
        fflush(NULL);
        _exit(status);
    }
    free(path);
    int status = 2;
    if (pid > 0 && waitpid(pid, &status, 0) == pid)
        status = WIFEXITED(status) ? WEXITSTATUS(status) : 2;
    return status;
}

/* The text after `prefix` on the log's line that opens with it; "" when none. */
static void after_prefix(const char *log, const char *prefix, char *out, size_t size)
{
    char line[4096];
    out[0] = '\0';
    if (first_line(log, starts_with, prefix, line, sizeof line)) {
        const char *text = line + strlen(prefix);
        size_t n = strlen(text) < size ? strlen(text) : size - 1;
        memcpy(out, text, n);
        out[n] = '\0';
    }
}

static int kernel_line(const char *line, const void *unused)
{
    (void)unused;
    return !strncmp(line, "kernel ", 7) && strchr(line + 7, ':');
}

/* Judged per kernel from the PTX, on the kernels ncu saw the launch run;
 * without ncu's list, on every kernel in the file, and the report says so
 * (an unlaunched kernel then counts too). */
static void structure(options *o, int cpu)
{
    static char counts[1024], note[2048], dbuf[3072];
    if (planned("require")[0]) {
        int judged = 0;
        if (!cpu && o->counters)
            judged = ptx_structure("structure.log", o->counters, 0) <= 1;
        if (!judged)
            ptx_structure("structure.log", NULL, 0);
        if (cpu)
            snprintf(note, sizeof note, "judged on every kernel in the file: CPU mode has no ncu to say which kernels "
                                        "your launch ran");
        else if (!judged)
            snprintf(note, sizeof note, "judged on every kernel in the file: %s, so which kernels ran is not known",
                     o->counters_missing ? o->counters_missing : "ncu did not run");
        else {
            /* the kernels' names as ptx-structure printed them: "kernel NAME: ..." */
            char *path = in_run("structure.log"), *text = read_all(path);
            snprintf(note, sizeof note, "judged on the kernels your launch ran (ncu): ");
            int first = 1;
            for (char *line = text; line && *line;) {
                char *end = line + strcspn(line, "\n");
                if (kernel_line(line, NULL) && strchr(line + 7, ':') < end)
                    appendf(note, sizeof note, "%s%.*s", first ? "" : " ", (int)(strchr(line + 7, ':') - line - 7),
                            line + 7), first = 0;
                line = *end ? end + 1 : end;
            }
            free(path);
            free(text);
        }
        after_prefix("structure.log", "counts: ", counts, sizeof counts);
        if (counts[0]) {
            o->structure = counts;
            o->structure_note = note;
        }
    }
    /* Lab 5 part 3: double-buffered, judged on the kernels its launch ran. */
    const char *unit = planned(cpu ? "cpu_dbuf_unit" : "dbuf_unit");
    if (!unit[0])
        return;
    char csv[128], verdict[2048];
    snprintf(csv, sizeof csv, "kernels-%s.csv", unit);
    int judged = 0;
    if (!cpu && not_empty(csv)) {
        char *path = in_run(csv);
        judged = ptx_structure("double-buffered.log", path, 1) <= 1;
        free(path);
    }
    if (!judged)
        ptx_structure("double-buffered.log", NULL, 1);
    after_prefix("double-buffered.log", "double-buffered: ", verdict, sizeof verdict);
    if (!verdict[0])
        snprintf(dbuf, sizeof dbuf, "unverified: the PTX could not be read (see %s/double-buffered.log)", run_dir);
    else if (cpu)
        snprintf(dbuf, sizeof dbuf, "%s (judged on every kernel in the file: CPU mode has no ncu)", verdict);
    else if (!judged)
        snprintf(dbuf, sizeof dbuf, "%s (judged on every kernel in the file: ncu could not list the kernels part 3 ran; "
                 "see %s/kernels-%s.log)", verdict, run_dir, unit);
    else
        snprintf(dbuf, sizeof dbuf, "%s", verdict);
    o->double_buffered = dbuf;
}

/* ---- CPU mode: what it could not run, and the note ----------------------------- */

static int unsupported_in(const char *name, char *out, size_t size)
{
    static const char says[] = "not supported in CPU mode: ";
    char line[4096];
    if (!first_line(name, contains, says, line, sizeof line))
        return 0;
    const char *p = strstr(line, says) + strlen(says);
    size_t len = strcspn(p, "\"(");
    while (len && p[len - 1] == ' ')
        len--;
    p += strspn(p, " ");
    snprintf(out, size, "%.*s", (int)(len - (size_t)(p - (strstr(line, says) + strlen(says)))), p);
    return 1;
}

static int by_text(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shapes the tests' log says CPU mode capped: "X as Y, ..." (sorted, each once). */
static void capped_shapes(char *out, size_t size)
{
    char *path = in_run("tests.log"), *text = read_all(path), *items[256];
    int n = 0;
    free(path);
    out[0] = '\0';
    for (char *line = text; line && *line;) {
        char *end = line + strcspn(line, "\n"), saved = *end;
        *end = '\0';
        /* "CPU mode: X capped to Y ...", the last " capped to " followed by a word and a space */
        char *at = NULL;
        if (!strncmp(line, "CPU mode: ", 10))
            for (char *c = strstr(line + 10, " capped to "); c; c = strstr(c + 1, " capped to ")) {
                char *word = c + strlen(" capped to ");
                if (word[strcspn(word, " ")] == ' ')
                    at = c;
            }
        if (at && n < 256) {
            char *word = at + strlen(" capped to "), item[1024];
            snprintf(item, sizeof item, "%.*s as %.*s", (int)(at - line - 10), line + 10, (int)strcspn(word, " "), word);
            items[n++] = strdup(item);
        }
        *end = saved;
        line = *end ? end + 1 : end;
    }
    free(text);
    qsort(items, (size_t)n, sizeof *items, by_text);
    for (int i = 0, shown = 0; i < n; i++) {
        if (i && !strcmp(items[i], items[i - 1]))
            continue;
        if (shown++)
            appendf(out, size, ", ");
        for (const char *c = items[i]; *c; c++)   /* as grade's `paste -sd,` then `sed 's/,/, /g'` */
            appendf(out, size, "%s", *c == ',' ? ", " : (char[]){*c, 0});
    }
    for (int i = 0; i < n; i++)
        free(items[i]);
}

/* The CPU checks' logs, cpu-check*.log, in the order a shell glob lists them. */
static int cpu_check_logs(char names[][64], int max)
{
    int n = 0;
    DIR *d = opendir(run_dir);
    for (struct dirent *e; d && (e = readdir(d)) && n < max;) {
        size_t len = strlen(e->d_name);
        if (!strncmp(e->d_name, "cpu-check", 9) && len >= 13 && len < 64 && !strcmp(e->d_name + len - 4, ".log"))
            snprintf(names[n++], 64, "%s", e->d_name);
    }
    if (d)
        closedir(d);
    qsort(names, (size_t)n, sizeof names[0], (int (*)(const void *, const void *))strcmp);
    return n;
}

/* CPU mode: -1 (o->problem says why) when the file uses what CPU mode does not run. */
static int cpu_run(options *o)
{
    static char problem[1024], note[2048];
    char what[512] = "", logs[32][64];
    /* A file that uses what CPU mode does not run is not graded here: a GPU must. */
    int found = unsupported_in("tests.json", what, sizeof what);
    for (int i = 0, n = cpu_check_logs(logs, 32); !found && i < n; i++)
        found = unsupported_in(logs[i], what, sizeof what);
    if (found) {
        snprintf(problem, sizeof problem, "your file uses what CPU mode does not run (%s); grade it on a GPU "
                 "(README: No GPU? CPU mode).", what);
        fprintf(stderr, "grade: %s\n", problem);
        o->problem = problem;
        o->quiet = 1;
        return -1;
    }
    cpu_counters(o);
    structure(o, 1);
    char capped[1024];
    capped_shapes(capped, sizeof capped);
    snprintf(note, sizeof note, "Nothing was timed. Every case ran on the CPU, one fiber per CUDA thread, in thread "
             "order and again shuffled; a case larger than about 2100x2100 elements (a matmul: 2^25 multiply-adds) ran "
             "with each side halved until it fits%s%s%s. The sanitizer items are CPU mode's own checks (race: racecheck; "
             "barrier: synccheck; out of bounds: memcheck)%s.", capped[0] ? " (this run: " : "", capped,
             capped[0] ? ")" : "", o->counters_shape ? ", and the counters are computed by the hardware's rules, not read by ncu" : "");
    o->cpu_mode = note;
    o->sanitizers = run_dir;
    o->measure_status = 0;
    return 0;
}

int read_run(options *o, const tl_rubric *r)
{
    char status[32];
    run_dir = o->run;
    read_plan(run_dir);
    fp32_arithmetic = !strcmp(r->arithmetic, "fp32");
    if (o->cpu_mode && cpu_run(o) != 0)
        return -1;   /* could not grade: o->problem, and nothing else */
    if (exists("device.json"))
        o->device_json = in_run("device.json");
    o->tests_json = in_run("tests.json");
    o->tests_log = in_run("tests.log");
    if (o->cpu_mode)
        return 0;
    o->measure_json = in_run("measure.json");
    o->measure_status = atoi(status_of("measure.status", status, sizeof status));
    char *retried = in_run("retried-alone.txt");
    o->retried_alone = read_all(retried);   /* the kit's shell wrote it, never the student's code */
    free(retried);
    if (r->nunits && r->speedup_unit[0]) {
        char name[64];
        snprintf(name, sizeof name, "measure-%s.json", r->speedup_unit);
        o->measure_part_json = in_run(name);
    }
    if (planned("sanitizer")[0])
        o->sanitizers = run_dir;
    else if (planned("sanitizer_missing")[0])
        o->sanitizer_missing = planned("sanitizer_missing");
    if (not_empty("contrast.csv"))
        o->contrast_counters = in_run("contrast.csv");
    gpu_counters(o, !strcmp(status_of("tests.status", status, sizeof status), "0"));
    structure(o, 0);
    return 0;
}

/* ---- a step of the file's that failed (--step-failed STEP --step-status N) ------ */

/* TEXT with every `from` replaced by `to`, into out. */
static void renamed(const char *text, const char *from, const char *to, char *out, size_t size)
{
    size_t used = 0, len = strlen(from);
    out[0] = '\0';
    for (const char *p = text; *p && used + 1 < size;) {
        const char *at = len ? strstr(p, from) : NULL;
        size_t keep = at ? (size_t)(at - p) : strlen(p);
        used += (size_t)snprintf(out + used, size - used, "%.*s%s", (int)keep, p, at ? to : "");
        if (used >= size)
            break;
        p = at ? at + len : p + keep;
    }
}

/* ---- a compile error shows the student's own file only ---------------------
 * A message the compiler gives about another file quotes that file (its line,
 * the words it could not parse): an #include the check before the build could
 * not see (`#include MACRO`) would show a file that is not the student's. Each
 * message of build.log is kept when its place is the student's file (as the
 * student named it, the grader's copy, the link it is built through), the
 * file's own folder, the kit's public headers, the toolkit's or the system's
 * headers; any other place's message and the lines quoted under it are cut,
 * its file named. */

static int inside(const char *real, const char *folder)
{
    size_t n = strlen(folder);
    return n && !strncmp(real, folder, n) && (real[n] == '/' || real[n] == '\0' || folder[n - 1] == '/');
}

/* The folder of PATH, resolved (NULL when it cannot be). */
static char *real_folder(const char *path)
{
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    char *slash = strrchr(copy, '/');
    if (slash)
        *slash = '\0';
    return realpath(slash ? (copy[0] ? copy : "/") : ".", NULL);
}

/* Whether the file at PLACE may be quoted to the student. */
static int quotable(const char *place, const char *const names[], int nnames)
{
    for (int i = 0; i < nnames; i++)
        if (names[i][0] && !strcmp(place, names[i]))
            return 1;
    char *real = realpath(place, NULL);
    if (!real)
        return 1;   /* not a file: a word of the message, not a place */
    int ok = 0;
    char cuda[4096], *folder;
    for (int i = 0; i < nnames && !ok; i++)
        if (names[i][0] && (folder = real_folder(names[i]))) {
            ok = inside(real, folder);
            free(folder);
        }
    const char *copy = planned("student_copy");
    if (!ok && copy[0] && (folder = real_folder(copy))) {   /* BIN/src: its folder's public/ beside it */
        char pub[4200];
        snprintf(pub, sizeof pub, "%s/../public", folder);
        free(folder);
        char *p = realpath(pub, NULL);
        ok = p && inside(real, p);
        free(p);
    }
    snprintf(cuda, sizeof cuda, "%s", planned("cuda_home"));
    char *cuda_real = cuda[0] ? realpath(cuda, NULL) : NULL;
    if (!ok && cuda_real)
        ok = inside(real, cuda_real);
    free(cuda_real);
    static const char *const system[] = {"/usr/include", "/usr/lib/gcc", "/usr/local/include", "/usr/local/cuda"};
    for (size_t i = 0; i < sizeof system / sizeof *system && !ok; i++) {
        char *s = realpath(system[i], NULL);
        ok = s && inside(real, s);
        free(s);
    }
    free(real);
    return ok;
}

/* The file a compiler message is about: LINE starts with it, then ":N" or "(N)" (gcc's
 * "FILE:N:M: error", nvcc's "FILE(N): error", "In file included from FILE:N"); "" when none. */
static void place_of(const char *line, char *place, size_t size)
{
    static const char *const lead[] = {"In file included from ", "                 from "};
    place[0] = '\0';
    for (size_t i = 0; i < sizeof lead / sizeof *lead; i++)
        if (!strncmp(line, lead[i], strlen(lead[i])))
            line += strlen(lead[i]);
    for (const char *p = line; *p; p++) {
        int at = (p[0] == ':' && p[1] >= '0' && p[1] <= '9') || (p[0] == '(' && p[1] >= '0' && p[1] <= '9');
        if (!at)
            continue;
        size_t n = (size_t)(p - line);
        if (n == 0 || n >= size)
            continue;
        snprintf(place, size, "%.*s", (int)n, line);
        struct stat st;
        if (stat(place, &st) == 0 && S_ISREG(st.st_mode))
            return;   /* the longest prefix would do too; the first that is a file is the place */
        place[0] = '\0';
    }
}

/* LINE of build.log as the student may see it, or NULL when it is cut; CUT says
 * whether the message it belongs to is. */
static const char *shown_line(const char *line, const char *const names[], int nnames, int *cut)
{
    static char said[4200], last_cut[4096];
    char place[4096];
    place_of(line, place, sizeof place);
    if (place[0]) {
        int was_cut = *cut;
        *cut = !quotable(place, names, nnames);
        if (!*cut)
            return line;
        if (was_cut && !strcmp(place, last_cut))
            return NULL;
        snprintf(last_cut, sizeof last_cut, "%s", place);
        snprintf(said, sizeof said, "%s: (the compiler's message about this file is cut: it is not your file, nor a "
                 "header a lab file may include)", place);
        return said;
    }
    if (*cut && line[0] != ' ' && line[0] != '\t' && line[0])
        *cut = 0;   /* an unindented line of no place ends the message ("1 error detected ...") */
    return *cut ? NULL : line;
}

/* The compiler's own lines of build.log, without make's, naming the file as the student
 * does (not the grader's copy of it, nor the link a name with spaces is built through). */
static void compiler_errors(options *o)
{
    char *log = in_run("build.log"), *text = read_all(log), *errors = in_run("build-errors.log");
    FILE *f = fopen(errors, "w");
    const char *file = o->source, *link = planned("build_src"), *copy = planned("student_copy");
    const char *const names[] = {file, link, copy};
    int cut = 0;
    for (char *line = text; f && line && *line;) {
        char *end = line + strcspn(line, "\n"), saved = *end;
        *end = '\0';
        if (strncmp(line, "make", 4) && strncmp(line, "  NVCC  ", 8) && strncmp(line, "  CC    ", 8) &&
            strncmp(line, "  PTX   ", 8)) {
            const char *shown = shown_line(line, names, 3, &cut);
            /* at most every byte a match, each replaced by the file's name */
            size_t size = shown ? (strlen(shown) + 1) * (strlen(file) + 1) + 1 : 1;
            char *a = malloc(size), *b = malloc(size);
            if (shown) {
                renamed(shown, copy, file, a, size);
                if (strcmp(link, file))
                    renamed(a, link, file, b, size);
                fprintf(f, "%s\n", strcmp(link, file) ? b : a);
            }
            free(a);
            free(b);
        }
        *end = saved;
        line = *end ? end + 1 : end;
    }
    if (f)
        fclose(f);
    free(log);
    free(text);
    o->build_log = errors;
}

static int out_of_memory(const char *line, const void *unused)
{
    static const char *says[] = {"virtual memory exhausted", "out of memory", "bad_alloc", "Cannot allocate memory",
                                 "Loop in catastrophic error processing"};
    (void)unused;
    for (size_t i = 0; i < sizeof says / sizeof says[0]; i++)
        if (strcasestr(line, says[i]))
            return 1;
    return 0;
}

static int cpu_refusal(const char *line, const void *unused)
{
    (void)unused;
    return strstr(line, "not supported in CPU mode") || strstr(line, "error");
}

int read_failed_step(options *o, const char *step, int status)
{
    static char problem[8192];
    char what[1024], line[1024];
    run_dir = o->run;
    read_plan(run_dir);
    if (!strcmp(step, "includes") || !strcmp(step, "object")) {   /* build/tools/inspect (grader/inspect.c) */
        if (exists("device.json"))
            o->device_json = in_run("device.json");
        if (status == 1) {   /* its findings cost every point */
            o->not_allowed_file = in_run("inspect.txt");
            return 0;
        }
        char *log = in_run("inspect.log"), *text = read_all(log);
        size_t len = text ? strlen(text) : 0;
        while (len && text[len - 1] == '\n')   /* as $(cat) gave it */
            text[--len] = '\0';
        /* The inspection runs bounded as the build does (grade: rubric build_timeout_s, build_memory_mb). */
        if (status == 124 || status == 137)
            snprintf(problem, sizeof problem, "the grader's inspection hit the grader's build limit: reading your "
                     "compiled file did not finish in %s s. Next: a file with many thousands of host functions "
                     "(template instances that instantiate one another, macros that expand into copies) is not "
                     "one a lab needs; write the loop as a loop.", planned("build_timeout_s"));
        else if (text && strstr(text, "out of memory"))
            snprintf(problem, sizeof problem, "the grader's inspection hit the grader's build limit: reading your "
                     "compiled file ran out of its %s MiB. Next: a file with many thousands of host functions "
                     "(template instances that instantiate one another, macros that expand into copies) is not "
                     "one a lab needs; write the loop as a loop.", planned("build_memory_mb"));
        if (problem[0]) {
            fprintf(stderr, "grade: %s\n", problem);
            free(log);
            free(text);
            o->device_json = NULL;
            o->problem = problem;
            o->quiet = 1;
            return 0;
        }
        if (!strcmp(step, "object"))
            fprintf(stderr, "%s\n", text ? text : "");
        snprintf(problem, sizeof problem, "the grader's inspector could not read your %s (not your file's fault): %s",
                 strcmp(step, "object") ? "file" : "compiled file", text ? text : "");
        free(log);
        free(text);
        o->device_json = NULL;
        o->problem = problem;
        o->quiet = 1;
        return 0;
    }
    snprintf(what, sizeof what, "building %s%s", o->source, !strcmp(step, "cpu") ? " for CPU mode" : "");
    if (strcmp(step, "grader")) {   /* the file's own builds run bounded: did they end at a limit? */
        if (status == 124 || status == 137)
            snprintf(problem, sizeof problem, "the compiler hit the grader's build limit: the compiler did not finish in "
                     "%s s (%s). Next: a kernel body so large that nvcc cannot finish it is not one a lab needs; look "
                     "for macros that expand into many copies of a statement.", planned("build_timeout_s"), what);
        /* nvcc's front end, out of memory, can fail while reporting it ("Loop in catastrophic error processing") */
        else if (first_line("build.log", out_of_memory, NULL, line, sizeof line))
            snprintf(problem, sizeof problem, "the compiler hit the grader's build limit: it ran out of its %s MiB (%s). "
                     "Next: look for an #include of something that is not a header, or macros that expand without end.",
                     planned("build_memory_mb"), what);
        if (problem[0]) {
            fprintf(stderr, "grade: %s\n", problem);
            o->problem = problem;
            o->quiet = 1;
            return 0;
        }
    }
    if (!strcmp(step, "cpu")) {   /* nvcc compiled the file: this is CPU mode's limit, not the student's error */
        char first[1024] = "";
        first_line("build.log", cpu_refusal, NULL, first, sizeof first);
        snprintf(problem, sizeof problem, "your file compiles with nvcc but not for CPU mode, which runs only what the "
                 "labs use: %s (see %s/build.log). Grade it on a GPU.", cut(first, 300), run_dir);
        o->problem = problem;
        return 0;
    }
    compiler_errors(o);
    if (exists("device.json"))
        o->device_json = in_run("device.json");
    return 0;
}

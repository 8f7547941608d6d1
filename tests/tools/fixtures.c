/*
 * The table of graded submissions (tests/gpu/fixtures.c), checked without a
 * GPU: every fixture under tests/submissions/ has a well-formed `expect:`
 * header and says what CPU mode answers (`expect-cpu:`) or why it cannot, every
 * patch applies cleanly to its lab's solution, every lab has its solution
 * and skeleton rows, and no fixture file is left out of the table (a file
 * the suite would silently ignore). The format: tests/submissions/README.md.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../gpu/fixtures.h"
#include "tool.h"

static fixture *table;
static int rows;

static void load(void)
{
    char err[256];
    rows = fixtures_load(&table, err, sizeof err);
    cr_assert(rows > 0, "the GPU suite's table is empty: %s", rows < 0 ? err : "no rows");
}

static void unload(void)
{
    free(table);
}

TestSuite(fixtures, .init = load, .fini = unload);

Test(fixtures, every_fixture_has_a_well_formed_header)
{
    for (int i = 0; i < rows; i++)
        cr_expect(!table[i].error[0], "%s: %s", table[i].name, table[i].error);
}

static const fixture *row_named(const char *name)
{
    for (int i = 0; i < rows; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

/* The labs are the rubrics; each has both rows, with what the kit promises. */
Test(fixtures, every_lab_has_its_solution_at_full_marks_and_its_skeleton_at_zero)
{
    glob_t g;
    cr_assert_eq(glob("labs/*/lab.rubric", 0, NULL, &g), 0, "no labs/*/lab.rubric");
    int labs = 0;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *folder = g.gl_pathv[i] + strlen("labs/");   /* labs/<id>-<name>/lab.rubric */
        int n = (int)strcspn(folder, "-");
        labs++;
        char name[128];
        snprintf(name, sizeof name, "%.*s/solution", n, folder);
        const fixture *s = row_named(name);
        cr_expect(s && s->expect.exit_status == 0 && s->expect.min_score == 100 && s->expect.max_score == 100 && s->graded[0],
                  "%s: a solution must be expected at exit 0, score 100%s", name, s ? "" : " (no such row)");
        /* A lab CPU mode does not run yet (lab 7) says so on both rows, with the reason. */
        int cpu_lab = s && !s->cpu_skip[0];
        cr_expect(!cpu_lab || (s->cpu.exit_status == 0 && s->cpu.full),
                  "%s: in CPU mode too, a solution must be expected at exit 0, score max (all of what CPU mode grades)", name);
        snprintf(name, sizeof name, "%.*s/skeleton", n, folder);
        s = row_named(name);
        cr_expect(s && s->expect.exit_status == 1 && s->expect.min_score == 0 && s->expect.max_score == 0 && s->graded[0],
                  "%s: a skeleton must be expected at exit 1, score 0%s", name, s ? "" : " (no such row)");
        cr_expect(!s || (cpu_lab ? !s->cpu_skip[0] && s->cpu.exit_status == 1 && !s->cpu.full && s->cpu.max_score == 0
                                 : s->cpu_skip[0] != '\0'),
                  "%s: in CPU mode too, a skeleton must be expected at exit 1, score 0 (or skipped with its solution)", name);
    }
    globfree(&g);
    cr_assert_gt(labs, 0, "no lab in labs/");
}

/* Every row says what ./grade --cpu answers (expect-cpu:, or a lab row's
 * default), or why CPU mode cannot grade it as a GPU does (expect-cpu-skip:),
 * and not both: CPU mode's suite (tests/cpu/grade.c) grades the same table,
 * so a new fixture cannot leave CPU mode out by forgetting. */
Test(fixtures, every_row_says_what_cpu_mode_answers)
{
    for (int i = 0; i < rows; i++)
        cr_expect(table[i].has_cpu != !!table[i].cpu_skip[0], "%s: %s", table[i].name,
                  table[i].has_cpu ? "both expect-cpu: and expect-cpu-skip:" : "neither expect-cpu: nor expect-cpu-skip:");
}

/* Applies as it is, to the file it names: no offset, no fuzz, one file. */
Test(fixtures, every_patch_applies_cleanly_to_its_solution)
{
    int patches = 0;
    for (int i = 0; i < rows; i++) {
        const fixture *f = &table[i];
        if (!f->is_patch || !f->solution[0])
            continue;
        patches++;
        char cmd[1024], target[FX_TEXT + 16];
        snprintf(cmd, sizeof cmd, "patch --dry-run --fuzz=0 -f %s < %s > build/tests/fixture-patch.log 2>&1",
                 f->solution, f->path);
        int status = tool_sh(cmd);
        const char *log = tool_read("build/tests/fixture-patch.log", NULL);
        cr_expect(status == 0 && !strstr(log, "offset") && !strstr(log, "fuzz") && !strstr(log, "FAILED"),
                  "%s does not apply cleanly to %s (patch --dry-run --fuzz=0):\n%s"
                  "Remake it: diff -u --label a/%s --label b/%s %s YOUR_COPY, under its header", f->path,
                  f->solution, log, f->solution, f->solution, f->solution);

        /* The file it patches is its lab's solution, and the only one. */
        char *text = tool_read(f->path, NULL);
        snprintf(target, sizeof target, "\n--- a/%s\n", f->solution);
        const char *first = strstr(text, "\n--- ");
        cr_expect(first && strncmp(first, target, strlen(target)) == 0, "%s: its first file is not a/%s", f->path,
                  f->solution);
        cr_expect(first && !strstr(first + 1, "\n--- "), "%s patches more than one file", f->path);
    }
    cr_assert_gt(patches, 0, "no patch fixture found");
}

/* Two rows must never write the same patched file or run folder: the suite
 * runs four at a time. */
Test(fixtures, rows_write_apart)
{
    for (int i = 0; i < rows; i++)
        for (int j = i + 1; j < rows; j++) {
            cr_expect(strcmp(table[i].run, table[j].run) != 0, "%s and %s share the run folder %s", table[i].name,
                      table[j].name, table[i].run);
            cr_expect(!table[i].is_patch || !table[j].is_patch || strcmp(table[i].graded, table[j].graded) != 0,
                      "%s and %s are both patched into %s", table[i].name, table[j].name, table[i].graded);
        }
}

static int in_table(const char *path)
{
    for (int i = 0; i < rows; i++)
        if (strcmp(table[i].path, path) == 0)
            return 1;
    return 0;
}

/* Every file under `dir`, recursively, must be some row's fixture. */
static void expect_covered(const char *dir, int *files)
{
    DIR *d = opendir(dir);
    cr_assert(d, "cannot read %s", dir);
    for (struct dirent *e; (e = readdir(d));) {
        char path[2 * FX_TEXT];
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        /* static/: inspector fixtures (tests/tools/inspect.c); README.md: the format. */
        if (strcmp(path, FIXTURES_DIR "/static") == 0 || strcmp(path, FIXTURES_DIR "/README.md") == 0)
            continue;
        cr_assert_eq(stat(path, &st), 0, "cannot stat %s", path);
        if (S_ISDIR(st.st_mode))
            expect_covered(path, files);
        else {
            (*files)++;
            cr_expect(in_table(path), "%s is in no row of the GPU suite's table: a fixture sits in "
                      "tests/submissions/labN/, attacks/labN/ or fair/labN/ of a lab with a rubric, and is a "
                      ".patch, a .cu or a .expect (tests/submissions/README.md)", path);
        }
    }
    closedir(d);
}

Test(fixtures, the_table_covers_every_fixture_file)
{
    int files = 0;
    expect_covered(FIXTURES_DIR, &files);
    cr_assert_gt(files, 0, "no file under " FIXTURES_DIR);
}

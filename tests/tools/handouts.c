/*
 * build/tools/rubric-table (tools/handouts/rubric_table.c): every lab's handout holds
 * its points table and its calibration table, each exactly as the lab's
 * rubric generates it, so the handouts and the grader cannot drift apart,
 * and no other line sends students into grader/;
 * a changed rubric is caught (--check, exit 1, naming the table) and written
 * in (--update, `make handout-tables`); a marker quoted in a code block is
 * text; a table without its end line is an error (exit 2). Host-only; runs from the repository root, as `make
 * tool-tests` does.
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#define WORK "build/tests/handouts"
#define TOOL "build/tools/rubric-table"

/* `text` as WORK/NAME.md, and the tool's exit status on it with MODE
 * (--check, --update); what it printed in WORK/NAME.log. */
static int run_on(const char *name, const char *text, const char *mode)
{
    char path[PATH_MAX], cmd[3 * PATH_MAX];
    tool_make("mk/handouts.mk", TOOL, WORK);
    snprintf(path, sizeof path, WORK "/%s.md", name);
    FILE *f = fopen(path, "w");
    cr_assert(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, TOOL " %s %s > " WORK "/%s.log 2>&1", mode, path, name);
    return tool_sh(cmd);
}

Test(handouts, every_lab_handout_has_both_tables)
{
    glob_t rubrics;
    cr_assert_eq(glob("labs/*/lab.rubric", 0, NULL, &rubrics), 0, "no labs/*/lab.rubric");
    for (size_t i = 0; i < rubrics.gl_pathc; i++) {
        char id[64], pattern[PATH_MAX], marker[128];
        const char *folder = rubrics.gl_pathv[i] + strlen("labs/");   /* labs/<id>-<name>/lab.rubric */
        snprintf(id, sizeof id, "%.*s", (int)strcspn(folder, "-"), folder);
        snprintf(pattern, sizeof pattern, "handouts/%s-*.md", id);
        glob_t handout;
        cr_assert_eq(glob(pattern, 0, NULL, &handout), 0, "%s has no handout (%s)", id, pattern);
        cr_assert_eq(handout.gl_pathc, 1, "%s: more than one handout matches %s", id, pattern);
        const char *text = tool_read(handout.gl_pathv[0], NULL);
        snprintf(marker, sizeof marker, "<!-- rubric-table %s points", id);
        cr_expect(strstr(text, marker), "%s has no points table ('%s ... -->' and '<!-- rubric-table end -->')",
                  handout.gl_pathv[0], marker);
        snprintf(marker, sizeof marker, "<!-- rubric-table %s calibration", id);
        cr_expect(strstr(text, marker), "%s has no calibration table for its Compare section ('%s ... -->')",
                  handout.gl_pathv[0], marker);
        for (const char *at = strstr(text, "grader/"); at; at = strstr(at + 1, "grader/")) {
            const char *line = at;
            while (line > text && line[-1] != '\n')
                line--;
            cr_expect(!strncmp(line, "<!-- rubric-table", 17), "%s sends students into the grader's files: %.*s",
                      handout.gl_pathv[0], (int)strcspn(line, "\n"), line);
        }
        globfree(&handout);
    }
    globfree(&rubrics);
}

Test(handouts, every_table_matches_its_rubric)
{
    tool_make("mk/handouts.mk", TOOL, WORK);
    int status = tool_sh(TOOL " --check handouts/*.md > " WORK "/check.log 2>&1");
    cr_expect_eq(status, 0, "the handouts' tables differ from the rubrics (exit %d); run make handout-tables:\n%s",
                 status, tool_read(WORK "/check.log", NULL));
}

/* A rubric changed after the handout was written: --check names the table,
 * --update writes it in, and only that table changes. */
Test(handouts, a_changed_rubric_is_caught_and_written_in)
{
    tool_make("mk/handouts.mk", TOOL, WORK);
    int status = tool_sh("set -e; d=" WORK "/changed; rm -rf $d; mkdir -p $d/rubrics; "
                         "for f in labs/*/lab.rubric; do id=${f#labs/}; cp $f $d/rubrics/${id%%-*}.rubric; done; "
                         "sed -i 's/^perf_high .*/perf_high 0.125/' $d/rubrics/lab1.rubric; "
                         "cp handouts/lab1-*.md $d/lab1.md");
    cr_assert_eq(status, 0, "could not set up " WORK "/changed");

    status = tool_sh(TOOL " --rubrics " WORK "/changed/rubrics --check " WORK "/changed/lab1.md > " WORK
                     "/changed/check.log 2>&1");
    const char *log = tool_read(WORK "/changed/check.log", NULL);
    cr_expect_eq(status, 1, "--check on a stale table exited %d, not 1:\n%s", status, log);
    cr_expect(strstr(log, "the lab1 points table differs"), "--check does not name the stale table:\n%s", log);
    cr_expect(!strstr(log, "calibration table differs"), "--check names a table that did not change:\n%s", log);

    status = tool_sh(TOOL " --rubrics " WORK "/changed/rubrics --update " WORK "/changed/lab1.md > " WORK
                     "/changed/update.log 2>&1");
    log = tool_read(WORK "/changed/update.log", NULL);
    cr_expect_eq(status, 0, "--update exited %d:\n%s", status, log);
    cr_expect(strstr(log, "1 table rewritten"), "--update should rewrite one table:\n%s", log);
    cr_expect(strstr(tool_read(WORK "/changed/lab1.md", NULL), "| 0.125 of copy or more |"),
              "the rewritten table does not show the new threshold");

    status = tool_sh(TOOL " --rubrics " WORK "/changed/rubrics --check " WORK "/changed/lab1.md > " WORK
                     "/changed/check.log 2>&1");
    cr_expect_eq(status, 0, "--check after --update exited %d:\n%s", status,
                 tool_read(WORK "/changed/check.log", NULL));
}

/* A marker quoted in a code block (as the instructors' handout does) is text. */
Test(handouts, a_marker_in_a_code_block_is_text)
{
    int status = run_on("quoted", "# How\n\n```\n<!-- rubric-table lab1 points -->\n...\n"
                                  "<!-- rubric-table end -->\n```\n", "--check");
    cr_expect_eq(status, 0, "exited %d, not 0:\n%s", status, tool_read(WORK "/quoted.log", NULL));
}

Test(handouts, a_table_without_its_end_is_an_error)
{
    int status = run_on("open", "# A handout\n\n<!-- rubric-table lab1 points -->\n| stale |\n", "--update");
    const char *log = tool_read(WORK "/open.log", NULL);
    cr_expect_eq(status, 2, "exited %d, not 2:\n%s", status, log);
    cr_expect(strstr(log, "open.md:3: the lab1 points table has no '<!-- rubric-table end -->' line"),
              "the error does not name the file, line and table:\n%s", log);
    cr_expect(strstr(tool_read(WORK "/open.md", NULL), "| stale |"), "the handout was changed despite the error");
}

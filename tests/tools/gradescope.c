/*
 * The Gradescope autograder (make gradescope LAB=lab2, grader/gradescope/):
 * the zip unpacked as Gradescope unpacks it, into a fake /autograder tree in
 * a temporary folder (AUTOGRADER_ROOT), and run_autograder run on a
 * submission. Pinned: results.json is always there, valid JSON with
 * output_format; a .cu file under any name is graded as the lab's file (here,
 * without a GPU: "could not grade", no usable NVIDIA GPU, the honest outcome);
 * no .cu or several give "could not grade" naming the files found; the modes
 * not built yet say so; a grade that dies still leaves a results.json.
 *
 * Each test works in its own temporary folder, removed when it passes and
 * kept, named in the message, when it fails.
 */
#include <criterion/criterion.h>
#include "json.h"
#include "tool.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char gs_dir[256];   /* this test's temporary folder; the tree is gs_dir/ag */

/* A file of the test's folder, whole (empty when missing). */
static const char *gs_read(const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", gs_dir, file);
    return tool_read(path, NULL);
}

/* make gradescope LAB=lab2, unpacked into gs_dir/ag/source, with an empty ag/submission. */
static void gs_unpack(void)
{
    if (tool_sh("command -v zip >/dev/null || command -v bsdtar >/dev/null || command -v 7z >/dev/null") != 0)
        cr_skip_test("no zip tool (zip, bsdtar or 7z): make gradescope not tried; apt-get install zip");
    const char *unpack = tool_sh("command -v unzip >/dev/null") == 0 ? "unzip -q"
                       : tool_sh("command -v bsdtar >/dev/null") == 0 ? "bsdtar -xf" : NULL;
    if (!unpack)
        cr_skip_test("neither unzip nor bsdtar: the zip cannot be unpacked here; apt-get install unzip");
    const char *tmp = getenv("TMPDIR");
    snprintf(gs_dir, sizeof gs_dir, "%.200s/tilelab-gradescope-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert(mkdtemp(gs_dir), "cannot make a temporary folder %s", gs_dir);
    char cmd[2048], cwd[1024];
    cr_assert(getcwd(cwd, sizeof cwd));
    snprintf(cmd, sizeof cmd, "make -s --no-print-directory gradescope LAB=lab2 > %s/make.log 2>&1", gs_dir);
    cr_assert_eq(tool_sh(cmd), 0, "make gradescope LAB=lab2 failed:\n%s", gs_read("make.log"));
    snprintf(cmd, sizeof cmd, "mkdir -p %s/ag/source %s/ag/submission && cd %s/ag/source && "
             "%s %s/results/dist/tilelab-gradescope-lab2.zip && ls -A > ../../top",
             gs_dir, gs_dir, gs_dir, unpack, cwd);
    cr_assert_eq(tool_sh(cmd), 0, "cannot unpack results/dist/tilelab-gradescope-lab2.zip into %s/ag/source", gs_dir);
    cr_assert_str_eq(gs_read("top"), "autograder.conf\nrun_autograder\nsetup.sh\ntilelab\n",
                     "the zip's root holds setup.sh, run_autograder, autograder.conf and tilelab/ (%s)", gs_dir);
    cr_assert(strstr(gs_read("ag/source/autograder.conf"), "\nlab=lab2\n") &&
              strstr(gs_read("ag/source/autograder.conf"), "\nmode=local\n"), "%s", gs_read("ag/source/autograder.conf"));
}

/* A file in the submission folder (PATH may hold a subfolder), with TEXT. */
static void gs_submit(const char *path, const char *text)
{
    char full[1024], cmd[1200];
    snprintf(full, sizeof full, "%s/ag/submission/%s", gs_dir, path);
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", full);
    cr_assert_eq(tool_sh(cmd), 0);
    FILE *f = fopen(full, "w");
    cr_assert(f, "cannot write %s", full);
    fputs(text, f);
    fclose(f);
}

/* run_autograder as Gradescope runs it (its own copy, from /autograder); its
 * parsed results.json, which must exist and be valid JSON with output_format. */
static tl_json *gs_run(void)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cp %s/ag/source/run_autograder %s/ag/run_autograder && cd %s/ag && "
             "env -u TILELAB_CALLER_DIR AUTOGRADER_ROOT=%s/ag sh ./run_autograder > ../run.log 2>&1",
             gs_dir, gs_dir, gs_dir, gs_dir);
    int status = tool_sh(cmd);
    cr_assert_eq(status, 0, "run_autograder exited %d:\n%s", status, gs_read("run.log"));
    char path[512], err[256] = "";
    snprintf(path, sizeof path, "%s/ag/results/results.json", gs_dir);
    tl_json *r = tl_json_parse_file(path, err, sizeof err);
    cr_assert(r && r->type == TL_JSON_OBJECT, "results.json missing or not a JSON object (%s): %s\n%s", path, err,
              gs_read("run.log"));
    cr_assert_str_eq(tl_json_string(r, "output_format", ""), "text", "%s", gs_read("ag/results/results.json"));
    cr_assert(tl_json_get(r, "score") && tl_json_length(tl_json_get(r, "tests")) >= 1,
              "a score and at least one test:\n%s", gs_read("ag/results/results.json"));
    return r;
}

/* Not graded, with every one of the NULL-ended texts in the output. */
static void gs_expect_not_graded(tl_json *r, ...)
{
    const tl_json *graded = tl_json_get(tl_json_get(r, "extra_data"), "graded");
    cr_assert(graded && graded->type == TL_JSON_BOOL && graded->number == 0, "extra_data.graded must be false:\n%s",
              gs_read("ag/results/results.json"));
    cr_assert_eq(tl_json_number(r, "score", -1), 0);
    const char *out = tl_json_string(r, "output", "");
    cr_assert(!strncmp(out, "Could not grade: ", 17), "%s", out);
    va_list ap;
    va_start(ap, r);
    for (const char *text; (text = va_arg(ap, const char *));)
        cr_assert(strstr(out, text), "the output lacks '%s':\n%s", text, out);
    va_end(ap);
}

static void gs_done(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", gs_dir);
    tool_sh(cmd);
}

Test(gradescope, a_cu_file_under_any_name_is_graded_as_the_lab_file, .timeout = 300)
{
    gs_unpack();
    const char *lab2 = tool_read("labs/lab2-shared-tile/transpose.cu", NULL);
    char *text = malloc(strlen(lab2) + 64);
    cr_assert(text);
    sprintf(text, "// submitted as My Lab 2 (final).cu\n%s", lab2);
    gs_submit("My Lab 2 (final).cu", text);
    gs_submit("README.md", "not a lab file\n");
    free(text);
    tl_json *r = gs_run();
    cr_assert(!strncmp(gs_read("ag/source/tilelab/labs/lab2-shared-tile/transpose.cu"),
                       "// submitted as My Lab 2 (final).cu\n", 36), "the submission was not put in the lab's place");
    const tl_json *extra = tl_json_get(r, "extra_data");
    cr_assert_str_eq(tl_json_string(extra, "lab", ""), "lab2");
    cr_assert_str_eq(tl_json_string(extra, "source", ""), "labs/lab2-shared-tile/transpose.cu",
                     "the repeat command names the file as a student's kit has it");
    /* The top-level output names the run: GPU, seed, and the command that repeats it. */
    const char *out = tl_json_string(r, "output", "");
    cr_assert(strstr(out, "\nGPU: ") && strstr(out, "\nseed: ") &&
              strstr(out, "\nrepeat this run: ./grade lab2 --file labs/lab2-shared-tile/transpose.cu --seed "),
              "%s", out);
    if (tool_sh("nvidia-smi -L >/dev/null 2>&1") == 0) {
        /* A GPU here: the skeleton is graded (its score is the GPU suite's to pin). */
        const tl_json *graded = tl_json_get(extra, "graded");
        cr_assert(graded && graded->number != 0, "%s", out);
    } else {
        gs_expect_not_graded(r, tool_sh("command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]") == 0
                                    ? "no usable NVIDIA GPU" : "nvcc", NULL);
    }
    tl_json_free(r);
    gs_done();
}

Test(gradescope, no_cu_file_cannot_grade_and_names_what_was_found)
{
    gs_unpack();
    gs_submit("README.md", "hello\n");
    gs_submit("notes/transpose.txt", "not a .cu\n");
    tl_json *r = gs_run();
    gs_expect_not_graded(r, "no .cu file in your submission", "README.md", "notes/transpose.txt", NULL);
    tl_json_free(r);
    gs_done();
}

Test(gradescope, two_cu_files_cannot_grade_and_names_both)
{
    gs_unpack();
    gs_submit("a.cu", "// one\n");
    gs_submit("sub/b \"quoted\".cu", "// two\n");
    gs_submit("__MACOSX/._a.cu", "macOS's resource fork, not a file of the student's\n");
    tl_json *r = gs_run();
    gs_expect_not_graded(r, "2 .cu files", "a.cu, sub/b \"quoted\".cu", "submit exactly one", NULL);
    cr_assert(!strstr(tl_json_string(r, "output", ""), "__MACOSX"), "%s", tl_json_string(r, "output", ""));
    tl_json_free(r);
    gs_done();
}

/* mode=cpu grades without a GPU (./grade --cpu), and the student's output says
 * first that there are no performance points and what the score is out of. */
Test(gradescope, mode_cpu_grades_in_cpu_mode_and_says_what_is_left_out, .timeout = 300)
{
    gs_unpack();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "sed -i 's/^mode=.*/mode=cpu/' %s/ag/source/autograder.conf", gs_dir);
    cr_assert_eq(tool_sh(cmd), 0);
    gs_submit("transpose.cu", tool_read("labs/lab2-shared-tile/transpose.cu", NULL));
    tl_json *r = gs_run();
    const tl_json *extra = tl_json_get(r, "extra_data"), *graded = tl_json_get(extra, "graded");
    const char *out = tl_json_string(r, "output", "");
    cr_assert(graded && graded->number != 0, "not graded:\n%s\n%s", out, gs_read("run.log"));
    cr_expect_str_eq(tl_json_string(extra, "mode", ""), "cpu");
    cr_expect(!strncmp(out, "Graded in CPU mode (this autograder has no GPU)", 47) &&
              strstr(out, "there are no performance points: this score is out of 75, not out of the lab's 100") &&
              strstr(out, "\nCPU mode (no GPU): Nothing was timed"), "%s", out);
    cr_expect_eq(tl_json_number(r, "score", -1), 0, "the untouched skeleton: %s", out);
    tl_json_free(r);
    gs_done();
}

Test(gradescope, modes_not_built_yet_say_so)
{
    gs_unpack();
    gs_submit("transpose.cu", "// a lab file\n");
    const char *modes[][2] = {{"ssh gpu1.example.edu", "over ssh"}, {"slurm", "Slurm"}};
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "sed -i 's/^mode=.*/mode=%s/' %s/ag/source/autograder.conf", modes[i][0], gs_dir);
        cr_assert_eq(tool_sh(cmd), 0);
        tl_json *r = gs_run();
        gs_expect_not_graded(r, modes[i][1], "not built yet", NULL);
        cr_assert_str_eq(tl_json_string(tl_json_get(r, "extra_data"), "mode", ""), modes[i][0]);
        tl_json_free(r);
    }
    gs_done();
}

Test(gradescope, a_grade_that_dies_still_leaves_results)
{
    gs_unpack();
    gs_submit("transpose.cu", "// a lab file\n");
    /* ./grade killed before it writes anything. */
    char grade[512];
    snprintf(grade, sizeof grade, "%s/ag/source/tilelab/grade", gs_dir);
    FILE *f = fopen(grade, "w");
    cr_assert(f, "cannot write %s", grade);
    fputs("#!/bin/sh\nkill -9 $$\n", f);
    fclose(f);
    tl_json *r = gs_run();
    gs_expect_not_graded(r, "the grader stopped (exit 137) without writing its results", NULL);
    tl_json_free(r);
    gs_done();
}

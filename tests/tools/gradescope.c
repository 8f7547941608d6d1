/*
 * The Gradescope autograder (make gradescope LAB=lab2, grader/gradescope/):
 * the zip unpacked as Gradescope unpacks it, into a fake /autograder tree in
 * a temporary folder (AUTOGRADER_ROOT), and run_autograder run on a
 * submission. Pinned: results.json is always there, valid JSON with
 * output_format; a .cu file under any name is graded as the lab's file (here,
 * without a GPU: "could not grade", no usable NVIDIA GPU, the honest outcome);
 * no .cu or several give "could not grade" naming the files found; the modes
 * not built yet say so; a grade that dies still leaves a results.json;
 * mode=cpu grades a good, a bad and a missing submission (issue 33); every
 * "could not grade" has the report's shape; setup.sh's release check, with a
 * fake os-release and stand-ins for apt.
 *
 * Each test works in its own temporary folder, removed when it passes and
 * kept, named in the message, when it fails. The zip is made, and its kit
 * built, once for the suite run (gs_unpack).
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

/* make gradescope LAB=lab2, unpacked into gs_dir/ag/source, with an empty ag/submission. The zip
 * is made, unpacked and its kit built as setup.sh builds it for mode=cpu once for the suite run
 * (tool_kit), then copied here: each test gets the autograder's tree as an image has it. */
static void gs_unpack(void)
{
    if (tool_sh("command -v zip >/dev/null || command -v bsdtar >/dev/null || command -v 7z >/dev/null") != 0)
        cr_skip_test("no zip tool (zip, bsdtar or 7z): make gradescope not tried; apt-get install zip");
    const char *unpack = tool_sh("command -v unzip >/dev/null") == 0 ? "unzip -q"
                       : tool_sh("command -v bsdtar >/dev/null") == 0 ? "bsdtar -xf" : NULL;
    if (!unpack)
        cr_skip_test("neither unzip nor bsdtar: the zip cannot be unpacked here; apt-get install unzip");
    const char *zip = tool_kit("gradescope LAB=lab2", "tilelab-gradescope-lab2.zip");
    char cmd[8192], cwd[1024];
    cr_assert(getcwd(cwd, sizeof cwd));
    snprintf(cmd, sizeof cmd, "k='%s/" TOOL_KITS "/gradescope-lab2' && rm -rf \"$k\" && mkdir -p \"$k\" && cd \"$k\" && "
             "%s '%s/%s' && cd tilelab && MAKEFLAGS= MAKELEVEL= make -s --no-print-directory build/tools/report "
             "build/tools/rubric build/tools/inspect build/tools/ptx-structure && MAKEFLAGS= MAKELEVEL= make -s "
             "--no-print-directory -f mk/submission.mk LAB=lab2 SRC=labs/lab2-shared-tile/transpose.cu need-seccomp "
             "link-symbols cpu-kit && touch '%s/" TOOL_KITS "/gradescope-lab2.built'", cwd, unpack, cwd, zip, cwd);
    tool_kit_once("gradescope-lab2.built", cmd);
    const char *tmp = getenv("TMPDIR");
    snprintf(gs_dir, sizeof gs_dir, "%.200s/tilelab-gradescope-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert(mkdtemp(gs_dir), "cannot make a temporary folder %s", gs_dir);
    snprintf(cmd, sizeof cmd, "mkdir -p %s/ag/submission && cp -Rp " TOOL_KITS "/gradescope-lab2 %s/ag/source && "
             "cd %s/ag/source && ls -A > ../../top", gs_dir, gs_dir, gs_dir);
    cr_assert_eq(tool_sh(cmd), 0, "cannot copy the unpacked " TOOL_KITS "/gradescope-lab2 into %s/ag/source", gs_dir);
    cr_assert_str_eq(gs_read("top"), "autograder.conf\nnot_graded.sh\nrun_autograder\nsetup.sh\ntilelab\n",
                     "the zip's root holds setup.sh, run_autograder, autograder.conf, not_graded.sh and tilelab/ (%s)",
                     gs_dir);
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
        /* This kit was built as setup.sh builds it (no probe, no judge): the probe came
         * before the harness, whose judges a grade without a GPU never uses, so none was built. */
        char cmd[640];
        snprintf(cmd, sizeof cmd, "ls -d %s/ag/source/tilelab/build/*/kit/probe >/dev/null 2>&1 && "
                 "! ls %s/ag/source/tilelab/build/*/kit/judge/* >/dev/null 2>&1", gs_dir, gs_dir);
        cr_expect_eq(tool_sh(cmd), 0, "without a GPU the grade built its probe and none of the harness's judges");
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
Test(gradescope, mode_cpu_grades_in_cpu_mode_and_says_what_is_left_out, .timeout = 600)
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

    /* Issue 33, in the same autograder (its kit built once): a good submission
     * under a browser's name gets CPU mode's maximum, a bad one its findings,
     * a missing one the message; each results.json says mode cpu. */
    snprintf(cmd, sizeof cmd, "rm -rf %s/ag/submission/*", gs_dir);
    cr_assert_eq(tool_sh(cmd), 0);
    gs_submit("lab2 (1) \"final\" \xc3\xa9t\xc3\xa9.cu", tool_read("solutions/lab2-shared-tile/transpose.cu", NULL));
    r = gs_run();
    extra = tl_json_get(r, "extra_data");
    cr_assert_str_eq(tl_json_string(extra, "mode", ""), "cpu", "%s", gs_read("ag/results/results.json"));
    cr_assert(tl_json_number(r, "score", -1) == 75 && tl_json_number(r, "max_score", -1) == 75,
              "the solution: CPU mode's maximum, 75\n%s\n%s", tl_json_string(r, "output", ""), gs_read("run.log"));
    tl_json_free(r);

    snprintf(cmd, sizeof cmd, "rm -rf %s/ag/submission/*", gs_dir);
    cr_assert_eq(tool_sh(cmd), 0);
    gs_submit("-my lab2.cu", "#include \"tilelab.h\"\nvoid launch_transpose(const float *in, float *out, int rows, "
              "int cols) { not C++ }\n");
    r = gs_run();
    extra = tl_json_get(r, "extra_data");
    cr_assert_str_eq(tl_json_string(extra, "flags", ""), "compile-error", "%s", gs_read("ag/results/results.json"));
    cr_assert_str_eq(tl_json_string(extra, "mode", ""), "cpu");
    cr_assert(strstr(tl_json_string(r, "output", ""), "error") &&
              strstr(tl_json_string(r, "output", ""), "--seed ") && strstr(tl_json_string(r, "output", ""), " --cpu\n"),
              "the compiler's findings, and a repeat command that keeps --cpu:\n%s", tl_json_string(r, "output", ""));
    tl_json_free(r);

    snprintf(cmd, sizeof cmd, "rm -rf %s/ag/submission/*", gs_dir);
    cr_assert_eq(tool_sh(cmd), 0);
    gs_submit("notes.txt", "forgot the file\n");
    r = gs_run();
    gs_expect_not_graded(r, "no .cu file in your submission", "notes.txt", NULL);
    cr_assert_str_eq(tl_json_string(tl_json_get(r, "extra_data"), "mode", ""), "cpu");
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

/* setup.sh with a fake os-release and stand-ins for apt-get, dpkg,
 * dpkg-query (nothing installed), curl and make (which record what they were
 * asked), CUDA hidden: the release decides NVIDIA's repository (its name made
 * from ID and VERSION_ID), the package names carry the CUDA version only, and
 * a release without packages, or an image without apt, gets one sentence and
 * exit 1. No network, no root needed. CHANGE: sh run after the stand-ins are
 * written, to change one ($d is the folder, $d/bin theirs). */
static int gs_setup_with(const char *os_release, const char *mode, const char *change, const char **log)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "d=%s/setup && rm -rf $d && mkdir -p $d/bin $d/ag/tilelab && cp tools/gradescope/setup.sh $d/ag/ && "
             "printf 'lab=lab1\\nmode=%s\\n' > $d/ag/autograder.conf && printf '%s' > $d/os-release && "
             "for t in apt-get dpkg make; do printf '#!/bin/sh\\necho \"%%s $*\" \"$(basename \"$0\")\" >> %s/setup/calls\\n' > $d/bin/$t; done && "
             "printf '#!/bin/sh\\necho not-installed\\n' > $d/bin/dpkg-query && "
             /* apt-cache pkgnames PREFIX: NVIDIA's repository has each package for CUDA 12.9 and 13.0 */
             "printf '#!/bin/sh\\n[ \"$1\" = pkgnames ] || exit 1\\nprintf \"%%%%s12-9\\\\n%%%%s13-0\\\\n\" \"$2\" \"$2\"\\n' > $d/bin/apt-cache && "
             /* curl: NVIDIA's repository has a keyring for these releases only */
             "printf '#!/bin/sh\\necho \"curl $*\" >> %s/setup/calls\\ncase \"$*\" in */repos/ubuntu2204/*|*/repos/ubuntu2404/*|*/repos/debian12/*) "
             "while [ $# -gt 1 ]; do [ \"$1\" = -o ] && : > \"$2\"; shift; done; exit 0 ;; esac\\nexit 22\\n' > $d/bin/curl && "
             "%s && "
             "chmod +x $d/bin/* && touch $d/calls && "
             "env -i PATH=$d/bin:/usr/bin:/bin HOME=$d CUDA_HOME=$d/no-cuda TILELAB_OS_RELEASE=$d/os-release "
             "bash $d/ag/setup.sh > $d/out.txt 2>&1",
             gs_dir, mode, os_release, gs_dir, gs_dir, change ? change : ":");
    int status = tool_sh(cmd);
    static char both[16384];
    snprintf(both, sizeof both, "%s\n--- calls:\n", gs_read("setup/out.txt"));
    size_t n = strlen(both);
    snprintf(both + n, sizeof both - n, "%s", gs_read("setup/calls"));
    *log = both;
    return status;
}

static int gs_setup(const char *os_release, const char *mode, const char **log)
{
    return gs_setup_with(os_release, mode, NULL, log);
}

Test(gradescope, setup_reads_the_image_s_release_and_installs_cuda_s_compiler_from_its_packages)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(gs_dir, sizeof gs_dir, "%.200s/tilelab-gradescope-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert(mkdtemp(gs_dir));
    static const struct { const char *release, *repo; } ok[] = {
        {"PRETTY_NAME=\"Ubuntu 22.04.4 LTS\"\nNAME=\"Ubuntu\"\nVERSION_ID=\"22.04\"\nID=ubuntu\nID_LIKE=debian\n", "ubuntu2204"},
        {"NAME=\"Ubuntu\"\nVERSION_ID=\"24.04\"\nID=ubuntu\nID_LIKE=debian\n", "ubuntu2404"},
        {"PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nVERSION_ID=\"12\"\nID=debian\n", "debian12"},
    };
    const char *log;
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int status = gs_setup(ok[i].release, "cpu", &log);
        cr_assert_eq(status, 0, "setup.sh on %s exited %d:\n%s", ok[i].repo, status, log);
        char want[256];
        snprintf(want, sizeof want, "curl -fsSL --connect-timeout 30 https://developer.download.nvidia.com/compute/cuda/repos/%s/", ok[i].repo);
        cr_assert(strstr(log, want), "no keyring fetched from NVIDIA's %s repository:\n%s", ok[i].repo, log);
        cr_assert(strstr(log, "install -y -qq build-essential make pkg-config libseccomp-dev ca-certificates curl apt-get"),
                  "%s", log);
        cr_assert(strstr(log, "install -y -qq --no-install-recommends cuda-nvcc-13-0 cuda-cudart-dev-13-0 cuda-driver-dev-13-0 "
                  "cuda-profiler-api-13-0 apt-get"),
                  "the compiler and the runtime's headers, CUDA 13.0, the same names on every release:\n%s", log);
        cr_assert(strstr(log, "-f mk/submission.mk LAB=lab1 ") && strstr(log, "link-symbols cpu-kit make"),
                  "CPU mode's parts are built once, in setup:\n%s", log);
    }
    static const struct { const char *release, *mode, *words; } refused[] = {
        {"NAME=\"Ubuntu\"\nVERSION_ID=\"18.04\"\nID=ubuntu\nID_LIKE=debian\n", "cpu", "has no packages for Ubuntu 18.04"},
        {"PRETTY_NAME=\"Alpine Linux v3.19\"\nID=alpine\nVERSION_ID=3.19.1\n", "cpu", "this image runs Alpine Linux v3.19 (os-release ID=alpine)"},
        {"PRETTY_NAME=\"Linux Mint 21\"\nID=linuxmint\nID_LIKE=\"ubuntu debian\"\nVERSION_ID=\"21\"\n", "cpu", "a derivative"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        int status = gs_setup(refused[i].release, refused[i].mode, &log);
        cr_assert_eq(status, 1, "exit 1 expected:\n%s", log);
        cr_assert(strstr(log, refused[i].words), "'%s' expected:\n%s", refused[i].words, log);
        cr_assert(!strstr(log, "--no-install-recommends cuda-nvcc"), "nothing of CUDA installed:\n%s", log);
    }
    /* No network while the image is built: NVIDIA's repository unreachable
     * (curl: no name, no route) is said so, not called a missing release;
     * apt-get failing (offline, or not root) gets the sentence, not only apt's
     * lines. Everything already installed: no apt-get for it, so an image
     * that has it all needs no network (issue 33, Ubuntu 24.04 offline). */
    const char *offline = "printf '#!/bin/sh\\necho \"curl $*\" >> $d/calls\\nexit 6\\n' > $d/bin/curl";
    cr_assert_eq(gs_setup_with(ok[1].release, "cpu", offline, &log), 1, "%s", log);
    cr_assert(strstr(log, "could not reach NVIDIA's CUDA repository (https://developer.download.nvidia.com/compute/cuda/repos/ubuntu2404/x86_64; curl exit 6)") &&
              strstr(log, "needs the network") && !strstr(log, "has no packages") && !strstr(log, "--no-install-recommends cuda-nvcc"),
              "%s", log);
    /* Issue 44: cuda_profiler_api.h (the kit's worker includes it) is in none of the other
     * three packages; a repository without CUDA 13.0's is named, with what it has. */
    const char *no_profiler = "printf '#!/bin/sh\\ncase \"$2\" in cuda-profiler-api-) echo cuda-profiler-api-12-9 ;; "
                              "*) echo \"${2}13-0\" ;; esac\\n' > $d/bin/apt-cache";
    cr_assert_eq(gs_setup_with(ok[0].release, "cpu", no_profiler, &log), 1, "%s", log);
    cr_assert(strstr(log, "has no cuda-profiler-api-13-0 (it has: cuda-profiler-api-12-9 )") &&
              !strstr(log, "--no-install-recommends cuda-nvcc"), "%s", log);
    const char *no_apt = "printf '#!/bin/sh\\necho \"$* apt-get\" >> $d/calls\\necho \"E: Failed to fetch\" >&2\\nexit 100\\n' > $d/bin/apt-get";
    cr_assert_eq(gs_setup_with(ok[1].release, "cpu", no_apt, &log), 1, "%s", log);
    cr_assert(strstr(log, "setup.sh: apt-get update failed (exit 100; apt's lines above)") && strstr(log, "as root") &&
              strstr(log, "preinstall build-essential make pkg-config libseccomp-dev ca-certificates curl") &&
              !strstr(log, "install -y"),
              "%s", log);
    const char *installed = "printf '#!/bin/sh\\necho installed\\n' > $d/bin/dpkg-query";
    cr_assert_eq(gs_setup_with(ok[1].release, "cpu", installed, &log), 0, "%s", log);
    cr_assert(strstr(log, "already installed: build-essential make pkg-config libseccomp-dev ca-certificates curl") &&
              !strstr(log, "install -y -qq build-essential") && strstr(log, "--no-install-recommends cuda-nvcc-13-0"),
              "only CUDA's compiler fetched:\n%s", log);
    cr_assert_eq(gs_setup_with(ok[1].release, "local", installed, &log), 0, "%s", log);
    cr_assert(!strstr(log, "apt-get") && strstr(log, "mode=local needs one and a GPU"), "nothing fetched at all:\n%s", log);

    /* The kit's CPU build failing ends in one sentence after make's lines, not make's alone. */
    const char *no_build = "printf '#!/bin/sh\\ncase \"$*\" in *cpu-kit*) echo \"make: *** [cpu-kit] Error 1\" >&2; exit 2 ;; esac\\n' > $d/bin/make";
    cr_assert_eq(gs_setup_with(ok[1].release, "cpu", no_build, &log), 1, "%s", log);
    cr_assert(strstr(log, "setup.sh: the kit's CPU mode for lab1 did not build (make exit 2; its lines above)") &&
              !strstr(log, "CPU mode is ready"), "%s", log);

    /* mode=local: no CUDA installed, said so (its GPU, driver and whole toolkit are the image's). */
    cr_assert_eq(gs_setup(ok[0].release, "local", &log), 0, "%s", log);
    cr_assert(!strstr(log, "--no-install-recommends cuda-nvcc") && strstr(log, "mode=local needs one and a GPU") &&
              strstr(log, "set mode=cpu"),
              "%s", log);
    gs_done();
}

/* Every "could not grade" results.json has one shape: the report's own
 * (build/tools/report --problem), ./grade's from sh before the report tool
 * exists, and run_autograder's, all through grader/not_graded.sh. */
static void gs_keys(const tl_json *v, char *out, size_t len)
{
    for (const tl_json *c = v ? v->child : NULL; c; c = c->next) {
        if (c->key && !strcmp(c->key, "mode"))   /* extra_data.mode: CPU mode's, the autograder's */
            continue;
        size_t n = strlen(out);
        snprintf(out + n, len - n, "%s%s", c->key ? c->key : "[]", c->type == TL_JSON_OBJECT || c->type == TL_JSON_ARRAY ? "{" : ",");
        if (c->type == TL_JSON_OBJECT || c->type == TL_JSON_ARRAY)
            gs_keys(c, out, len);
        n = strlen(out);
        if (c->type == TL_JSON_OBJECT || c->type == TL_JSON_ARRAY)
            snprintf(out + n, len - n, "},");
    }
}

Test(gradescope, every_could_not_grade_has_the_report_s_shape)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(gs_dir, sizeof gs_dir, "%.200s/tilelab-gradescope-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    cr_assert(mkdtemp(gs_dir));
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "make -s --no-print-directory build/tools/report > %s/make.log 2>&1 && "
             "build/tools/report --rubric labs/lab1-naive-transpose/lab.rubric --source none --seed '' --results %s/report.json "
             "--history %s/history.csv --elapsed 0 --kit-version v --quiet --problem 'a \"quoted\" reason'; "
             "sh -c '. grader/not_graded.sh && not_graded_json %s/sh.json lab1 v cpu \"a \\\"quoted\\\" reason\"'",
             gs_dir, gs_dir, gs_dir, gs_dir);
    cr_assert_eq(tool_sh(cmd), 0, "%s\n%s", cmd, gs_read("make.log"));
    const char *files[] = {"report.json", "sh.json"};
    char keys[2][2048] = {"", ""}, path[512], err[256];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", gs_dir, files[i]);
        tl_json *r = tl_json_parse_file(path, err, sizeof err);
        cr_assert(r, "%s: %s\n%s", files[i], err, gs_read(files[i]));
        gs_keys(r, keys[i], sizeof keys[i]);
        cr_assert(strstr(tl_json_string(r, "output", ""), "Could not grade: a \"quoted\" reason\n"), "%s", gs_read(files[i]));
        tl_json_free(r);
    }
    cr_assert_str_eq(keys[1], keys[0], "grader/not_graded.sh's shape differs from the report's:\n%s\n%s",
                     gs_read("sh.json"), gs_read("report.json"));
    gs_done();
}

/*
 * ./grade --batch --slurm against a real one-node Slurm brought up for the test
 * (tests/fixtures/slurm/cluster: munged, slurmctld, slurmd, two dummy GPUs,
 * all state in a folder under /tmp), on a class of three students handed the
 * lab 1 skeleton. Pinned: one array task per submission, each given a GPU
 * (--gres=gpu:1), each writing its results.json into the batch's folder for
 * it, and the gradebook job after them listing the three students. Real
 * ./grade runs in the tasks: without a GPU each submission ends "could not
 * grade" with the reason, and that is enough here. The class board's
 * deadline re-run (./grade --board --rerun --slurm) runs there too: a job
 * array a round. Skipped, with the reason, where the daemons cannot run (not
 * root, Slurm or munge not installed).
 */
#include <criterion/criterion.h>
#include "tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char state_dir[64];   /* the cluster's: config, spool, logs, pid files */
static char work_dir[128];   /* the test's: the class and the batch's output */

static void cluster_down(void)
{
    if (!state_dir[0])
        return;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "sh tests/fixtures/slurm/cluster down %s; rm -rf %s", state_dir, state_dir);
    tool_sh(cmd);
}

/* Starts the cluster and points the Slurm commands at it; skips the test when it cannot run here. */
static void cluster_up(void)
{
    snprintf(state_dir, sizeof state_dir, "/tmp/tilelab-slurm.XXXXXX");
    cr_assert(mkdtemp(state_dir), "cannot make a state folder under /tmp");
    char cmd[512], out[128];
    snprintf(out, sizeof out, "%s/up.txt", state_dir);
    /* Ports of its own, so that two checkouts can run this test at once. */
    snprintf(cmd, sizeof cmd, "TILELAB_SLURM_PORT=%ld sh tests/fixtures/slurm/cluster up %s > %s 2>&1",
             20000 + (long)getpid() % 5000 * 2, state_dir, out);
    int status = tool_sh(cmd);
    if (status == 3) {
        char why[512];
        snprintf(why, sizeof why, "%s", tool_read(out, NULL));
        why[strcspn(why, "\n")] = '\0';
        cluster_down();
        cr_skip_test("no Slurm here: %s", why);
    }
    cr_assert_eq(status, 0, "the one-node Slurm did not come up:\n%s", tool_read(out, NULL));
    snprintf(cmd, sizeof cmd, "%s/slurm.conf", state_dir);
    setenv("SLURM_CONF", cmd, 1);
}

/* A file of the test's folder, whole (empty when missing). */
static const char *work_file(const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", work_dir, file);
    return tool_read(path, NULL);
}

Test(slurm, a_class_is_graded_as_one_job_array_then_the_gradebook, .fini = cluster_down, .timeout = 600)
{
    cluster_up();
    snprintf(work_dir, sizeof work_dir, "build/tests/slurm.%ld", (long)getpid());
    const char *students[] = {"ann", "ben", "cid"};
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/class", work_dir, work_dir);
    cr_assert_eq(tool_sh(cmd), 0);
    for (size_t i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "mkdir %s/class/%s && cp labs/lab1-naive-transpose/transpose.cu %s/class/%s/lab1.cu",
                 work_dir, students[i], work_dir, students[i]);
        cr_assert_eq(tool_sh(cmd), 0, "%s", cmd);
    }

    snprintf(cmd, sizeof cmd, "TILELAB_SLURM_POLL=1 ./grade --batch %s/class --out %s/out --lab lab1 --seed 5 --slurm "
             "> %s/stdout.txt 2>&1", work_dir, work_dir, work_dir);
    int status = tool_sh(cmd);
    char *out = strdup(work_file("stdout.txt"));   /* work_file's buffer is reused below */
    cr_assert_eq(status, 0, "the Slurm batch exited %d:\n%s", status, out);
    cr_assert(strstr(out, "batch: submitted Slurm job array "), "batch output:\n%s", out);
    cr_assert(strstr(out, "batch: Slurm: 0 pending, 0 running, 3 of 3 finished\n"), "batch output:\n%s", out);

    /* One task per submission, each with a GPU of its own, each graded into its folder. */
    for (int task = 1; task <= 4; task++) {
        char file[64];
        snprintf(file, sizeof file, "out/.slurm/task-%d.out", task);
        const char *log = work_file(file);
        if (task == 4) {
            cr_assert_eq(log[0], '\0', "three submissions, three tasks; a fourth wrote:\n%s", log);
            break;
        }
        cr_assert(strstr(log, " lab1 on ") && strstr(log, " with 1 GPU "), "task %d's log:\n%s", task, log);
    }
    for (size_t i = 0; i < 3; i++) {
        char file[64];
        snprintf(file, sizeof file, "out/%s/lab1/results.json", students[i]);
        const char *json = work_file(file);
        cr_assert(strstr(json, "\"max_score\""), "%s's results.json:\n%s", students[i], json);
    }

    const char *book = work_file("out/gradebook.csv");
    cr_assert_eq(tool_lines(book), 4, "a header and a row per student:\n%s", book);
    for (size_t i = 0; i < 3; i++) {
        char row[32];
        snprintf(row, sizeof row, "\n%s,lab1,", students[i]);
        cr_assert(strstr(book, row), "no row for %s:\n%s", students[i], book);
    }
    cr_assert(strstr(out, "gradebook: "), "the gradebook job's output is shown:\n%s", out);

    free(out);

    /* TILELAB_SBATCH_ARGS reaches sbatch: a partition the cluster lacks is refused, nothing submitted. */
    snprintf(cmd, sizeof cmd, "TILELAB_SBATCH_ARGS='--partition=nosuch --time=5' ./grade --batch %s/class --out %s/out "
             "--lab lab1 --force --slurm > %s/stdout.txt 2>&1", work_dir, work_dir, work_dir);
    status = tool_sh(cmd);
    out = strdup(work_file("stdout.txt"));
    cr_assert_eq(status, 2, "exit 2 expected when sbatch refuses:\n%s", out);
    cr_assert(strstr(out, "nosuch") && strstr(out, "batch: sbatch refused the grading job array"), "output:\n%s", out);
    free(out);

    /* --no-wait: the ids and how to follow them; a second batch into the folder waits its turn. */
    snprintf(cmd, sizeof cmd, "./grade --batch %s/class --out %s/out --lab lab1 --force --slurm --no-wait "
             "> %s/stdout.txt 2>&1 && ./grade --batch %s/class --out %s/out --lab lab1 --force --slurm "
             "> %s/again.txt 2>&1", work_dir, work_dir, work_dir, work_dir, work_dir, work_dir);
    status = tool_sh(cmd);
    out = strdup(work_file("stdout.txt"));
    cr_assert(strstr(out, "batch: not waiting. Follow them with: squeue -j "), "--no-wait output:\n%s", out);
    const char *again = work_file("again.txt");
    cr_assert(status == 2 && strstr(again, "still queued or running"), "a second batch (exit %d):\n%s", status, again);
    free(out);
    snprintf(cmd, sizeof cmd, "for i in $(seq 240); do [ -z \"$(squeue -h -o %%i)\" ] && exit 0; sleep 0.5; done; exit 1");
    cr_assert_eq(tool_sh(cmd), 0, "the --no-wait jobs did not finish in 2 minutes");
    book = work_file("out/gradebook.csv");
    cr_assert_eq(tool_lines(book), 4, "the --no-wait batch's gradebook:\n%s", book);

    snprintf(cmd, sizeof cmd, "rm -rf %s", work_dir);   /* passed: the folder goes (a failure keeps it) */
    tool_sh(cmd);
}

/* --slurm --cpu (issue 33): tasks ask for no GPU and grade in CPU mode, under
 * the names a browser gives; the gradebook's mode column says CPU mode. */
Test(slurm, cpu_mode_tasks_ask_for_no_gpu_and_grade_any_name, .fini = cluster_down, .timeout = 600)
{
    cluster_up();
    snprintf(work_dir, sizeof work_dir, "build/tests/slurm-cpu.%ld", (long)getpid());
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p '%s/class/ann' '%s/class/bo \"q\"' && "
             "cp labs/lab1-naive-transpose/transpose.cu '%s/class/ann/lab1 (1).cu' && "
             "cp solutions/lab1-naive-transpose/transpose.cu '%s/class/bo \"q\"/lab1.cu'",
             work_dir, work_dir, work_dir, work_dir, work_dir);
    cr_assert_eq(tool_sh(cmd), 0, "%s", cmd);
    snprintf(cmd, sizeof cmd, "TILELAB_SLURM_POLL=1 ./grade --batch %s/class --out %s/out --lab lab1 --seed 5 --slurm --cpu "
             "> %s/stdout.txt 2>&1", work_dir, work_dir, work_dir);
    int status = tool_sh(cmd);
    char *out = strdup(work_file("stdout.txt"));
    cr_assert_eq(status, 0, "the Slurm batch exited %d:\n%s", status, out);
    cr_assert(strstr(out, "each in CPU mode, no GPU"), "batch output:\n%s", out);
    for (int task = 1; task <= 2; task++) {
        char file[64];
        snprintf(file, sizeof file, "out/.slurm/task-%d.out", task);
        const char *log = work_file(file);
        cr_assert(strstr(log, " lab1 on ") && strstr(log, " with no GPU "), "task %d's log:\n%s", task, log);
    }
    const char *book = work_file("out/gradebook.csv");
    cr_assert(strstr(book, "\nann,lab1,0,72,,wrong,") && strstr(book, "\n\"bo \"\"q\"\"\",lab1,72,72,,,"), "%s", book);
    cr_assert(strstr(book, "/out/ann/lab1/results.json,CPU mode\n") && strstr(book, "/lab1/results.json\",CPU mode\n"),
              "%s", book);
    free(out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", work_dir);   /* passed: the folder goes (a failure keeps it) */
    tool_sh(cmd);
}

/* The count of `needle` in `text`. */
static int occurrences(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The class board's deadline re-run through Slurm (./grade --board --rerun
 * --slurm, issue 31): three students whose lab 3 runs a stand-in grade put on
 * the H100 board, then the re-run's three rounds, each a job array of real
 * ./grade tasks, one a student, each with a GPU of its own, in an order
 * rotated from round to round, each round with a fresh seed of its own (none
 * the class's). Without a GPU every task's grade ends "could not grade": the
 * board then says the re-run graded nothing and keeps the submitted order
 * instead of emptying the board, and a second --rerun finishes the same plan
 * (its seeds, its rounds) rather than planning another. */
Test(slurm, the_boards_deadline_rerun_runs_its_rounds_as_job_arrays, .fini = cluster_down, .timeout = 600)
{
    cluster_up();
    snprintf(work_dir, sizeof work_dir, "build/tests/slurm-board.%ld", (long)getpid());
    const char *students[] = {"ann", "ben", "cid"};
    const char *fractions[] = {"0.84", "0.77", "0.70"};
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/class", work_dir, work_dir);
    cr_assert_eq(tool_sh(cmd), 0);
    for (size_t i = 0; i < 3; i++) {
        /* The lab 3 reference, with what the stand-in grade reads (fake-grade: round 1's figure). */
        snprintf(cmd, sizeof cmd, "mkdir %s/class/%s && { cat solutions/lab3-padding/transpose.cu; "
                 "echo '// board-fake: fraction %s %s %s'; } > %s/class/%s/lab3.cu",
                 work_dir, students[i], fractions[i], fractions[i], fractions[i], work_dir, students[i]);
        cr_assert_eq(tool_sh(cmd), 0, "%s", cmd);
    }
    snprintf(cmd, sizeof cmd, "FAKE_GRADE_LOG=%s/invocations TILELAB_GRADE='sh tests/fixtures/board/fake-grade' "
             "./grade --batch %s/class --out %s/book --lab lab3 --seed 7 --timeout 5 > %s/stdout.txt 2>&1 && "
             "./grade --board %s/book >> %s/stdout.txt 2>&1",
             work_dir, work_dir, work_dir, work_dir, work_dir, work_dir);
    cr_assert_eq(tool_sh(cmd), 0, "%s", work_file("stdout.txt"));
    cr_assert_eq(tool_lines(work_file("book/board/lab3-nvidia-h100-80gb-hbm3.csv")), 4, "three on the H100 board:\n%s",
                 work_file("book/board/lab3-nvidia-h100-80gb-hbm3.csv"));

    snprintf(cmd, sizeof cmd, "TILELAB_SLURM_POLL=1 ./grade --board %s/book --rerun --gpu 'NVIDIA H100 80GB HBM3' "
             "--rounds 3 --slurm --timeout 300 > %s/stdout.txt 2>&1", work_dir, work_dir);
    int status = tool_sh(cmd);
    char *out = strdup(work_file("stdout.txt"));
    cr_assert_eq(status, 0, "the re-run exited %d:\n%s", status, out);
    cr_assert_eq(occurrences(out, "batch: submitted Slurm job array "), 3, "a job array a round:\n%s", out);
    cr_assert_eq(occurrences(out, "batch: Slurm: 0 pending, 0 running, 3 of 3 finished\n"), 3, "%s", out);

    /* The seeds: one a round, fresh, none the class's (7). */
    char seeds[3][32];
    char *seed_file = strdup(work_file("book/rerun/seed"));
    cr_assert_eq(sscanf(seed_file, "%31s %31s %31s", seeds[0], seeds[1], seeds[2]), 3, "three seeds:\n%s", seed_file);
    cr_assert_eq(tool_lines(seed_file), 3, "%s", seed_file);
    cr_assert(strcmp(seeds[0], seeds[1]) && strcmp(seeds[1], seeds[2]) && strcmp(seeds[0], seeds[2]),
              "a fresh seed each round:\n%s", seed_file);
    for (int r = 0; r < 3; r++) {
        cr_assert_str_neq(seeds[r], "7", "not the class's seed");
        char file[128], expect[48];
        snprintf(file, sizeof file, "book/rerun/round-%d/out/seed", r + 1);
        snprintf(expect, sizeof expect, "%.31s\n", seeds[r]);
        cr_assert_str_eq(work_file(file), expect, "round %d's batch used its own seed", r + 1);
    }

    /* Each round: one array task per student, each with a GPU of its own, in
     * the round's rotated order (task N grades the round's Nth folder), each a
     * real ./grade that wrote its results.json with the round's seed. */
    for (int r = 1; r <= 3; r++) {
        char file[160];
        snprintf(file, sizeof file, "book/rerun/round-%d/out/.slurm/jobs", r);
        cr_assert(work_file(file)[0], "round %d's Slurm jobs were not recorded", r);
        for (int task = 1; task <= 4; task++) {
            snprintf(file, sizeof file, "book/rerun/round-%d/out/.slurm/task-%d.out", r, task);
            const char *log = work_file(file);
            if (task == 4) {
                cr_assert_eq(log[0], '\0', "round %d: three students, three tasks; a fourth wrote:\n%s", r, log);
                break;
            }
            /* Round r starts at its (r-1)th student: ann, ben, cid; ben, cid, ann; cid, ann, ben. */
            char expect[64];
            snprintf(expect, sizeof expect, "batch: %03d-%s lab3 on ", task, students[(task - 1 + r - 1) % 3]);
            cr_assert(strstr(log, expect) && strstr(log, " with 1 GPU "), "round %d task %d's log, not %s...:\n%s", r,
                      task, expect, log);
            snprintf(file, sizeof file, "book/rerun/round-%d/out/%03d-%s/lab3/results.json", r, task,
                     students[(task - 1 + r - 1) % 3]);
            const char *json = work_file(file);
            char seed[96];
            snprintf(seed, sizeof seed, "\"seed\": \"%.31s\"", seeds[r - 1]);
            cr_assert(strstr(json, "\"max_score\"") && strstr(json, seed), "%s (seed %s):\n%s", file, seeds[r - 1], json);
        }
    }

    /* The board records the re-run: every round of every student, none graded
     * (no GPU here), so the order stays the submitted one, and says why. */
    const char *merged = work_file("book/rerun/merged.csv");
    for (size_t i = 0; i < 3; i++) {
        char row[64];
        snprintf(row, sizeof row, "\n%s,lab3,3,0,", students[i]);
        cr_assert(strstr(merged, row), "%s's three rounds:\n%s", students[i], merged);
    }
    cr_assert(strstr(out, "could not grade"), "the board says the re-run could not grade:\n%s", out);
    const char *board = work_file("book/board/lab3-nvidia-h100-80gb-hbm3.csv");
    cr_assert_eq(tool_lines(board), 4, "nobody leaves the board for runs the re-run could not grade:\n%s", board);
    free(out);

    /* Again: the same plan finished, its seeds kept; what could not be graded is tried again. */
    snprintf(cmd, sizeof cmd, "TILELAB_SLURM_POLL=1 ./grade --board %s/book --rerun --gpu 'NVIDIA H100 80GB HBM3' "
             "--slurm --timeout 300 > %s/stdout.txt 2>&1", work_dir, work_dir);
    status = tool_sh(cmd);
    out = strdup(work_file("stdout.txt"));
    cr_assert_eq(status, 0, "the second --rerun exited %d:\n%s", status, out);
    cr_assert(strstr(out, "finishing the re-run planned"), "%s", out);
    cr_assert_eq(occurrences(out, "batch: submitted Slurm job array "), 3, "the could-not-grade runs again:\n%s", out);
    cr_assert_str_eq(work_file("book/rerun/seed"), seed_file, "the plan's seeds");
    free(out);
    free(seed_file);

    snprintf(cmd, sizeof cmd, "rm -rf %s", work_dir);   /* passed: the folder goes (a failure keeps it) */
    tool_sh(cmd);
}

/*
 * The GPU suite: ./grade on every lab's solution and skeleton and on the
 * fixtures in tests/submissions/ (bad submissions, and in fair/ other correct
 * ones), each checked for its score and diagnosis. Runs four grades at a
 * time (make runs it with -j4): their tests share the GPU, and ./grade's GPU
 * lock gives each measurement the GPU alone. Without a usable GPU every test is skipped, with the reason,
 * and the suite passes.
 */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "json.h"

#define RUNS "build/tests/gpu-runs"
#define SEED "20261121"
#define PATCHED RUNS "/patched"

typedef struct {
    const char *lab, *file, *name;
    int exit_status;            /* EXIT_BY_SCORE: 0 at full marks, else 1 (a range across 100) */
    double min_score, max_score;
    const char *diagnosis;      /* must appear in results.json's outputs (NULL: none required) */
    const char *extra_args;     /* more ./grade options, or NULL */
    const char *diagnosis2;     /* a second one that must appear too, or NULL */
} expectation;

#define EXIT_BY_SCORE (-1)

static void require_gpu(void)
{
    const char *probe = getenv("TILELAB_PROBE");
    char cmd[512], why[512] = "";
    snprintf(cmd, sizeof cmd, "%s 2>&1", probe ? probe : "false");
    FILE *p = popen(cmd, "r");
    if (p && !fgets(why, sizeof why, p))
        why[0] = '\0';
    int status = p ? pclose(p) : -1;
    if (!probe || status != 0) {
        why[strcspn(why, "\n")] = '\0';
        cr_skip_test("GPU suite skipped: %s", probe ? why : "TILELAB_PROBE is not set (run it through make test)");
    }
}

/* Every output of a results.json joined, for diagnosis checks. */
static void all_outputs(const tl_json *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s\n", tl_json_string(r, "output", ""));
    for (const tl_json *t = tl_json_get(r, "tests") ? tl_json_get(r, "tests")->child : NULL; t; t = t->next) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s: %s\n", tl_json_string(t, "name", ""), tl_json_string(t, "output", ""));
    }
}

/* An attack fixture is a patch (tests/submissions/attacks/labN/NAME.patch): applied
 * to the lab's reference solution (the one .cu file of solutions/labN-...) into
 * build/tests/gpu-runs/patched/NAME.cu, which is graded instead. `out` gets that path. */
static void apply_patch(const expectation *e, char *out, size_t len)
{
    char pattern[256];
    glob_t g;
    snprintf(pattern, sizeof pattern, "solutions/%s-*/*.cu", e->lab);
    int found = glob(pattern, 0, NULL, &g);
    cr_assert(found == 0 && g.gl_pathc == 1, "%s: %s matches %zu files, expected one reference solution",
              e->name, pattern, found == 0 ? g.gl_pathc : (size_t)0);
    snprintf(out, len, PATCHED "/%s.cu", e->name);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p " PATCHED " && rm -f %s %s.rej && patch -s -o %s %s < %s > " PATCHED
             "/%s.log 2>&1", out, out, out, g.gl_pathv[0], e->file, e->name);
    int status = system(cmd);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s: %s does not apply to %s; see " PATCHED "/%s.log",
              e->name, e->file, g.gl_pathv[0], e->name);
    globfree(&g);
}

static int is_patch(const char *file)
{
    size_t n = strlen(file);
    return n > 6 && strcmp(file + n - 6, ".patch") == 0;
}

static double grade(expectation e, const char *run)
{
    require_gpu();
    char cmd[1024], patched[256];
    if (is_patch(e.file)) {
        apply_patch(&e, patched, sizeof patched);
        e.file = patched;
    }
    snprintf(cmd, sizeof cmd, "TILELAB_HISTORY=" RUNS "/history.csv NO_COLOR=1 ./grade %s --file %s "
             "--seed " SEED " --out " RUNS "/%s %s > " RUNS "/%s.log 2>&1", e.lab, e.file, run,
             e.extra_args ? e.extra_args : "", run);
    system("mkdir -p " RUNS);
    int status = system(cmd);
    cr_assert(WIFEXITED(status), "%s: ./grade did not exit normally", e.name);

    char path[256], err[256], outputs[65536];
    snprintf(path, sizeof path, RUNS "/%s/results.json", run);
    tl_json *r = tl_json_parse_file(path, err, sizeof err);
    cr_assert(r, "%s: no valid results.json (%s); see " RUNS "/%s.log", e.name, err, run);
    double score = tl_json_number(r, "score", -1);
    all_outputs(r, outputs, sizeof outputs);
    tl_json_free(r);

    /* ./grade exits 0 only when no point is lost: 100 of 100, or of what was checked. */
    int want = e.exit_status == EXIT_BY_SCORE ? (score >= 100 ? 0 : 1) : e.exit_status;
    cr_expect_eq(WEXITSTATUS(status), want, "%s: exit status %d, expected %d\n%s", e.name,
                 WEXITSTATUS(status), want, outputs);
    cr_expect(score >= e.min_score && score <= e.max_score, "%s: score %.2f, expected %g..%g\n%s",
              e.name, score, e.min_score, e.max_score, outputs);
    if (e.diagnosis)
        cr_expect(strstr(outputs, e.diagnosis), "%s: the report lacks \"%s\"\n%s", e.name, e.diagnosis, outputs);
    if (e.diagnosis2)
        cr_expect(strstr(outputs, e.diagnosis2), "%s: the report lacks \"%s\"\n%s", e.name, e.diagnosis2, outputs);
    printf("%-28s exit %d  score %6.2f\n", e.name, WEXITSTATUS(status), score);
    return score;
}

#define LAB1_FIXTURE "tests/submissions/lab1/"

Test(lab1, solution_full_marks_twice_the_same)
{
    expectation e = {"lab1", "solutions/lab1-naive-transpose/transpose.cu", "lab1 solution", 0, 100, 100,
                     "stores touch 32 sectors per request: your writes are not coalesced", NULL, NULL};
    double first = grade(e, "lab1-solution-1");
    double second = grade(e, "lab1-solution-2");
    cr_assert_eq(first, second, "the same submission graded twice: %.2f then %.2f", first, second);
}

Test(lab1, skeleton_scores_zero_cleanly)
{
    grade((expectation){"lab1", "labs/lab1-naive-transpose/transpose.cu", "lab1 skeleton", 1, 0, 0,
                        "nothing was written there", NULL, NULL}, "lab1-skeleton");
}

Test(lab1, does_not_compile)
{
    grade((expectation){"lab1", LAB1_FIXTURE "does_not_compile.cu", "does_not_compile", 2, 0, 0,
                        "does_not_compile.cu(8): error", NULL, NULL}, "lab1-does_not_compile");
}

Test(lab1, swapped_rows_cols_right_on_squares_only)
{
    grade((expectation){"lab1", LAB1_FIXTURE "swapped_rows_cols.cu", "swapped_rows_cols", 1, 4, 40,
                        "rows and cols are probably swapped", NULL, NULL}, "lab1-swapped_rows_cols");
}

Test(lab1, no_bounds_check_writes_outside)
{
    grade((expectation){"lab1", LAB1_FIXTURE "no_bounds_check.cu", "no_bounds_check", 1, 0, 40,
                        "wrote outside the output at offset", NULL, NULL}, "lab1-no_bounds_check");
}

Test(lab1, does_nothing)
{
    grade((expectation){"lab1", LAB1_FIXTURE "does_nothing.cu", "does_nothing", 1, 0, 0,
                        "nothing was written there", NULL, NULL}, "lab1-does_nothing");
}

Test(lab1, hangs, .timeout = 120)
{
    grade((expectation){"lab1", LAB1_FIXTURE "hangs.cu", "hangs", 1, 0, 0, "timed out: ", NULL, NULL}, "lab1-hangs");
}

Test(lab1, illegal_address)
{
    grade((expectation){"lab1", LAB1_FIXTURE "illegal_address.cu", "illegal_address", 1, 0, 0,
                        "cudaErrorIllegalAddress", NULL, NULL}, "lab1-illegal_address");
}

Test(lab1, one_thread_gets_no_performance_points, .timeout = 120)
{
    /* Correct, but one launch at 8192^2 takes seconds: the large shapes may
     * pass or hit the kernel deadline, and performance, when measured, is far
     * below perf_low. Either way: no performance points (at most 72). */
    grade((expectation){"lab1", LAB1_FIXTURE "one_thread.cu", "one_thread", 1, 64, 72, NULL, NULL, NULL}, "lab1-one_thread");
}

/* ---- labs 2 and 3 -------------------------------------------------------- */

#define LAB2_FIXTURE "tests/submissions/lab2/"
#define LAB3_FIXTURE "tests/submissions/lab3/"

Test(lab2, solution_full_marks)
{
    grade((expectation){"lab2", "solutions/lab2-shared-tile/transpose.cu", "lab2 solution", 0, 100, 100,
                        "pad it to [32][33]", NULL, NULL},
          "lab2-solution");
}

Test(lab2, skeleton_scores_zero_cleanly)
{
    grade((expectation){"lab2", "labs/lab2-shared-tile/transpose.cu", "lab2 skeleton", 1, 0, 0,
                        "nothing was written there", NULL, NULL}, "lab2-skeleton");
}

Test(lab2, missing_barrier)
{
    grade((expectation){"lab2", LAB2_FIXTURE "missing_barrier.cu", "missing_barrier", 1, 0, 97,
                        "Race reported between", NULL, NULL}, "lab2-missing_barrier");
}

Test(lab2, barrier_in_branch)
{
    /* synccheck (lab 2's rubric) names the divergent barrier and takes its points. */
    grade((expectation){"lab2", LAB2_FIXTURE "barrier_in_branch.cu", "barrier_in_branch", 1, 0, 98,
                        "compute-sanitizer --tool synccheck found errors", NULL,
                        "a barrier that not every thread of the block reaches"}, "lab2-barrier_in_branch");
}

Test(lab2, store_index_swapped)
{
    grade((expectation){"lab2", LAB2_FIXTURE "store_index_swapped.cu", "store_index_swapped", 1, 0, 10,
                        "first mismatch at", NULL, NULL}, "lab2-store_index_swapped");
}

Test(lab2, partial_tiles_unguarded)
{
    grade((expectation){"lab2", LAB2_FIXTURE "partial_tiles_unguarded.cu", "partial_tiles_unguarded", 1, 0, 40,
                        "wrote outside the output", NULL, NULL}, "lab2-partial_tiles_unguarded");
}

/* A naive kernel launched beside a tiled one that never runs: the structure
 * is judged on the kernel ncu saw run (no shared memory), and the naive
 * speed earns no performance points. Not yet run on a GPU: the range is the
 * structure and performance points lost, less or more the noise. */
Test(lab2, unlaunched_tiled_kernel_earns_no_structure_points)
{
    grade((expectation){"lab2", "tests/submissions/static/unlaunched_tiled_kernel.cu", "unlaunched_tiled_kernel", 1,
                        50, 75, "judged on the kernels your launch ran", NULL, "never loads or stores shared memory"},
          "lab2-unlaunched_tiled_kernel");
}

Test(lab2, calls_cublas_not_allowed)
{
    grade((expectation){"lab2", LAB2_FIXTURE "calls_cublas.cu", "calls_cublas", 1, 0, 0,
                        "not allowed: your file calls cublasCreate_v2 cublasSgeam", NULL, NULL}, "lab2-calls_cublas");
}

Test(lab3, solution_full_marks)
{
    grade((expectation){"lab3", "solutions/lab3-padding/transpose.cu", "lab3 solution", 0, 100, 100,
                        "x faster", "--baseline solutions/lab2-shared-tile/transpose.cu", NULL}, "lab3-solution");
}

Test(lab3, skeleton_scores_zero_cleanly)
{
    grade((expectation){"lab3", "labs/lab3-padding/transpose.cu", "lab3 skeleton", 1, 0, 0,
                        "nothing was written there", NULL, NULL}, "lab3-skeleton");
}

Test(lab3, no_padding_is_slower)
{
    /* All but the conflict and performance points: 70. */
    grade((expectation){"lab3", LAB3_FIXTURE "no_padding.cu", "no_padding", 1, 65, 75, "pad it to [32][33]", NULL, NULL},
          "lab3-no_padding");
}

Test(lab3, padded_with_32x32_threads_is_slower)
{
    /* No conflicts, but too few bytes in flight: all but the performance points, 80. */
    grade((expectation){"lab3", LAB3_FIXTURE "padded_32x32_threads.cu", "padded_32x32_threads", 1, 75, 90, NULL, NULL, NULL},
          "lab3-padded_32x32_threads");
}

Test(lab3, unfinished_lab2_is_not_compared)
{
    /* The default baseline is labs/lab2-*: here the untouched skeleton. */
    grade((expectation){"lab3", "solutions/lab3-padding/transpose.cu", "lab3 vs lab2 skeleton", 0, 100, 100,
                        "not compared", NULL, NULL}, "lab3-vs-skeleton");
}

Test(lab3, missing_ncu_leaves_the_conflict_points_out)
{
    setenv("NCU", "/nonexistent/ncu", 1);
    grade((expectation){"lab3", "solutions/lab3-padding/transpose.cu", "lab3 without ncu", 0, 90, 90,
                        "not checked: ncu (Nsight Compute) was not found at /nonexistent/ncu", NULL, NULL},
          "lab3-without-ncu");
}

#define LAB4_FIXTURE "tests/submissions/lab4/"

Test(lab4, solution_full_marks)
{
    grade((expectation){"lab4", "solutions/lab4-tiled-matmul/matmul.cu", "lab4 solution", 0, 100, 100,
                        "x the naive kernel", NULL, NULL}, "lab4-solution");
}

Test(lab4, skeleton_scores_zero_cleanly)
{
    grade((expectation){"lab4", "labs/lab4-tiled-matmul/matmul.cu", "lab4 skeleton", 1, 0, 0,
                        "nothing was written", NULL, NULL}, "lab4-skeleton");
}

Test(lab4, missing_second_barrier_is_a_race)
{
    grade((expectation){"lab4", LAB4_FIXTURE "missing_second_barrier.cu", "missing_second_barrier", 1, 0, 95,
                        "Race reported between", NULL, NULL}, "lab4-missing_second_barrier");
}

Test(lab4, no_zero_fill_is_wrong_on_partial_tiles)
{
    grade((expectation){"lab4", LAB4_FIXTURE "no_zero_fill.cu", "no_zero_fill", 1, 0, 50, "checked element", NULL, NULL},
          "lab4-no_zero_fill");
}

Test(lab4, swapped_leading_dimensions_are_wrong)
{
    grade((expectation){"lab4", LAB4_FIXTURE "ab_swapped.cu", "ab_swapped", 1, 0, 25, "checked element", NULL, NULL},
          "lab4-ab_swapped");
}

Test(lab4, half_precision_sum_is_outside_the_bound)
{
    grade((expectation){"lab4", LAB4_FIXTURE "half_accumulate.cu", "half_accumulate", 1, 0, 15,
                        "outside the fp32 bound", NULL, NULL}, "lab4-half_accumulate");
}

Test(lab4, truncated_k_is_wrong)
{
    grade((expectation){"lab4", LAB4_FIXTURE "truncates_k.cu", "truncates_k", 1, 0, 40,
                        "every K-tile is summed once", NULL, NULL}, "lab4-truncates_k");
}

Test(lab4, calls_cublas_not_allowed)
{
    grade((expectation){"lab4", LAB4_FIXTURE "calls_cublas.cu", "calls_cublas", 1, 0, 0,
                        "not allowed: your file calls cublasCreate_v2 cublasSgemm_v2", NULL, NULL}, "lab4-calls_cublas");
}

Test(lab4, naive_kernel_earns_no_tiling_points)
{
    /* Correctness and sanitizers only: 70. */
    grade((expectation){"lab4", LAB4_FIXTURE "naive_no_tiling.cu", "naive_no_tiling", 1, 65, 75,
                        "never loads or stores shared memory", NULL, NULL}, "lab4-naive_no_tiling");
}

#define LAB5_FIXTURE "tests/submissions/lab5/"

Test(lab5, solution_full_marks)
{
    grade((expectation){"lab5", "solutions/lab5-supersteps/supersteps.cu", "lab5 solution", 0, 100, 100,
                        "memcheck, racecheck and synccheck: clean", NULL, "its speed"}, "lab5-solution");
}

/* The clinic's given kernels run, and the tools find their bugs; parts 2 and 3 write nothing. */
Test(lab5, skeleton_scores_zero_cleanly)
{
    grade((expectation){"lab5", "labs/lab5-supersteps/supersteps.cu", "lab5 skeleton", 1, 0, 0,
                        "Barrier error detected. Divergent thread(s)", NULL, "in no superstep"}, "lab5-skeleton");
}

Test(lab5, inplace_missing_barrier_is_a_race)
{
    grade((expectation){"lab5", LAB5_FIXTURE "inplace_missing_barrier.cu", "inplace_missing_barrier", 1, 50, 95,
                        "Race reported between", NULL, "part 2, in transpose_inplace, in no superstep"},
          "lab5-inplace_missing_barrier");
}

Test(lab5, inplace_same_buffer_corrupts_data)
{
    grade((expectation){"lab5", LAB5_FIXTURE "inplace_same_buffer.cu", "inplace_same_buffer", 1, 50, 90,
                        "from its own shared buffer", NULL, NULL}, "lab5-inplace_same_buffer");
}

Test(lab5, inplace_full_grid_swaps_pairs_twice)
{
    grade((expectation){"lab5", LAB5_FIXTURE "inplace_full_grid.cu", "inplace_full_grid", 1, 55, 90,
                        "came back untransposed, still where they started", NULL, NULL}, "lab5-inplace_full_grid");
}

Test(lab5, dbuf_single_buffer_is_a_race)
{
    grade((expectation){"lab5", LAB5_FIXTURE "dbuf_single_buffer.cu", "dbuf_single_buffer", 1, 50, 95,
                        "Race reported between", NULL, "Both accesses sit in superstep 'load_next_multiply_current'"},
          "lab5-dbuf_single_buffer");
}

/* A block that deadlocks at a barrier: the tests time out, and the report names the likely cause. */
Test(lab5, hang_at_barrier_is_named, .timeout = 300)
{
    grade((expectation){"lab5", LAB5_FIXTURE "sums_hangs_at_barrier.cu", "sums_hangs_at_barrier", 1, 80, 95,
                        "threads waiting at a barrier that others of the block never reach", NULL, "timed out"},
          "lab5-sums_hangs_at_barrier");
}

/* ---- attacks: small patches against the reference solutions ---------------
 * Each tests one defence of the grader (handouts/instructors.md, "What a
 * submission cannot do"); the patch's header says the attack. A submission
 * stopped by the sandbox or the static check scores 0 and exits 1. */

#define LAB3_ATTACK "tests/submissions/attacks/lab3/"
#define LAB5_ATTACK "tests/submissions/attacks/lab5/"

/* The sandbox: a system call a static check cannot see (inline assembly). */
Test(attacks, asm_exit_ends_the_worker_not_the_grade)
{
    grade((expectation){"lab3", LAB3_ATTACK "asm_exit.patch", "asm_exit", 1, 0, 0,
                        "ended the process before the test finished", NULL, NULL}, "attack-asm_exit");
}

Test(attacks, asm_open_write_is_stopped)
{
    grade((expectation){"lab3", LAB3_ATTACK "asm_open_write.patch", "asm_open_write", 1, 0, 0,
                        "tried to open a file for writing (openat)", NULL, NULL}, "attack-asm_open_write");
}

Test(attacks, asm_fork_is_stopped, .timeout = 300)
{
    grade((expectation){"lab3", LAB3_ATTACK "asm_fork.patch", "asm_fork", 1, 0, 0,
                        "tried to start a process (fork)", NULL, NULL}, "attack-asm_fork");
}

Test(attacks, asm_kill_parent_is_stopped)
{
    grade((expectation){"lab3", LAB3_ATTACK "asm_kill_parent.patch", "asm_kill_parent", 1, 0, 0,
                        "tried to signal another process (kill)", NULL, NULL}, "attack-asm_kill_parent");
}

Test(attacks, asm_setsid_is_stopped)
{
    grade((expectation){"lab3", LAB3_ATTACK "asm_setsid.patch", "asm_setsid", 1, 0, 0,
                        "tried to leave its process group (setsid)", NULL, NULL}, "attack-asm_setsid");
}

/* The output cap: RLIMIT_FSIZE on the worker's output file. */
Test(attacks, stdout_flood_is_capped, .timeout = 300)
{
    grade((expectation){"lab3", LAB3_ATTACK "stdout_flood.patch", "stdout_flood", 1, 0, 0,
                        "printed more than 64 MiB", NULL, NULL}, "attack-stdout_flood");
}

/* The channel: a reply the worker's kit code did not send. */
Test(attacks, writes_reply_channel_is_caught)
{
    grade((expectation){"lab3", LAB3_ATTACK "writes_reply_channel.patch", "writes_reply_channel", 1, 0, 0,
                        "wrote into the grader's channel", NULL, NULL}, "attack-writes_reply_channel");
}

/* Fresh input and a check on every timed call: the tests pass, the speed does not count.
 * 100 less the 20 performance points; the bank-conflict points may go too. */
Test(attacks, first_call_only_earns_no_speed)
{
    /* Caught by the hidden tests now (one worker, reused buffers), before any timing. */
    grade((expectation){"lab3", LAB3_ATTACK "first_call_only.patch", "first_call_only", 1, 0, 80,
                        "nothing was written there", NULL, NULL}, "attack-first_call_only");
}

/* The timed shape is drawn from a range, not one of the tests' shapes. */
Test(attacks, skip_timed_shapes_earns_no_speed)
{
    grade((expectation){"lab3", LAB3_ATTACK "skip_timed_shapes.patch", "skip_timed_shapes", 1, 70, 85,
                        "Every timed call gets new input", NULL, NULL}, "attack-skip_timed_shapes");
}

/* The static check: scratch memory is not on the allow-list. */
Test(attacks, inplace_scratch_buffer_not_allowed)
{
    grade((expectation){"lab5", LAB5_ATTACK "inplace_scratch_buffer.patch", "inplace_scratch_buffer", 1, 0, 0,
                        "cudaMalloc", NULL, NULL}, "attack-inplace_scratch_buffer");
}

/* Structure is judged on the kernels that ran: matmul_dbuf is in the file but
 * never launched, so part 3's 13 speed points go (87 on an H100 and an H200). */
Test(attacks, dbuf_one_buffer_two_barriers_is_not_double_buffered)
{
    grade((expectation){"lab5", LAB5_ATTACK "dbuf_one_buffer_two_barriers.patch", "dbuf_one_buffer_two_barriers", 1,
                        85, 90, "not double-buffered: matmul_single", NULL, NULL},
          "attack-dbuf_one_buffer_two_barriers");
}

/* Not here: attacks/lab3/reads_judge_environ.patch, whose outcome depends on
 * whether ./grade runs as root (its header says why). */

/* ---- fair: other correct ways to write a lab, which must keep full marks ----
 * Small patches against the reference solutions, as the attacks are; each
 * patch's header says the variant and why it should score what it does. A
 * fair submission graded below its range is a grader that punishes a valid
 * solution: look at the rubric's thresholds and the structure check first. */

#define FAIR "tests/submissions/fair/"

/* Grid-stride loops in both dimensions, at most 1024 blocks per dimension:
 * the reference's accesses, so its speed (0.135-0.158 of copy; full from 0.10). */
Test(fair, lab1_grid_stride_loop_full_marks)
{
    grade((expectation){"lab1", FAIR "lab1/grid_stride.patch", "fair_lab1_grid_stride", 0, 100, 100,
                        "stores touch 32 sectors per request: your writes are not coalesced", NULL, NULL},
          "fair-lab1-grid_stride");
}

/* The padded tile in dynamic shared memory (`extern __shared__`, sized at
 * launch): still shared memory to the structure check, the same speed. */
Test(fair, lab3_dynamic_shared_memory_full_marks)
{
    grade((expectation){"lab3", FAIR "lab3/dynamic_shared.patch", "fair_lab3_dynamic_shared", 0, 100, 100,
                        "judged on the kernels your launch ran (ncu): transpose_padded", NULL, NULL},
          "fair-lab3-dynamic_shared");
}

/* [32][32] with the column XOR-swizzled instead of padded: no bank conflicts. */
Test(fair, lab3_xor_swizzle_full_marks)
{
    grade((expectation){"lab3", FAIR "lab3/xor_swizzle.patch", "fair_lab3_xor_swizzle", 0, 100, 100,
                        "judged on the kernels your launch ran (ncu): transpose_padded", NULL, NULL},
          "fair-lab3-xor_swizzle");
}

/* 16 x 16 tiles: 0.158 of cuBLAS measured once on an H200, 5 % over perf_high
 * 0.150; 95 allows a run 9 % slower than that. Exit 0 at 100, 1 below. */
Test(fair, lab4_16x16_tile_full_marks_or_nearly)
{
    grade((expectation){"lab4", FAIR "lab4/tile16.patch", "fair_lab4_tile16", EXIT_BY_SCORE, 95, 100, NULL, NULL, NULL},
          "fair-lab4-tile16");
}

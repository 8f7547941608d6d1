/*
 * supersteps_measure.cu — the grader's speed measurement for lab 5, one
 * timed part per run (--part). A judge program: no student code is linked
 * in; every kernel runs in a worker and is timed on this program's clock,
 * each call with fresh input and checked (transpose_timing.h, matmul_timing.h):
 *   part 2: the in-place transpose against the kit's copy of the same
 *           bytes (cold, interleaved), at the measurement side;
 *   part 3: the double-buffered matmul against the grader's naive kernel
 *           and, when given, lab 4's tiled kernel (the baseline, in a
 *           worker of its own), cold and interleaved, near 4096^3.
 * A part that fails a quick check (with the kernel deadline) is skipped
 * with the reason. ./grade runs each part in its own process, so a kernel
 * that hangs or faults (the GPU context is lost) never costs the other part.
 * The JSON is rewritten whole after every step (a new file renamed over the
 * old), so a later hang keeps what was measured.
 *
 *   measure --json FILE --part inplace|dbuf --copy-worker PATH --naive-worker PATH [--side N]
 *           [--baseline-worker PATH --baseline-source PATH] [--baseline-skipped WHY]
 *
 * TILELAB_WORKER: the student's worker; TILELAB_SEED: the seed.
 */
#include "tilelab.h"
#include "bench.h"
#include "device.h"
#include "matmul_case.h"
#include "supersteps_case.h"
#include "judge_kernels.h"
#include "matmul_timing.h"
#include "remote.h"
#include "transpose_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static tl_worker *copy_worker, *naive_worker, *baseline_worker;

/* The baseline's quick check goes to its own worker. */
static void baseline_launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
{
    tl_remote_call(baseline_worker, TL_OP_MATMUL, A, B, C, M, N, K);
}

enum { YOURS, NAIVE, BASELINE, WORKS };
/* Timing objects in the JSON; "baseline" itself is the comparison's object. */
static const char *const work_names[WORKS] = {"yours", "naive", "baseline_timing"};

typedef struct {
    int wanted;                     /* the part this run measures (--part) */
    const char *skipped;            /* why part 2 was not timed, or NULL */
    int side;
    int verified;
    char verification[800];
    tl_bench_result bench;
    double floor_ms;
    int below_floor;
} inplace_result;

typedef struct {
    int wanted;
    const char *skipped;            /* why part 3 was not timed, or NULL */
    tl_mm_shape s;
    int timed;                      /* works timed: 2 (yours, naive) or 3 (and the baseline) */
    int noisy;
    tl_stats stats[WORKS];
    int verified[WORKS];
    char verification[WORKS][768];
    const char *baseline_source, *baseline_skipped;
    double floor_ms;
    int below_floor;
} dbuf_result;

/* Part 3's object: "skipped" and why, or the timings and the comparison. */
static void write_dbuf(tl_json_writer *w, const dbuf_result *mm)
{
    tl_jw_object_begin(w, "dbuf");
    if (mm->skipped) {
        tl_jw_string(w, "skipped", mm->skipped);
    } else {
        double flops = tl_matmul_flops(mm->s), gflops[WORKS];
        for (int k = 0; k < mm->timed; k++)
            gflops[k] = flops / (mm->stats[k].median * 1e6);
        tl_jw_int(w, "m", mm->s.m);
        tl_jw_int(w, "k", mm->s.k);
        tl_jw_int(w, "n", mm->s.n);
        tl_jw_bool(w, "verified_after_timing", mm->verified[YOURS]);
        tl_jw_string(w, "verification", mm->verification[YOURS]);
        tl_jw_bool(w, "references_verified", mm->verified[NAIVE]);
        tl_jw_int(w, "samples", mm->stats[YOURS].n);
        tl_jw_bool(w, "noisy", mm->noisy);
        for (int k = 0; k < mm->timed; k++) {
            tl_jw_object_begin(w, work_names[k]);
            tl_jw_number(w, "median_ms", mm->stats[k].median);
            tl_jw_number(w, "min_ms", mm->stats[k].min);
            tl_jw_number(w, "max_ms", mm->stats[k].max);
            tl_jw_number(w, "noise", mm->stats[k].noise);
            tl_jw_number(w, "gflops", gflops[k]);
            tl_jw_object_end(w);
        }
        tl_jw_number(w, "floor_ms", mm->floor_ms);
        tl_jw_bool(w, "below_floor", mm->below_floor);
        tl_jw_number(w, "gflops", gflops[YOURS]);
        tl_jw_number(w, "naive_gflops", gflops[NAIVE]);
        tl_jw_number(w, "speedup_over_naive", gflops[YOURS] / gflops[NAIVE]);
        if (mm->timed > BASELINE) {
            tl_jw_object_begin(w, "baseline");
            tl_jw_string(w, "source", mm->baseline_source);
            tl_jw_bool(w, "verified", mm->verified[BASELINE]);
            tl_jw_string(w, "verification", mm->verification[BASELINE]);
            tl_jw_number(w, "gflops", gflops[BASELINE]);
            tl_jw_number(w, "speedup", gflops[YOURS] / gflops[BASELINE]);
            tl_jw_object_end(w);
        } else if (mm->baseline_skipped) {
            tl_jw_string(w, "baseline_skipped", mm->baseline_skipped);
        }
    }
    tl_jw_object_end(w);
}

static int write_json(const char *final_path, const tl_device_info *dev, const inplace_result *ip,
                      const dbuf_result *mm)
{
    char path[4096];
    snprintf(path, sizeof path, "%s.tmp", final_path);
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    tl_json_writer w;
    tl_jw_init(&w, f);
    tl_jw_object_begin(&w, NULL);
    tl_device_write_json(dev, &w, "device");
    tl_jw_string(&w, "op", "supersteps");
    /* Part 2 under the transpose labs' keys: the report reads both alike. */
    if (ip->wanted && ip->skipped) {
        tl_jw_string(&w, "skipped", ip->skipped);
    } else if (ip->wanted) {
        tl_jw_int(&w, "rows", ip->side);
        tl_jw_int(&w, "cols", ip->side);
        tl_jw_bool(&w, "verified_after_timing", ip->verified);
        tl_jw_string(&w, "verification", ip->verification);
        tl_jw_number(&w, "floor_ms", ip->floor_ms);
        tl_jw_bool(&w, "below_floor", ip->below_floor);
        tl_bench_write_json(&ip->bench, &w, "bench");
    }
    if (mm->wanted)
        write_dbuf(&w, mm);
    tl_jw_object_end(&w);
    if (fclose(f) != 0)
        return -1;
    return rename(path, final_path);
}


/* Part 2: transposed in place over and over; after an even number of
 * launches the input is back, after an odd number its transpose. */
static void save(const char *path, const tl_device_info *dev, const inplace_result *ip, const dbuf_result *mm)
{
    if (write_json(path, dev, ip, mm) != 0) {
        fprintf(stderr, "measure: cannot write %s\n", path);
        exit(TL_EXIT_CANNOT_RUN);
    }
    fflush(stdout);
}

static void measure_inplace(inplace_result *ip, uint64_t seed)
{
    int n = ip->side;
    size_t nn = (size_t)n * n;
    size_t stride = tl_slot_floats(nn);
    int slots = tl_timed_slots(5, 2, stride);
    float *a, *copy_out;
    CHECK_CUDA(cudaMalloc((void **)&a, stride * slots * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&copy_out, stride * slots * sizeof(float)));
    tl_timed_inplace yours;
    tl_timed_inplace_init(&yours, tl_student_worker(), a, n, slots, seed);
    tl_timed_transpose copy;
    tl_timed_transpose_init(&copy, "the copy", copy_worker, a, copy_out, n, n, slots, 0, seed + 1);

    /* The speed of light for the floor (bench.h). */
    double light_gbps = tl_bench_copy_gbps(2.0 * nn * sizeof(float), &TL_BENCH_QUICK);

    tl_timed_inplace_once(&yours);
    tl_stats stats[2];
    memset(stats, 0, sizeof stats);
    int noisy = 1;
    if (!yours.timed.failed) {
        yours.timed.calls = 0;
        tl_bench_work works[2] = {tl_timed_inplace_work(&yours),
                                  tl_timed_transpose_work(&copy)};
        noisy = tl_bench_interleaved(works, 2, &TL_BENCH_GRADE, stats);
    }
    if (copy.timed.failed) {
        fprintf(stderr, "measure: could not grade (not your file's fault): the kit's copy failed while timed: %s\n",
                copy.timed.verification);
        exit(TL_EXIT_CANNOT_RUN);
    }
    memset(&ip->bench, 0, sizeof ip->bench);
    ip->bench.bytes = 2.0 * nn * sizeof(float);
    ip->bench.work_ms = stats[0];
    ip->bench.copy4_ms = stats[1];
    ip->bench.noisy = noisy;
    ip->bench.work_gbps = stats[0].median > 0 ? tl_gbps(ip->bench.bytes, stats[0].median) : 0;
    ip->bench.copy_gbps = stats[1].median > 0 ? tl_gbps(ip->bench.bytes, stats[1].median) : 0;
    ip->bench.fraction_of_copy = stats[0].median > 0 ? stats[1].median / stats[0].median : 0;
    /* The floor from this run's fastest copy (bench.h). */
    ip->floor_ms = tl_bench_copy_floor_ms(ip->bench.bytes, light_gbps, ip->bench.copy_gbps);
    ip->below_floor = !yours.timed.failed && stats[0].median > 0 && stats[0].median < ip->floor_ms;
    ip->verified = !yours.timed.failed;
    snprintf(ip->verification, sizeof ip->verification, "%s",
             yours.timed.failed ? yours.timed.verification : "every timed call checked: right");
    CHECK_CUDA(cudaFree(a));
    CHECK_CUDA(cudaFree(copy_out));
}

/* Part 3: `works` kernels interleaved, each timed in its worker on the same
 * rotation of fresh inputs, each call checked. */
static void measure_dbuf(dbuf_result *mm, int works, uint64_t seed, const tl_device_info *dev)
{
    tl_mm_shape s = mm->s;
    size_t stride = tl_matmul_slot_stride(s.m, s.n, s.k);
    /* Two triples: the rotation still gives every call other pointers and
     * fresh input, and a request's own cost (~0.1 ms) is under 1 % of a
     * 4096^3 product; more would only lengthen the grade. */
    int slots = tl_timed_slots(2, 3, stride);
    float *A, *B, *C;
    CHECK_CUDA(cudaMalloc((void **)&A, stride * slots * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&B, stride * slots * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&C, stride * slots * sizeof(float)));
    tl_timed_matmul t[WORKS];
    tl_timed_matmul_init(&t[YOURS], "your kernel", tl_student_worker(), TL_OP_DBUF, A, B, C, s.m, s.n, s.k, slots,
                         seed);
    tl_timed_matmul_init(&t[NAIVE], "the naive kernel", naive_worker, TL_OP_MATMUL, A, B, C, s.m, s.n, s.k, slots,
                         seed + 1);
    tl_timed_matmul_init(&t[BASELINE], "the baseline", baseline_worker, TL_OP_MATMUL, A, B, C, s.m, s.n, s.k, slots,
                         seed + 2);
    tl_timed_matmul_once(&t[YOURS]);
    memset(mm->stats, 0, sizeof mm->stats);
    mm->noisy = 1;
    if (!t[YOURS].timed.failed) {
        t[YOURS].timed.calls = 0;
        tl_bench_work bench[WORKS];
        for (int k = 0; k < works; k++)
            bench[k] = tl_timed_matmul_work(&t[k]);
        mm->noisy = tl_bench_interleaved(bench, works, &TL_BENCH_GRADE, mm->stats);
    }
    if (t[NAIVE].timed.failed) {
        fprintf(stderr, "measure: could not grade (not your file's fault): the naive kernel failed while timed: %s\n",
                t[NAIVE].timed.verification);
        exit(TL_EXIT_CANNOT_RUN);
    }
    for (int k = 0; k < works; k++) {
        mm->verified[k] = !t[k].timed.failed;
        snprintf(mm->verification[k], sizeof mm->verification[k], "%s",
                 t[k].timed.failed ? t[k].timed.verification : "every timed call checked: within the fp32 bound");
    }
    /* The floor: FLOPs at the FP32 peak (bench.h). */
    mm->floor_ms = tl_matmul_flops(s) / (tl_fp32_peak_gflops(dev->sm_count, dev->clock_khz) * 1e6);
    mm->below_floor = !t[YOURS].timed.failed && mm->stats[YOURS].median > 0 && mm->stats[YOURS].median < mm->floor_ms;
    mm->timed = works;
    CHECK_CUDA(cudaFree(A));
    CHECK_CUDA(cudaFree(B));
    CHECK_CUDA(cudaFree(C));
}

int main(int argc, char **argv)
{
    const char *json_path = NULL, *part = "";
    inplace_result ip = {};
    static dbuf_result mm;
    mm.s = (tl_mm_shape){4096, 4096, 4096};
    mm.baseline_source = "the baseline";
    uint64_t seed = tl_judge_secret();
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--json")) json_path = argv[i + 1];
        else if (!strcmp(argv[i], "--side")) ip.side = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--copy-worker")) copy_worker = tl_worker_new(argv[i + 1], "the kit's copy");
        else if (!strcmp(argv[i], "--naive-worker")) naive_worker = tl_worker_new(argv[i + 1], "the naive kernel");
        else if (!strcmp(argv[i], "--baseline-worker"))
            baseline_worker = tl_worker_new(argv[i + 1], "your lab 4 file");
        else if (!strcmp(argv[i], "--baseline-source")) mm.baseline_source = argv[i + 1];
        else if (!strcmp(argv[i], "--baseline-skipped")) mm.baseline_skipped = argv[i + 1];
        else if (!strcmp(argv[i], "--part")) part = argv[i + 1];
    }
    ip.wanted = !strcmp(part, "inplace");
    mm.wanted = !strcmp(part, "dbuf");
    if (!json_path || !(ip.wanted || mm.wanted) || !copy_worker || !naive_worker || !tl_student_worker()) {
        fprintf(stderr, "usage: TILELAB_WORKER=PATH %s --json FILE --part inplace|dbuf --copy-worker PATH "
                "--naive-worker PATH [--side N] [--baseline-worker PATH --baseline-source PATH]\n", argv[0]);
        return TL_EXIT_CANNOT_RUN;
    }
    tl_device_info dev;
    tl_device_open_or_exit(&dev, argv[0]);
    /* The timed shapes: drawn from the seed around the measurement side and
     * 4096^3, +- 8 tiles of 32, so no shape can be singled out. */
    uint64_t shape_state = seed ^ 0x5EEDB0A7ull;
    if (ip.side <= 0)
        ip.side = tl_timed_side(&shape_state, tl_bench_measure_side(dev.l2_bytes));
    mm.s.m = tl_timed_side(&shape_state, mm.s.m);
    mm.s.k = tl_timed_side(&shape_state, mm.s.k);
    mm.s.n = tl_timed_side(&shape_state, mm.s.n);
    static char inplace_why[1400], dbuf_why[1400], baseline_why[1400];   /* each skip's reason */
#define SAVE() save(json_path, &dev, &ip, &mm)

    /* A quick checked run first, with the kernel deadline: a kernel that
     * hangs or is wrong is skipped with its verdict. */
    tl_case_result c;
    if (ip.wanted) {
        ip.skipped = "its measurement did not finish";
        SAVE();
        c = tl_inplace_case(67, seed);
        if (c.verdict != TL_CASE_PASS) {
            snprintf(inplace_why, sizeof inplace_why, "fails a quick check: %s", c.message);
            ip.skipped = inplace_why;
        } else {
            measure_inplace(&ip, seed);
            ip.skipped = NULL;
            printf("  part 2, %dx%d in place: %.1f GB/s, copy %.1f GB/s, %.3f of copy, noise %.2f %% (%d samples)\n",
                   ip.side, ip.side, ip.bench.work_gbps, ip.bench.copy_gbps, ip.bench.fraction_of_copy,
                   100 * ip.bench.work_ms.noise, ip.bench.work_ms.n);
        }
        SAVE();
        return ip.verified ? TL_EXIT_OK : TL_EXIT_FAILED;
    }

    /* Part 3: yours and the naive kernel, then the baseline when it passes its own quick check. */
    mm.skipped = "its measurement did not finish";
    SAVE();
    c = tl_matmul_case_of(launch_matmul_dbuf, (tl_mm_shape){67, 45, 33}, seed, TL_MM_FINITE);
    if (c.verdict != TL_CASE_PASS) {
        snprintf(dbuf_why, sizeof dbuf_why, "fails a quick check: %s", c.message);
        mm.skipped = dbuf_why;
        SAVE();
        return TL_EXIT_FAILED;
    }
    mm.skipped = NULL;
    measure_dbuf(&mm, BASELINE, seed, &dev);
    SAVE();
    if (baseline_worker && mm.verified[YOURS]) {
        mm.baseline_skipped = "its measurement did not finish";
        SAVE();
        c = tl_matmul_case_of(baseline_launch_matmul, (tl_mm_shape){67, 45, 33}, seed, TL_MM_FINITE);
        if (c.verdict != TL_CASE_PASS) {
            snprintf(baseline_why, sizeof baseline_why, "%s fails a quick check: %s", mm.baseline_source, c.message);
            mm.baseline_skipped = baseline_why;
        } else {
            mm.baseline_skipped = NULL;
            measure_dbuf(&mm, WORKS, seed, &dev);
        }
        SAVE();
    }
    double flops = tl_matmul_flops(mm.s);
    printf("  part 3, %dx%dx%d: yours %.0f GFLOP/s, naive %.0f", mm.s.m, mm.s.k, mm.s.n,
           flops / (mm.stats[YOURS].median * 1e6), flops / (mm.stats[NAIVE].median * 1e6));
    if (mm.timed > BASELINE)
        printf(", baseline %.0f: %.3fx the baseline", flops / (mm.stats[BASELINE].median * 1e6),
               mm.stats[BASELINE].median / mm.stats[YOURS].median);
    printf(" (noise %.2f %%, %d samples)\n", 100 * mm.stats[YOURS].noise, mm.stats[YOURS].n);
    return mm.verified[YOURS] ? TL_EXIT_OK : TL_EXIT_FAILED;
}

/*
 * matmul_measure.cu — the grader's speed measurement for lab 4. A judge
 * program: no student code is linked in. The student's C = A B runs in its
 * worker; the two references, the grader's naive kernel (matmul_naive.cu)
 * and cuBLAS SGEMM in FP32 (cublas_launch.cu), run in workers of their own,
 * so all three are timed through the same path, cold and interleaved, on
 * this program's clock (matmul_timing.h: fresh inputs every call, every
 * call's C checked at sampled elements).
 *
 * The timed shape is drawn from a range around 4096^3 from the secret seed.
 * A time below the floor, FLOPs at the GPU's FP32 peak (bench.h), scores
 * no speed.
 *
 *   measure --json FILE --naive-worker PATH --cublas-worker PATH [--shape MxKxN]
 *           [--baseline-worker PATH --baseline-source FILE | --baseline-skipped WHY]
 *
 * A baseline (lab 7: lab 4's reference, rubric baseline) is timed in the
 * same rounds, for comparison only: the report prints it beside yours.
 *
 * TILELAB_WORKER: the student's worker; TILELAB_SEED: the seed.
 */
#include "tilelab.h"
#include "bench.h"
#include "device.h"
#include "matmul_case.h"
#include "matmul_timing.h"
#include "remote.h"
#include "shapes.h"
#include "timed.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { YOURS, NAIVE, CUBLAS, BASELINE, WORKS };
static const char *const work_names[WORKS] = {"yours", "naive", "cublas", "baseline"};

static void write_stats(tl_json_writer *w, const char *key, const tl_stats *s, double flops)
{
    tl_jw_object_begin(w, key);
    tl_jw_number(w, "median_ms", s->median);
    tl_jw_number(w, "min_ms", s->min);
    tl_jw_number(w, "max_ms", s->max);
    tl_jw_number(w, "noise", s->noise);
    tl_jw_number(w, "gflops", flops / (s->median * 1e6));
    tl_jw_object_end(w);
}

int main(int argc, char **argv)
{
    const char *json_path = NULL, *naive_path = NULL, *cublas_path = NULL, *baseline_path = NULL,
               *baseline_source = NULL, *baseline_skipped = NULL;
    tl_mm_shape base = {4096, 4096, 4096};
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--json")) json_path = argv[i + 1];
        else if (!strcmp(argv[i], "--naive-worker")) naive_path = argv[i + 1];
        else if (!strcmp(argv[i], "--cublas-worker")) cublas_path = argv[i + 1];
        else if (!strcmp(argv[i], "--baseline-worker")) baseline_path = argv[i + 1];
        else if (!strcmp(argv[i], "--baseline-source")) baseline_source = argv[i + 1];
        else if (!strcmp(argv[i], "--baseline-skipped")) baseline_skipped = argv[i + 1];
        else if (!strcmp(argv[i], "--shape") && tl_parse_mm_shape(argv[i + 1], &base) != 0) {
            fprintf(stderr, "%s: --shape takes MxKxN, e.g. 4096x4096x4096\n", argv[0]);
            return TL_EXIT_CANNOT_RUN;
        }
    }
    if (!json_path || !naive_path || !cublas_path || !tl_student_worker()) {
        fprintf(stderr, "usage: TILELAB_WORKER=PATH %s --json FILE --naive-worker PATH --cublas-worker PATH "
                "[--shape MxKxN]\n", argv[0]);
        return TL_EXIT_CANNOT_RUN;
    }
    uint64_t secret = tl_judge_secret();
    tl_device_info dev;
    tl_device_open_or_exit(&dev, argv[0]);

    /* The timed shape: each side +- 8 tiles of 32 from the seed. */
    uint64_t shape_state = secret ^ 0x3A7A3A7Aull;
    tl_mm_shape s = base;
    s.m = tl_timed_side(&shape_state, base.m);
    s.k = tl_timed_side(&shape_state, base.k);
    s.n = tl_timed_side(&shape_state, base.n);
    size_t stride = tl_matmul_slot_stride(s.m, s.n, s.k);
    /* Two triples: the rotation still gives every call other pointers and
     * fresh input, and a request's own cost (~0.1 ms) is under 1 % of a
     * 4096^3 product; more would only lengthen the grade. */
    int slots = tl_timed_slots(2, 3, stride);
    float *A, *B, *C;
    CHECK_CUDA(cudaMalloc((void **)&A, stride * slots * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&B, stride * slots * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&C, stride * slots * sizeof(float)));

    const int works_timed = baseline_path ? WORKS : BASELINE;
    tl_timed_matmul t[WORKS];
    memset(t, 0, sizeof t);
    tl_timed_matmul_init(&t[YOURS], "your kernel", tl_student_worker(), TL_OP_MATMUL, A, B, C, s.m, s.n, s.k, slots,
                         secret);
    tl_timed_matmul_init(&t[NAIVE], "the naive kernel", tl_worker_new(naive_path, "the kit's naive kernel"),
                         TL_OP_MATMUL, A, B, C, s.m, s.n, s.k, slots, secret + 1);
    tl_timed_matmul_init(&t[CUBLAS], "cuBLAS", tl_worker_new(cublas_path, "cuBLAS"), TL_OP_MATMUL, A, B, C, s.m,
                         s.n, s.k, slots, secret + 2);
    if (baseline_path)
        tl_timed_matmul_init(&t[BASELINE], "the baseline", tl_worker_new(baseline_path, "the baseline"), TL_OP_MATMUL,
                             A, B, C, s.m, s.n, s.k, slots, secret + 3);

    /* The student's kernel once, checked, before any timing. */
    tl_timed_matmul_once(&t[YOURS]);
    int noisy = 1;
    tl_stats stats[WORKS];
    memset(stats, 0, sizeof stats);
    if (!t[YOURS].timed.failed) {
        t[YOURS].timed.calls = 0;
        tl_bench_work works[WORKS];
        for (int w = 0; w < works_timed; w++)
            works[w] = tl_timed_matmul_work(&t[w]);
        noisy = tl_bench_interleaved(works, works_timed, &TL_BENCH_GRADE, stats);
    }
    double flops = tl_matmul_flops(s), gflops[WORKS];
    for (int w = 0; w < WORKS; w++)
        gflops[w] = stats[w].median > 0 ? flops / (stats[w].median * 1e6) : 0;
    /* A reference that failed has no time to compare with: the kit cannot grade this run. */
    if (t[NAIVE].timed.failed || t[CUBLAS].timed.failed) {
        fprintf(stderr, "measure: could not grade (not your file's fault): a reference failed while timed (naive: "
                "%s; cuBLAS: %s)\n", t[NAIVE].timed.failed ? t[NAIVE].timed.verification : "right",
                t[CUBLAS].timed.failed ? t[CUBLAS].timed.verification : "right");
        return TL_EXIT_CANNOT_RUN;
    }
    double floor_ms = flops / (tl_fp32_peak_gflops(dev.sm_count, dev.clock_khz) * 1e6);

    FILE *f = fopen(json_path, "w");
    if (!f) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], json_path);
        return TL_EXIT_CANNOT_RUN;
    }
    tl_json_writer jw;
    tl_jw_init(&jw, f);
    tl_jw_object_begin(&jw, NULL);
    tl_device_write_json(&dev, &jw, "device");
    tl_jw_string(&jw, "op", "matmul");
    tl_jw_int(&jw, "m", s.m);
    tl_jw_int(&jw, "k", s.k);
    tl_jw_int(&jw, "n", s.n);
    tl_jw_bool(&jw, "verified_after_timing", !t[YOURS].timed.failed);
    tl_jw_string(&jw, "verification", t[YOURS].timed.failed ? t[YOURS].timed.verification
                                                      : "every timed call checked: within the fp32 bound");
    tl_jw_int(&jw, "calls_checked", t[YOURS].timed.calls);
    tl_jw_bool(&jw, "references_verified", !t[NAIVE].timed.failed && !t[CUBLAS].timed.failed);
    tl_jw_number(&jw, "floor_ms", floor_ms);
    tl_jw_bool(&jw, "below_floor", !t[YOURS].timed.failed && stats[YOURS].median > 0 && stats[YOURS].median < floor_ms);
    tl_jw_string(&jw, "timing", "the judge's clock, request to reply, per launch; fresh input every call");
    tl_jw_object_begin(&jw, "matmul");
    tl_jw_int(&jw, "samples", stats[YOURS].n);
    tl_jw_int(&jw, "launches_per_sample", slots);
    tl_jw_bool(&jw, "noisy", noisy);
    tl_jw_number(&jw, "flops", flops);
    for (int w = 0; w < BASELINE; w++)
        write_stats(&jw, work_names[w], &stats[w], flops);
    tl_jw_number(&jw, "gflops", gflops[YOURS]);
    tl_jw_number(&jw, "naive_gflops", gflops[NAIVE]);
    tl_jw_number(&jw, "cublas_gflops", gflops[CUBLAS]);
    tl_jw_number(&jw, "fraction_of_cublas", gflops[CUBLAS] > 0 ? gflops[YOURS] / gflops[CUBLAS] : 0);
    tl_jw_number(&jw, "speedup_over_naive", gflops[NAIVE] > 0 ? gflops[YOURS] / gflops[NAIVE] : 0);
    tl_jw_object_end(&jw);
    /* The baseline: compared, never scored; a wrong one is not the student's fault. */
    if (baseline_path && !t[YOURS].timed.failed) {
        tl_jw_object_begin(&jw, "baseline");
        tl_jw_string(&jw, "source", baseline_source ? baseline_source : baseline_path);
        tl_jw_bool(&jw, "verified", !t[BASELINE].timed.failed);
        tl_jw_string(&jw, "verification", t[BASELINE].timed.failed ? t[BASELINE].timed.verification : "right");
        tl_jw_number(&jw, "gflops", gflops[BASELINE]);
        tl_jw_number(&jw, "fraction_of_cublas", gflops[CUBLAS] > 0 ? gflops[BASELINE] / gflops[CUBLAS] : 0);
        tl_jw_number(&jw, "speedup", gflops[BASELINE] > 0 ? gflops[YOURS] / gflops[BASELINE] : 0);
        write_stats(&jw, "stats", &stats[BASELINE], flops);
        tl_jw_object_end(&jw);
    } else if (baseline_skipped) {
        tl_jw_string(&jw, "baseline_skipped", baseline_skipped);
    }
    tl_jw_object_end(&jw);
    fclose(f);

    printf("  %dx%dx%d: yours %.0f GFLOP/s, naive %.0f, cuBLAS FP32 %.0f: %.3f of cuBLAS, %.2fx naive "
           "(noise %.2f %%, %d samples of %d launches)\n", s.m, s.k, s.n, gflops[YOURS], gflops[NAIVE],
           gflops[CUBLAS], gflops[CUBLAS] > 0 ? gflops[YOURS] / gflops[CUBLAS] : 0,
           gflops[NAIVE] > 0 ? gflops[YOURS] / gflops[NAIVE] : 0, 100 * stats[YOURS].noise, stats[YOURS].n, slots);
    for (int w = 0; w < works_timed; w++)
        tl_worker_stop(t[w].timed.worker);
    return t[YOURS].timed.failed ? TL_EXIT_FAILED : TL_EXIT_OK;
}

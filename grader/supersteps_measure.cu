/*
 * supersteps_measure.cu — the grader's speed measurement for lab 5, one
 * timed part per run (--part), verified after timing:
 *   part 2: the in-place transpose against the copy of the same bytes
 *           (bench.h: cold, interleaved), at the measurement side;
 *   part 3: the double-buffered matmul against the grader's naive kernel
 *           and, when linked in, lab 4's tiled kernel (the baseline: its
 *           launch_matmul renamed tl_baseline_launch_matmul by
 *           common/submission.mk), cold and interleaved, at 4096^3.
 * A part that fails a quick check (with the kernel deadline) is skipped
 * with the reason. ./grade runs each part in its own process, so a kernel
 * that hangs or faults (the GPU context is lost) never costs the other part.
 * The JSON is rewritten whole after every step (a new file renamed over the
 * old), so a later hang keeps what was measured.
 *
 *   measure --json FILE --part inplace|dbuf [--side N] [--seed S]
 *           [--baseline-source PATH] [--baseline-skipped WHY]
 */
#include "tilelab.h"
#include "bench.h"
#include "device.h"
#include "matrix.h"
#include "matmul_case.h"
#include "supersteps_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" void tl_matmul_naive(const float *A, const float *B, float *C, int M, int N, int K);
/* Defined only when a baseline is linked in. */
extern "C" void tl_baseline_launch_matmul(const float *A, const float *B, float *C, int M, int N, int K)
    __attribute__((weak));

enum { YOURS, NAIVE, BASELINE, WORKS };
/* Timing objects in the JSON; "baseline" itself is the comparison's object. */
static const char *const work_names[WORKS] = {"yours", "naive", "baseline_timing"};

typedef struct {
    int wanted;                     /* the part this run measures (--part) */
    const char *skipped;            /* why part 2 was not timed, or NULL */
    int side;
    int verified;
    char verification[512];
    tl_bench_result bench;
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
    size_t n = (size_t)ip->side * ip->side;
    float *input = (float *)malloc(n * sizeof(float)), *expected = (float *)malloc(n * sizeof(float));
    float *got = (float *)malloc(n * sizeof(float));
    if (!input || !expected || !got) {
        fprintf(stderr, "measure: out of host memory for a %dx%d matrix\n", ip->side, ip->side);
        exit(TL_EXIT_CANNOT_RUN);
    }
    tl_fill_seeded(input, n, seed);
    tl_inplace_args a = {NULL, ip->side, NULL, 0};
    CHECK_CUDA(cudaMalloc((void **)&a.a, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(a.a, input, n * sizeof(float), cudaMemcpyHostToDevice));
    tl_bench_against_copy(tl_inplace_work, &a, 2.0 * n * sizeof(float), &TL_BENCH_GRADE, &ip->bench);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(got, a.a, n * sizeof(float), cudaMemcpyDeviceToHost));
    if (a.launches % 2)
        tl_transpose_ref(input, expected, ip->side, ip->side);
    else
        memcpy(expected, input, n * sizeof(float));
    tl_mismatch m = tl_compare_exact(expected, got, ip->side, ip->side);
    ip->verified = m.count == 0;
    tl_describe_mismatch(&m, ip->side, ip->side, ip->verification, sizeof ip->verification);
    CHECK_CUDA(cudaFree(a.a));
    free(input);
    free(expected);
    free(got);
}

/* Part 3: `works` kernels interleaved on the same A and B, each into its own C. */
static void measure_dbuf(dbuf_result *mm, int works, uint64_t seed)
{
    tl_mm_shape s = mm->s;
    size_t na = (size_t)s.m * s.k, nb = (size_t)s.k * s.n, nc = (size_t)s.m * s.n;
    float *a_host = (float *)malloc(na * sizeof(float)), *b_host = (float *)malloc(nb * sizeof(float));
    float *c_host = (float *)malloc(nc * sizeof(float));
    if (!a_host || !b_host || !c_host) {
        fprintf(stderr, "measure: out of host memory for %dx%dx%d\n", s.m, s.k, s.n);
        exit(TL_EXIT_CANNOT_RUN);
    }
    tl_fill_seeded(a_host, na, seed);
    tl_fill_seeded(b_host, nb, seed ^ 0x5EEDB);
    float *A, *B, *C[WORKS];
    CHECK_CUDA(cudaMalloc((void **)&A, na * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&B, nb * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(A, a_host, na * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(B, b_host, nb * sizeof(float), cudaMemcpyHostToDevice));
    tl_matmul_fn launch[WORKS] = {launch_matmul_dbuf, tl_matmul_naive, tl_baseline_launch_matmul};
    tl_matmul_args args[WORKS];
    tl_bench_work bench[WORKS];
    for (int k = 0; k < works; k++) {   /* each its own C, poisoned: each verified after timing */
        CHECK_CUDA(cudaMalloc((void **)&C[k], nc * sizeof(float)));
        CHECK_CUDA(cudaMemset(C[k], 0xFF, nc * sizeof(float)));
        args[k] = (tl_matmul_args){A, B, C[k], s, launch[k]};
        bench[k] = (tl_bench_work){tl_matmul_work, &args[k]};
    }
    mm->noisy = tl_bench_interleaved(bench, works, &TL_BENCH_GRADE, mm->stats);
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int k = 0; k < works; k++) {
        CHECK_CUDA(cudaMemcpy(c_host, C[k], nc * sizeof(float), cudaMemcpyDeviceToHost));
        size_t wrong = tl_matmul_verify(a_host, b_host, c_host, s, seed, mm->verification[k],
                                        sizeof mm->verification[k]);
        mm->verified[k] = wrong == 0;
        if (mm->verified[k])
            snprintf(mm->verification[k], sizeof mm->verification[k], "every checked element within the fp32 bound");
        CHECK_CUDA(cudaFree(C[k]));
    }
    mm->timed = works;
    CHECK_CUDA(cudaFree(A));
    CHECK_CUDA(cudaFree(B));
    free(a_host);
    free(b_host);
    free(c_host);
}

int main(int argc, char **argv)
{
    const char *json_path = NULL, *part = "";
    inplace_result ip = {};
    static dbuf_result mm;
    mm.s = (tl_mm_shape){4096, 4096, 4096};
    mm.baseline_source = "the baseline";
    unsigned long long seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--json")) json_path = argv[i + 1];
        else if (!strcmp(argv[i], "--side")) ip.side = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--baseline-source")) mm.baseline_source = argv[i + 1];
        else if (!strcmp(argv[i], "--baseline-skipped")) mm.baseline_skipped = argv[i + 1];
        else if (!strcmp(argv[i], "--part")) part = argv[i + 1];
    }
    ip.wanted = !strcmp(part, "inplace");
    mm.wanted = !strcmp(part, "dbuf");
    if (!json_path || !(ip.wanted || mm.wanted)) {
        fprintf(stderr, "usage: %s --json FILE --part inplace|dbuf [--side N] [--seed S] [--baseline-source PATH]\n",
                argv[0]);
        return TL_EXIT_CANNOT_RUN;
    }
    tl_device_info dev;
    tl_device_open_or_exit(&dev, argv[0]);
    if (ip.side <= 0)
        ip.side = tl_bench_measure_side(dev.l2_bytes);
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
    measure_dbuf(&mm, BASELINE, seed);
    SAVE();
    if (tl_baseline_launch_matmul && mm.verified[YOURS]) {
        mm.baseline_skipped = "its measurement did not finish";
        SAVE();
        c = tl_matmul_case_of(tl_baseline_launch_matmul, (tl_mm_shape){67, 45, 33}, seed, TL_MM_FINITE);
        if (c.verdict != TL_CASE_PASS) {
            snprintf(baseline_why, sizeof baseline_why, "%s fails a quick check: %s", mm.baseline_source, c.message);
            mm.baseline_skipped = baseline_why;
        } else {
            mm.baseline_skipped = NULL;
            measure_dbuf(&mm, WORKS, seed);
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

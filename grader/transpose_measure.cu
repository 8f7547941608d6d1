/*
 * transpose_measure.cu — the grader's bandwidth measurement for the
 * transpose labs: the student's kernel against the copy, cold, interleaved,
 * at the measurement size; verified again after timing. Writes JSON.
 *
 * Linked with a baseline (the student's own file of an earlier lab, its
 * launch renamed tl_baseline_launch_transpose by common/submission.mk), it
 * times that too, in the same process, and writes the speedup.
 *
 *   measure --json FILE [--side N] [--seed S] [--baseline-source PATH]
 *           [--baseline-skipped WHY]   (no baseline linked: say why in the JSON)
 */
#include "tilelab.h"
#include "bench.h"
#include "device.h"
#include "matrix.h"
#include "transpose_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Defined only when a baseline is linked in. */
extern "C" void tl_baseline_launch_transpose(const float *in, float *out, int rows, int cols)
    __attribute__((weak));

/* One kernel timed and checked at the measurement size. */
typedef struct {
    tl_bench_result bench;
    int verified;
    char verification[512];
} measured;

typedef struct {
    const char *source;
    const char *skipped;     /* why there is no comparison, or NULL */
    measured m;
} baseline;

static void measure(tl_transpose_args *a, const float *expected, float *got, measured *out)
{
    size_t n = (size_t)a->rows * a->cols;
    CHECK_CUDA(cudaMemset(a->out, 0xFF, n * sizeof(float)));   /* poison: verify after timing */
    tl_bench_against_copy(tl_transpose_work, a, 2.0 * n * sizeof(float), &TL_BENCH_GRADE, &out->bench);
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaMemcpy(got, a->out, n * sizeof(float), cudaMemcpyDeviceToHost));
    tl_mismatch m = tl_compare_exact(expected, got, a->cols, a->rows);
    out->verified = m.count == 0;
    tl_describe_mismatch(&m, a->cols, a->rows, out->verification, sizeof out->verification);
}

/* Written once before the baseline runs and again after: a baseline that
 * hangs or crashes never costs the student's own measurement. */
static int write_json(const char *path, const tl_device_info *dev, int side, const measured *m, const baseline *b)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    tl_json_writer w;
    tl_jw_init(&w, f);
    tl_jw_object_begin(&w, NULL);
    tl_device_write_json(dev, &w, "device");
    tl_jw_int(&w, "rows", side);
    tl_jw_int(&w, "cols", side);
    tl_jw_bool(&w, "verified_after_timing", m->verified);
    tl_jw_string(&w, "verification", m->verification);
    tl_bench_write_json(&m->bench, &w, "bench");
    if (b && b->skipped) {
        tl_jw_string(&w, "baseline_skipped", b->skipped);
    } else if (b) {
        tl_jw_object_begin(&w, "baseline");
        tl_jw_string(&w, "source", b->source);
        tl_jw_bool(&w, "verified", b->m.verified);
        tl_jw_string(&w, "verification", b->m.verification);
        tl_jw_number(&w, "speedup", b->m.bench.work_ms.median / m->bench.work_ms.median);
        tl_bench_write_json(&b->m.bench, &w, "bench");
        tl_jw_object_end(&w);
    }
    tl_jw_object_end(&w);
    return fclose(f);
}

int main(int argc, char **argv)
{
    const char *json_path = NULL, *baseline_source = "the baseline", *baseline_skipped = NULL;
    int side = 0;
    unsigned long long seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--json")) json_path = argv[i + 1];
        else if (!strcmp(argv[i], "--side")) side = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--baseline-source")) baseline_source = argv[i + 1];
        else if (!strcmp(argv[i], "--baseline-skipped")) baseline_skipped = argv[i + 1];
    }
    if (!json_path) {
        fprintf(stderr, "usage: %s --json FILE [--side N] [--seed S] [--baseline-source PATH]\n", argv[0]);
        return TL_EXIT_CANNOT_RUN;
    }

    tl_device_info dev;
    tl_device_open_or_exit(&dev, argv[0]);
    if (side <= 0)
        side = tl_bench_measure_side(dev.l2_bytes);

    size_t n = (size_t)side * side;
    float *in_host = (float *)malloc(n * sizeof(float));
    float *expected = (float *)malloc(n * sizeof(float));
    float *got = (float *)malloc(n * sizeof(float));
    if (!in_host || !expected || !got) {
        fprintf(stderr, "%s: out of host memory for a %dx%d matrix\n", argv[0], side, side);
        return TL_EXIT_CANNOT_RUN;
    }
    tl_fill_seeded(in_host, n, seed);
    tl_transpose_ref(in_host, expected, side, side);

    tl_transpose_args a = {NULL, NULL, side, side, NULL};
    CHECK_CUDA(cudaMalloc((void **)&a.in, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&a.out, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy((void *)a.in, in_host, n * sizeof(float), cudaMemcpyHostToDevice));

    measured yours;
    measure(&a, expected, got, &yours);
    printf("  %dx%d: %.1f GB/s, copy %.1f GB/s, %.3f of copy, noise %.2f %% (%d samples)\n", side, side,
           yours.bench.work_gbps, yours.bench.copy_gbps, yours.bench.fraction_of_copy,
           100 * yours.bench.work_ms.noise, yours.bench.work_ms.n);

    baseline b = {baseline_source, NULL, {}};
    int with_baseline = tl_baseline_launch_transpose != NULL && yours.verified;
    if (with_baseline) {
        b.skipped = "its measurement did not finish";
        if (write_json(json_path, &dev, side, &yours, &b) != 0)
            goto cannot_write;
        fflush(stdout);
        /* A quick checked run first, with the kernel deadline: a hung
         * baseline ends here with a verdict instead of at the timeout. */
        tl_case_result c = tl_transpose_case_of(tl_baseline_launch_transpose, 257, 131, seed);
        if (c.verdict != TL_CASE_PASS) {
            char why[1200];
            snprintf(why, sizeof why, "%s fails a quick check: %s", baseline_source, c.message);
            b.skipped = why;
            write_json(json_path, &dev, side, &yours, &b);
            return TL_EXIT_OK;   /* on a fatal verdict the context is gone: stop here */
        }
        b.skipped = NULL;
        tl_transpose_args base = a;
        base.launch = tl_baseline_launch_transpose;
        measure(&base, expected, got, &b.m);
        printf("  baseline %s: %.1f GB/s, %.3f of copy; speedup %.2fx\n", baseline_source, b.m.bench.work_gbps,
               b.m.bench.fraction_of_copy, b.m.bench.work_ms.median / yours.bench.work_ms.median);
    }
    if (!with_baseline && baseline_skipped)
        b.skipped = baseline_skipped;
    if (write_json(json_path, &dev, side, &yours, with_baseline || baseline_skipped ? &b : NULL) != 0)
        goto cannot_write;

    CHECK_CUDA(cudaFree((void *)a.in));
    CHECK_CUDA(cudaFree(a.out));
    free(in_host);
    free(expected);
    free(got);
    return yours.verified ? TL_EXIT_OK : TL_EXIT_FAILED;

cannot_write:
    fprintf(stderr, "%s: cannot write %s\n", argv[0], json_path);
    return TL_EXIT_CANNOT_RUN;
}

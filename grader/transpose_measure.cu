/*
 * transpose_measure.cu — the grader's bandwidth measurement for the
 * transpose labs: the student's kernel against the copy, cold, interleaved,
 * at the measurement size; verified again after timing. Writes JSON.
 *
 *   measure --json FILE [--side N] [--seed S]
 */
#include "tilelab.h"
#include "bench.h"
#include "device.h"
#include "matrix.h"
#include "transpose_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *json_path = NULL;
    int side = 0;
    unsigned long long seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--json")) json_path = argv[i + 1];
        else if (!strcmp(argv[i], "--side")) side = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--seed")) seed = strtoull(argv[i + 1], NULL, 10);
    }
    if (!json_path) {
        fprintf(stderr, "usage: %s --json FILE [--side N] [--seed S]\n", argv[0]);
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

    tl_transpose_args a = {NULL, NULL, side, side};
    CHECK_CUDA(cudaMalloc((void **)&a.in, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&a.out, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy((void *)a.in, in_host, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemset(a.out, 0xFF, n * sizeof(float)));   /* poison: verify after timing */

    tl_bench_result b;
    tl_bench_against_copy(tl_transpose_work, &a, 2.0 * n * sizeof(float), &TL_BENCH_GRADE, &b);
    CHECK_CUDA(cudaDeviceSynchronize());

    CHECK_CUDA(cudaMemcpy(got, a.out, n * sizeof(float), cudaMemcpyDeviceToHost));
    tl_mismatch m = tl_compare_exact(expected, got, side, side);
    char verdict[512];
    tl_describe_mismatch(&m, side, side, verdict, sizeof verdict);

    FILE *f = fopen(json_path, "w");
    if (!f) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], json_path);
        return TL_EXIT_CANNOT_RUN;
    }
    tl_json_writer w;
    tl_jw_init(&w, f);
    tl_jw_object_begin(&w, NULL);
    tl_device_write_json(&dev, &w, "device");
    tl_jw_int(&w, "rows", side);
    tl_jw_int(&w, "cols", side);
    tl_jw_bool(&w, "verified_after_timing", m.count == 0);
    tl_jw_string(&w, "verification", verdict);
    tl_bench_write_json(&b, &w, "bench");
    tl_jw_object_end(&w);
    fclose(f);

    printf("  %dx%d: %.1f GB/s, copy %.1f GB/s, %.3f of copy, noise %.2f %% (%d samples)\n",
           side, side, b.work_gbps, b.copy_gbps, b.fraction_of_copy, 100 * b.work_ms.noise, b.work_ms.n);
    CHECK_CUDA(cudaFree((void *)a.in));
    CHECK_CUDA(cudaFree(a.out));
    free(in_host);
    free(expected);
    free(got);
    return m.count == 0 ? TL_EXIT_OK : TL_EXIT_FAILED;
}

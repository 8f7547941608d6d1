/*
 * transpose_measure.cu — the grader's bandwidth measurement for the
 * transpose labs. A judge program: no student code is linked in; the
 * student's launch runs in its worker (remote.h), on buffers this program
 * owns, and this program's clock times it.
 *
 * Timing that cannot be skipped:
 *   - the timed shape is drawn from a range around the measurement side,
 *     from the secret seed, so no shape can be singled out;
 *   - every sample is `slots` launches on `slots` different buffer pairs,
 *     each with input the judge wrote just before (fresh hash values) and an
 *     output poisoned with NaN, and every one of those outputs is checked;
 *   - the copy it is compared with is the kit's copy kernel in a worker of
 *     its own, timed through the same path (request, launches, reply);
 *   - a time below the physical floor, bytes moved over 1.05 x the fastest
 *     copy of this run (timed with CUDA events, or the copy worker), scores no speed.
 *
 *   measure --json FILE --copy-worker PATH [--side N]
 *           [--baseline-worker PATH --baseline-source NAME | --baseline-skipped WHY]
 *           [--library-worker PATH --library-source NAME]
 *
 * The library (lab 6: cuBLAS Sgeam) is a kit worker timed in the same
 * interleaved rounds, for the report's comparison line; it scores nothing.
 *
 * TILELAB_WORKER: the student's worker; TILELAB_SEED: the seed (never on a
 * command line, where any process can read it).
 */
#include "tilelab.h"
#include "bench.h"
#include "device.h"
#include "judge_kernels.h"
#include "remote.h"
#include "transpose_case.h"
#include "transpose_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_timed(tl_json_writer *w, const char *key, const tl_timed_transpose *t, double bytes)
{
    tl_jw_object_begin(w, key);
    tl_jw_number(w, "median_ms", t->timed.stats.median);
    tl_jw_number(w, "min_ms", t->timed.stats.min);
    tl_jw_number(w, "max_ms", t->timed.stats.max);
    tl_jw_number(w, "noise", t->timed.stats.noise);
    tl_jw_number(w, "gbps", tl_gbps(bytes, t->timed.stats.median));
    tl_jw_object_end(w);
}

typedef struct {
    const tl_device_info *dev;
    int rows, cols, slots;
    double bytes, floor_ms, event_copy_gbps;
    int noisy;
    tl_timed_transpose *yours, *copy, *baseline, *library;
    const char *baseline_source, *baseline_skipped, *library_source, *library_skipped;
} measurement;

static int write_json(const char *path, const measurement *m)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    tl_json_writer w;
    tl_jw_init(&w, f);
    tl_jw_object_begin(&w, NULL);
    tl_device_write_json(m->dev, &w, "device");
    tl_jw_int(&w, "rows", m->rows);
    tl_jw_int(&w, "cols", m->cols);
    const tl_timed_transpose *y = m->yours;
    tl_jw_bool(&w, "verified_after_timing", !y->timed.failed);
    tl_jw_string(&w, "verification", y->timed.failed ? y->timed.verification : "every timed call checked: right");
    tl_jw_int(&w, "calls_checked", y->timed.calls);
    tl_jw_string(&w, "timing", "the judge's clock, request to reply, per launch; fresh input every call");
    double fraction = y->timed.stats.median > 0 ? m->copy->timed.stats.median / y->timed.stats.median : 0;
    tl_jw_number(&w, "floor_ms", m->floor_ms);
    tl_jw_bool(&w, "below_floor", !y->timed.failed && y->timed.stats.median < m->floor_ms);
    tl_jw_object_begin(&w, "bench");
    tl_jw_number(&w, "bytes_moved", m->bytes);
    tl_jw_int(&w, "samples", y->timed.stats.n);
    tl_jw_int(&w, "launches_per_sample", m->slots);
    tl_jw_bool(&w, "noisy", m->noisy);
    write_timed(&w, "work", y, m->bytes);
    write_timed(&w, "copy_worker", m->copy, m->bytes);
    tl_jw_number(&w, "work_gbps", tl_gbps(m->bytes, y->timed.stats.median));
    tl_jw_number(&w, "copy_gbps", tl_gbps(m->bytes, m->copy->timed.stats.median));
    tl_jw_number(&w, "copy_event_gbps", m->event_copy_gbps);
    tl_jw_number(&w, "fraction_of_copy", fraction);
    tl_jw_object_end(&w);
    if (m->baseline_skipped) {
        tl_jw_string(&w, "baseline_skipped", m->baseline_skipped);
    } else if (m->baseline) {
        const tl_timed_transpose *b = m->baseline;
        tl_jw_object_begin(&w, "baseline");
        tl_jw_string(&w, "source", m->baseline_source);
        tl_jw_bool(&w, "verified", !b->timed.failed);
        tl_jw_string(&w, "verification", b->timed.failed ? b->timed.verification : "every timed call checked: right");
        tl_jw_number(&w, "speedup", y->timed.stats.median > 0 ? b->timed.stats.median / y->timed.stats.median : 0);
        tl_jw_object_begin(&w, "bench");
        tl_jw_number(&w, "work_gbps", tl_gbps(m->bytes, b->timed.stats.median));
        tl_jw_number(&w, "fraction_of_copy", b->timed.stats.median > 0 ? m->copy->timed.stats.median / b->timed.stats.median : 0);
        write_timed(&w, "work", b, m->bytes);
        tl_jw_object_end(&w);
        tl_jw_object_end(&w);
    }
    if (m->library_skipped) {
        tl_jw_string(&w, "library_skipped", m->library_skipped);
    } else if (m->library) {
        const tl_timed_transpose *l = m->library;
        tl_jw_object_begin(&w, "library");
        tl_jw_string(&w, "source", m->library_source);
        tl_jw_bool(&w, "verified", !l->timed.failed);
        tl_jw_string(&w, "verification", l->timed.failed ? l->timed.verification : "every timed call checked: right");
        /* Yours over the library's speed: above 1, yours is faster. */
        tl_jw_number(&w, "speedup", y->timed.stats.median > 0 ? l->timed.stats.median / y->timed.stats.median : 0);
        tl_jw_number(&w, "work_gbps", tl_gbps(m->bytes, l->timed.stats.median));
        tl_jw_number(&w, "fraction_of_copy", l->timed.stats.median > 0 ? m->copy->timed.stats.median / l->timed.stats.median : 0);
        write_timed(&w, "work", l, m->bytes);
        tl_jw_object_end(&w);
    }
    tl_jw_object_end(&w);
    return fclose(f);
}

/* The baseline's quick check goes to its own worker. */
static tl_worker *baseline_worker;
static void baseline_launch(const float *in, float *out, int rows, int cols)
{
    tl_remote_call(baseline_worker, TL_OP_TRANSPOSE, in, out, NULL, rows, cols, 0);
}

int main(int argc, char **argv)
{
    const char *json_path = NULL, *copy_path = NULL, *baseline_path = NULL, *library_path = NULL;
    measurement m;
    memset(&m, 0, sizeof m);
    m.baseline_source = "the baseline";
    m.library_source = "the library";
    int side = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--json")) json_path = argv[i + 1];
        else if (!strcmp(argv[i], "--side")) side = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--copy-worker")) copy_path = argv[i + 1];
        else if (!strcmp(argv[i], "--baseline-worker")) baseline_path = argv[i + 1];
        else if (!strcmp(argv[i], "--baseline-source")) m.baseline_source = argv[i + 1];
        else if (!strcmp(argv[i], "--baseline-skipped")) m.baseline_skipped = argv[i + 1];
        else if (!strcmp(argv[i], "--library-worker")) library_path = argv[i + 1];
        else if (!strcmp(argv[i], "--library-source")) m.library_source = argv[i + 1];
    }
    if (!json_path || !copy_path || !tl_student_worker()) {
        fprintf(stderr, "usage: TILELAB_WORKER=PATH %s --json FILE --copy-worker PATH [--side N] "
                "[--baseline-worker PATH --baseline-source NAME] [--library-worker PATH --library-source NAME]\n", argv[0]);
        return TL_EXIT_CANNOT_RUN;
    }
    uint64_t secret = tl_judge_secret();

    tl_device_info dev;
    tl_device_open_or_exit(&dev, argv[0]);
    m.dev = &dev;
    if (side <= 0)
        side = tl_bench_measure_side(dev.l2_bytes);
    tl_shape timed = tl_transpose_timed_shape(secret, side);
    m.rows = timed.rows;
    m.cols = timed.cols;
    size_t n = (size_t)m.rows * m.cols;
    m.bytes = 2.0 * n * sizeof(float);

    /* Slots: enough launches per sample that the request's cost is small,
     * as long as the GPU has room for them. */
    size_t stride = tl_slot_floats(n);
    m.slots = tl_timed_slots(5, 2, stride);
    float *in, *out;
    CHECK_CUDA(cudaMalloc((void **)&in, stride * m.slots * sizeof(float)));
    CHECK_CUDA(cudaMalloc((void **)&out, stride * m.slots * sizeof(float)));

    tl_timed_transpose yours, copy, base, lib;
    tl_timed_transpose_init(&yours, "your kernel", tl_student_worker(), in, out, m.rows, m.cols, m.slots, 1, secret);
    tl_timed_transpose_init(&copy, "the copy", tl_worker_new(copy_path, "the kit's copy"), in, out, m.rows, m.cols,
                            m.slots, 0, secret + 1);
    tl_timed_transpose_init(&base, "the baseline", NULL, in, out, m.rows, m.cols, m.slots, 1, secret + 2);
    tl_timed_transpose_init(&lib, "the library", NULL, in, out, m.rows, m.cols, m.slots, 1, secret + 3);
    m.yours = &yours;
    m.copy = &copy;


    /* The speed of light for the floor (bench.h), before any worker runs. */
    m.event_copy_gbps = tl_bench_copy_gbps(m.bytes, &TL_BENCH_QUICK);

    /* First the student's kernel alone, once, checked: a kernel that fails
     * here is not timed (the report says why). */
    tl_timed_transpose_once(&yours);
    if (yours.timed.failed) {
        m.noisy = 1;
        if (write_json(json_path, &m) != 0) {
            fprintf(stderr, "%s: cannot write %s\n", argv[0], json_path);
            return TL_EXIT_CANNOT_RUN;
        }
        return TL_EXIT_FAILED;
    }
    yours.timed.calls = 0;

    tl_bench_work works[4] = {tl_timed_transpose_work(&yours), tl_timed_transpose_work(&copy)};
    int nworks = 2;
    if (baseline_path && !m.baseline_skipped) {
        baseline_worker = tl_worker_new(baseline_path, "your baseline file");
        /* A quick checked run first, under the kernel deadline. */
        tl_case_result c = tl_transpose_case_of(baseline_launch, 257, 131, secret);
        static char why[1200];
        if (c.verdict != TL_CASE_PASS) {
            snprintf(why, sizeof why, "%s fails a quick check: %s", m.baseline_source, c.message);
            m.baseline_skipped = why;
        } else {
            m.baseline = &base;
            base.timed.worker = baseline_worker;
            works[nworks++] = tl_timed_transpose_work(&base);
        }
    }
    int library_index = -1;
    if (library_path) {
        lib.timed.worker = tl_worker_new(library_path, m.library_source);
        m.library = &lib;
        library_index = nworks;
        works[nworks++] = tl_timed_transpose_work(&lib);
    }
    tl_stats stats[4];
    m.noisy = tl_bench_interleaved(works, nworks, &TL_BENCH_GRADE, stats);
    yours.timed.stats = stats[0];
    copy.timed.stats = stats[1];
    if (m.baseline)
        base.timed.stats = stats[2];
    if (m.library)
        lib.timed.stats = stats[library_index];
    /* A reference that failed (its worker stopped, was stopped, or lied) has
     * no time to compare with: the kit cannot grade this run. */
    if (copy.timed.failed) {
        fprintf(stderr, "measure: could not grade (not your file's fault): the kit's copy failed while timed: %s\n",
                copy.timed.verification);
        return TL_EXIT_CANNOT_RUN;
    }
    /* The floor: no kernel moves the bytes faster than this run's fastest copy (bench.h). */
    m.floor_ms = tl_bench_copy_floor_ms(m.bytes, m.event_copy_gbps, tl_gbps(m.bytes, copy.timed.stats.median));
    if (m.baseline && base.timed.failed) {
        static char why[1200];
        snprintf(why, sizeof why, "%s failed while timed: %s", m.baseline_source, base.timed.verification);
        m.baseline_skipped = why;
    }
    if (m.library && lib.timed.failed) {   /* the kit's worker, not yours: no comparison, nothing lost */
        static char why[1200];
        snprintf(why, sizeof why, "%s failed while timed: %s", m.library_source, lib.timed.verification);
        m.library_skipped = why;
    }

    printf("  %dx%d: %.1f GB/s, copy %.1f GB/s (same path), %.3f of copy, noise %.2f %% (%d samples of %d "
           "launches)\n", m.rows, m.cols, tl_gbps(m.bytes, yours.timed.stats.median), tl_gbps(m.bytes, copy.timed.stats.median),
           copy.timed.stats.median / yours.timed.stats.median, 100 * yours.timed.stats.noise, yours.timed.stats.n, m.slots);
    if (write_json(json_path, &m) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], json_path);
        return TL_EXIT_CANNOT_RUN;
    }
    tl_worker_stop(yours.timed.worker);
    tl_worker_stop(copy.timed.worker);
    tl_worker_stop(base.timed.worker);
    tl_worker_stop(lib.timed.worker);
    return yours.timed.failed ? TL_EXIT_FAILED : TL_EXIT_OK;
}

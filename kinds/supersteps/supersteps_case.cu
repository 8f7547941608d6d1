/* supersteps_case.cu — lab 5's checked launches (see supersteps_case.h). */
#include "supersteps_case.h"

#include "tilelab.h"
#include "devbuf.h"
#include "matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const tl_clinic_names[TL_CLINIC_COUNT] = {"reverse", "sums", "pairs"};

/* Whole numbers in [-8, 8]: a chunk's sum is exact in fp32 in any order. */
static void fill_small_whole(float *a, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++)
        a[i] = (float)((int)(tl_splitmix64(seed + i) % 17) - 8);
}

static void clinic_reference(tl_clinic which, const float *in, float *out, int n)
{
    for (int chunk = 0; chunk < n; chunk += TL_CHUNK) {
        int len = n - chunk < TL_CHUNK ? n - chunk : TL_CHUNK;
        double sum = 0;
        for (int i = 0; i < len; i++) {
            if (which == TL_CLINIC_REVERSE)
                out[chunk + i] = in[chunk + len - 1 - i];
            else if (which == TL_CLINIC_PAIRS)
                out[chunk + i] = in[chunk + i] + (chunk + i + 1 < n ? in[chunk + i + 1] : 0.0f);
            sum += in[chunk + i];
        }
        if (which == TL_CLINIC_SUMS)
            out[chunk / TL_CHUNK] = (float)sum;
    }
}

static const char *const clinic_next[TL_CLINIC_COUNT] = {
    "a thread reads a tile word another warp writes: that read belongs in the superstep after the "
    "load (handout: Part 1)",
    "each halving level reads what the level before wrote: one superstep per level, its barrier "
    "outside the if, reached by every thread (handout: Barrier rules)",
    "the next chunk's load may overwrite the tile while slower threads still add from it: load and "
    "add are two supersteps (handout: Part 1)",
};

/* The launch alone, profiled, then the wait with the deadline. */
static int launch_checked(tl_clinic which, const float *in, float *out, int n, tl_case_result *r)
{
    char shape[32];
    snprintf(shape, sizeof shape, "n = %d", n);
    tl_case_profile_begin();
    if (which == TL_CLINIC_REVERSE)
        launch_reverse_blocks(in, out, n);
    else if (which == TL_CLINIC_SUMS)
        launch_block_sums(in, out, n);
    else
        launch_pair_sums(in, out, n);
    cudaError_t err = cudaGetLastError();
    tl_case_profile_end();
    return tl_case_wait(err, shape, r);
}

tl_case_result tl_clinic_case(tl_clinic which, int n, uint64_t seed)
{
    tl_case_result r;
    int out_n = which == TL_CLINIC_SUMS ? CEIL_DIV(n, TL_CHUNK) : n;
    tl_devbuf in, out;
    tl_devbuf_alloc(&in, (size_t)n);
    tl_devbuf_alloc(&out, (size_t)out_n);
    float *in_host = HOST_FLOATS(n, "input"), *expected = HOST_FLOATS(out_n, "reference");
    float *got = HOST_FLOATS(out_n, "output copy");
    fill_small_whole(in_host, n, seed);
    clinic_reference(which, in_host, expected, n);
    tl_devbuf_upload(&in, in_host);
    tl_devbuf_poison(&out);
    tl_case_poison_shared();

    tl_case_set(&r, TL_CASE_PASS, "%s, n = %d: right", tl_clinic_names[which], n);
    if (launch_checked(which, in.data, out.data, n, &r) == 0) {
        char detail[512];
        tl_guard_report g = tl_devbuf_download(&out, got);
        tl_guard_report gi = g.count ? g : tl_devbuf_download(&in, NULL);
        tl_mismatch m = tl_compare_exact(expected, got, 1, out_n);
        if (g.count || gi.count) {
            tl_describe_guard(g.count ? &g : &gi, g.count ? "the output" : "the input", g.count ? out.n : in.n,
                              detail, sizeof detail);
            tl_case_set(&r, TL_CASE_OUT_OF_BOUNDS, "n = %d: %s. Next: threads past the end (i >= n) must not "
                        "store; keep the bounds test on every store.", n, detail);
        } else if (m.count) {
            char value[32];
            if (tl_bits_are(m.got, TL_POISON))
                snprintf(value, sizeof value, "NaN (never written)");   /* the output's poison, untouched */
            else if (isnan(m.got))
                snprintf(value, sizeof value, "NaN (written)");
            else
                snprintf(value, sizeof value, "%.9g", m.got);
            snprintf(detail, sizeof detail, "%s[%d] is %s, expected %.9g; %zu of %d wrong",
                     which == TL_CLINIC_SUMS ? "sums" : "out", m.col, value, m.expected, m.count, out_n);
            tl_case_set(&r, TL_CASE_WRONG, "n = %d: %s. Next: %s.", n, detail, clinic_next[which]);
        }
    }
    free(in_host);
    free(expected);
    free(got);
    tl_devbuf_free(&in);   /* no CUDA call: safe after a fatal verdict too */
    tl_devbuf_free(&out);
    return r;
}

/* ---- part 2: the transpose in place ---------------------------------- */

/* Is every element either transposed or still the input's? */
static int untransposed_only(const float *input, const float *expected, const float *got, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (memcmp(&got[i], &expected[i], sizeof(float)) != 0 && memcmp(&got[i], &input[i], sizeof(float)) != 0)
            return 0;
    return 1;
}

/* The judges' measure of the device memory the lab file's worker holds beyond its
 * buffers (kit/remote_launch.cu); absent where the lab file is linked in (make bench). */
extern "C" double tl_case_device_extra(const char **how) __attribute__((weak));
extern "C" unsigned tl_case_device_allocs(void) __attribute__((weak));
/* Past this, a second buffer (8192^2 floats is 256 MiB): see its use below. */
#define TL_INPLACE_EXTRA_DEVICE_BYTES (64.0 * (1 << 20))

tl_case_result tl_inplace_case(int n, uint64_t seed)
{
    return tl_inplace_case_of(launch_transpose_inplace, n, seed);
}

tl_case_result tl_inplace_case_of(tl_inplace_fn launch, int n, uint64_t seed)
{
    tl_case_result r;
    size_t count = (size_t)n * n;
    tl_devbuf a;
    tl_devbuf_alloc(&a, count);
    float *input = HOST_FLOATS(count, "input"), *expected = HOST_FLOATS(count, "reference");
    float *got = HOST_FLOATS(count, "output copy");
    tl_fill_seeded(input, count, seed);
    tl_transpose_ref(input, expected, n, n);
    tl_devbuf_upload(&a, input);
    tl_case_poison_shared();

    char shape[32];
    snprintf(shape, sizeof shape, "%dx%d", n, n);
    tl_case_set(&r, TL_CASE_PASS, "N = %d: transposed in place exactly", n);
    tl_case_profile_begin();
    launch(a.data, n);
    cudaError_t err = cudaGetLastError();
    tl_case_profile_end();
    if (tl_case_wait(err, shape, &r) == 0) {
        char detail[512];
        tl_guard_report g = tl_devbuf_download(&a, got);
        tl_mismatch m = tl_compare_exact(expected, got, n, n);
        if (g.count) {
            tl_describe_guard(&g, "the matrix", a.n, detail, sizeof detail);
            tl_case_set(&r, TL_CASE_OUT_OF_BOUNDS, "N = %d: %s. Next: a partial tile at the right or bottom "
                        "edge must test r < n and c < n on every load and store (handout: Part 2).", n, detail);
        } else if (m.count && n > 1 && untransposed_only(input, expected, got, count)) {
            /* Swapped twice, by block (i, j) and again by (j, i): running at
             * the same time they race, so some tiles end transposed and the
             * others back where they started. */
            tl_case_set(&r, TL_CASE_WRONG, "N = %d: %zu of %zu elements came back untransposed, still where "
                        "they started: tile pairs swapped twice (by block (i, j) and again by block (j, i)), or "
                        "not at all. Next: only blocks of the upper triangle, i <= j, may work (handout: "
                        "Mapping blocks to tile pairs).", n, m.count, count);
        } else if (m.count) {
            tl_describe_mismatch(&m, n, n, detail, sizeof detail);
            tl_case_set(&r, TL_CASE_WRONG, "N = %d: %s. Next: %s.", n, detail,
                        isnan(m.got) && !tl_bits_are(m.got, TL_POISON)
                        ? "NaN landed there: a store wrote a shared word nothing loaded (a barrier missing "
                          "between load_both and the stores, or a partial tile read past its edge), or the "
                          "skeleton's placeholder still runs"
                        : "each tile must go to the other's place, transposed, from its own shared buffer: "
                          "a[i][j] takes lower[x][y], a[j][i] takes upper[x][y] (handout: Part 2)");
        } else if (tl_case_device_allocs && tl_case_device_allocs()) {
            tl_case_set(&r, TL_CASE_WRONG, "N = %d: your code allocated device memory while it ran (%u cudaMalloc "
                        "calls): in place means no second buffer. Next: swap each tile pair through shared memory, "
                        "in the matrix you are given (handout: Part 2).", n, tl_case_device_allocs());
        } else if (tl_case_device_extra) {
            /* In place means no second buffer of any kind: what the worker's processes hold
             * now beyond what they held before the lab file was mapped, read from outside the
             * worker (kit/remote.cu). The file's own module and its __device__ data (at most
             * the rubric's static_device_bytes_max) and the CUDA runtime's own growth stay
             * well below the limit. UNCALIBRATED: the limit awaits a measurement of every
             * fair lab 5 fixture on the H200 (tests/submissions/fair/lab5). */
            const char *how = "";
            double extra = tl_case_device_extra(&how);
            if (extra > TL_INPLACE_EXTRA_DEVICE_BYTES)
                tl_case_set(&r, TL_CASE_WRONG, "N = %d: your code held %.0f MiB of device memory beyond the grader's "
                            "buffers while it ran (%s): in place means no second buffer (cudaMalloc of any kind, a "
                            "large __device__ array, a module of your own). Next: swap each tile pair through "
                            "shared memory, in the matrix you are given (handout: Part 2).",
                            n, extra / (1 << 20), how);
        }
    }
    free(input);
    free(expected);
    free(got);
    tl_devbuf_free(&a);
    return r;
}


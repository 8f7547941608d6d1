/* transpose_case.cu — one checked run of the lab's transpose. */
#include "transpose_case.h"

#include "tilelab.h"
#include "devbuf.h"
#include "matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Host and device copies of one matrix. */
typedef struct {
    int rows, cols;
    float *host;
    tl_devbuf dev;
} matrix;

static void matrix_alloc(matrix *m, int rows, int cols)
{
    m->rows = rows;
    m->cols = cols;
    m->host = HOST_FLOATS((size_t)rows * cols, "host matrix");
    tl_devbuf_alloc(&m->dev, (size_t)rows * cols);
}

static void matrix_free(matrix *m)
{
    free(m->host);
    tl_devbuf_free(&m->dev);   /* no CUDA call: safe after a fatal verdict too */
}

/* The student's launch, profiled alone, then the wait with the deadline. */
static int launch_checked(tl_transpose_fn launch, const float *in, float *out, int rows, int cols,
                          tl_case_result *r)
{
    char shape[32];
    snprintf(shape, sizeof shape, "%dx%d", rows, cols);
    tl_case_profile_begin();
    launch(in, out, rows, cols);
    cudaError_t err = cudaGetLastError();
    tl_case_profile_end();
    return tl_case_wait(err, shape, r);
}

/* After one launch: guards of out, guards and contents of in, then the values. */
static int check_launch(matrix *in, matrix *out, const float *expected, tl_case_result *r, const char *what)
{
    char detail[512];
    tl_guard_report g = tl_devbuf_download(&out->dev, out->host);
    if (g.count) {
        tl_describe_guard(&g, "output", out->dev.n, detail, sizeof detail);
        tl_case_set(r, TL_CASE_OUT_OF_BOUNDS, "shape %dx%d%s: %s. Next: threads outside the matrix must not "
            "store; check the bounds test covers both r < rows and c < cols (handout: Bounds checks).",
            in->rows, in->cols, what, detail);
        return -1;
    }
    float *in_now = HOST_FLOATS(in->dev.n, "input copy");
    g = tl_devbuf_download(&in->dev, in_now);
    tl_mismatch m = tl_compare_exact(in->host, in_now, in->rows, in->cols);
    free(in_now);
    if (g.count || m.count) {
        if (g.count)
            tl_describe_guard(&g, "input", in->dev.n, detail, sizeof detail);
        else
            snprintf(detail, sizeof detail, "the input changed at (row %d, col %d)", m.row, m.col);
        tl_case_set(r, TL_CASE_INPUT_CHANGED, "shape %dx%d%s: %s. Next: a kernel may only write `out`; "
            "check which pointer your store uses.", in->rows, in->cols, what, detail);
        return -1;
    }
    m = tl_compare_exact(expected, out->host, out->rows, out->cols);
    if (m.count) {
        tl_describe_mismatch(&m, out->rows, out->cols, detail, sizeof detail);
        uint32_t bits;
        memcpy(&bits, &m.got, sizeof bits);
        const char *next = tl_is_canary(bits)
            ? "that value was read from outside the input (its guard region): a thread read past "
              "the end of `in`; check the bounds test (handout: Bounds checks)"
            : tl_bits_are(m.got, TL_POISON)
            ? "nothing was written there (the output starts as a NaN of the kit's, and that one is still "
              "there): does your grid cover every row and column? (handout: Threads, blocks and 2D grids)"
            : tl_bits_are(m.got, TL_SHARED_POISON)
            ? "that value is a shared-memory word no thread had written (the kit fills shared memory with a "
              "NaN of its own before tests): a barrier missing between the load and the store phase, or a "
              "tile element never loaded (handout: Barriers)"
            : isnan(m.got)
            ? "your kernel wrote a NaN there, though the input holds none: a value computed, or read from "
              "somewhere it should not be"
            : "a wrong value landed there: check out[c * rows + r] = in[r * cols + c] "
              "(handout: Row-major layout)";
        tl_case_set(r, TL_CASE_WRONG, "shape %dx%d%s: output %dx%d, %s. Next: %s.", in->rows, in->cols, what,
            out->rows, out->cols, detail, next);
        return -1;
    }
    return 0;
}

tl_case_result tl_transpose_case(int rows, int cols, uint64_t seed)
{
    return tl_transpose_case_of(launch_transpose, rows, cols, seed);
}

tl_case_result tl_transpose_case_of(tl_transpose_fn launch, int rows, int cols, uint64_t seed)
{
    tl_case_result r;
    matrix in, out;
    matrix_alloc(&in, rows, cols);
    matrix_alloc(&out, cols, rows);
    float *expected = HOST_FLOATS((size_t)rows * cols, "reference");

    tl_fill_seeded(in.host, in.dev.n, seed);
    tl_transpose_ref(in.host, expected, rows, cols);
    tl_devbuf_upload(&in.dev, in.host);
    tl_devbuf_poison(&out.dev);

    tl_case_set(&r, TL_CASE_PASS, "shape %dx%d: transposed exactly", rows, cols);
    if (launch_checked(launch, in.dev.data, out.dev.data, rows, cols, &r) == 0)
        check_launch(&in, &out, expected, &r, "");

    free(expected);
    matrix_free(&in);
    matrix_free(&out);
    return r;
}

tl_case_result tl_transpose_roundtrip(int rows, int cols, uint64_t seed)
{
    tl_case_result r;
    matrix in, mid, back;
    matrix_alloc(&in, rows, cols);
    matrix_alloc(&mid, cols, rows);
    matrix_alloc(&back, rows, cols);
    float *expected_mid = HOST_FLOATS((size_t)rows * cols, "reference");

    tl_fill_seeded(in.host, in.dev.n, seed);
    tl_transpose_ref(in.host, expected_mid, rows, cols);
    tl_devbuf_upload(&in.dev, in.host);
    tl_devbuf_poison(&mid.dev);
    tl_devbuf_poison(&back.dev);

    tl_case_set(&r, TL_CASE_PASS, "shape %dx%d: transposed twice, the input came back", rows, cols);
    if (launch_checked(launch_transpose, in.dev.data, mid.dev.data, rows, cols, &r) == 0 &&
        check_launch(&in, &mid, expected_mid, &r, ", first transpose") == 0 &&
        launch_checked(launch_transpose, mid.dev.data, back.dev.data, cols, rows, &r) == 0)
        check_launch(&mid, &back, in.host, &r, " transposed back");

    free(expected_mid);
    matrix_free(&in);
    matrix_free(&mid);
    matrix_free(&back);
    return r;
}

void tl_transpose_work(void *args)
{
    const tl_transpose_args *a = (const tl_transpose_args *)args;
    (a->launch ? a->launch : launch_transpose)(a->in, a->out, a->rows, a->cols);
}

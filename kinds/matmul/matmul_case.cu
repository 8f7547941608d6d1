/* matmul_case.cu — one checked run of the lab's matrix multiply. */
#include "matmul_case.h"

#include "tilelab.h"
#include "check.h"
#include "devbuf.h"
#include "matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double UNIT_ROUNDOFF = 1.0 / (1 << 24);

/* One element against the reference: 0 when right, else described. */
static int check_element(double exact, double bound, float got, int i, int j, tl_mm_shape s,
                         char *why, size_t len)
{
    int ok;
    if (isnan(exact))
        ok = isnan(got);
    else if (isinf(exact))
        ok = (double)got == exact;
    else
        ok = isfinite(got) && fabs((double)got - exact) <= 2.0 * s.k * UNIT_ROUNDOFF * bound;
    if (ok || !why || why[0])
        return !ok;
    const char *next;
    if (tl_bits_are(got, TL_POISON))
        next = "nothing was written there (C starts as a NaN of the kit's, and that one is still there). "
               "Does the grid cover every row and column? (handout: Partial tiles)";
    else if (isnan(got) && !isnan(exact))
        next = "your kernel wrote a NaN there where A·B is finite: a tile held something never loaded "
               "(shared memory starts as NaN in tests), or a sum started from C's old value. Are partial "
               "tiles zero-filled, and does each sum start at 0? (handout: Partial tiles)";
    else if (isfinite(exact) && isfinite(got) && fabs((double)got - exact) <= bound / 256)   /* half's precision */
        next = "close, but outside the fp32 bound: accumulate in float over all K terms, not in half "
               "precision and not over fewer terms (handout: How exact must C be?)";
    else if (isnan(exact) || isinf(exact))
        next = "a NaN or Inf in A or B must reach C as IEEE arithmetic says; do not clamp or skip "
               "such values";
    else
        next = "a wrong value: check A[row * K + k] and B[k * N + col], and that every K-tile is "
               "summed once (handout: The tiled kernel)";
    snprintf(why, len, "C[%d][%d] = %.9g, expected %.9g (within %.3g for K = %d). Next: %s", i, j, got, exact,
             2.0 * s.k * UNIT_ROUNDOFF * bound, s.k, next);
    return 1;
}

static size_t check_all(const float *A, const float *B, const float *C, tl_mm_shape s, char *why, size_t len)
{
    double *exact = HOST_ZEROED((size_t)s.n, double, "exact row");
    double *bound = HOST_ZEROED((size_t)s.n, double, "error bound row");
    size_t wrong = 0;
    for (int i = 0; i < s.m; i++) {
        /* Row by row, k outer: the B rows stream through the cache. */
        for (int j = 0; j < s.n; j++)
            exact[j] = bound[j] = 0;
        for (int k = 0; k < s.k; k++) {
            double a = A[(size_t)i * s.k + k];
            const float *b = B + (size_t)k * s.n;
            for (int j = 0; j < s.n; j++) {
                exact[j] += a * b[j];
                bound[j] += fabs(a * b[j]);
            }
        }
        for (int j = 0; j < s.n; j++)
            wrong += check_element(exact[j], bound[j], C[(size_t)i * s.n + j], i, j, s, why, len);
    }
    free(exact);
    free(bound);
    return wrong;
}

static size_t check_one(const float *A, const float *B, const float *C, tl_mm_shape s, int i, int j,
                        char *why, size_t len)
{
    double exact = 0, bound = 0;
    for (int k = 0; k < s.k; k++) {
        double p = (double)A[(size_t)i * s.k + k] * B[(size_t)k * s.n + j];
        exact += p;
        bound += fabs(p);
    }
    return check_element(exact, bound, C[(size_t)i * s.n + j], i, j, s, why, len);
}

size_t tl_matmul_verify(const float *A, const float *B, const float *C, tl_mm_shape s, uint64_t seed,
                        char *why, size_t len)
{
    if (why && len)
        why[0] = '\0';
    if ((double)s.m * s.k * s.n <= TL_MM_CHECK_ALL)
        return check_all(A, B, C, s, why, len);
    size_t wrong = 0;
    int rows[] = {0, s.m - 1, s.m / 2, (int)(tl_splitmix64(seed) % s.m), (int)(tl_splitmix64(seed + 1) % s.m)};
    int cols[] = {0, s.n - 1, s.n / 2, (int)(tl_splitmix64(seed + 2) % s.n), (int)(tl_splitmix64(seed + 3) % s.n)};
    for (int r = 0; r < 5; r++)
        for (int j = 0; j < s.n; j++)
            wrong += check_one(A, B, C, s, rows[r], j, why, len);
    for (int c = 0; c < 5; c++)
        for (int i = 0; i < s.m; i++)
            wrong += check_one(A, B, C, s, i, cols[c], why, len);
    for (uint64_t e = 0; e < 2048; e++) {
        uint64_t x = tl_splitmix64(seed + 100 + e);
        wrong += check_one(A, B, C, s, (int)(x % s.m), (int)((x >> 32) % s.n), why, len);
    }
    return wrong;
}

void tl_case_matrix_alloc(tl_case_matrix *x, size_t n)
{
    x->host = HOST_FLOATS(n, "host matrix");
    tl_devbuf_alloc(&x->dev, n);
}

void tl_case_matrix_free(tl_case_matrix *x)
{
    free(x->host);
    tl_devbuf_free(&x->dev);   /* no CUDA call: safe after a fatal verdict too */
}

int tl_case_input_unchanged(tl_case_matrix *x, const char *name, const char *shape, tl_case_result *r)
{
    char detail[512];
    float *now = HOST_FLOATS(x->dev.n, "input copy");
    tl_guard_report g = tl_devbuf_download(&x->dev, now);
    size_t changed = (size_t)-1;
    for (size_t i = 0; i < x->dev.n && changed == (size_t)-1; i++)
        if (memcmp(&now[i], &x->host[i], sizeof(float)) != 0)
            changed = i;
    free(now);
    if (!g.count && changed == (size_t)-1)
        return 0;
    if (g.count)
        tl_describe_guard(&g, name, x->dev.n, detail, sizeof detail);
    else
        snprintf(detail, sizeof detail, "%s changed at element %zu", name, changed);
    tl_case_set(r, g.count ? TL_CASE_OUT_OF_BOUNDS : TL_CASE_INPUT_CHANGED, "shape %s: %s. Next: a kernel "
                "may only write C; check which pointer your store uses.", shape, detail);
    return -1;
}

tl_case_result tl_matmul_case_of(tl_matmul_fn launch, tl_mm_shape s, uint64_t seed, int inputs)
{
    tl_case_result r;
    char shape[48], detail[768];
    snprintf(shape, sizeof shape, "%dx%dx%d (MxKxN)", s.m, s.k, s.n);
    tl_case_matrix a, b, c;
    tl_case_matrix_alloc(&a, (size_t)s.m * s.k);
    tl_case_matrix_alloc(&b, (size_t)s.k * s.n);
    tl_case_matrix_alloc(&c, (size_t)s.m * s.n);
    tl_fill_seeded(a.host, a.dev.n, seed);
    tl_fill_seeded(b.host, b.dev.n, seed ^ 0x5EEDB);
    if (inputs == TL_MM_NAN_INF) {
        a.host[(size_t)(s.m / 2) * s.k + s.k / 3] = NAN;
        b.host[(size_t)(s.k / 2) * s.n + s.n / 3] = INFINITY;
    }
    tl_devbuf_upload(&a.dev, a.host);
    tl_devbuf_upload(&b.dev, b.host);
    tl_devbuf_poison(&c.dev);
    tl_case_poison_shared();

    tl_case_set(&r, TL_CASE_PASS, "shape %s: within the fp32 error bound", shape);
    tl_case_profile_begin();
    launch(a.dev.data, b.dev.data, c.dev.data, s.m, s.n, s.k);
    cudaError_t err = cudaGetLastError();
    tl_case_profile_end();
    if (tl_case_wait(err, shape, &r) == 0) {
        tl_guard_report g = tl_devbuf_download(&c.dev, c.host);
        if (g.count) {
            tl_describe_guard(&g, "C", c.dev.n, detail, sizeof detail);
            tl_case_set(&r, TL_CASE_OUT_OF_BOUNDS, "shape %s: %s. Next: threads outside C must not store; "
                        "check the bounds test covers both row < M and col < N (handout: Partial tiles).",
                        shape, detail);
        } else if (tl_case_input_unchanged(&a, "A", shape, &r) == 0 && tl_case_input_unchanged(&b, "B", shape, &r) == 0) {
            size_t wrong = tl_matmul_verify(a.host, b.host, c.host, s, seed, detail, sizeof detail);
            if (wrong)
                tl_case_set(&r, TL_CASE_WRONG, "shape %s: %zu checked element%s wrong; the first: %s", shape,
                            wrong, wrong == 1 ? "" : "s", detail);
        }
    }
    tl_case_matrix_free(&a);
    tl_case_matrix_free(&b);
    tl_case_matrix_free(&c);
    return r;
}

void tl_matmul_work(void *args)
{
    const tl_matmul_args *x = (const tl_matmul_args *)args;
    x->launch(x->A, x->B, x->C, x->s.m, x->s.n, x->s.k);
}

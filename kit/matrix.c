/* matrix.c — seeded inputs, reference transpose, exact verification. */
#include "matrix.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

uint64_t tl_splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

void tl_fill_seeded(float *a, size_t n, uint64_t seed)
{
    uint64_t base = tl_splitmix64(seed);
    for (size_t i = 0; i < n; i++) {
        /* 24 random bits: exactly representable, spread over [-1, 1). */
        uint32_t bits = (uint32_t)(tl_splitmix64(base + i) >> 40);
        a[i] = (float)bits / (float)(1u << 23) - 1.0f;
    }
}

void tl_transpose_ref(const float *in, float *out, int rows, int cols)
{
    /* Blocked so that large shapes stay cache-friendly on the CPU too. */
    enum { B = 64 };
    for (int r0 = 0; r0 < rows; r0 += B)
        for (int c0 = 0; c0 < cols; c0 += B)
            for (int r = r0; r < rows && r < r0 + B; r++)
                for (int c = c0; c < cols && c < c0 + B; c++)
                    out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

tl_mismatch tl_compare_exact(const float *expected, const float *got, int rows, int cols)
{
    tl_mismatch m = {0, -1, -1, 0.0f, 0.0f};
    size_t n = (size_t)rows * cols;
    for (size_t i = 0; i < n; i++) {
        uint32_t e, g;
        memcpy(&e, &expected[i], sizeof e);
        memcpy(&g, &got[i], sizeof g);
        if (e == g)
            continue;
        if (m.count == 0) {
            m.row = (int)(i / (size_t)cols);
            m.col = (int)(i % (size_t)cols);
            m.expected = expected[i];
            m.got = got[i];
        }
        m.count++;
    }
    return m;
}

void tl_describe_mismatch(const tl_mismatch *m, int rows, int cols, char *buf, size_t len)
{
    if (m->count == 0) {
        snprintf(buf, len, "all %zu elements correct", (size_t)rows * cols);
        return;
    }
    char got[32];
    if (isnan(m->got))
        snprintf(got, sizeof got, "NaN");   /* not "-nan": the sign of a NaN means nothing here */
    else
        snprintf(got, sizeof got, "%.9g", m->got);
    snprintf(buf, len, "first mismatch at (row %d, col %d): expected %.9g, got %s; %zu of %zu elements wrong",
             m->row, m->col, m->expected, got, m->count, (size_t)rows * cols);
}

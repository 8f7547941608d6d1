/* shapes.c — seeded random shapes and shape parsing. */
#include "shapes.h"
#include "matrix.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int log_uniform_side(uint64_t bits, int max_side)
{
    double u = (double)(bits >> 11) / (double)(1ull << 53);   /* [0, 1) */
    int side = (int)floor(exp(u * log((double)max_side + 1.0)));
    return side < 1 ? 1 : side > max_side ? max_side : side;
}

tl_shape tl_random_shape(uint64_t seed, int k, int max_side)
{
    uint64_t h = tl_splitmix64(tl_splitmix64(seed) ^ (uint64_t)(k + 1) * 0xD1B54A32D192ED03ull);
    tl_shape s = {log_uniform_side(h, max_side), log_uniform_side(tl_splitmix64(h), max_side)};
    return s;
}

tl_shape tl_round_up_shape(tl_shape s, int multiple)
{
    s.rows = (s.rows + multiple - 1) / multiple * multiple;
    s.cols = (s.cols + multiple - 1) / multiple * multiple;
    return s;
}

int tl_parse_shape(const char *text, tl_shape *out)
{
    int r, c;
    char tail;
    if (sscanf(text, "%d%*[xX]%d%c", &r, &c, &tail) != 2 || r < 1 || c < 1)
        return -1;
    out->rows = r;
    out->cols = c;
    return 0;
}

tl_mm_shape tl_random_mm_shape(uint64_t seed, int k, int max_side)
{
    tl_shape mn = tl_random_shape(seed, k, max_side);
    tl_shape kk = tl_random_shape(tl_splitmix64(seed ^ 0x6D6D), k, max_side);
    tl_mm_shape s = {mn.rows, kk.rows, mn.cols};
    return s;
}

int tl_parse_mm_shape(const char *text, tl_mm_shape *out)
{
    int m, k, n;
    char tail;
    if (sscanf(text, "%d%*[xX]%d%*[xX]%d%c", &m, &k, &n, &tail) != 3 || m < 1 || k < 1 || n < 1)
        return -1;
    out->m = m;
    out->k = k;
    out->n = n;
    return 0;
}

double tl_matmul_flops(tl_mm_shape s)
{
    return 2.0 * s.m * s.n * s.k;
}

uint64_t tl_judge_secret(void)
{
    const char *s = getenv("TILELAB_SEED");
    return s && *s ? strtoull(s, NULL, 10) : 1;
}

/* stats.c — median, extremes and noise of a sample set. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

tl_stats tl_stats_of(const double *samples, int n)
{
    tl_stats s = {0, 0, 0, 0, 0, 0};
    if (n <= 0)
        return s;
    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (!sorted)
        return s;
    memcpy(sorted, samples, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
    s.n = n;
    s.min = sorted[0];
    s.max = sorted[n - 1];
    s.median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    double sum = 0;
    for (int i = 0; i < n; i++)
        sum += sorted[i];
    s.mean = sum / n;
    double var = 0;
    for (int i = 0; i < n; i++)
        var += (sorted[i] - s.mean) * (sorted[i] - s.mean);
    s.noise = (n > 1 && s.mean > 0) ? sqrt(var / (n - 1)) / s.mean : 0;
    free(sorted);
    return s;
}

double tl_gbps(double bytes, double ms)
{
    return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0;
}

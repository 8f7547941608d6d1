/*
 * stats.h — summary of timing samples. "Noise" is the relative standard
 * deviation (std. dev. / mean), nvbench's stopping rule.
 */
#ifndef TILELAB_STATS_H
#define TILELAB_STATS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int n;
    double median, min, max, mean;
    double noise;   /* relative standard deviation, 0.01 = 1 % */
} tl_stats;

tl_stats tl_stats_of(const double *samples, int n);

/* Bytes moved over a time in ms, as GB/s (1 GB = 1e9 bytes). */
double tl_gbps(double bytes, double ms);

#ifdef __cplusplus
}
#endif

#endif

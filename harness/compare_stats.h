/* Two-sample statistics for `compare`: is B different from A, and by how much, over repetitions? */
#ifndef C2C_COMPARE_STATS_H
#define C2C_COMPARE_STATS_H
#include <stddef.h>

#define BOOT_RESAMPLES 4000

/* Mann-Whitney U of sample a against b: pairs with a > b, ties counting one half.
 * *p: two-sided p-value; exact (the full permutation distribution) when there are no ties and
 * na + nb <= 60, otherwise the normal approximation with tie and continuity corrections.
 * *exact says which. Needs na, nb >= 1. */
void mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u, double *p, int *exact);

/* 95% percentile-bootstrap interval of median(b) / median(a): BOOT_RESAMPLES resamples of each side
 * from a fixed seed, so the same inputs always give the same interval. Return -1 (no interval) when a
 * side has fewer than 2 values or a resampled median of a is 0. */
int boot_ratio_ci(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi);
#endif

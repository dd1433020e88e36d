/* Two-sample statistics for `compare`: is B different from A, and by how much, over repetitions? */
#ifndef C2C_COMPARE_STATS_H
#define C2C_COMPARE_STATS_H
#include <stddef.h>

#define BOOT_RESAMPLES 4000
#define BOOT_EXACT_MAX 12

/* Mann-Whitney U of sample a against b: pairs with a > b, ties counting one half.
 * *p: two-sided p-value; exact (the full permutation distribution) when there are no ties and
 * na + nb <= 60, otherwise the normal approximation with tie and continuity corrections.
 * *exact says which. Needs na, nb >= 1. */
void mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u, double *p,
		  int *exact);

/* 95% percentile-bootstrap interval of median(b) / median(a). With at most BOOT_EXACT_MAX values a
 * side, the exact bootstrap: the law of the ratio over all na^na * nb^nb resample pairs, in closed
 * form (binomial and multinomial order statistics), so it is fast at a million rows and has no
 * Monte Carlo noise. Larger sides: BOOT_RESAMPLES resampled median pairs from a fixed seed, each
 * median one uniform draw through its exact law (stats/boot_law.h), O(log n) a draw. Either way
 * the same inputs give the same interval. Return -1 (no interval) when a side has fewer than 2
 * values or a resampled median of a can be 0. */
int boot_ratio_ci(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi);
/* "NAME +1.74% [-0.73, +6.56] p=0.263" (has_ci 0: "NAME +1.74% (CI NA: n<2)"): ratio - 1 of two
 * medians as a change, its interval and its U-test p, as the run's summary and compare print it.
 * Returns what snprintf returns. */
int change_text(char *out, size_t n, const char *name, double ratio, int has_ci, double lo,
		double hi, double p);
/* The same interval by brute force (BOOT_RESAMPLES resamples of n draws a side, from a fixed seed;
 * no exact path): the reference the tests hold boot_ratio_ci to. Slow at large n. */
int boot_ratio_ci_brute(const double *a, size_t na, const double *b, size_t nb, double *lo,
			double *hi);
#endif

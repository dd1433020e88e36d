#include "harness/repsauto.h"
#include "stats/stats.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* P(j <= B <= n - j) for B ~ Binomial(n, 1/2): the coverage of [x_(j), x_(n+1-j)] (1-based). */
static double coverage(int n, int j)
{
	double c = 0, lp = -n * log(2.0);
	for (int i = j; i <= n - j; i++)
		c += exp(lp + lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0));
	return c;
}

int median_ci95(const double *v, int n, double *lo, double *hi)
{
	int j = 0;
	while (j + 1 <= n / 2 && coverage(n, j + 1) >= 0.95)
		j++;
	if (j < 1)
		return -1;
	double *c = malloc((size_t)n * sizeof(*c));
	if (!c)
		abort();
	memcpy(c, v, (size_t)n * sizeof(*c));
	qsort(c, (size_t)n, sizeof(*c), cmp_double);
	*lo = c[j - 1];
	*hi = c[n - j];
	free(c);
	return 0;
}

/* The caps every stop obeys: --reps-max, then --reps-max-s. */
static enum reps_stop reps_caps(int reps, double elapsed_s, const struct reps_auto *a)
{
	if (reps >= a->max_reps)
		return REPS_MAX;
	if (elapsed_s >= a->max_s)
		return REPS_TIME;
	return REPS_GO;
}

enum reps_stop reps_auto_stop(const double *v, int n, int reps, double elapsed_s,
			      const struct reps_auto *a, double *width)
{
	double lo, hi;
	*width = -1;
	if (n >= REPS_AUTO_MIN && !median_ci95(v, n, &lo, &hi)) {
		double med = stats_of(v, (size_t)n).median;
		*width = med != 0 ? (hi - lo) / fabs(med) : (hi > lo ? INFINITY : 0);
		if (*width <= a->ci_width)
			return REPS_CI;
	}
	return reps_caps(reps, elapsed_s, a);
}

enum reps_stop reps_auto_stop_all(const double *const *v, const int *n, int nvar, int reps,
				  double elapsed_s, const struct reps_auto *a, double *width,
				  double *widest)
{
	struct reps_auto no_cap = { a->ci_width, reps + 1, INFINITY };
	int all = nvar > 0;
	*widest = 0;
	for (int i = 0; i < nvar; i++) { /* each variant's width, no cap: the caps apply to all */
		reps_auto_stop(v[i], n[i], reps, 0, &no_cap, &width[i]);
		all &= width[i] >= 0;
		if (width[i] > *widest)
			*widest = width[i];
	}
	if (!all)
		*widest = -1;
	if (all && *widest <= a->ci_width)
		return REPS_CI;
	return reps_caps(reps, elapsed_s, a);
}

const char *reps_stop_name(enum reps_stop s)
{
	return run_stop_names[s]; /* the words its .meta records (schema/runfacts.h) */
}

#include "stats/compare_stats.h"
#include "stats/boot_law.h"
#include "stats/law_shapes.h"
#include "stats/sort_cache.h"
#include "stats/u_law.h"
#include "lib/util.h"
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Reorder v[0..n) so that v[k] is its k-th smallest value (0-based), those before it no larger
 * and those after it no smaller (Hoare's selection, median-of-three pivots): the resamples' two
 * percentiles in linear time, where sorting them all cost most of a report's time. */
static double select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (hi > lo) {
		size_t mid = lo + (hi - lo) / 2;
		double a = v[lo], b = v[mid], c = v[hi];
		double piv = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < piv)
				i++;
			while (v[j] > piv)
				j--;
			if (i <= j) {
				double t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break; /* between j and i: all equal to the pivot */
	}
	return v[k];
}

/* The resamples' 2.5th and 97.5th percentiles, as the sorted array's entries at those places. */
static void percentiles(double *r, double *lo, double *hi)
{
	size_t a = (size_t)(0.025 * BOOT_RESAMPLES), b = (size_t)(0.975 * BOOT_RESAMPLES) - 1;
	*lo = select_kth(r, BOOT_RESAMPLES, a); /* those after it are no smaller */
	*hi = select_kth(r + a + 1, BOOT_RESAMPLES - a - 1, b - a - 1);
}

/* dst = src[0..n) sorted ascending (the caller's values stay in their order). */
static void sort_into(double *dst, const double *src, size_t n)
{
	memcpy(dst, src, n * sizeof(double));
	size_t k = 1;
	while (k < n && dst[k - 1] <= dst[k]) /* sorted already (ts_test's copies): left */
		k++;
	if (k < n) /* a list met before (report's intervals of each machine) sorted once */
		sort_cache_sorted(src, n, dst);
}

/* U of a against b (pairs a > b, ties one half) from both sides sorted: a merge, O(n log n), so
 * thousands of repetitions a side cost milliseconds, not n^2. *ties: any equal values at all. */
static double u_sorted(const double *a, size_t na, const double *b, size_t nb, int *ties)
{
	double U = 0;
	size_t below = 0, equal = 0; /* b's below a[i], and equal to it */
	*ties = 0;
	for (size_t i = 0; i < na; i++) {
		if (i && a[i] == a[i - 1])
			*ties = 1;
		while (below < nb && b[below] < a[i])
			below++;
		equal = below;
		while (equal < nb && b[equal] == a[i])
			equal++;
		U += (double)below + 0.5 * (double)(equal - below);
		*ties |= equal > below;
	}
	for (size_t j = 1; j < nb && !*ties; j++)
		*ties = b[j] == b[j - 1];
	return U;
}

/* Sum of t^3 - t over the tie groups of the pooled values, a and b each sorted (the normal
 * variance's correction): merged, not sorted again. */
static double tie_sum_of(const double *a, size_t na, const double *b, size_t nb)
{
	size_t n = na + nb, i = 0, j = 0, k = 0;
	double *all = xcalloc(n, sizeof(double)), sum = 0;
	while (i < na || j < nb)
		all[k++] = j == nb || (i < na && a[i] <= b[j]) ? a[i++] : b[j++];
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && all[j] == all[i])
			j++;
		double t = (double)(j - i);
		sum += t * t * t - t;
		i = j;
	}
	free(all);
	return sum;
}

void mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u, double *p,
		  int *exact)
{
	double *sa = xcalloc(na, sizeof(double)), *sb = xcalloc(nb, sizeof(double));
	int ties;
	sort_into(sa, a, na);
	sort_into(sb, b, nb);
	double U = u_sorted(sa, na, sb, nb, &ties), mn = (double)na * (double)nb;
	*u = U;
	if (!ties && na + nb <= 60) {
		const double *f = u_law_of((int)na, (int)nb);
		double total = 0, le = 0, ge = 0;
		int ui = (int)U;
		for (int k = 0; k <= (int)mn; k++) {
			total += f[k];
			le += k <= ui ? f[k] : 0;
			ge += k >= ui ? f[k] : 0;
		}
		*p = fmin(1.0, 2 * fmin(le, ge) / total);
		*exact = 1;
	} else { /* normal approximation: variance with the tie correction over the pooled ranks */
		double N = (double)(na + nb), tie_sum = tie_sum_of(sa, na, sb, nb);
		double var = mn / 12.0 * ((N + 1) - tie_sum / (N * (N - 1)));
		double z = var > 0 ? (fabs(U - mn / 2) - 0.5) / sqrt(var) : 0;
		if (z < 0)
			z = 0;
		*p = var > 0 ? fmin(1.0, erfc(z / sqrt(2.0))) : 1.0;
		*exact = 0;
	}
	free(sa);
	free(sb);
}

/* splitmix64: a fixed, documented stream, so intervals are reproducible. */
static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* One side of the bootstrap: its values sorted once, each value's rank, and a count per rank. A
 * resample's median is then read off the counts in O(n), not sorted (the same multiset, so the
 * same median as sorting the resample). */
struct boot_side {
	size_t n;
	double *sorted;
	size_t *rank;
	unsigned *count;
};

static const double *g_vals; /* for rank_cmp */

/* Order positions by their value. */
static int rank_cmp(const void *x, const void *y)
{
	double a = g_vals[*(const size_t *)x], b = g_vals[*(const size_t *)y];
	return (a > b) - (a < b);
}

/* Sort v once into side, remembering each position's rank. */
static void side_init(struct boot_side *b, const double *v, size_t n)
{
	size_t *pos = xcalloc(n, sizeof(size_t));
	b->n = n;
	b->sorted = xcalloc(n, sizeof(double));
	b->rank = xcalloc(n, sizeof(size_t));
	b->count = xcalloc(n, sizeof(unsigned));
	for (size_t i = 0; i < n; i++)
		pos[i] = i;
	g_vals = v;
	qsort(pos, n, sizeof(size_t), rank_cmp);
	for (size_t k = 0; k < n; k++) {
		b->sorted[k] = v[pos[k]];
		b->rank[pos[k]] = k;
	}
	free(pos);
}

static void side_free(struct boot_side *b)
{
	free(b->sorted);
	free(b->rank);
	free(b->count);
}

/* The median of n values drawn with replacement (the draws in the same order as ever). */
static double resampled_median(struct boot_side *b, uint64_t *s)
{
	size_t n = b->n, want_lo = (n - 1) / 2, want_hi = n / 2, cum = 0;
	double lo = 0, hi = 0;
	int got_lo = 0;
	memset(b->count, 0, n * sizeof(unsigned));
	for (size_t i = 0; i < n; i++)
		b->count[b->rank[splitmix(s) % n]]++;
	for (size_t k = 0; k < n; k++) {
		cum += b->count[k];
		if (!got_lo && cum > want_lo)
			lo = b->sorted[k], got_lo = 1;
		if (cum > want_hi) {
			hi = b->sorted[k];
			break;
		}
	}
	return n % 2 ? hi : (lo + hi) / 2;
}

/* The brute-force bootstrap: BOOT_RESAMPLES resamples of n draws each side from a fixed seed,
 * O(n) per resample. Kept as the reference the tests hold boot_mc to. */
int boot_ratio_ci_brute(const double *a, size_t na, const double *b, size_t nb, double *lo,
			double *hi)
{
	uint64_t s = 0x5eed;
	struct boot_side sa, sb;
	double *r = xcalloc(BOOT_RESAMPLES, sizeof(double));
	int rc = 0;
	side_init(&sa, a, na);
	side_init(&sb, b, nb);
	for (int k = 0; k < BOOT_RESAMPLES && !rc; k++) {
		double ma = resampled_median(&sa, &s), mb = resampled_median(&sb, &s);
		if (ma == 0)
			rc = -1;
		else
			r[k] = mb / ma;
	}
	if (!rc) {
		percentiles(r, lo, hi);
	}
	side_free(&sa);
	side_free(&sb);
	free(r);
	return rc;
}

/* x^k for a small whole k, without libm's general pow. */
static double ipow(double x, int k)
{
	double r = 1;
	for (; k > 0; k--)
		r *= x;
	return r;
}

/* P(Bin(n, q) >= r). */
static double binom_tail(int n, double q, int r)
{
	double p = 0, c = 1; /* c = C(n, k) */
	for (int k = 0; k <= n; k++) {
		if (k >= r)
			p += c * ipow(q, k) * ipow(1 - q, n - k);
		c = c * (n - k) / (k + 1);
	}
	return p;
}

static double fact(int n)
{
	double f = 1;
	for (int i = 2; i <= n; i++)
		f *= i;
	return f;
}

/* The exact bootstrap distribution of the median of x[0..n) (sorted): over all n^n equally likely
 * resamples, each value the median takes and its probability. Draws are positions 1..n; the r-th
 * smallest draw is at or below position k when at least r draws are (a binomial tail). Even n:
 * the median is the mean of the r-th and (r+1)-th draws, whose joint law is multinomial. */
static int median_law_of(const double *x, int n, double *val, double *prob)
{
	int m = 0, r = n / 2;
	if (n % 2) {
		for (int k = 1; k <= n; k++) {
			val[m] = x[k - 1];
			prob[m++] = binom_tail(n, (double)k / n, r + 1) -
				    binom_tail(n, (double)(k - 1) / n, r + 1);
		}
		return m;
	}
	double cnr = fact(n) / (fact(r) * fact(n - r));
	for (int i = 1; i <= n; i++) {
		double qi = (double)i / n, qi1 = (double)(i - 1) / n, same = 0;
		for (int a = 0; a <= r - 1;
		     a++) /* both at i: fewer than r draws below i, more than r at or below */
			for (int b = r + 1 - a; b <= n - a; b++)
				same += fact(n) / (fact(a) * fact(b) * fact(n - a - b)) *
					ipow(qi1, a) * ipow(1.0 / n, b) * ipow(1 - qi, n - a - b);
		val[m] = x[i - 1];
		prob[m++] = same;
		for (int j = i + 1; j <= n; j++) { /* exactly r draws at or below i (one at i), the
						      rest from j (one at j) */
			double qj = (double)j / n, qj1 = (double)(j - 1) / n;
			val[m] = (x[i - 1] + x[j - 1]) / 2;
			prob[m++] = cnr * (ipow(qi, r) - ipow(qi1, r)) *
				    (ipow(1 - qj1, n - r) - ipow(1 - qj, n - r));
		}
	}
	return m;
}

/* median_law_of: its probabilities depend on n alone, so they are worked out once a size (every
 * line of a compare at 5 repetitions a side is the same law); the values are x's. The process
 * computes no two laws at once (no threads in the analysis). */
static int median_law(const double *x, int n, double *val, double *prob)
{
	static double law_p[BOOT_EXACT_MAX + 1][BOOT_EXACT_MAX * BOOT_EXACT_MAX];
	static int law_m[BOOT_EXACT_MAX + 1];
	if (n < 1 || n > BOOT_EXACT_MAX)
		return median_law_of(x, n, val, prob);
	if (!law_m[n])
		law_m[n] = median_law_of(x, n, val, law_p[n]);
	int m = 0;
	if (n % 2)
		for (int k = 1; k <= n; k++)
			val[m++] = x[k - 1];
	else
		for (int i = 1; i <= n; i++) {
			val[m++] = x[i - 1];
			for (int j = i + 1; j <= n; j++)
				val[m++] = (x[i - 1] + x[j - 1]) / 2;
		}
	memcpy(prob, law_p[n], (size_t)m * sizeof(*prob));
	return m;
}

struct wpt {
	double r, p;
};

static int cmp_wpt(const void *x, const void *y)
{
	double a = ((const struct wpt *)x)->r, b = ((const struct wpt *)y)->r;
	return (a > b) - (a < b);
}

/* Exact: the law of median(b) / median(a) over every resample pair, and its 2.5% and 97.5% points.
 */
static int boot_exact(const double *a, size_t na, const double *b, size_t nb, double *lo,
		      double *hi)
{
	double sa[BOOT_EXACT_MAX], sb[BOOT_EXACT_MAX];
	double va[BOOT_EXACT_MAX * BOOT_EXACT_MAX], pa[BOOT_EXACT_MAX * BOOT_EXACT_MAX];
	double vb[BOOT_EXACT_MAX * BOOT_EXACT_MAX], pb[BOOT_EXACT_MAX * BOOT_EXACT_MAX];
	sort_into(sa, a, na);
	sort_into(sb, b, nb);
	int ma = median_law(sa, (int)na, va, pa), mb = median_law(sb, (int)nb, vb, pb), n = 0;
	struct wpt *w = xcalloc((size_t)ma * (size_t)mb, sizeof(*w));
	for (int i = 0; i < ma; i++) {
		if (pa[i] <= 0)
			continue;
		if (va[i] == 0) { /* a resampled median of A is 0: no ratio */
			free(w);
			return -1;
		}
		for (int j = 0; j < mb; j++)
			if (pb[j] > 0)
				w[n++] = (struct wpt){ vb[j] / va[i], pa[i] * pb[j] };
	}
	if (n <= 32) /* a few values a side (compare's 5): insertion, stable like qsort */
		for (int k = 1; k < n; k++) {
			struct wpt t = w[k];
			int j = k;
			for (; j > 0 && cmp_wpt(&w[j - 1], &t) > 0; j--)
				w[j] = w[j - 1];
			w[j] = t;
		}
	else
		qsort(w, (size_t)n, sizeof(*w), cmp_wpt);
	double cum = 0;
	int got_lo = 0;
	for (int k = 0; k < n; k++) {
		cum += w[k].p;
		if (!got_lo && cum > 0.025 + 1e-12) {
			*lo = w[k].r;
			got_lo = 1;
		}
		if (cum >= 0.975 - 1e-12) {
			*hi = w[k].r;
			break;
		}
	}
	if (cum < 0.975 - 1e-12)
		*hi = w[n - 1].r;
	free(w);
	return 0;
}

/* A uniform in [0, 1) from the stream: its top 53 bits. */
static double uniform(uint64_t *s)
{
	return (double)(splitmix(s) >> 11) * 0x1p-53;
}

/* Monte Carlo over the exact laws: BOOT_RESAMPLES pairs of resampled medians, each one uniform
 * draw through its side's law (struct boot_law), from a fixed seed. The same distribution as
 * resampling n values, at O(log n) a draw. */
static int boot_mc(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi)
{
	uint64_t s = 0x5eed;
	double *sa = xcalloc(na, sizeof(double)), *sb = xcalloc(nb, sizeof(double)),
	       *r = xcalloc(BOOT_RESAMPLES, sizeof(double));
	struct boot_law la, lb;
	sort_into(sa, a, na);
	sort_into(sb, b, nb);
	boot_law_fill(&la, law_shape_of(na), sa); /* the probabilities made once per count */
	boot_law_fill(&lb, law_shape_of(nb), sb);
	int rc = boot_law_has_zero(&la) ? -1 : 0;
	for (int k = 0; k < BOOT_RESAMPLES && !rc; k++) {
		double ma = boot_law_draw(&la, uniform(&s));
		r[k] = boot_law_draw(&lb, uniform(&s)) / ma;
	}
	if (!rc) {
		percentiles(r, lo, hi);
	}
	boot_law_free(&la);
	boot_law_free(&lb);
	free(sa), free(sb), free(r);
	return rc;
}

int boot_ratio_ci(const double *a, size_t na, const double *b, size_t nb, double *lo, double *hi)
{
	if (na < 2 || nb < 2)
		return -1;
	if (na <= BOOT_EXACT_MAX && nb <= BOOT_EXACT_MAX)
		return boot_exact(a, na, b, nb, lo, hi);
	return boot_mc(a, na, b, nb, lo, hi);
}

int change_text(char *out, size_t n, const char *name, double ratio, int has_ci, double lo,
		double hi, double p)
{
	if (!has_ci)
		return snprintf(out, n, "%s %+.2f%% (CI NA: n<2)", name, 100 * (ratio - 1));
	return snprintf(out, n, "%s %+.2f%% [%+.2f, %+.2f] p=%.3g", name, 100 * (ratio - 1),
			100 * (lo - 1), 100 * (hi - 1), p);
}

/* The bootstrap of large samples: the exact law of a resampled median (stats/boot_law.c) against
 * enumeration of every resample, and the interval drawn through it against the brute-force
 * bootstrap that resamples n values each time. */
#include "stats/boot_law.h"
#include "stats/compare_stats.h"
#include "lib/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "tests/testutil.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* P(median of a resample <= t) by enumerating all n^n resamples of x (n <= 7). */
static double brute_cdf(const double *x, int n, double t)
{
	long total = 1, le = 0;
	for (int i = 0; i < n; i++)
		total *= n;
	for (long code = 0; code < total; code++) {
		double v[8];
		long c = code;
		for (int i = 0; i < n; i++, c /= n)
			v[i] = x[c % n];
		for (int i = 1; i < n; i++) /* insertion sort */
			for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
				double s = v[j];
				v[j] = v[j - 1];
				v[j - 1] = s;
			}
		le += (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) <= t;
	}
	return (double)le / (double)total;
}

/* P(value <= t) under a law. */
static double law_cdf(const struct boot_law *l, double t)
{
	double p = 0, prev = 0;
	for (size_t i = 0; i < l->m; i++) {
		if (l->val[i] <= t)
			p += l->cum[i] - prev;
		prev = l->cum[i];
	}
	return p;
}

/* For n = 2..7, odd and even, with ties: the law's CDF equals enumeration at every value it takes.
 */
static void law_is_enumeration(void **state)
{
	(void)state;
	const double x[] = { 1, 2, 2, 4, 7, 11, 12 }; /* sorted, a tie at 2 */
	for (int n = 2; n <= 7; n++) {
		struct boot_law l;
		boot_law_make(&l, x, (size_t)n);
		assert_true(fabs(l.cum[l.m - 1] - 1) < 1e-9);
		for (int i = 0; i < n; i++)
			for (int j = i; j < n; j++) {
				double t = (x[i] + x[j]) / 2, want = brute_cdf(x, n, t),
				       got = law_cdf(&l, t);
				if (fabs(want - got) > 1e-9)
					fail_msg(
					    "n=%d, P(median <= %g): law %.12f, enumeration %.12f",
					    n, t, got, want);
			}
		boot_law_free(&l);
	}
}

/* The binomial tail against a direct sum. */
static void binomial_tail(void **state)
{
	(void)state;
	for (size_t n = 1; n <= 30; n += 7)
		for (size_t k = 0; k <= n + 1; k++) {
			double q = 0.37, want = 0, c = 1;
			for (size_t i = 0; i <= n; i++) {
				if (i >= k)
					want += c * pow(q, (double)i) * pow(1 - q, (double)(n - i));
				c = c * (double)(n - i) / (double)(i + 1);
			}
			if (fabs(binom_ge(n, q, k) - want) > 1e-10)
				fail_msg("P(Bin(%zu, 0.37) >= %zu) = %g, want %g", n, k,
					 binom_ge(n, q, k), want);
		}
	assert_true(fabs(binom_ge(1000000, 0.5, 500001) - 0.5) <
		    1e-3); /* symmetric, near the middle */
}

/* Made-up repetitions: base * (1 + spread * noise), a fixed stream, some values repeated. */
static void made_up(double *v, size_t n, double base, double spread, unsigned seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		double u = (double)(seed >> 8 & 0xffff) / 65536.0;
		v[i] = i % 9 == 3 && i ? v[i - 1] : base * (1 + spread * (u - 0.5));
	}
}

/* The interval drawn through the laws matches the brute-force bootstrap within 10% of the
 * interval's width at each end (both use 4000 resamples: their Monte Carlo noise is about 2% of
 * the width), for odd and even sides and a 2x difference. */
static void interval_matches_brute_force(void **state)
{
	(void)state;
	const size_t ns[][2] = { { 13, 14 }, { 40, 41 }, { 201, 200 }, { 1000, 999 } };
	for (int t = 0; t < 4; t++) {
		size_t na = ns[t][0], nb = ns[t][1];
		double *a = xcalloc(na, sizeof(double)), *b = xcalloc(nb, sizeof(double)), lo, hi,
		       blo, bhi;
		made_up(a, na, 10, 0.2, 7u + (unsigned)t);
		made_up(b, nb, 20, 0.3, 99u + (unsigned)t);
		assert_int_equal(boot_ratio_ci(a, na, b, nb, &lo, &hi), 0);
		assert_int_equal(boot_ratio_ci_brute(a, na, b, nb, &blo, &bhi), 0);
		double tol = 0.1 * (bhi - blo);
		if (fabs(lo - blo) > tol || fabs(hi - bhi) > tol)
			fail_msg("n %zu/%zu: laws [%.5f, %.5f], brute force [%.5f, %.5f], "
				 "tolerance %.5f",
				 na, nb, lo, hi, blo, bhi, tol);
		assert_true(lo < 2.1 && hi > 1.9 &&
			    lo < hi); /* the true ratio of the made-up medians is 2 */
		free(a);
		free(b);
	}
}

/* A million values a side: the law has a few thousand atoms, the interval is narrow around 2. */
static void million_values(void **state)
{
	(void)state;
	size_t n = 1000000;
	double *a = xcalloc(n, sizeof(double)), *b = xcalloc(n + 1, sizeof(double)), lo, hi;
	made_up(a, n, 10, 0.2, 3);
	made_up(b, n + 1, 20, 0.2, 5);
	assert_int_equal(boot_ratio_ci(a, n, b, n + 1, &lo, &hi), 0);
	assert_true(lo < hi && lo > 1.99 && hi < 2.01);
	free(a);
	free(b);
}

/* A resampled median of A that can be 0 gives no ratio. */
static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* A draw through the guide table is the atom the binary search gives, for every u tried (odd and
 * even n, ties, and u at the atoms' own cumulative probabilities). */
static void guide_table_draws_as_the_search(void **state)
{
	(void)state;
	const size_t ns[] = { 5, 16, 101, 400 };
	for (size_t t = 0; t < ARRAY_SIZE(ns); t++) {
		double *x = xcalloc(ns[t], sizeof(double));
		made_up(x, ns[t], 10, 3, (unsigned)t + 1);
		for (size_t i = 0; i < ns[t]; i += 7)
			x[i] = 10; /* ties */
		qsort(x, ns[t], sizeof(double), cmp_d);
		struct boot_law l;
		boot_law_make(&l, x, ns[t]);
		assert_non_null(l.guide);
		size_t *guide = l.guide;
		for (int k = 0; k < 20000; k++) {
			double u = k < 10000 ? (double)k / 10000
					     : l.cum[(size_t)k % l.m] / l.cum[l.m - 1];
			if (u >= 1)
				continue;
			l.guide = guide;
			double g = boot_law_draw(&l, u);
			l.guide = NULL;
			double b = boot_law_draw(&l, u);
			if (g != b)
				fail_msg("n %zu, u %.17g: guide %g, search %g", ns[t], u, g, b);
		}
		l.guide = guide;
		boot_law_free(&l);
		free(x);
	}
}

static void zero_baseline(void **state)
{
	(void)state;
	double a[20] = { 0 }, b[20], lo, hi;
	for (int i = 0; i < 20; i++)
		b[i] = i + 1, a[i] = i < 10 ? 0 : 5;
	assert_int_equal(boot_ratio_ci(a, 20, b, 20, &lo, &hi), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(law_is_enumeration),
		cmocka_unit_test(binomial_tail),
		cmocka_unit_test(interval_matches_brute_force),
		cmocka_unit_test(million_values),
		cmocka_unit_test(zero_baseline),
		cmocka_unit_test(guide_table_draws_as_the_search),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

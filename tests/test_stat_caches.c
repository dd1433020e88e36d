/* What the statistics keep between calls gives what computing again gives: a law filled from a
 * kept shape is boot_law_make's bit for bit (stats/law_shapes.h), a kept sorted copy is qsort's
 * (stats/sort_cache.h), never a stale one for a changed list, and U's kept exact law gives the
 * exact p (stats/u_law.h), also after other counts pushed it out. */
#include "stats/boot_law.h"
#include "stats/compare_stats.h"
#include "stats/law_shapes.h"
#include "stats/sort_cache.h"
#include "lib/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "tests/testutil.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* n made-up values around 10, some repeated, in the order drawn. */
static void made_up(double *v, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		v[i] = i % 7 == 3 && i ? v[i - 1] : 10 + (double)(seed >> 8 & 0xffff) / 4096.0;
	}
}

static void assert_same_law(const struct boot_law *a, const struct boot_law *b, size_t n)
{
	if (a->m != b->m || a->ng != b->ng || memcmp(a->val, b->val, a->m * sizeof(double)) ||
	    memcmp(a->cum, b->cum, a->m * sizeof(double)) ||
	    (a->guide && memcmp(a->guide, b->guide, (a->ng + 1) * sizeof(size_t))))
		fail_msg("n %zu: the law filled from its shape differs from boot_law_make's", n);
}

/* Odd and even counts, small and large, each asked twice with more than LAW_SHAPES other counts
 * between: every law is boot_law_make's, bit for bit. */
static void shape_law_is_made_law(void **state)
{
	(void)state;
	const size_t ns[] = { 2, 3, 13, 100, 1561, 1562, 4, 5, 6, 7, 8, 9, 10, 2, 1562, 13 };
	for (size_t t = 0; t < ARRAY_SIZE(ns); t++) {
		size_t n = ns[t];
		double *x = xcalloc(n, sizeof(double));
		made_up(x, n, (unsigned)t + 1);
		qsort(x, n, sizeof(double), cmp_d);
		struct boot_law made, filled;
		boot_law_make(&made, x, n);
		boot_law_fill(&filled, law_shape_of(n), x);
		assert_true(made.m > 0);
		assert_same_law(&made, &filled, n);
		boot_law_free(&made);
		boot_law_free(&filled);
		free(x);
	}
}

/* A list sorted twice (the second from the cache) is qsort's copy, bit for bit (-0 and 0
 * included); the same list with one value changed is sorted anew, never served the old copy. */
static void sorted_copy_is_qsort(void **state)
{
	(void)state;
	size_t n = 500;
	double *v = xcalloc(n, sizeof(double)), *want = xcalloc(n, sizeof(double)),
	       *got = xcalloc(n, sizeof(double));
	made_up(v, n, 42);
	v[17] = -0.0, v[230] = 0.0, v[400] = -0.0;
	for (int round = 0; round < 4; round++) {
		if (round == 2)
			v[99] = 3.5; /* the same count, other content */
		memcpy(want, v, n * sizeof(double));
		qsort(want, n, sizeof(double), cmp_d);
		sort_cache_sorted(v, n, got);
		if (memcmp(want, got, n * sizeof(double)))
			fail_msg("round %d: the cache's sorted copy is not qsort's", round);
	}
	assert_true(got[2] == 0 && got[3] == 3.5); /* after the three zeros */
	for (size_t k = 2; k < 40; k++) { /* small lists, sorted by insertion */
		made_up(v, k, (unsigned)k);
		v[k / 2] = -0.0, v[0] = 0.0;
		memcpy(want, v, k * sizeof(double));
		qsort(want, k, sizeof(double), cmp_d);
		sort_cache_sorted(v, k, got);
		assert_memory_equal(want, got, k * sizeof(double));
	}
	free(v);
	free(want);
	free(got);
}

/* Five against five, all of B above A: the exact p is 2 / C(10, 5), again after more than U_LAWS
 * other pairs of counts. */
static void kept_u_law_gives_the_exact_p(void **state)
{
	(void)state;
	double a[12], b[12], u, p;
	int exact;
	for (int i = 0; i < 12; i++)
		a[i] = i + 1, b[i] = i + 100;
	for (int round = 0; round < 2; round++) {
		mann_whitney(a, 5, b, 5, &u, &p, &exact);
		assert_int_equal(exact, 1);
		assert_true(u == 0 && fabs(p - 2.0 / 252) < 1e-15);
		for (int m = 2; m <= 12; m++) {
			mann_whitney(a, (size_t)m, b, 3, &u, &p, &exact);
			double want = 2.0 * 6 / ((m + 3) * (m + 2) * (m + 1)); /* 2 / C(m+3, 3) */
			assert_true(exact && fabs(p - want) < 1e-12);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shape_law_is_made_law),
		cmocka_unit_test(sorted_copy_is_qsort),
		cmocka_unit_test(kept_u_law_gives_the_exact_p),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

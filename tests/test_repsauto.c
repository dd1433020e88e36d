/* --reps auto keeps the design balanced: a seeded simulation of two identical variants through the
 * real stopping code (reps_auto_stop_all) and the real U test, under drift, gives a false-positive
 * rate near 5% (docs/validity.md quotes what this prints). */
#include "harness/repsauto.h"
#include "stats/compare_stats.h"
#include "tests/testutil.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define REPLICATES 4000 /* per scenario: a 5% rate to +-0.7% (two standard errors) */
#define OLD_REPLICATES 500 /* the old per-variant rule, printed beside for contrast */
#define CAP 30

static uint64_t rng_state;

static double uniform(void) /* xorshift64*, (0, 1) */
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((double)((rng_state * 2685821657736338717ULL) >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

/* One repetition's value at slot t (two slots a round): lognormal noise of 4%, a drift of d per
 * round, and bimodal: 30% of repetitions on a placement 15% slower (as vCPUs moving on a VM). */
static double sample(double d, int bimodal, int t)
{
	double x = exp(0.04 * normal()) * pow(1 + d, t / 2.0);
	return bimodal && uniform() < 0.3 ? 1.15 * x : x;
}

struct outcome {
	int positives, n_differ;
	double mean_n;
};

/* Replicates of two identical variants, each round in a shuffled order, stopped by the design's
 * rule (balanced: together) or, for contrast, each on its own interval (the rule before). */
static struct outcome simulate(double d, int bimodal, int balanced, int reps, uint64_t seed)
{
	struct reps_auto a = { 0.05, CAP, INFINITY };
	struct outcome o = { 0 };
	rng_state = seed;
	for (int r = 0; r < reps; r++) {
		double v[2][CAP], width[2], widest;
		int n[2] = { 0, 0 }, active[2] = { 1, 1 }, t = 0;
		for (int round = 1; active[0] || active[1]; round++) {
			int first = uniform() < 0.5;
			for (int k = 0; k < 2; k++) {
				int i = k ? !first : first;
				if (active[i])
					v[i][n[i]++] = sample(d, bimodal, t);
				t++; /* a stopped variant's slot is gone: the other runs later in
					time */
			}
			if (balanced) {
				const double *vp[2] = { v[0], v[1] };
				if (reps_auto_stop_all(vp, n, 2, round, 0, &a, width, &widest) !=
				    REPS_GO)
					active[0] = active[1] = 0;
			} else
				for (int i = 0; i < 2; i++)
					if (active[i] && reps_auto_stop(v[i], n[i], n[i], 0, &a,
									&width[i]) != REPS_GO)
						active[i] = 0;
		}
		double u, p;
		int exact;
		mann_whitney(v[0], (size_t)n[0], v[1], (size_t)n[1], &u, &p, &exact);
		o.positives += p < 0.05;
		o.n_differ += n[0] != n[1];
		o.mean_n += (n[0] + n[1]) / 2.0 / reps;
	}
	return o;
}

static void balanced_false_positives(void **state)
{
	(void)state;
	const struct {
		double d;
		int bimodal;
		const char *what;
	} sc[] = { { 0, 0, "no drift, lognormal" },
		   { 0.002, 0, "0.2% drift a round, lognormal" },
		   { 0.002, 1, "0.2% drift a round, bimodal" } };
	for (size_t i = 0; i < sizeof(sc) / sizeof(sc[0]); i++) {
		struct outcome o = simulate(sc[i].d, sc[i].bimodal, 1, REPLICATES, 0x5eed + i);
		struct outcome old =
		    simulate(sc[i].d, sc[i].bimodal, 0, OLD_REPLICATES, 0x5eed + i);
		double rate = 100.0 * o.positives / REPLICATES;
		print_message("%s: U test p < 0.05 in %.1f%% of %d replicates (n equal in all: %s, "
			      "mean n %.1f); each variant on its own: %.1f%% of %d, n differed in "
			      "%.0f%%\n",
			      sc[i].what, rate, REPLICATES, o.n_differ ? "no" : "yes", o.mean_n,
			      100.0 * old.positives / OLD_REPLICATES, OLD_REPLICATES,
			      100.0 * old.n_differ / OLD_REPLICATES);
		assert_int_equal(o.n_differ, 0); /* every variant in every round until the stop */
		if (rate > 6.5)
			fail_msg("%s: false-positive rate %.1f%% over 6.5%%", sc[i].what, rate);
	}
}

/* The stop is the widest interval's: one narrow variant does not stop the other, nor itself. */
static void stops_together_on_the_widest(void **state)
{
	(void)state;
	struct reps_auto a = { 0.05, CAP, 600 };
	double narrow[8], wide[8], width[2], widest;
	for (int i = 0; i < 8; i++) {
		narrow[i] = 100 + 0.1 * i;
		wide[i] = 100 + 5 * i;
	}
	const double *vp[2] = { narrow, wide };
	int n[2] = { 8, 8 };
	assert_int_equal(reps_auto_stop_all(vp, n, 2, 8, 1, &a, width, &widest), REPS_GO);
	assert_true(width[0] < 0.05 && width[1] > 0.05 && widest == width[1]);
	vp[1] = narrow;
	assert_int_equal(reps_auto_stop_all(vp, n, 2, 8, 1, &a, width, &widest), REPS_CI);
	n[1] = 5; /* a variant without an interval yet (invalid repetitions): no stop on the CI */
	assert_int_equal(reps_auto_stop_all(vp, n, 2, 8, 1, &a, width, &widest), REPS_GO);
	assert_true(widest < 0);
	assert_int_equal(reps_auto_stop_all(vp, n, 2, CAP, 1, &a, width, &widest), REPS_MAX);
	assert_int_equal(reps_auto_stop_all(vp, n, 2, 8, 601, &a, width, &widest), REPS_TIME);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stops_together_on_the_widest),
		cmocka_unit_test(balanced_false_positives),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

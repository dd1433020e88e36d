/* The one two-sample rule: the verdict's inputs, its words, and the table's multiplicity. */
#include "stats/twosample.h"
#include "stats/compare_stats.h"
#include "stats/sort_cache.h"
#include "stats/stats.h"
#include "lib/util.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The smallest two-sided p the exact U test can give with na and nb values: 2 / C(na+nb, na). */
static double p_floor(size_t na, size_t nb)
{
	double c = 1;
	for (size_t i = 1; i <= na && c < HUGE_VAL; i++) /* infinite: 2 / c is 0 from there */
		c = c * (double)(nb + i) / (double)i;
	return fmin(1.0, 2 / c);
}

int ts_small(size_t na, size_t nb)
{
	return na < 2 || nb < 2 || p_floor(na, nb) >= 0.05;
}

int ts_min_reps(void)
{
	int n = 2;
	while (ts_small((size_t)n, (size_t)n))
		n++;
	return n;
}

/* A sorted copy of v[0..n) (NULL for none): the medians, the U test and the bootstrap each
 * sort their input unless it is sorted, so one sort a side serves them all, and a list met again
 * (report's machines against each other) is sorted once (stats/sort_cache.h). */
static double *sorted_copy(const double *v, size_t n)
{
	if (!n)
		return NULL;
	double *c = xcalloc(n, sizeof(double));
	sort_cache_sorted(v, n, c);
	return c;
}

static void test_sorted(const double *a, size_t na, const double *b, size_t nb, struct ts_stat *s);

void ts_test(const double *a, size_t na, const double *b, size_t nb, struct ts_stat *s)
{
	double *sa = sorted_copy(a, na), *sb = sorted_copy(b, nb);
	test_sorted(sa, na, sb, nb, s);
	free(sa);
	free(sb);
}

static void test_sorted(const double *a, size_t na, const double *b, size_t nb, struct ts_stat *s)
{
	memset(s, 0, sizeof(*s));
	s->na = na;
	s->nb = nb;
	if (na)
		s->ma = stats_of(a, na).median;
	if (nb)
		s->mb = stats_of(b, nb).median;
	s->has_ratio = na && nb && s->ma != 0;
	if (s->has_ratio)
		s->ratio = s->mb / s->ma;
	s->has_p = na && nb;
	s->p = s->p_adj = 1;
	if (s->has_p) {
		mann_whitney(a, na, b, nb, &s->u, &s->p, &s->exact);
		s->p_adj = s->p;
		s->p_floor = p_floor(na, nb);
	}
	s->small = s->has_p && ts_small(na, nb);
}

int ts_is_planned(const struct ts_stat *s)
{
	return s->has_p && !s->descriptive && !s->disputed;
}

int ts_is_test(const struct ts_stat *s)
{
	return ts_is_planned(s) && !s->small;
}

int ts_reaches(size_t na, size_t nb, int m)
{
	if (ts_small(na, nb))
		return 0;
	double f = p_floor(na, nb);
	return (m > TS_HOLM_MAX ? f : (double)(m < 1 ? 1 : m) * f) < 0.05;
}

int ts_reps_for(int m)
{
	int n = 2;
	while (!ts_reaches((size_t)n, (size_t)n, m) && n < 1000)
		n++;
	return n;
}

const char *ts_family(struct ts_stat *st, int n, int *ntest)
{
	double *p = xcalloc((size_t)n + 1, sizeof(double));
	double *adj = xcalloc((size_t)n + 1, sizeof(double));
	int m = 0, plan = 0;
	for (int i = 0; i < n; i++) {
		plan += ts_is_planned(&st[i]);
		if (ts_is_test(&st[i]))
			p[m++] = st[i].p;
	}
	const char *method = ts_adjust(p, m, adj);
	for (int i = 0, k = 0; i < n; i++) {
		st[i].m = m;
		st[i].m_plan = plan;
		st[i].method = method;
		if (ts_is_test(&st[i]))
			ts_decide(&st[i], adj[k++]);
		else
			st[i].significant = 0;
	}
	free(p);
	free(adj);
	if (ntest)
		*ntest = m;
	return method;
}

void ts_decide(struct ts_stat *s, double p_adj)
{
	s->p_adj = p_adj;
	s->significant = ts_is_test(s) && p_adj < 0.05 && s->has_ci && (s->lo > 1 || s->hi < 1);
}

void ts_compute(const double *a, size_t na, const double *b, size_t nb, struct ts_stat *s)
{
	double *sa = sorted_copy(a, na), *sb = sorted_copy(b, nb);
	test_sorted(sa, na, sb, nb, s);
	s->has_ci = s->has_ratio && !boot_ratio_ci(sa, na, sb, nb, &s->lo, &s->hi);
	free(sa);
	free(sb);
	ts_decide(s, s->p);
}

int ts_is_time(const char *metric, const char *unit)
{
	if (unit)
		return !strncmp(unit, "ns", 2) || strstr(unit, "second") != NULL;
	size_t l = strlen(metric);
	return strstr(metric, "_ns_per_") ||
	       (l > 3 && (!strcmp(metric + l - 3, "_ns") || !strcmp(metric + l - 3, "_us") ||
			  !strcmp(metric + l - 2, "_s")));
}

/* The words for "B is higher": by the metric's direction, and "faster/slower" for durations. */
const char *ts_word(int higher, int direction, int time)
{
	if (direction == 0)
		return higher ? "higher" : "lower";
	int better = (direction > 0) == higher;
	if (time && direction < 0)
		return better ? "faster" : "slower";
	return better ? "better" : "worse";
}

/* "5 repetitions a side" or "A 5 and B 3 repetitions". */
static void reps_text(size_t na, size_t nb, char *out, size_t n)
{
	if (na == nb)
		snprintf(out, n, "%zu repetition%s a side", na, na == 1 ? "" : "s");
	else
		snprintf(out, n, "A %zu and B %zu repetitions", na, nb);
}

/* The interval as a change in percent, "[-1.20, +2.10]%". */
static void pct_ci(const struct ts_stat *s, char *out, size_t n)
{
	snprintf(out, n, "[%+.2f, %+.2f]%%", 100 * (s->lo - 1), 100 * (s->hi - 1));
}

const char *ts_disputed_why(int disputed)
{
	return disputed == 2   ? "not tested: an input declares it no metric (X.columns)"
	       : disputed == 3 ? "not tested: the inputs declare its unit differently"
			       : "not tested: the inputs declare its better side differently";
}

void ts_verdict(const struct ts_stat *s, int direction, int time, const char *subject, char *out,
		size_t n)
{
	char r[64], ci[64];
	int m = s->m > 0 ? s->m : 1; /* r and ci made where they are said, not for every line */
	if (!s->na || !s->nb) {
		snprintf(out, n, "NA: no valid value in %s",
			 !s->na && !s->nb ? "A or B" : !s->na ? "A" : "B");
		return;
	}
	if (!s->has_ratio) {
		snprintf(out, n, "NA: median A is 0 (no ratio)");
		return;
	}
	if (s->disputed) {
		snprintf(out, n, "%s", ts_disputed_why(s->disputed));
		return;
	}
	if (s->descriptive) {
		snprintf(out, n, "descriptive: not a verdict metric of its bench, not tested");
		return;
	}
	if (s->significant) {
		int up = s->ratio >= 1, prec = 2;
		double f = up ? s->ratio : 1 / s->ratio, lo = up ? s->lo : 1 / s->hi;
		double hi = up ? s->hi : 1 / s->lo;
		char t[32];
		for (; prec < 6;
		     prec++) { /* an interval just above 1 must not print as [1.00, ...] */
			snprintf(t, sizeof(t), "%.*f", prec, lo);
			if (strtod(t, NULL) > 1)
				break;
		}
		snprintf(out, n, "%s%s%s by %.2fx [%.*f, %.*f]%s", subject ? subject : "",
			 subject ? " " : "", ts_word(up, direction, time), f, prec, lo, prec, hi,
			 !s->predict		    ? ""
			 : (s->predict > 0) == up ? ", as the seed predicts"
						    : ", against the seed's prediction");
		return;
	}
	if (s->has_ci && s->lo >= 1 - TS_MARGIN && s->hi <= 1 + TS_MARGIN) {
		pct_ci(s, ci, sizeof(ci));
		snprintf(out, n, "no change beyond +-%g%%: %s", 100 * TS_MARGIN, ci);
		return;
	}
	if (!ts_reaches(s->na, s->nb, m)) { /* sized for the family with every line a test */
		int mp = s->m_plan > m ? s->m_plan : m;
		char over[64] = "";
		reps_text(s->na, s->nb, r, sizeof(r));
		if (mp > 1)
			snprintf(over, sizeof(over), " over this family's %d tests", mp);
		snprintf(out, n, "inconclusive: %s cannot reach p < 0.05%s; %d a side can", r, over,
			 ts_reps_for(mp));
		return;
	}
	if (!s->has_ci) {
		snprintf(out, n, "inconclusive: no interval (a resampled median of A can be 0)");
		return;
	}
	char pa[64];
	pct_ci(s, ci, sizeof(ci));
	if (m > 1)
		snprintf(pa, sizeof(pa), "p %.3g after %s over %d tests", s->p_adj,
			 s->method ? s->method : "Holm", m);
	else
		snprintf(pa, sizeof(pa), "p %.3g", s->p_adj);
	if (s->p_adj < 0.05)
		snprintf(out, n, "inconclusive: %s, but the interval %s includes no change", pa,
			 ci);
	else
		snprintf(out, n, "inconclusive: %s is not below 0.05; the interval %s", pa, ci);
}

/* Indices 0..n-1 sorted by p ascending (stable: equal p keep their order). A merge, bottom up:
 * a family of 200,000 tests of different p would take an insertion sort 10^10 steps. A NaN
 * orders nothing, so with one the insertion sort stays (what it did with NaN is kept). */
static int *order_by_p(const double *p, int n)
{
	int *ix = xcalloc((size_t)n + 1, sizeof(int)), nan = 0;
	for (int i = 0; i < n; i++)
		nan |= p[i] != p[i];
	if (nan || n < 32) {
		for (int i = 0; i < n; i++) {
			int j = i;
			for (; j > 0 && p[ix[j - 1]] > p[i]; j--)
				ix[j] = ix[j - 1];
			ix[j] = i;
		}
		return ix;
	}
	int *t = xcalloc((size_t)n + 1, sizeof(int)), *a = ix, *b = t;
	for (int i = 0; i < n; i++)
		a[i] = i;
	for (int w = 1; w < n; w *= 2) {
		for (int lo = 0; lo < n; lo += 2 * w) {
			int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			int i = lo, j = mid, k = lo;
			while (i < mid && j < hi) /* the left first, unless the right is less */
				b[k++] = p[a[j]] < p[a[i]] ? a[j++] : a[i++];
			while (i < mid)
				b[k++] = a[i++];
			while (j < hi)
				b[k++] = a[j++];
		}
		int *s = a;
		a = b;
		b = s;
	}
	if (a != ix)
		memcpy(ix, a, (size_t)n * sizeof(int));
	free(t);
	return ix;
}

void ts_holm(const double *p, int n, double *adj)
{
	int *ix = order_by_p(p, n);
	double run = 0;
	for (int k = 0; k < n; k++) { /* (n - k) p_(k), made non-decreasing, at most 1 */
		double v = fmin(1, (double)(n - k) * p[ix[k]]);
		run = fmax(run, v);
		adj[ix[k]] = run;
	}
	free(ix);
}

void ts_bh(const double *p, int n, double *adj)
{
	int *ix = order_by_p(p, n);
	double run = 1;
	for (int k = n - 1; k >= 0; k--) { /* n p_(k) / (k + 1), made non-increasing from the top */
		double v = fmin(1, (double)n * p[ix[k]] / (double)(k + 1));
		run = fmin(run, v);
		adj[ix[k]] = run;
	}
	free(ix);
}

const char *ts_adjust(const double *p, int n, double *adj)
{
	if (n > TS_HOLM_MAX) {
		ts_bh(p, n, adj);
		return "BH";
	}
	ts_holm(p, n, adj);
	return "Holm";
}

/* xorshift64*, a fixed seed: the power figure is the same on every run. */
static double unif(uint64_t *s)
{
	*s ^= *s >> 12, *s ^= *s << 25, *s ^= *s >> 27;
	return (double)((*s * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

static double gauss(uint64_t *s)
{
	double u = unif(s), v = unif(s);
	return sqrt(-2 * log(u > 1e-300 ? u : 1e-300)) * cos(6.283185307179586 * v);
}

#define POWER_SIMS 400

/* The share of POWER_SIMS simulated lines with a change d that reach p < alpha. */
static double power_at(int n, double d, double cv, double alpha)
{
	double *a = xcalloc((size_t)n, sizeof(double)), *b = xcalloc((size_t)n, sizeof(double));
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	int hit = 0;
	for (int k = 0; k < POWER_SIMS; k++) {
		double u, p;
		int exact;
		for (int i = 0; i < n; i++) {
			a[i] = 1 + cv * gauss(&seed);
			b[i] = (1 + d) * (1 + cv * gauss(&seed));
		}
		mann_whitney(a, (size_t)n, b, (size_t)n, &u, &p, &exact);
		hit += p < alpha;
	}
	free(a);
	free(b);
	return (double)hit / POWER_SIMS;
}

double ts_power_change(int n, int m, double cv)
{
	if (m < 1)
		m = 1;
	if (!ts_reaches((size_t)n, (size_t)n, m))
		return -1;
	double alpha = m > TS_HOLM_MAX ? 0.05 : 0.05 / m, lo = 0, hi = 0.01;
	while (power_at(n, hi, cv, alpha) < 0.8 && hi < 100)
		hi *= 2;
	for (int it = 0; it < 24 && hi - lo > 1e-4; it++) {
		double mid = (lo + hi) / 2;
		if (power_at(n, mid, cv, alpha) >= 0.8)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

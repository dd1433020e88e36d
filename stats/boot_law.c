#include "stats/boot_law.h"
#include "lib/util.h"
#include <math.h>
#include <stdlib.h>

/* Continued fraction of the incomplete beta (modified Lentz): converges for x < (a+1)/(a+b+2)
 * in about sqrt(max(a, b)) terms, so the limit grows with the parameters. */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double qab = a + b, qap = a + 1, qam = a - 1, c = 1, d = 1 - qab * x / qap;
	int maxit = 200 + (int)(20 * sqrt(a > b ? a : b));
	d = 1 / (fabs(d) < tiny ? tiny : d);
	double h = d;
	for (int m = 1; m <= maxit; m++) {
		double m2 = 2.0 * m, aa = m * (b - m) * x / ((qam + m2) * (a + m2));
		d = 1 + aa * d, c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d), c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
		d = 1 + aa * d, c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d), c = fabs(c) < tiny ? tiny : c;
		double del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b): the front factor in logs (a and b reach a million), the fraction on its fast side. */
static double beta_reg(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * beta_cf(a, b, x) / a;
	return 1 - exp(lbt) * beta_cf(b, a, 1 - x) / b;
}

double binom_ge(size_t n, double q, size_t k)
{
	if (k == 0)
		return 1;
	if (k > n)
		return 0;
	return beta_reg((double)k, (double)(n - k + 1), q);
}

/* Smallest position j in [1, n] with P(k-th smallest draw <= j) = P(Bin(n, j/n) >= k) > t: the
 * order statistic's CDF is monotone in j, so a binary search. */
static size_t first_above(size_t n, size_t k, double t)
{
	size_t lo = 1, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (binom_ge(n, (double)mid / (double)n, k) > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Append an atom, the mean of draws lo and hi (grown by doubling). */
static void push(struct boot_shape *s, size_t *cap, size_t lo, size_t hi, double p)
{
	if (s->m == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		s->lo = realloc(s->lo, *cap * sizeof(size_t));
		s->hi = realloc(s->hi, *cap * sizeof(size_t));
		s->cum = realloc(s->cum, *cap * sizeof(double));
		if (!s->lo || !s->hi || !s->cum)
			die(1, "out of memory");
	}
	s->cum[s->m] = (s->m ? s->cum[s->m - 1] : 0) + (p > 0 ? p : 0);
	s->lo[s->m] = lo;
	s->hi[s->m++] = hi;
}

/* The k-th smallest draw's law at positions [j0, j1]: P(<= j) is a binomial tail at q = j/n;
 * below j0 the mass (< BOOT_LAW_TAIL) goes to j0, above j1 to j1. */
static void order_stat_law(size_t n, size_t k, size_t j0, size_t j1, double *p)
{
	double prev = 0;
	for (size_t j = j0; j <= j1; j++) {
		double f = j == j1 ? 1 : binom_ge(n, (double)j / (double)n, k);
		p[j - j0] = f - prev;
		prev = f;
	}
}

/* Odd n = 2r+1: the median is the (r+1)-th smallest draw. */
static void law_odd(struct boot_shape *s, size_t n, size_t *cap)
{
	size_t k = n / 2 + 1, j0 = first_above(n, k, BOOT_LAW_TAIL),
	       j1 = first_above(n, k, 1 - BOOT_LAW_TAIL);
	double *p = xcalloc(j1 - j0 + 1, sizeof(double));
	order_stat_law(n, k, j0, j1, p);
	for (size_t j = j0; j <= j1; j++)
		push(s, cap, j - 1, j - 1, p[j - j0]);
	free(p);
}

/* P(r-th draw at i and (r+1)-th above i) / P(r-th draw at i): exactly r draws at or below i, one
 * at i, and n-r above i, so C(n,r) (q_i^r - q_{i-1}^r) (1-q_i)^(n-r), over p_i. */
static double above_given(size_t n, size_t r, size_t i, double pi)
{
	if (i >= n || pi <= 0)
		return 0;
	double qi = (double)i / (double)n,
	       lc = lgamma((double)n + 1) - lgamma((double)r + 1) - lgamma((double)(n - r) + 1);
	double diff = -expm1((double)r * log1p(-1.0 / (double)i)); /* 1 - (q_{i-1}/q_i)^r */
	double c = exp(lc + (double)r * log(qi) + log(diff) + (double)(n - r) * log1p(-qi)) / pi;
	return c > 1 ? 1 : c;
}

/* Even n = 2r: the median is the mean of the r-th and (r+1)-th draws. Given the r-th at i, the
 * (r+1)-th is above j >= i with probability c_i ((n-j)/(n-i))^(n-r) (all n-r upper draws above j).
 */
static void law_even(struct boot_shape *s, size_t n, size_t *cap)
{
	size_t r = n / 2, i0 = first_above(n, r, BOOT_LAW_TAIL),
	       i1 = first_above(n, r, 1 - BOOT_LAW_TAIL);
	double *p = xcalloc(i1 - i0 + 1, sizeof(double));
	order_stat_law(n, r, i0, i1, p);
	for (size_t i = i0; i <= i1; i++) {
		double pi = p[i - i0], c = above_given(n, r, i, pi), above = c;
		push(s, cap, i - 1, i - 1, pi * (1 - c)); /* both at i */
		for (size_t j = i + 1; j <= n && above > 0; j++) {
			double next =
			    j == n
				? 0
				: c * exp((double)(n - r) * log((double)(n - j) / (double)(n - i)));
			if (pi * next < BOOT_LAW_TAIL * 1e-3)
				next = 0; /* the rest of this row's mass on this atom */
			push(s, cap, i - 1, j - 1, pi * (above - next));
			above = next;
		}
	}
	free(p);
}

void boot_shape_make(struct boot_shape *s, size_t n)
{
	size_t cap = 0;
	*s = (struct boot_shape){ .n = n };
	if (n % 2)
		law_odd(s, n, &cap);
	else
		law_even(s, n, &cap);
	if (!s->m)
		return;
	s->ng = s->m < ((size_t)1 << 20) ? s->m : (size_t)1 << 20;
	s->guide = xcalloc(s->ng + 1, sizeof(size_t));
	double total = s->cum[s->m - 1];
	for (size_t j = 0, i = 0; j < s->ng; j++) {
		double t = (double)j / (double)s->ng * total;
		while (i + 1 < s->m && s->cum[i] <= t)
			i++;
		s->guide[j] = i;
	}
}

void boot_shape_free(struct boot_shape *s)
{
	free(s->lo);
	free(s->hi);
	free(s->cum);
	free(s->guide);
	*s = (struct boot_shape){ 0 };
}

void boot_law_fill(struct boot_law *l, const struct boot_shape *s, const double *x)
{
	*l = (struct boot_law){ .m = s->m, .cum = s->cum, .guide = s->guide, .ng = s->ng,
				.shared = 1 };
	if (!s->m)
		return;
	l->val = xcalloc(s->m, sizeof(double));
	for (size_t k = 0; k < s->m; k++)
		l->val[k] = s->lo[k] == s->hi[k] ? x[s->lo[k]] : (x[s->lo[k]] + x[s->hi[k]]) / 2;
}

void boot_law_make(struct boot_law *l, const double *x, size_t n)
{
	struct boot_shape s;
	boot_shape_make(&s, n);
	boot_law_fill(l, &s, x);
	l->shared = 0; /* the shape's probabilities and guide are the law's now */
	free(s.lo);
	free(s.hi);
}

double boot_law_draw(const struct boot_law *l, double u)
{
	double t = u * l->cum[l->m - 1]; /* the total is 1 up to rounding */
	if (l->guide) { /* the first atom whose cumulative probability exceeds t, as below */
		size_t j = (size_t)(u * (double)l->ng), i;
		i = l->guide[j < l->ng ? j : l->ng - 1];
		while (i > 0 && l->cum[i - 1] > t) /* rounding: never past the answer */
			i--;
		while (i + 1 < l->m && l->cum[i] <= t)
			i++;
		return l->val[i];
	}
	size_t lo = 0, hi = l->m - 1;
	while (lo < hi) { /* first atom whose cumulative probability exceeds t */
		size_t mid = lo + (hi - lo) / 2;
		if (l->cum[mid] > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return l->val[lo];
}

int boot_law_has_zero(const struct boot_law *l)
{
	for (size_t i = 0; i < l->m; i++)
		if (l->val[i] == 0 && l->cum[i] > (i ? l->cum[i - 1] : 0))
			return 1;
	return 0;
}

void boot_law_free(struct boot_law *l)
{
	free(l->val);
	if (!l->shared) {
		free(l->cum);
		free(l->guide);
	}
	*l = (struct boot_law){ 0 };
}

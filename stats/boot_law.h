/* The bootstrap law of a median without resampling: over all n^n equally likely resamples (with
 * replacement) of n sorted values, which values the resample's median takes and how likely each
 * is, from the binomial law of order statistics. A resampled median is then one uniform draw
 * through that law (a binary search), O(log n) instead of O(n) draws. */
#ifndef C2C_BOOT_LAW_H
#define C2C_BOOT_LAW_H
#include <stddef.h>

/* Probability left out at each end of the law (positions the median reaches with less than this
 * in all); the mass is folded into the nearest kept value, never dropped. */
#define BOOT_LAW_TAIL 1e-13

struct boot_law {
	size_t m;    /* atoms */
	double *val; /* the median's value at each atom */
	double
	    *cum; /* cumulative probability up to and including each atom (last: the total, ~1) */
	/* A guide table (Chen and Asau): guide[j] is the first atom whose cum exceeds j / ng of the
	 * total, so a draw starts there and walks a few atoms instead of a binary search. */
	size_t *guide, ng;
	int shared; /* cum and guide are a shape's (boot_law_fill), not the law's to free */
};

/* A law but its values: which draws' mean each atom is, the probabilities and the guide table
 * depend on n alone, so one shape serves every list of n values (stats/law_shapes.h keeps
 * them: report makes a thousand laws of one n). */
struct boot_shape {
	size_t n, m;
	size_t *lo, *hi; /* per atom: the median is the mean of x[lo] and x[hi] (equal: x[lo]) */
	double *cum;
	size_t *guide, ng;
};

/* The law of the median of a size-n resample of x[0..n) (sorted ascending, n >= 2). */
void boot_law_make(struct boot_law *l, const double *x, size_t n);
/* The shape of the law of a size-n resample's median (n >= 2); freed by boot_shape_free. */
void boot_shape_make(struct boot_shape *s, size_t n);
void boot_shape_free(struct boot_shape *s);
/* *l = the law over x[0..s->n) (sorted ascending) of shape s: the same law as boot_law_make's,
 * its probabilities s's own (s outlives l). */
void boot_law_fill(struct boot_law *l, const struct boot_shape *s, const double *x);
/* One resampled median for a uniform u in [0, 1). */
double boot_law_draw(const struct boot_law *l, double u);
/* Does the law put weight on the value 0 (a ratio over it has no value)? */
int boot_law_has_zero(const struct boot_law *l);
void boot_law_free(struct boot_law *l);
/* P(Bin(n, q) >= k), from the regularized incomplete beta function (exposed for the tests). */
double binom_ge(size_t n, double q, size_t k);
#endif

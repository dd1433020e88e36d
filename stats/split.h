/* Classes that are two populations: a set of values (a pingpong class's pair latencies) split
 * where no value lies in a wide gap, so a median that falls in the gap, a value no pair has, is
 * never shown alone (docs/report.md#classes-that-split). */
#ifndef C2C_SPLIT_H
#define C2C_SPLIT_H
#include <stddef.h>

/* A gap: sorted, the next value is more than SPLIT_GAP times the one below it (PROBE_CLASS_GAP's
 * factor; schema/probeclass.h). On the five published matrices of tests/data/c2c-latency/ the one
 * such gap with enough values on both sides is the dual EPYC 7R13's same-package 115.9 -> 185.6
 * ns (1.60); every other class's widest is at most 1.07 (test_split). */
#define SPLIT_GAP 1.5
/* A group holds at least this share of the values, and at least SPLIT_MIN_N of them: one slow
 * pair (the dual Xeon 6242's 13.1 ns among 32 SMT pairs of 7.4) is an outlier, not a group. */
#define SPLIT_MIN_SHARE 0.05
#define SPLIT_MIN_N 2
#define SPLIT_GROUPS_MAX 8
#define SPLIT_NO_ATTR (-2L) /* a group whose values have more than one attribute value */

struct split_group {
	int n;
	double median, lo, hi;
	long attr; /* the attribute every value of the group has; SPLIT_NO_ATTR when they differ */
};

struct split {
	int ngroups; /* 1: one population (or too few values to tell) */
	struct split_group g[SPLIT_GROUPS_MAX]; /* fastest first */
	int by_attr; /* each group has one attribute value, and no two groups the same */
};

/* Split the n values of v (any order; NaN left out) at every gap whose groups keep SPLIT_MIN_N
 * and SPLIT_MIN_SHARE of the values, fastest group first. attr (NULL: none) gives each value an
 * attribute (the pair's package, -1 for none): where it separates the groups, by_attr is set.
 * Returns the number of groups. */
int split_values(const double *v, const long *attr, int n, struct split *s);
/* "package 0: 107.6 ns (3,840 pairs), package 1: 200.5 ns (3,840); none between 115.9 and 185.6"
 * (attr_name "package", unit "ns"); without by_attr the groups are named by their range. */
void split_text(const struct split *s, const char *attr_name, const char *unit, char *out,
		size_t len);
/* The groups in brief, for a line that also shows the class's median: "package 0 107.6, package 1
 * 200.5" (by range without by_attr: "83.67..115.9: 107.6, ..."). */
void split_brief(const struct split *s, const char *attr_name, char *out, size_t len);

/* PUs joined by pairs: root[i] becomes the smallest PU linked to PU i (0 <= i < top) through the
 * pairs (a[k], b[k]) with join[k] set; a pair with a PU outside [0, top) is left out. */
void split_clusters(const int *a, const int *b, const unsigned char *join, long n, int top,
		    int *root);
/* One class of a set of pairs (a pingpong mode's pairs, every class), split with the pair's
 * package as attribute: the pairs with same[k] (a class inside one package: smt, same-llc,
 * same-package) cluster the PUs into packages, numbered from 0 in the order of their smallest PU;
 * the pairs with in[k] are the class, v[k] its value (NaN: none), whose attribute is the package
 * of both its PUs, or -1 across packages. Returns the number of groups (split_values). */
int split_class(const int *a, const int *b, const unsigned char *same, const unsigned char *in,
		const double *v, long n, struct split *s);
#endif

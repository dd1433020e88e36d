/* The accuracy check of pingpong --concurrent: a few pairs per topology class measured alone and
 * in their round, and per class the ratio concurrent/alone of the median latency with its spread.
 */
#ifndef C2C_PP_CHECK_H
#define C2C_PP_CHECK_H
#include "benches/pingpong/pairs.h"

#define CHECK_PAIRS_DEFAULT "2" /* sample pairs per class */

/* Up to per_class pairs of each class, spread evenly over the selection; writes pair indices to idx
 * (room for npairs) and returns how many. */
int check_sample(const struct pu_pair *pair, int npairs, int per_class, int *idx);

struct check_class {
	int n;                /* sample pairs of the class */
	double ratio;         /* median of the pairs' concurrent/alone ratios */
	double lo, hi;        /* lowest and highest pair ratio: the spread */
	int outside;          /* |ratio - 1| above the tolerance */
};

/* Per class from n sample pairs (class of each, alone and concurrent median ns); tol is a fraction
 * (0.05). Returns how many classes are outside the tolerance. */
int check_classes(const enum pair_class *cls, const double *alone, const double *conc, int n,
		  double tol, struct check_class out[PC_COUNT]);
#endif

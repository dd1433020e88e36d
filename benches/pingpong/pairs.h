/* PU pairs for the core-to-core benches: which pairs to measure (their classes:
 * harness/pairclass.h). */
#ifndef C2C_PAIRS_H
#define C2C_PAIRS_H
#include "harness/pairclass.h"
#include "harness/topo.h"

struct pu_pair {
	int a, b; /* OS CPU numbers: a is the first in topological order, or the vs:CPU reference */
	enum pair_class cls;
};

/* Accepted --pairs values, for --help and errors. */
#define PAIR_SELECTIONS "all, vs:CPU, sample:N, classes"
/* Most pairs one run measures with --pairs all (a row each): 4,096 PUs give 8,386,560. */
#define PAIRS_MAX (1 << 24)

/* The PU set to pair up: "auto" = every allowed PU, "cpus:LIST" = those. Fills set (n entries,
 * topological order); returns the count (>= 2) or -1 with a one-line message. */
int pairs_pu_set(const struct topo *t, const char *placement, int **set, char *err);
/* Select pairs from set by spec (PAIR_SELECTIONS); seed drives sample:N. Returns the count
 * (>= 1, *out malloc'ed) or -1 with a one-line message. */
int pairs_select(const struct topo *t, const int *set, int n, const char *spec,
		 unsigned long long seed, struct pu_pair **out, char *err);
#endif

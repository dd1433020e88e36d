/* PU pairs for the core-to-core benches: which pairs to measure, and how far apart each pair is. */
#ifndef C2C_PAIRS_H
#define C2C_PAIRS_H
#include "harness/topo.h"

/* Distance classes, nearest first; the order is the order of the summary. A pair that shares no
 * core and no data cache, with a PU outside any Package object (hwloc has none above it), is
 * PC_UNKNOWN_PACKAGE: whether the two share a socket is not known. */
enum pair_class {
	PC_SMT,
	PC_SAME_LLC,
	PC_SAME_PACKAGE,
	PC_CROSS_PACKAGE,
	PC_UNKNOWN_PACKAGE,
	PC_COUNT
};

struct pu_pair {
	int a, b; /* OS CPU numbers: a is the first in topological order, or the vs:CPU reference */
	enum pair_class cls;
};

/* Accepted --pairs values, for --help and errors. */
#define PAIR_SELECTIONS "all, vs:CPU, sample:N, classes"
/* Most pairs one run measures with --pairs all (a row each): 4,096 PUs give 8,386,560. */
#define PAIRS_MAX (1 << 24)

const char *pair_class_name(enum pair_class c);
/* Classify two PUs from the hwloc tree: same core, a shared cache, same package, neither, or a PU
 * outside any package. */
enum pair_class pair_classify(const struct topo *t, int os_a, int os_b);
/* The PU set to pair up: "auto" = every allowed PU, "cpus:LIST" = those. Fills set (n entries,
 * topological order); returns the count (>= 2) or -1 with a one-line message. */
int pairs_pu_set(const struct topo *t, const char *placement, int **set, char *err);
/* Select pairs from set by spec (PAIR_SELECTIONS); seed drives sample:N. Returns the count
 * (>= 1, *out malloc'ed) or -1 with a one-line message. */
int pairs_select(const struct topo *t, const int *set, int n, const char *spec,
		 unsigned long long seed, struct pu_pair **out, char *err);
#endif

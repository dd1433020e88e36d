/* How far apart two PUs are, from the hwloc tree: the distance classes pingpong measures and the
 * importer of published matrices (import/) gives each pair. */
#ifndef C2C_PAIRCLASS_H
#define C2C_PAIRCLASS_H
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

const char *pair_class_name(enum pair_class c);
/* Classify two PUs from the hwloc tree: same core, a shared cache, same package, neither, or a PU
 * outside any package. */
enum pair_class pair_classify(const struct topo *t, int os_a, int os_b);
#endif

/* Each PU's core, outermost data cache and package, looked up once: classifying the 130,816 pairs
 * of a 512-PU machine with hwloc lookups by OS number (a scan of every PU each) took over a second.
 */
#ifndef C2C_PLACES_H
#define C2C_PLACES_H
#include "benches/pingpong/pairs.h"

struct places {
	int max_os;
	hwloc_obj_t *pu, *core, *cache, *pkg; /* indexed by OS CPU number; NULL where none */
};

void places_build(const struct topo *t, struct places *pl);
void places_free(struct places *pl);
/* The same answer as pair_classify: two PUs share a data cache exactly when their outermost data
 * caches are one object. */
enum pair_class places_classify(const struct places *pl, int os_a, int os_b);
#endif

#include "benches/pingpong/places.h"
#include "lib/util.h"
#include <stdlib.h>

/* The highest data or unified cache above o: every cache holding o is on its ancestor chain. */
static hwloc_obj_t outer_cache(hwloc_obj_t o)
{
	hwloc_obj_t c = NULL;
	for (; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type))
			c = o;
	return c;
}

void places_build(const struct topo *t, struct places *pl)
{
	int n = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PU);
	pl->max_os = 0;
	for (int i = 0; i < n; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PU, (unsigned)i);
		pl->max_os = (int)o->os_index > pl->max_os ? (int)o->os_index : pl->max_os;
	}
	size_t m = (size_t)pl->max_os + 1;
	pl->pu = xcalloc(m, sizeof(hwloc_obj_t));
	pl->core = xcalloc(m, sizeof(hwloc_obj_t));
	pl->cache = xcalloc(m, sizeof(hwloc_obj_t));
	pl->pkg = xcalloc(m, sizeof(hwloc_obj_t));
	for (int i = 0; i < n; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PU, (unsigned)i);
		pl->pu[o->os_index] = o;
		pl->core[o->os_index] = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_CORE, o);
		pl->cache[o->os_index] = outer_cache(o);
		pl->pkg[o->os_index] = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, o);
	}
}

void places_free(struct places *pl)
{
	free(pl->pu);
	free(pl->core);
	free(pl->cache);
	free(pl->pkg);
}

enum pair_class places_classify(const struct places *pl, int a, int b)
{
	if (a < 0 || b < 0 || a > pl->max_os || b > pl->max_os || !pl->pu[a] || !pl->pu[b])
		return PC_CROSS_PACKAGE;
	if (pl->core[a] && pl->core[a] == pl->core[b])
		return PC_SMT;
	if (pl->cache[a] && pl->cache[a] == pl->cache[b])
		return PC_SAME_LLC;
	if (!pl->pkg[a] || !pl->pkg[b])
		return PC_UNKNOWN_PACKAGE;
	return topo_same_package(pl->pkg[a], pl->pkg[b]) ? PC_SAME_PACKAGE : PC_CROSS_PACKAGE;
}

#include "harness/pairclass.h"

static const char *const class_names[PC_COUNT] = {"smt", "same-llc", "same-package",
						  "cross-package", "unknown-package"};

const char *pair_class_name(enum pair_class c)
{
	return c < PC_COUNT ? class_names[c] : "unknown";
}

/* A data or unified cache above both PUs means a line can move between them without leaving it. */
static int share_cache(hwloc_obj_t lca)
{
	for (hwloc_obj_t o = lca; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type))
			return 1;
	return 0;
}

enum pair_class pair_classify(const struct topo *t, int os_a, int os_b)
{
	hwloc_obj_t a = hwloc_get_pu_obj_by_os_index(t->h, (unsigned)os_a);
	hwloc_obj_t b = hwloc_get_pu_obj_by_os_index(t->h, (unsigned)os_b);
	if (!a || !b)
		return PC_CROSS_PACKAGE;
	hwloc_obj_t ca = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_CORE, a);
	hwloc_obj_t cb = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_CORE, b);
	if (ca && ca == cb)
		return PC_SMT;
	if (share_cache(hwloc_get_common_ancestor_obj(t->h, a, b)))
		return PC_SAME_LLC;
	hwloc_obj_t pa = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, a);
	hwloc_obj_t pb = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, b);
	if (!pa || !pb)
		return PC_UNKNOWN_PACKAGE;
	return topo_same_package(pa, pb) ? PC_SAME_PACKAGE : PC_CROSS_PACKAGE;
}

/* `c2cbench topo`'s cache section: per package, each data cache level with its size and the PUs
 * that share each instance, as pingpong's pair classes use them (same-llc: a shared data cache). */
#include "harness/topo.h"
#include <stdio.h>

/* Sizes as a person reads them: 48 KiB, 1 MiB, 32 MiB. */
static void fmt_size(char *b, size_t n, unsigned long long bytes)
{
	if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0)
		snprintf(b, n, "%llu MiB", bytes >> 20);
	else if (bytes >= 1024)
		snprintf(b, n, "%llu KiB", bytes >> 10);
	else
		snprintf(b, n, "%llu B", bytes);
}

/* Is this cache object a data (or unified) cache at the given depth? */
static int data_cache(hwloc_obj_t o, unsigned depth)
{
	return hwloc_obj_type_is_dcache(o->type) && o->attr && o->attr->cache.depth == depth &&
	       o->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION;
}

/* One level inside one group of PUs (a package, or the PUs outside any): each instance with the OS
 * numbers of the PUs under it. Few instances are listed one per line; many (L1/L2 on big parts) as
 * a count and the first instance. */
static int print_level(const struct topo *t, hwloc_const_cpuset_t within, unsigned depth, FILE *f)
{
	int n = 0, shown = 0;
	hwloc_obj_type_t ty = HWLOC_OBJ_L1CACHE + (hwloc_obj_type_t)(depth - 1);
	for (hwloc_obj_t o = NULL; (o = hwloc_get_next_obj_by_type(t->h, ty, o));)
		n += data_cache(o, depth) && hwloc_bitmap_isincluded(o->cpuset, within);
	if (!n)
		return 0;
	for (hwloc_obj_t o = NULL; (o = hwloc_get_next_obj_by_type(t->h, ty, o));) {
		if (!data_cache(o, depth) || !hwloc_bitmap_isincluded(o->cpuset, within))
			continue;
		char size[32], pus[256];
		fmt_size(size, sizeof(size), (unsigned long long)o->attr->cache.size);
		hwloc_bitmap_list_snprintf(pus, sizeof(pus), o->cpuset);
		int npu = hwloc_bitmap_weight(o->cpuset);
		if (n > 4 && shown) {
			fprintf(f, "    ... %d L%u instances in all, each %s\n", n, depth, size);
			return n;
		}
		fprintf(f, "    L%u %-8s shared by %d PU(s): P# %s\n", depth, size, npu, pus);
		shown++;
	}
	return n;
}

void topo_print_caches(const struct topo *t, FILE *f)
{
	int any = 0;
	hwloc_bitmap_t outside = hwloc_bitmap_dup(hwloc_topology_get_complete_cpuset(t->h));
	fprintf(
	    f, "caches (data and unified, per package; same-llc pairs share the outermost one):\n");
	for (hwloc_obj_t pkg = NULL;
	     (pkg = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, pkg));) {
		char pus[256];
		hwloc_bitmap_list_snprintf(pus, sizeof(pus), pkg->cpuset);
		hwloc_bitmap_andnot(outside, outside, pkg->cpuset);
		/* numbered as everywhere else (topo_load: by physical_package_id); an hwloc Package
		 * that shares its number with another is one die of that package */
		const struct pu *u = topo_pu(t, hwloc_bitmap_first(pkg->cpuset));
		int dies = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PACKAGE) > t->npackages;
		fprintf(f, "  package %d%s (P# %s)\n", u ? u->pkg : (int)pkg->logical_index,
			dies ? ", one die" : "", pus);
		for (unsigned d = 3; d >= 1; d--)
			any += print_level(t, pkg->cpuset, d, f);
	}
	if (!hwloc_bitmap_iszero(outside)) { /* PUs no package holds: a group of their own */
		char pus[256];
		hwloc_bitmap_list_snprintf(pus, sizeof(pus), outside);
		fprintf(f, "  outside any package (P# %s)\n", pus);
		for (unsigned d = 3; d >= 1; d--)
			any += print_level(t, outside, d, f);
	}
	hwloc_bitmap_free(outside);
	if (!any)
		fprintf(f, "  none: %s has no data or unified cache objects\n", t->source);
}

#include "harness/topo.h"
#include "harness/util.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The NUMA node holding a PU's memory: the first node whose cpuset covers the PU. */
static int pu_node(hwloc_topology_t h, hwloc_obj_t pu)
{
	hwloc_obj_t n = hwloc_get_next_obj_covering_cpuset_by_type(h, pu->cpuset, HWLOC_OBJ_NUMANODE, NULL);
	return n ? (int)n->os_index : 0;
}

/* Line size from the first data cache that reports one; synthetic topologies have none. */
static int cache_line(hwloc_topology_t h, int *from_hw)
{
	for (hwloc_obj_type_t ty = HWLOC_OBJ_L1CACHE; ty <= HWLOC_OBJ_L3CACHE; ty++) {
		hwloc_obj_t c = hwloc_get_obj_by_type(h, ty, 0);
		if (c && c->attr && c->attr->cache.linesize) {
			*from_hw = 1;
			return (int)c->attr->cache.linesize;
		}
	}
	*from_hw = 0;
	return 64;
}

static int load_source(struct topo *t, const char *spec, char *err)
{
	if (!spec || !*spec) {
		snprintf(t->source, sizeof(t->source), "this machine");
		return 0;
	}
	t->foreign = 1;
	snprintf(t->source, sizeof(t->source), "%s", spec);
	if (!strncmp(spec, "synthetic:", 10)) {
		if (hwloc_topology_set_synthetic(t->h, spec + 10))
			return err_set(err, "--topology: '%s' is not a valid hwloc synthetic description; accepted: e.g. synthetic:\"pack:2 numa:1 core:8 pu:2\"", spec + 10);
		return 0;
	}
	if (!strncmp(spec, "xml:", 4)) {
		if (access(spec + 4, R_OK) || hwloc_topology_set_xml(t->h, spec + 4))
			return err_set(err, "--topology: cannot read hwloc XML file '%s'; accepted: a file written by lstopo FILE.xml", spec + 4);
		return 0;
	}
	return err_set(err, "--topology: '%s' is not accepted; accepted: synthetic:DESC or xml:FILE", spec);
}

/* Each hwloc Package's package number, and how many there are. Linux's package_cpus_list is a
 * die's CPUs on multi-die x86 parts (and QEMU's dies=N), so hwloc makes one Package per die; the
 * kernel's physical_package_id (the Package's os_index) is the socket. Packages sharing one
 * os_index are one package here; one without an os_index (an XML may lack them) counts alone. */
static int *package_ranks(hwloc_topology_t h, int *npackages)
{
	int n = hwloc_get_nbobjs_by_type(h, HWLOC_OBJ_PACKAGE), distinct = 0;
	int *rank = xcalloc((size_t)n + 1, sizeof(int));
	for (int i = 0; i < n; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(h, HWLOC_OBJ_PACKAGE, (unsigned)i);
		rank[i] = -1;
		for (int j = 0; j < i && o->os_index != HWLOC_UNKNOWN_INDEX; j++)
			if (hwloc_get_obj_by_type(h, HWLOC_OBJ_PACKAGE, (unsigned)j)->os_index == o->os_index)
				rank[i] = rank[j];
		if (rank[i] < 0)
			rank[i] = distinct++;
	}
	*npackages = distinct;
	return rank;
}

int topo_same_package(hwloc_obj_t a, hwloc_obj_t b)
{
	return a == b || (a && b && a->os_index != HWLOC_UNKNOWN_INDEX && a->os_index == b->os_index);
}

int topo_load(struct topo *t, const char *spec, char *err)
{
	memset(t, 0, sizeof(*t));
	if (hwloc_topology_init(&t->h))
		return err_set(err, "hwloc_topology_init failed");
	/* Keep disallowed PUs visible, so an excluded CPU is reported as excluded, not as missing. */
	hwloc_topology_set_flags(t->h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	if (load_source(t, spec, err) || hwloc_topology_load(t->h)) {
		if (!err[0])
			err_set(err, "--topology: hwloc could not load '%s'", spec);
		hwloc_topology_destroy(t->h);
		t->h = NULL;
		return -1;
	}
	/* Allowed: the cgroup cpuset hwloc reports, narrowed on this machine to the process affinity
	 * (taskset), so a planned CPU outside either is refused before any thread starts. */
	hwloc_bitmap_t allowed = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(t->h));
	if (!t->foreign) {
		hwloc_bitmap_t mine = hwloc_bitmap_alloc();
		if (!hwloc_get_cpubind(t->h, mine, HWLOC_CPUBIND_PROCESS))
			hwloc_bitmap_and(allowed, allowed, mine);
		hwloc_bitmap_free(mine);
	}
	int *pkg_of = package_ranks(t->h, &t->npackages);
	t->ncores = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_CORE);
	t->npus = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PU);
	t->nnodes = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_NUMANODE);
	if (t->npackages < 1)
		t->npackages = 1;
	if (t->nnodes < 1)
		t->nnodes = 1;
	t->line_size = cache_line(t->h, &t->line_from_hw);
	t->pu = xcalloc((size_t)t->npus + 1, sizeof(*t->pu));
	/* PUs seen so far per core (sized by the machine): SMT index in one pass, not a rescan per PU. */
	int *seen = xcalloc((size_t)(t->ncores > t->npus ? t->ncores : t->npus) + 1, sizeof(int));
	for (int i = 0; i < t->npus; i++) {
		hwloc_obj_t p = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PU, (unsigned)i);
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_CORE, p);
		hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, p);
		struct pu *u = &t->pu[i];
		u->os = (int)p->os_index;
		u->pkg = pkg ? pkg_of[pkg->logical_index] : 0;
		u->core = core ? (int)core->logical_index : i;
		u->smt = core ? (int)hwloc_bitmap_weight(core->cpuset) : 1; /* temporarily: PUs on core */
		if (u->smt > t->pus_per_core)
			t->pus_per_core = u->smt;
		u->smt = u->core >= 0 && u->core <= (t->ncores > t->npus ? t->ncores : t->npus) ? seen[u->core]++ : 0;
		u->node = pu_node(t->h, p);
		hwloc_obj_t llc = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_L3CACHE, p);
		if (!llc)
			llc = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_L2CACHE, p);
		u->llc = llc ? (int)llc->logical_index + (llc->type == HWLOC_OBJ_L2CACHE ? 100000 : 0) : -1;
		u->allowed = hwloc_bitmap_isset(allowed, p->os_index);
	}
	free(pkg_of);
	free(seen);
	hwloc_bitmap_free(allowed);
	if (t->ncores < 1)
		t->ncores = t->npus;
	if (t->pus_per_core < 1)
		t->pus_per_core = 1;
	return 0;
}

void topo_free(struct topo *t)
{
	if (t->h)
		hwloc_topology_destroy(t->h);
	free(t->pu);
	memset(t, 0, sizeof(*t));
}

const struct pu *topo_pu(const struct topo *t, int os)
{
	for (int i = 0; i < t->npus; i++)
		if (t->pu[i].os == os)
			return &t->pu[i];
	return NULL;
}

void topo_print(const struct topo *t, FILE *f)
{
	fprintf(f, "topology: %s\n", t->source);
	fprintf(f, "packages: %d  NUMA nodes: %d  cores: %d  PUs: %d  PUs/core: %d\n", t->npackages, t->nnodes,
		t->ncores, t->npus, t->pus_per_core);
	fprintf(f, "cache line: %d bytes%s\n", t->line_size, t->line_from_hw ? "" : " (assumed: topology has no cache info)");
	topo_print_caches(t, f);
	fprintf(f, "%-6s %-8s %-6s %-5s %-6s %s\n", "P#", "package", "core", "smt", "node", "allowed");
	for (int i = 0; i < t->npus; i++) {
		const struct pu *u = &t->pu[i];
		fprintf(f, "%-6d %-8d %-6d %-5d %-6d %s\n", u->os, u->pkg, u->core, u->smt, u->node, u->allowed ? "yes" : "no");
	}
}

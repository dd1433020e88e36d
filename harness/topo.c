#include "harness/topo.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static int load_source(struct topo *t, const char *spec, int *major, char *err)
{
	if (!spec || !*spec) {
		snprintf(t->source, sizeof(t->source), "this machine");
		snprintf(t->allowed_what, sizeof(t->allowed_what), "this process's allowed cpuset");
		return 0;
	}
	t->foreign = 1;
	snprintf(t->source, sizeof(t->source), "%s", spec);
	snprintf(t->allowed_what, sizeof(t->allowed_what), "the topology's allowed set");
	if (!strncmp(spec, "synthetic:", 10)) {
		if (topo_synthetic_check(spec + 10, err))
			return -1;
		if (hwloc_topology_set_synthetic(t->h, spec + 10))
			return err_set(
			    err,
			    "--topology: '%s' is not hwloc synthetic (e.g. \"pack:2 core:8 pu:2\")",
			    spec + 10);
		return 0;
	}
	if (!strncmp(spec, "xml:", 4)) {
		if (access(spec + 4, R_OK))
			return err_set(err,
				       "--topology: cannot read XML '%s'; accepted: what lstopo "
				       "FILE.xml writes",
				       spec + 4);
		if (topo_xml_check(spec + 4, major, err))
			return -1;
		if (hwloc_topology_set_xml(t->h, spec + 4))
			return err_set(err,
				       "--topology: cannot read XML '%s'; accepted: what lstopo "
				       "FILE.xml writes",
				       spec + 4);
		return 0;
	}
	return err_set(
	    err, "--topology: '%s' is not accepted; accepted: synthetic:DESC or xml:FILE", spec);
}

/* The target's CPU as the topology names it (hwloc's x86 and Linux backends; an XML keeps them). */
static void read_cpu_info(struct topo *t)
{
	hwloc_obj_t o = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, 0);
	const char *v = o ? hwloc_obj_get_info_by_name(o, "CPUVendor") : NULL;
	if (!v)
		o = hwloc_get_root_obj(t->h), v = hwloc_obj_get_info_by_name(o, "CPUVendor");
	const char *f = o ? hwloc_obj_get_info_by_name(o, "CPUFamilyNumber") : NULL;
	const char *m = o ? hwloc_obj_get_info_by_name(o, "CPUModelNumber") : NULL;
	snprintf(t->vendor, sizeof(t->vendor), "%s", v ? v : "");
	t->cpu_family = f ? atoi(f) : -1;
	t->cpu_model = m ? atoi(m) : -1;
}

/* hwloc cpukinds (hybrid parts): each kind's name, ranked from the most power-efficient. */
static void read_kinds(struct topo *t)
{
	int n = hwloc_cpukinds_get_nr(t->h, 0);
	t->nkinds = n > 1 ? (n < TOPO_KINDS ? n : TOPO_KINDS) : 0; /* one kind is no distinction */
	for (int k = 0; k < t->nkinds; k++) {
		unsigned ninfo = 0;
		struct hwloc_info_s *info = NULL;
		const char *name = NULL;
		hwloc_cpukinds_get_info(t->h, (unsigned)k, NULL, NULL, &ninfo, &info, 0);
		for (unsigned i = 0; i < ninfo && !name; i++)
			if (!strcmp(info[i].name, "CoreType"))
				name = info[i].value;
		if (name)
			snprintf(t->kind_name[k], sizeof(t->kind_name[k]), "%.23s", name);
		else
			snprintf(t->kind_name[k], sizeof(t->kind_name[k]), "kind%d", k);
	}
}

static int pu_kind(const struct topo *t, hwloc_obj_t p)
{
	if (!t->nkinds)
		return -1;
	int k = hwloc_cpukinds_get_by_cpuset(t->h, p->cpuset, 0);
	return k >= 0 && k < t->nkinds ? k : -1;
}

const char *topo_kind_name(const struct topo *t, const struct pu *u)
{
	return u && u->kind >= 0 && u->kind < t->nkinds ? t->kind_name[u->kind] : "-";
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
			if (hwloc_get_obj_by_type(h, HWLOC_OBJ_PACKAGE, (unsigned)j)->os_index ==
			    o->os_index)
				rank[i] = rank[j];
		if (rank[i] < 0)
			rank[i] = distinct++;
	}
	*npackages = distinct;
	return rank;
}

int topo_same_package(hwloc_obj_t a, hwloc_obj_t b)
{
	return a == b ||
	       (a && b && a->os_index != HWLOC_UNKNOWN_INDEX && a->os_index == b->os_index);
}

int topo_load(struct topo *t, const char *spec, char *err)
{
	memset(t, 0, sizeof(*t));
	if (hwloc_topology_init(&t->h))
		return err_set(err, "hwloc_topology_init failed");
	/* Keep disallowed PUs visible, so an excluded CPU is reported as excluded, not as missing.
	 */
	hwloc_topology_set_flags(t->h, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	int major = 0;
	unsigned lib = hwloc_get_api_version(), lib_major = lib >> 16;
	if (load_source(t, spec, &major, err) || hwloc_topology_load(t->h)) {
		if (!err[0] && major > (int)lib_major)
			err_set(err,
				"--topology: '%s': this XML is newer than the installed hwloc (XML "
				"version %d.x; "
				"this hwloc, API %u.%u, reads %u.x and older); accepted: an older "
				"XML (hwloc %d's lstopo "
				"--export-xml-flags %u writes one)",
				spec, major, lib_major, (lib >> 8) & 0xff, lib_major, major,
				lib_major);
		else if (!err[0])
			err_set(err, "--topology: hwloc could not load '%s'", spec);
		hwloc_topology_destroy(t->h);
		t->h = NULL;
		return -1;
	}
	/* Allowed: the cgroup cpuset hwloc reports, narrowed on this machine to the calling
	 * thread's affinity (taskset), so a planned CPU outside either is refused before any thread
	 * starts. The thread's, not the process's: the threads we start inherit it, and hwloc's
	 * process binding is the union over every thread, which under qemu-user includes the
	 * emulator's own threads that a narrowing never reached. */
	hwloc_bitmap_t allowed = hwloc_bitmap_dup(hwloc_topology_get_allowed_cpuset(t->h));
	if (!t->foreign) {
		hwloc_bitmap_t mine = hwloc_bitmap_alloc();
		if (!hwloc_get_cpubind(t->h, mine, HWLOC_CPUBIND_THREAD))
			hwloc_bitmap_and(allowed, allowed, mine);
		hwloc_bitmap_free(mine);
	}
	int *pkg_of = package_ranks(t->h, &t->npackages);
	t->ncores = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_CORE);
	t->npus = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PU);
	t->nnodes = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_NUMANODE);
	read_cpu_info(t);
	read_kinds(t);
	topo_nodes_read(t, hwloc_topology_get_allowed_nodeset(t->h));
	t->line_size = cache_line(t->h, &t->line_from_hw);
	t->pu = xcalloc((size_t)t->npus + 1, sizeof(*t->pu));
	/* PUs seen so far per core (sized by the machine): SMT index in one pass, not a rescan per
	 * PU. */
	int *seen = xcalloc((size_t)(t->ncores > t->npus ? t->ncores : t->npus) + 1, sizeof(int));
	for (int i = 0; i < t->npus; i++) {
		hwloc_obj_t p = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PU, (unsigned)i);
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_CORE, p);
		hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, p);
		struct pu *u = &t->pu[i];
		u->os = (int)p->os_index;
		u->pkg = pkg ? pkg_of[pkg->logical_index] : -1;
		t->nopkg_pus += !pkg;
		u->kind = pu_kind(t, p);
		u->node = topo_pu_node(t, p);
		u->core = core ? (int)core->logical_index : i;
		u->smt = core ? (int)hwloc_bitmap_weight(core->cpuset)
			      : 1; /* temporarily: PUs on core */
		if (u->smt > t->pus_per_core)
			t->pus_per_core = u->smt;
		u->smt = u->core >= 0 && u->core <= (t->ncores > t->npus ? t->ncores : t->npus)
			     ? seen[u->core]++
			     : 0;
		hwloc_obj_t llc = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_L3CACHE, p);
		if (!llc)
			llc = hwloc_get_ancestor_obj_by_type(t->h, HWLOC_OBJ_L2CACHE, p);
		u->llc =
		    llc ? (int)llc->logical_index + (llc->type == HWLOC_OBJ_L2CACHE ? 100000 : 0)
			: -1;
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
	free(t->node);
	memset(t, 0, sizeof(*t));
}

const struct pu *topo_pu(const struct topo *t, int os)
{
	for (int i = 0; i < t->npus; i++)
		if (t->pu[i].os == os)
			return &t->pu[i];
	return NULL;
}


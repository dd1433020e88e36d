/* Machine topology from hwloc: this machine, or a foreign one (synthetic/XML) for planning. */
#ifndef C2C_TOPO_H
#define C2C_TOPO_H
#include <hwloc.h>
#include <stdio.h>

struct pu {
	int os;      /* OS CPU number (P#), as the kernel numbers CPUs */
	int pkg;     /* package, logical index */
	int core;    /* core, logical index over the machine */
	int smt;     /* index among the PUs of its core (0 = first sibling) */
	int node;    /* NUMA node OS index */
	int allowed; /* in this process's allowed cpuset */
	int llc;     /* last-level cache (L3, else L2) logical index; -1 when the topology has no caches */
};

struct topo {
	hwloc_topology_t h;
	int foreign;       /* loaded from synthetic/XML: plans only, nothing runs */
	char source[300];  /* "this machine", "synthetic:...", "xml:FILE" */
	int npackages, ncores, npus, nnodes;
	int pus_per_core;  /* most PUs on any core */
	int line_size;     /* L1d line size in bytes (64 when the topology has no caches) */
	int line_from_hw;  /* line_size was read from the topology */
	struct pu *pu;     /* npus entries, in topological order (core by core) */
	/* auto placement: the counters' HITM stand-in only sees lines from another LLC (AMD Zen 3+), so auto
	 * prefers cross-llc on one package; set by the driver before planning, with the reason */
	int auto_cross_llc;
	char auto_why[200];
};

/* spec: NULL or "" for this machine, "synthetic:DESC" or "xml:FILE". */
/* Whether two hwloc Package objects (either may be NULL: no package objects, one package) are one
 * package by the rule topo_load numbers them with: the same object, or the same os_index (the
 * kernel's physical_package_id; hwloc makes one Package per die on multi-die x86). */
int topo_same_package(hwloc_obj_t a, hwloc_obj_t b);
int topo_load(struct topo *t, const char *spec, char *err);
void topo_free(struct topo *t);
void topo_print(const struct topo *t, FILE *f);
/* The data caches per package: size of each level and the PUs that share each instance. */
void topo_print_caches(const struct topo *t, FILE *f);
/* The PU with OS number os, or NULL. */
const struct pu *topo_pu(const struct topo *t, int os);
#endif

/* Machine topology from hwloc: this machine, or a foreign one (synthetic/XML) for planning. */
#ifndef C2C_TOPO_H
#define C2C_TOPO_H
#include <hwloc.h>
#include <stdio.h>

/* Caps checked before hwloc parses or builds a foreign topology (harness/topo_limits.c): Linux's
 * own largest NR_CPUS (8,192, x86 MAXSMP; hwloc takes some 13 s to build that many synthetic PUs);
 * real XMLs nest some 20 objects deep. */
#define TOPO_MAX_PUS 8192
#define TOPO_MAX_DEPTH 256
#define TOPO_KINDS 8 /* hwloc cpukinds kept by name */

struct pu {
	int os;      /* OS CPU number (P#), as the kernel numbers CPUs */
	int pkg;     /* package, logical index; -1 outside any package (a class of its own) */
	int core;    /* core, logical index over the machine */
	int smt;     /* index among the PUs of its core (0 = first sibling) */
	int node;    /* NUMA node OS index for its memory: a covering node that is allowed and has
		      * memory, else the first such node; -1 when the topology has none */
	int allowed; /* in the allowed cpuset (topo.allowed_what says whose) */
	int llc; /* last-level cache (L3, else L2) logical index; -1 when the topology has no caches
		  */
	int kind; /* hwloc cpukind rank (0 = the most power-efficient); -1 when the topology has
		     none */
};

struct node {
	int os;                 /* NUMA node OS index (P#) */
	unsigned long long mem; /* local memory in bytes (0: none, or not reported) */
	int allowed;            /* in the allowed nodeset */
};

struct topo {
	hwloc_topology_t h;
	int foreign;       /* loaded from synthetic/XML: plans only, nothing runs */
	char source[300];  /* "this machine", "synthetic:...", "xml:FILE" */
	char allowed_what[48]; /* whose allowed sets: this process's, or the topology's (foreign) */
	int npackages, ncores, npus, nnodes;
	int nopkg_pus;     /* PUs outside any package */
	int pus_per_core;  /* most PUs on any core */
	int line_size;     /* L1d line size in bytes (64 when the topology has no caches) */
	int line_from_hw;  /* line_size was read from the topology */
	int mem_known;     /* some node reports its memory (synthetic nodes may report none) */
	struct pu *pu;     /* npus entries, in topological order (core by core) */
	struct node *node; /* nnodes entries, by logical index */
	int nkinds;        /* hwloc cpukinds; kind_name[k] is rank k's CoreType ("IntelAtom") */
	char kind_name[TOPO_KINDS][24];
	char vendor[32];   /* the topology's CPUVendor ("AuthenticAMD"; "" when it names none) */
	int cpu_family, cpu_model; /* CPUFamilyNumber, CPUModelNumber (-1 when not given) */
	/* auto placement: the counters' HITM stand-in only sees lines from another LLC (AMD Zen
	 * 3+), so auto prefers cross-llc on one package; set before planning from the target's CPU,
	 * with the reason */
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
/* A PU's kind by name ("IntelCore"), or "-" when the topology has no kinds. */
const char *topo_kind_name(const struct topo *t, const struct pu *u);

/* harness/topo_nodes.c: NUMA nodes as the plan may use them. */
/* Fill t->node (before the PUs are read), then each PU's node with topo_pu_node. */
void topo_nodes_read(struct topo *t, hwloc_const_nodeset_t allowed);
int topo_pu_node(const struct topo *t, hwloc_obj_t pu);
/* The nodes a run may put memory on (allowed, with memory) as "0-2,33" ("none" when there is none).
 */
void topo_node_list(const struct topo *t, char *buf, size_t n);
/* Is node n one the run may put memory on? 0, or -1 with why ("node 0 has no memory"). */
int topo_node_usable(const struct topo *t, long n, char *why, size_t wn);
/* The allowed PUs as an OS-number list ("4-20"). */
void topo_pu_list(const struct topo *t, char *buf, size_t n);

/* harness/topo_limits.c: the caps, checked before hwloc reads the description. Each returns 0, or
 * -1 with a one-line message naming the cap (and, for an XML, a version newer than hwloc's). */
int topo_synthetic_check(const char *desc, char *err);
int topo_xml_check(const char *path, int *major, char *err);
#endif

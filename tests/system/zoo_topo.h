/* A zoo guest's own sysfs topology (topo.txt, written inside the guest by scripts/zoo/guest.sh) and
 * the result files its checks left: what tests/system/zoo_check.c judges c2cbench's rows against.
 */
#ifndef C2C_ZOO_TOPO_H
#define C2C_ZOO_TOPO_H
#include "lib/csvread.h"

#define ZOO_MAX_CPUS 1024
#define ZOO_MAX_NODES 64

struct zoo_cpu {
	int cpu, pkg, core, llc, node; /* core and llc: the first PU sharing it; -1 when unknown */
};

struct zoo_topo {
	int ncpus, nnodes;
	struct zoo_cpu cpu[ZOO_MAX_CPUS];
	int node[ZOO_MAX_NODES];
	long node_mem_kb[ZOO_MAX_NODES];
};

/* Read DIR/topo.txt; 0, or -1 with the reason in err. */
int zoo_topo_read(struct zoo_topo *t, const char *dir, char *err); /* err: 512 bytes */
/* The entry of OS CPU c, or NULL. */
const struct zoo_cpu *zoo_cpu(const struct zoo_topo *t, int c);
/* Distinct packages; distinct cores (of package pkg, or all with pkg < 0); distinct LLCs of pkg. */
int zoo_packages(const struct zoo_topo *t);
int zoo_cores(const struct zoo_topo *t, int pkg);
int zoo_llcs(const struct zoo_topo *t, int pkg);
/* PUs of the core whose first PU is core. */
int zoo_core_pus(const struct zoo_topo *t, int core);
/* The lowest-numbered CPU of package pkg, or -1. */
int zoo_first_cpu(const struct zoo_topo *t, int pkg);

/* Contents of DIR/NAME (NULL when absent); the integer in it (-1 when absent). */
char *zoo_file(const char *dir, const char *name);
int zoo_int(const char *dir, const char *name);
/* Newlines in s. */
int zoo_lines(const char *s);
#endif

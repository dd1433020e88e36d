/* `c2cbench topo`'s text: the machine, its caches (topo_caches.c) and each PU. */
#include "harness/topo.h"
#include <stdio.h>

void topo_print(const struct topo *t, FILE *f)
{
	char nodes[200], pus[200];
	topo_node_list(t, nodes, sizeof(nodes));
	topo_pu_list(t, pus, sizeof(pus));
	fprintf(f, "topology: %s\n", t->source);
	fprintf(f, "packages: %d%s  NUMA nodes: %d  cores: %d  PUs: %d  PUs/core: %d\n",
		t->npackages, t->nopkg_pus ? " (and PUs outside any)" : "", t->nnodes, t->ncores,
		t->npus, t->pus_per_core);
	fprintf(f, "allowed (%s): PUs %s; memory nodes %s\n", t->allowed_what, pus, nodes);
	if (t->vendor[0])
		fprintf(f, "CPU: %s family %d model %d\n", t->vendor, t->cpu_family, t->cpu_model);
	fprintf(f, "cache line: %d bytes%s\n", t->line_size,
		t->line_from_hw ? "" : " (assumed: no cache reports a line size)");
	topo_print_caches(t, f);
	fprintf(f, "%-6s %-8s %-6s %-5s %-6s %s\n", "P#", "package", "core", "smt", "node",
		t->nkinds ? "allowed  kind" : "allowed");
	for (int i = 0; i < t->npus; i++) {
		const struct pu *u = &t->pu[i];
		char pkg[16], node[16];
		snprintf(pkg, sizeof(pkg), u->pkg >= 0 ? "%d" : "none", u->pkg);
		snprintf(node, sizeof(node), u->node >= 0 ? "%d" : "none", u->node);
		if (t->nkinds)
			fprintf(f, "%-6d %-8s %-6d %-5d %-6s %-8s %s\n", u->os, pkg, u->core,
				u->smt, node, u->allowed ? "yes" : "no", topo_kind_name(t, u));
		else
			fprintf(f, "%-6d %-8s %-6d %-5d %-6s %s\n", u->os, pkg, u->core, u->smt,
				node, u->allowed ? "yes" : "no");
	}
	for (int i = 0; i < t->nnodes; i++)
		fprintf(f, "NUMA node %d: %llu MiB%s%s\n", t->node[i].os, t->node[i].mem >> 20,
			t->node[i].mem || !t->mem_known ? "" : " (no memory)",
			t->node[i].allowed ? "" : " (not allowed)");
}

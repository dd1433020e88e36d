/* A made plan (harness/placement.c makes it): --mem-node resolved against its threads, a role's
 * CPU list, and the plan printed. */
#include "harness/placement.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include <limits.h>
#include <stdio.h>
#include <string.h>

/* The node of the role's first thread (-1: it has none), or -2 when the role has no thread. */
static int first_node_of_role(const struct plan *p, int role)
{
	for (int i = 0; i < p->n; i++)
		if (p->slot[i].role == role)
			return p->slot[i].node;
	return -2;
}

int plan_mem_node(const struct topo *t, struct plan *p, const char *spec, char *err)
{
	long n;
	char nodes[200], why[160];
	topo_node_list(t, nodes, sizeof(nodes));
	if (!strcmp(spec, "writer") || !strcmp(spec, "reader")) {
		int role = spec[0] == 'w' ? 0 : 1;
		if (role >= p->nroles || first_node_of_role(p, role) == -2)
			return err_set(err,
				       "--mem-node %s: the run has no %s thread; accepted: a NUMA "
				       "node number or a role that has threads",
				       spec, spec);
		p->mem_node = first_node_of_role(p, role);
		if (p->mem_node < 0)
			return err_set(
				err, "--mem-node %s: %s has no NUMA node the run may put memory on",
				spec, t->source);
		return 0;
	}
	char list[300];
	snprintf(list, sizeof(list), "writer, reader or a node (%s)", nodes);
	if (parse_long_in(spec, 0, INT_MAX, &n)) /* 2^32 must not wrap to 0 */
		return err_accepted(err, list, "writer, reader or a node (c2cbench topo)",
				    "--mem-node: '%s' is not accepted", spec);
	if (topo_node_usable(t, n, why, sizeof(why))) {
		/* why the node is refused ("node 2 does not exist"), unless the nodes accepted then
		 * do not fit */
		err_set(err, "--mem-node: %s; accepted: %s", why, list);
		if (strlen(err) <= ERR_WIDTH)
			return -1;
		return err_accepted(err, list, "writer, reader or a node (c2cbench topo)",
				    "--mem-node: '%s' is not accepted", spec);
	}
	p->mem_node = (int)n;
	return 0;
}

void plan_cpus(const struct plan *p, int role, char *buf, size_t n)
{
	size_t off = 0;
	buf[0] = 0;
	for (int i = 0; i < p->n && off < n; i++)
		if (role < 0 || p->slot[i].role == role)
			off += (size_t)snprintf(buf + off, n - off, "%s%d", off ? " " : "",
						p->slot[i].os);
}

/* Whether the plan puts threads on more than one CPU kind. */
static int mixes_kinds(const struct plan *p, const struct topo *t)
{
	for (int i = 1; i < p->n; i++)
		if (topo_pu(t, p->slot[i].os) && topo_pu(t, p->slot[0].os) &&
		    topo_pu(t, p->slot[i].os)->kind != topo_pu(t, p->slot[0].os)->kind)
			return 1;
	return 0;
}

void plan_print(const struct plan *p, const struct topo *t, FILE *f)
{
	char node[16];
	snprintf(node, sizeof(node), p->mem_node >= 0 ? "%d" : "none", p->mem_node);
	char line[1024];
	snprintf(line, sizeof(line), "placement %s on %s; memory on NUMA node %s%s%s", p->used,
		 t->source, node, p->auto_why[0] ? "; " : "", p->auto_why);
	text_wrap(f, 0, 2, TEXT_WIDTH, line); /* at 100 columns */
	if (t->nkinds && mixes_kinds(p, t))
		fprintf(f, "note: the threads run on different CPU kinds (hybrid part): see the "
			   "kind column\n");
	fprintf(f, "%-10s %-4s %-6s %-8s %-6s %-4s %s\n", "role", "#", "P#", "package", "core",
		"smt", t->nkinds ? "node  kind" : "node");
	for (int i = 0; i < p->n; i++) {
		const struct slot *s = &p->slot[i];
		char pkg[16];
		snprintf(pkg, sizeof(pkg), s->pkg >= 0 ? "%d" : "none", s->pkg);
		if (t->nkinds)
			fprintf(f, "%-10s %-4d %-6d %-8s %-6d %-4d %-5d %s\n",
				p->roles[s->role].name, s->idx, s->os, pkg, s->core, s->smt,
				s->node, topo_kind_name(t, topo_pu(t, s->os)));
		else
			fprintf(f, "%-10s %-4d %-6d %-8s %-6d %-4d %d\n", p->roles[s->role].name,
				s->idx, s->os, pkg, s->core, s->smt, s->node);
	}
}

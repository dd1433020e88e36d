/* NUMA nodes as a plan may use them: the nodes that exist, which are allowed (the cgroup's
 * cpuset.mems, or an XML's allowed nodeset) and which hold memory. Node 0 is never assumed. */
#include "harness/topo.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

static int usable(const struct topo *t, const struct node *n)
{
	return n->allowed && (n->mem || !t->mem_known);
}

/* A PU's node: the first node covering it that is usable, else the first usable node at all
 * (a PU no node covers, or whose node holds no memory), else a covering node, else -1. */
int topo_pu_node(const struct topo *t, hwloc_obj_t pu)
{
	int covering = -1;
	for (int i = 0; i < t->nnodes; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_NUMANODE, (unsigned)i);
		if (!hwloc_bitmap_isincluded(pu->cpuset, o->cpuset))
			continue;
		if (usable(t, &t->node[i]))
			return t->node[i].os;
		if (covering < 0)
			covering = t->node[i].os;
	}
	for (int i = 0; i < t->nnodes; i++)
		if (usable(t, &t->node[i]))
			return t->node[i].os;
	return covering;
}

void topo_nodes_read(struct topo *t, hwloc_const_nodeset_t allowed)
{
	t->node = xcalloc((size_t)t->nnodes + 1, sizeof(*t->node));
	for (int i = 0; i < t->nnodes; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_NUMANODE, (unsigned)i);
		t->node[i] = (struct node){(int)o->os_index,
					   (unsigned long long)o->attr->numanode.local_memory,
					   !allowed || hwloc_bitmap_isset(allowed, o->os_index)};
		t->mem_known |= t->node[i].mem > 0;
	}
}

void topo_node_list(const struct topo *t, char *buf, size_t n)
{
	hwloc_bitmap_t s = hwloc_bitmap_alloc();
	for (int i = 0; i < t->nnodes; i++)
		if (usable(t, &t->node[i]))
			hwloc_bitmap_set(s, (unsigned)t->node[i].os);
	if (hwloc_bitmap_iszero(s))
		snprintf(buf, n, "none");
	else
		hwloc_bitmap_list_snprintf(buf, n, s);
	hwloc_bitmap_free(s);
}

int topo_node_usable(const struct topo *t, long n, char *why, size_t wn)
{
	for (int i = 0; i < t->nnodes; i++) {
		const struct node *d = &t->node[i];
		if (d->os != n)
			continue;
		if (!d->allowed)
			snprintf(why, wn, "node %ld is outside %s", n,
				 t->foreign ? "the topology's allowed nodeset"
					    : "this process's allowed nodeset (cpuset.mems)");
		else if (!usable(t, d))
			snprintf(why, wn, "node %ld has no memory", n);
		else
			return 0;
		return -1;
	}
	snprintf(why, wn, "node %ld does not exist", n);
	return -1;
}

void topo_pu_list(const struct topo *t, char *buf, size_t n)
{
	hwloc_bitmap_t s = hwloc_bitmap_alloc();
	for (int i = 0; i < t->npus; i++)
		if (t->pu[i].allowed)
			hwloc_bitmap_set(s, (unsigned)t->pu[i].os);
	if (hwloc_bitmap_iszero(s))
		snprintf(buf, n, "none");
	else
		hwloc_bitmap_list_snprintf(buf, n, s);
	hwloc_bitmap_free(s);
}

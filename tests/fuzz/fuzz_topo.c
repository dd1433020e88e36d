/* libFuzzer target: the topology planner on any synthetic machine up to a few thousand PUs.
 * Input lines: hwloc synthetic description, placement, writers, readers, mem-node, pairs spec.
 * Must never crash, hang, leak or touch memory out of bounds (the 1,024-entry lists did). */
#include "benches/pingpong/pairs.h"
#include "harness/placement.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

#define FUZZ_TOPO_MAX_PUS 4096

/* An upper bound on the PUs a synthetic description makes: the product of each level's arity. */
static long synthetic_pus(const char *desc)
{
	long pus = 1;
	int levels = 0;
	for (const char *p = desc; *p;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		const char *tok = p, *colon;
		p += strcspn(p, " ");
		colon = memchr(tok, ':', (size_t)(p - tok));
		const char *num = colon ? colon + 1 : tok;
		long a = strtol(num, NULL, 10);
		if (a < 1 || ++levels > 12)
			return -1; /* hwloc refuses it anyway; keep the bound honest */
		pus *= a;
		if (pus > FUZZ_TOPO_MAX_PUS)
			return pus;
	}
	return pus;
}

/* Line k of the input (k from 0), NUL-terminated in place; "" when missing. */
static char *line_at(char **lines, int n, int k)
{
	return k < n ? lines[k] : "";
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size > 1024)
		return 0;
	char *buf = malloc(size + 1), *lines[6], err[ERRLEN] = "";
	memcpy(buf, data, size);
	buf[size] = 0;
	int n = 0;
	for (char *p = buf; n < 6 && p <= buf + size;) {
		lines[n++] = p;
		p += strcspn(p, "\n");
		if (p >= buf + size)
			break;
		*p++ = 0;
	}
	char spec[1100];
	long pus = synthetic_pus(line_at(lines, n, 0)), w = 1, r = 1;
	snprintf(spec, sizeof(spec), "synthetic:%s", line_at(lines, n, 0));
	struct topo t;
	if (pus < 1 || pus > FUZZ_TOPO_MAX_PUS || topo_load(&t, spec, err)) {
		free(buf);
		return 0;
	}
	if (parse_long_in(line_at(lines, n, 2), 0, PLAN_MAX + 8, &w))
		w = 1;
	if (parse_long_in(line_at(lines, n, 3), 0, PLAN_MAX + 8, &r))
		r = 1;
	struct role_req roles[2] = { { "writer", (int)w }, { "reader", (int)r } };
	struct plan *p = malloc(sizeof(*p));
	const char *pl = *line_at(lines, n, 1) ? line_at(lines, n, 1) : "auto";
	if (!plan_make(&t, pl, roles, 2, p, err)) {
		char cpus[256];
		for (int i = 0; i < p->n;
		     i++) /* every planned slot is a real, allowed PU, used once */
			if (!topo_pu(&t, p->slot[i].os) || !topo_pu(&t, p->slot[i].os)->allowed)
				abort();
		plan_cpus(p, -1, cpus, sizeof(cpus));
		plan_mem_node(&t, p, *line_at(lines, n, 4) ? line_at(lines, n, 4) : "writer", err);
	}
	if (t.npus <=
	    256) { /* pairs grow as PUs squared: the planner above is the big-machine part */
		int *set = NULL, ns = pairs_pu_set(&t, pl, &set, err);
		struct pu_pair *pairs = NULL;
		if (ns >= 2 &&
		    pairs_select(&t, set, ns,
				 *line_at(lines, n, 5) ? line_at(lines, n, 5) : "classes", 1,
				 &pairs, err) > 0)
			free(pairs);
		free(set);
	}
	free(p);
	topo_free(&t);
	free(buf);
	return 0;
}

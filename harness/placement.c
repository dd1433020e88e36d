#include "harness/placement.h"
#include "harness/suggest.h"
#include "harness/cpucheck.h"
#include "harness/util.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int total_threads(const struct role_req *r, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += r[i].count;
	return k;
}

/* Thread order W0,R0,W1,R1,...: co-locating policies then pair a writer with a reader. */
static void interleave(const struct role_req *r, int nr, int *role, int *idx)
{
	int k = 0, max = 0;
	for (int i = 0; i < nr; i++)
		if (r[i].count > max)
			max = r[i].count;
	for (int j = 0; j < max; j++)
		for (int i = 0; i < nr; i++)
			if (j < r[i].count) {
				role[k] = i;
				idx[k++] = j;
			}
}

static void put(struct plan *p, const struct pu *u, int role, int idx)
{
	p->slot[p->n++] = (struct slot){ role, idx, u->os, u->pkg, u->core, u->smt, u->node };
}

/* First allowed PU of each core in package pkg (pkg < 0: any), in order; out has room for t->npus. */
static int cores_of(const struct topo *t, int pkg, const struct pu **out)
{
	int n = 0, last = -1;
	for (int i = 0; i < t->npus; i++) {
		const struct pu *u = &t->pu[i];
		if (!u->allowed || (pkg >= 0 && u->pkg != pkg) || u->core == last)
			continue;
		last = u->core;
		out[n++] = u;
	}
	return n;
}

/* Allowed PUs core by core; with smt_only, only cores that have two or more allowed PUs.
 * Sibling counts come from one pass over the PUs, so a 4,096-PU machine plans in linear time. */
static int pus_of(const struct topo *t, int smt_only, const struct pu **out)
{
	int n = 0, ncore = 0;
	for (int i = 0; i < t->npus; i++)
		if (t->pu[i].core >= ncore)
			ncore = t->pu[i].core + 1;
	int *siblings = xcalloc((size_t)ncore + 1, sizeof(int));
	for (int i = 0; i < t->npus; i++)
		if (t->pu[i].allowed && t->pu[i].core >= 0)
			siblings[t->pu[i].core]++;
	for (int i = 0; i < t->npus; i++) {
		const struct pu *u = &t->pu[i];
		if (u->allowed && (!smt_only || (u->core >= 0 && siblings[u->core] >= 2)))
			out[n++] = u;
	}
	free(siblings);
	return n;
}

static int too_few(char *err, const char *pol, int need, int have, const char *what, const struct topo *t)
{
	return err_set(err, "placement %s needs %d %s but %s has %d", pol, need, what, t->source, have);
}

static int place_list(struct plan *p, const struct pu **list, int have, const struct role_req *r, int nr,
		      const char *pol, const char *what, const struct topo *t, char *err)
{
	int role[PLAN_MAX], idx[PLAN_MAX], need = total_threads(r, nr);
	if (need > have)
		return too_few(err, pol, need, have, what, t);
	interleave(r, nr, role, idx);
	for (int k = 0; k < need; k++)
		put(p, list[k], role[k], idx[k]);
	return 0;
}

static int place_cross(struct plan *p, const struct topo *t, const struct role_req *r, int nr, char *err)
{
	if (t->npackages < 2)
		return err_set(err, "placement cross-socket needs 2 packages but %s has %d; use same-socket, smt or cpus:LIST", t->source, t->npackages);
	const struct pu **c0 = xcalloc((size_t)t->npus + 1, sizeof(*c0)), **c1 = xcalloc((size_t)t->npus + 1, sizeof(*c1));
	int n0 = cores_of(t, 0, c0), n1 = cores_of(t, 1, c1), second = total_threads(r + 1, nr - 1), rc = 0;
	if (r[0].count > n0)
		rc = err_set(err, "placement cross-socket puts %d %s(s) on package 0, which has %d allowed cores", r[0].count, r[0].name, n0);
	else if (second > n1)
		rc = err_set(err, "placement cross-socket puts %d threads on package 1, which has %d allowed cores", second, n1);
	for (int j = 0; !rc && j < r[0].count; j++)
		put(p, c0[j], 0, j);
	for (int i = 1, k = 0; !rc && i < nr; i++)
		for (int j = 0; j < r[i].count; j++)
			put(p, c1[k++], i, j);
	free(c0);
	free(c1);
	return rc;
}

/* Cores ordered package 0, package 1, package 0, ...: threads as far apart as the machine allows.
 * out has room for t->npus entries; the per-package cursors are sized by the machine, not fixed. */
static int spread_order(const struct topo *t, const struct pu **out)
{
	const struct pu **all = xcalloc((size_t)t->npus + 1, sizeof(*all));
	int na = cores_of(t, -1, all), np = t->npackages > 0 ? t->npackages : 1, n = 0;
	int *next = xcalloc((size_t)np, sizeof(int)); /* per package: index into all of its next core */
	for (int pk = 0; pk < np; pk++)
		next[pk] = -1;
	for (int i = na - 1; i >= 0; i--) /* first core of each package */
		next[all[i]->pkg % np] = i;
	while (n < na)
		for (int pk = 0; pk < np; pk++) {
			int i = next[pk];
			if (i < 0)
				continue;
			out[n++] = all[i];
			while (++i < na && all[i]->pkg % np != pk)
				;
			next[pk] = i < na ? i : -1;
		}
	free(next);
	free(all);
	return n;
}

/* cpus:LIST in the order written: the first CPUs go to the writers, then the readers (cpus:1,0 puts
 * the writer on CPU 1). The strict CPU-list grammar (harness/parse.h) refuses negatives and duplicates. */
static int place_cpus(struct plan *p, const struct topo *t, const char *list, const struct role_req *r, int nr, char *err)
{
	int need = total_threads(r, nr), *cpus = xcalloc(PLAN_MAX + 1, sizeof(int)), rc = 0;
	char why[120];
	int have = parse_cpulist(list, cpus, PLAN_MAX + 1, why, sizeof(why));
	if (have < 0)
		rc = err_set(err, "placement cpus:'%s' is not accepted (%s); accepted: OS CPU numbers 0-%d of %s, one per thread, e.g. cpus:0,2 or cpus:0-3",
			     list, why, t->npus - 1, t->source);
	else if (have != need)
		rc = err_set(err, "placement cpus:%s gives %d CPUs but the run has %d threads; give exactly one CPU per thread", list, have, need);
	for (int k = 0; !rc && k < have; k++) {
		const struct pu *u = topo_pu(t, cpus[k]);
		char why2[300];
		if (!u && !t->foreign && cpu_unusable(SYSFS_CPU, cpus[k], why2, sizeof(why2))) /* hwloc lists no offline CPU: say which */
			rc = err_set(err, "placement cpus:%s: %s", list, why2);
		else if (!u)
			rc = err_set(err, "placement cpus:%s: CPU %d does not exist on %s (it has %d PUs)", list, cpus[k], t->source, t->npus);
		else if (!u->allowed)
			rc = err_set(err, "placement cpus:%s: CPU %d is outside this process's allowed cpuset", list, cpus[k]);
		else {
			int role = 0, idx = k;
			while (idx >= r[role].count) /* writers first, then readers */
				idx -= r[role++].count;
			put(p, u, role, idx);
		}
	}
	free(cpus);
	return rc;
}

/* First allowed PU of each core of package 0 under LLC llc (llc < -1: the LLCs other than -2-llc). */
static int cores_under_llc(const struct topo *t, int llc, const struct pu **out)
{
	int n = 0, last = -1;
	for (int i = 0; i < t->npus; i++) {
		const struct pu *u = &t->pu[i];
		int match = llc >= -1 ? u->llc == llc : u->llc != -2 - llc;
		if (!u->allowed || u->pkg != 0 || u->core == last || !match)
			continue;
		last = u->core;
		out[n++] = u;
	}
	return n;
}

/* The LLCs of package 0 that hold an allowed core. */
static int llcs_of_package0(const struct topo *t, int *first)
{
	int n = 0, seen[64];
	*first = -1;
	for (int i = 0; i < t->npus; i++) {
		const struct pu *u = &t->pu[i];
		int k;
		if (!u->allowed || u->pkg != 0 || u->llc < 0)
			continue;
		for (k = 0; k < n && seen[k] != u->llc; k++)
			;
		if (k == n && n < 64)
			seen[n++] = u->llc;
		if (*first < 0)
			*first = u->llc;
	}
	return n;
}

/* same-llc: every thread under the first LLC of package 0; cross-llc: writers under it, the other
 * roles under the other LLCs of package 0 (AMD: another CCX, which the Zen 3+ stand-in sees). */
static int place_llc(struct plan *p, const struct topo *t, const char *pl, const struct pu **list, const struct role_req *r, int nr,
		     char *err)
{
	int first, nllc = llcs_of_package0(t, &first);
	if (nllc < 1)
		return err_set(err, "placement %s needs cache information but %s has no L3 or L2 cache objects; use same-socket or cpus:LIST", pl, t->source);
	if (!strcmp(pl, "same-llc"))
		return place_list(p, list, cores_under_llc(t, first, list), r, nr, pl, "allowed cores under package 0's first last-level cache", t, err);
	if (nr < 2)
		return err_set(err, "placement cross-llc needs two roles (writers and readers)");
	if (nllc < 2)
		return err_set(err, "placement cross-llc needs 2 last-level caches (L3s) in package 0 but %s has %d; use same-llc, same-socket or cpus:LIST", t->source, nllc);
	int n0 = cores_under_llc(t, first, list), second = total_threads(r + 1, nr - 1);
	if (r[0].count > n0)
		return err_set(err, "placement cross-llc puts %d %s(s) under package 0's first last-level cache, which has %d allowed cores", r[0].count, r[0].name, n0);
	for (int j = 0; j < r[0].count; j++)
		put(p, list[j], 0, j);
	int n1 = cores_under_llc(t, -2 - first, list);
	if (second > n1)
		return err_set(err, "placement cross-llc puts %d threads under package 0's other last-level caches, which have %d allowed cores", second, n1);
	for (int i = 1, k = 0; i < nr; i++)
		for (int j = 0; j < r[i].count; j++)
			put(p, list[k++], i, j);
	return 0;
}

/* auto: cross-socket on 2+ packages; cross-llc where the HITM stand-in sees only another LLC's lines
 * and package 0 has two; else same-socket. The plan says why. */
static const char *resolve_auto(const struct topo *t, int nr, struct plan *p)
{
	int first, nllc = llcs_of_package0(t, &first);
	if (t->npackages >= 2 && nr >= 2) {
		snprintf(p->auto_why, sizeof(p->auto_why), "auto: cross-socket (%d packages)", t->npackages);
		return "cross-socket";
	}
	if (t->auto_cross_llc && nr >= 2 && nllc >= 2) {
		snprintf(p->auto_why, sizeof(p->auto_why), "auto: cross-llc (%.150s)", t->auto_why);
		return "cross-llc";
	}
	if (t->auto_cross_llc && nr >= 2)
		snprintf(p->auto_why, sizeof(p->auto_why), "auto: same-socket (package 0 has %d LLC but %.100s: the stand-in cannot see this run)", nllc, t->auto_why);
	else
		snprintf(p->auto_why, sizeof(p->auto_why), "auto: same-socket (one package)");
	return "same-socket";
}

/* The named list policies; list has room for every PU of the machine. */
static int place_named(struct plan *p, const struct topo *t, const char *pl, const struct pu **list,
		       const struct role_req *r, int nr, char *err)
{
	if (!strcmp(pl, "smt")) {
		if (t->pus_per_core < 2)
			return err_set(err, "placement smt needs cores with 2 or more PUs (SMT) but %s has %d PU per core", t->source, t->pus_per_core);
		return place_list(p, list, pus_of(t, 1, list), r, nr, pl, "PUs on SMT cores", t, err);
	}
	if (!strcmp(pl, "compact"))
		return place_list(p, list, pus_of(t, 0, list), r, nr, pl, "allowed PUs", t, err);
	if (!strcmp(pl, "same-socket"))
		return place_list(p, list, cores_of(t, 0, list), r, nr, pl, "allowed cores on package 0", t, err);
	if (!strcmp(pl, "spread"))
		return place_list(p, list, spread_order(t, list), r, nr, pl, "allowed cores", t, err);
	if (!strcmp(pl, "same-llc") || !strcmp(pl, "cross-llc"))
		return place_llc(p, t, pl, list, r, nr, err);
	if (!strcmp(pl, "cross-socket")) {
		if (nr < 2)
			return err_set(err, "placement cross-socket needs two roles (writers and readers)");
		return place_cross(p, t, r, nr, err);
	}
	char sug[128];
	return err_set(err, "--placement: '%s' is not accepted%s; accepted: %s", pl, suggest_list(pl, PLACEMENTS, sug, sizeof(sug)), PLACEMENTS);
}

int plan_make(const struct topo *t, const char *pl, const struct role_req *r, int nr, struct plan *p, char *err)
{
	memset(p, 0, sizeof(*p));
	p->roles = r;
	p->nroles = nr;
	if (total_threads(r, nr) > PLAN_MAX) { /* name each role's share: the limit is on their sum */
		char share[200] = "";
		for (int i = 0, k = 0; i < nr && k < (int)sizeof(share); i++)
			k += snprintf(share + k, sizeof(share) - (size_t)k, "%s%d %s%s", i ? ", " : "", r[i].count, r[i].name, r[i].count == 1 ? "" : "s");
		return err_set(err, "%d threads requested (%s); accepted: at most %d threads in all", total_threads(r, nr), share, PLAN_MAX);
	}
	if (!strcmp(pl, "auto"))
		pl = resolve_auto(t, nr, p);
	snprintf(p->used, sizeof(p->used), "%s", pl);
	if (!strncmp(pl, "cpus:", 5))
		return place_cpus(p, t, pl + 5, r, nr, err);
	const struct pu **list = xcalloc((size_t)t->npus + 1, sizeof(*list));
	int rc = place_named(p, t, pl, list, r, nr, err);
	free(list);
	return rc;
}

static int first_node_of_role(const struct plan *p, int role)
{
	for (int i = 0; i < p->n; i++)
		if (p->slot[i].role == role)
			return p->slot[i].node;
	return -1;
}

int plan_mem_node(const struct topo *t, struct plan *p, const char *spec, char *err)
{
	long n;
	if (!strcmp(spec, "writer") || !strcmp(spec, "reader")) {
		int role = spec[0] == 'w' ? 0 : 1;
		p->mem_node = role < p->nroles ? first_node_of_role(p, role) : -1;
		if (p->mem_node < 0)
			return err_set(err, "--mem-node %s: the run has no %s thread; accepted: a NUMA node number or a role that has threads", spec, spec);
		return 0;
	}
	if (parse_long_in(spec, 0, INT_MAX, &n) || !hwloc_get_numanode_obj_by_os_index(t->h, (unsigned)n)) /* 2^32 must not wrap to 0 */
		return err_set(err, "--mem-node: '%s' is not accepted; accepted: writer, reader or a NUMA node of %s (0-%d)", spec, t->source, t->nnodes - 1);
	p->mem_node = (int)n;
	return 0;
}

void plan_cpus(const struct plan *p, int role, char *buf, size_t n)
{
	size_t off = 0;
	buf[0] = 0;
	for (int i = 0; i < p->n && off < n; i++)
		if (role < 0 || p->slot[i].role == role)
			off += (size_t)snprintf(buf + off, n - off, "%s%d", off ? " " : "", p->slot[i].os);
}

void plan_print(const struct plan *p, const struct topo *t, FILE *f)
{
	fprintf(f, "placement %s on %s; memory on NUMA node %d%s%s\n", p->used, t->source, p->mem_node, p->auto_why[0] ? "; " : "", p->auto_why);
	fprintf(f, "%-10s %-4s %-6s %-8s %-6s %-4s %s\n", "role", "#", "P#", "package", "core", "smt", "node");
	for (int i = 0; i < p->n; i++) {
		const struct slot *s = &p->slot[i];
		fprintf(f, "%-10s %-4d %-6d %-8d %-6d %-4d %d\n", p->roles[s->role].name, s->idx, s->os, s->pkg, s->core, s->smt, s->node);
	}
}

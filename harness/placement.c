#include "harness/placement.h"
#include "lib/suggest.h"
#include "harness/cpucheck.h"
#include "lib/util.h"
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

#define PKG_ANY INT_MIN

/* The home package: the first real package with an allowed PU; -1 (the PUs outside any package)
 * when no package has one. */
static int home_pkg(const struct topo *t)
{
	for (int i = 0; i < t->npus; i++)
		if (t->pu[i].allowed && t->pu[i].pkg >= 0)
			return t->pu[i].pkg;
	return -1;
}

/* The real packages holding an allowed PU, in order; first and second get the first two (-1). */
static int allowed_packages(const struct topo *t, int *first, int *second)
{
	int n = 0, *seen = xcalloc((size_t)t->npackages + 1, sizeof(int));
	*first = *second = -1;
	for (int i = 0; i < t->npus; i++) {
		int k = t->pu[i].pkg;
		if (!t->pu[i].allowed || k < 0 || k >= t->npackages || seen[k]++)
			continue;
		if (n == 0)
			*first = k;
		else if (n == 1)
			*second = k;
		n++;
	}
	free(seen);
	return n;
}

/* "package 1" or "the PUs outside any package", for messages. */
static const char *pkg_name(int pkg, char *b, size_t n)
{
	if (pkg < 0)
		snprintf(b, n, "the PUs outside any package");
	else
		snprintf(b, n, "package %d", pkg);
	return b;
}

/* First allowed PU of each core in package pkg (PKG_ANY: any), in order; out has room for t->npus.
 */
static int cores_of(const struct topo *t, int pkg, const struct pu **out)
{
	int n = 0, last = -1;
	for (int i = 0; i < t->npus; i++) {
		const struct pu *u = &t->pu[i];
		if (!u->allowed || (pkg != PKG_ANY && u->pkg != pkg) || u->core == last)
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

static int too_few(char *err, const char *pol, int need, int have, const char *what,
		   const struct topo *t)
{
	char pus[200];
	topo_pu_list(t, pus, sizeof(pus));
	return err_set(err, "placement %s needs %d %s but %s has %d (%s: PUs %s)", pol, need, what,
		       t->source, have, t->allowed_what, pus);
}

static int place_list(struct plan *p, const struct pu **list, int have, const struct role_req *r,
		      int nr, const char *pol, const char *what, const struct topo *t, char *err)
{
	int role[PLAN_MAX], idx[PLAN_MAX], need = total_threads(r, nr);
	if (need > have)
		return too_few(err, pol, need, have, what, t);
	interleave(r, nr, role, idx);
	for (int k = 0; k < need; k++)
		put(p, list[k], role[k], idx[k]);
	return 0;
}

static int place_cross(struct plan *p, const struct topo *t, const struct role_req *r, int nr,
		       char *err)
{
	int a, b, npk = allowed_packages(t, &a, &b);
	if (npk < 2)
		return err_set(err,
			       "placement cross-socket needs allowed cores on 2 packages but %s "
			       "has them on %d of its %d "
			       "package(s) (%s); use same-socket, smt or cpus:LIST",
			       t->source, npk, t->npackages, t->allowed_what);
	const struct pu **c0 = xcalloc((size_t)t->npus + 1, sizeof(*c0)),
			**c1 = xcalloc((size_t)t->npus + 1, sizeof(*c1));
	int n0 = cores_of(t, a, c0), n1 = cores_of(t, b, c1), second = total_threads(r + 1, nr - 1),
	    rc = 0;
	if (r[0].count > n0)
		rc = err_set(err,
			     "placement cross-socket puts %d %s(s) on package %d, which has %d "
			     "allowed cores",
			     r[0].count, r[0].name, a, n0);
	else if (second > n1)
		rc = err_set(err,
			     "placement cross-socket puts %d threads on package %d, which has %d "
			     "allowed cores",
			     second, b, n1);
	for (int j = 0; !rc && j < r[0].count; j++)
		put(p, c0[j], 0, j);
	for (int i = 1, k = 0; !rc && i < nr; i++)
		for (int j = 0; j < r[i].count; j++)
			put(p, c1[k++], i, j);
	free(c0);
	free(c1);
	return rc;
}

/* Cores ordered package 0, package 1, ..., the PUs outside any package, package 0, ...: threads as
 * far apart as the machine allows. out has room for t->npus entries; the per-package cursors are
 * sized by the machine, not fixed (slot 0: outside any package, slot k + 1: package k). */
static int spread_order(const struct topo *t, const struct pu **out)
{
	const struct pu **all = xcalloc((size_t)t->npus + 1, sizeof(*all));
	int na = cores_of(t, PKG_ANY, all), np = t->npackages + 1, n = 0;
	int *next = xcalloc((size_t)np, sizeof(int)); /* per package: index into all of its next */
#define SLOT(u) ((u)->pkg < 0 || (u)->pkg >= np - 1 ? 0 : (u)->pkg + 1)
	for (int pk = 0; pk < np; pk++)
		next[pk] = -1;
	for (int i = na - 1; i >= 0; i--) /* first core of each package */
		next[SLOT(all[i])] = i;
	while (n < na)
		for (int q = 1; q <= np; q++) { /* packages first, then the PUs outside any */
			int pk = q % np, i = next[pk];
			if (i < 0)
				continue;
			out[n++] = all[i];
			while (++i < na && SLOT(all[i]) != pk)
				;
			next[pk] = i < na ? i : -1;
		}
#undef SLOT
	free(next);
	free(all);
	return n;
}

/* cpus:LIST in the order written: the first CPUs go to the writers, then the readers (cpus:1,0 puts
 * the writer on CPU 1). The strict CPU-list grammar (lib/parse.h) refuses negatives and
 * duplicates. */
static int place_cpus(struct plan *p, const struct topo *t, const char *list,
		      const struct role_req *r, int nr, char *err)
{
	int need = total_threads(r, nr), *cpus = xcalloc(PLAN_MAX + 1, sizeof(int)), rc = 0;
	char why[120], pus[200];
	int have = parse_cpulist(list, cpus, PLAN_MAX + 1, why, sizeof(why));
	topo_pu_list(t, pus, sizeof(pus));
	if (have < 0)
		rc = err_set(err,
			     "placement cpus:'%s' is not accepted (%s); accepted: OS CPU numbers "
			     "of %s's allowed PUs (%s), one per thread, e.g. cpus:0,2 or cpus:0-3",
			     list, why, t->source, pus);
	else if (have != need)
		rc = err_set(err,
			     "placement cpus:%s gives %d CPUs but the run has %d threads; give "
			     "exactly one CPU per thread",
			     list, have, need);
	for (int k = 0; !rc && k < have; k++) {
		const struct pu *u = topo_pu(t, cpus[k]);
		char why2[300];
		/* hwloc lists no offline CPU: say which */
		if (!u && !t->foreign && cpu_unusable(SYSFS_CPU, cpus[k], why2, sizeof(why2)))
			rc = err_set(err, "placement cpus:%s: %s", list, why2);
		else if (!u)
			rc = err_set(err,
				     "placement cpus:%s: CPU %d does not exist on %s (its allowed "
				     "PUs: %s)",
				     list, cpus[k], t->source, pus);
		else if (!u->allowed)
			rc = err_set(err,
				     "placement cpus:%s: CPU %d is outside %s (allowed PUs: %s)",
				     list, cpus[k], t->allowed_what, pus);
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

/* First allowed PU of each core of package pkg under LLC llc (llc < -1: the LLCs other than
 * -2-llc). */
static int cores_under_llc(const struct topo *t, int pkg, int llc, const struct pu **out)
{
	int n = 0, last = -1;
	for (int i = 0; i < t->npus; i++) {
		const struct pu *u = &t->pu[i];
		int match = llc >= -1 ? u->llc == llc : u->llc != -2 - llc;
		if (!u->allowed || u->pkg != pkg || u->core == last || !match)
			continue;
		last = u->core;
		out[n++] = u;
	}
	return n;
}

/* The LLCs of package pkg that hold an allowed core. */
static int llcs_of_package(const struct topo *t, int pkg, int *first)
{
	int n = 0, seen[64];
	*first = -1;
	for (int i = 0; i < t->npus; i++) {
		const struct pu *u = &t->pu[i];
		int k;
		if (!u->allowed || u->pkg != pkg || u->llc < 0)
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

/* same-llc: every thread under the first LLC of the home package; cross-llc: writers under it, the
 * other roles under the package's other LLCs (AMD: another CCX, which the Zen 3+ stand-in sees). */
static int place_llc(struct plan *p, const struct topo *t, const char *pl, const struct pu **list,
		     const struct role_req *r, int nr, char *err)
{
	int home = home_pkg(t), first, nllc = llcs_of_package(t, home, &first);
	char pk[64], what[160];
	pkg_name(home, pk, sizeof(pk));
	if (nllc < 1)
		return err_set(
			err,
			"placement %s needs a last-level cache over allowed cores but %s has no L3 "
			"or L2 cache objects over %s; use same-socket or cpus:LIST",
			pl, t->source, pk);
	if (!strcmp(pl, "same-llc")) {
		snprintf(what, sizeof(what), "allowed cores under the first last-level cache of %s",
			 pk);
		return place_list(p, list, cores_under_llc(t, home, first, list), r, nr, pl, what,
				  t, err);
	}
	if (nr < 2)
		return err_set(err, "placement cross-llc needs two roles (writers and readers)");
	if (nllc < 2)
		return err_set(err,
			       "placement cross-llc needs 2 last-level caches over allowed cores "
			       "of %s but %s has %d; use same-llc, same-socket or cpus:LIST",
			       pk, t->source, nllc);
	int n0 = cores_under_llc(t, home, first, list), second = total_threads(r + 1, nr - 1);
	if (r[0].count > n0)
		return err_set(err,
			       "placement cross-llc puts %d %s(s) under the first last-level cache "
			       "of %s, which has %d allowed cores",
			       r[0].count, r[0].name, pk, n0);
	for (int j = 0; j < r[0].count; j++)
		put(p, list[j], 0, j);
	int n1 = cores_under_llc(t, home, -2 - first, list);
	if (second > n1)
		return err_set(err,
			       "placement cross-llc puts %d threads under the other last-level "
			       "caches of %s, which have %d allowed cores",
			       second, pk, n1);
	for (int i = 1, k = 0; i < nr; i++)
		for (int j = 0; j < r[i].count; j++)
			put(p, list[k++], i, j);
	return 0;
}

/* auto on the allowed set: cross-socket where 2+ packages hold allowed cores; cross-llc where the
 * target's HITM stand-in sees only another LLC's lines and the home package has two; else
 * same-socket. The plan says why. */
static const char *resolve_auto(const struct topo *t, int nr, struct plan *p)
{
	int a, b, npk = allowed_packages(t, &a, &b), home = home_pkg(t), first,
		  nllc = llcs_of_package(t, home, &first);
	char pk[64];
	pkg_name(home, pk, sizeof(pk));
	if (npk >= 2 && nr >= 2) {
		snprintf(p->auto_why, sizeof(p->auto_why),
			 "auto: cross-socket (%d packages have allowed cores: %d and %d used)", npk,
			 a, b);
		return "cross-socket";
	}
	if (t->auto_cross_llc && nr >= 2 && nllc >= 2) {
		snprintf(p->auto_why, sizeof(p->auto_why), "auto: cross-llc in %s (%.150s)", pk,
			 t->auto_why);
		return "cross-llc";
	}
	if (t->auto_cross_llc && nr >= 2)
		snprintf(p->auto_why, sizeof(p->auto_why),
			 "auto: same-socket in %s (it has %d LLC over allowed cores but %.100s: "
			 "the stand-in cannot see this run)",
			 pk, nllc, t->auto_why);
	else if (t->npackages >= 2 && nr >= 2)
		snprintf(p->auto_why, sizeof(p->auto_why),
			 "auto: same-socket in %s (the only one of %d packages with allowed "
			 "cores%s%.120s)",
			 pk, t->npackages, t->auto_why[0] ? "; " : "", t->auto_why);
	else
		snprintf(p->auto_why, sizeof(p->auto_why),
			 "auto: same-socket in %s (one package%s%.120s)", pk,
			 t->auto_why[0] ? "; " : "", t->auto_why);
	return "same-socket";
}

/* The placements' planners: each fills p for the roles r from t; arg is what follows "cpus:", list
 * has room for every PU of the machine. */
static int place_smt(struct plan *p, const struct topo *t, const char *arg, const struct pu **list,
		     const struct role_req *r, int nr, char *err)
{
	(void)arg;
	if (t->pus_per_core < 2)
		return err_set(err,
			       "placement smt needs cores with 2 or more PUs (SMT) but %s "
			       "has %d PU per core%s",
			       t->source, t->pus_per_core,
			       t->ncores && hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_CORE)
				       ? ""
				       : " (no core objects)");
	return place_list(p, list, pus_of(t, 1, list), r, nr, "smt", "PUs on SMT cores", t, err);
}

static int place_compact(struct plan *p, const struct topo *t, const char *arg,
			 const struct pu **list, const struct role_req *r, int nr, char *err)
{
	(void)arg;
	return place_list(p, list, pus_of(t, 0, list), r, nr, "compact", "allowed PUs", t, err);
}

static int place_same_socket(struct plan *p, const struct topo *t, const char *arg,
			     const struct pu **list, const struct role_req *r, int nr, char *err)
{
	char pk[64], what[120];
	int home = home_pkg(t);
	(void)arg;
	snprintf(what, sizeof(what), "allowed cores on %s", pkg_name(home, pk, sizeof(pk)));
	return place_list(p, list, cores_of(t, home, list), r, nr, "same-socket", what, t, err);
}

static int place_spread(struct plan *p, const struct topo *t, const char *arg,
			const struct pu **list, const struct role_req *r, int nr, char *err)
{
	(void)arg;
	return place_list(p, list, spread_order(t, list), r, nr, "spread", "allowed cores", t,
			  err);
}

static int place_same_llc(struct plan *p, const struct topo *t, const char *arg,
			  const struct pu **list, const struct role_req *r, int nr, char *err)
{
	(void)arg;
	return place_llc(p, t, "same-llc", list, r, nr, err);
}

static int place_cross_llc(struct plan *p, const struct topo *t, const char *arg,
			   const struct pu **list, const struct role_req *r, int nr, char *err)
{
	(void)arg;
	return place_llc(p, t, "cross-llc", list, r, nr, err);
}

static int place_cross_socket(struct plan *p, const struct topo *t, const char *arg,
			      const struct pu **list, const struct role_req *r, int nr, char *err)
{
	(void)arg;
	(void)list;
	if (nr < 2)
		return err_set(err, "placement cross-socket needs two roles (writers and readers)");
	return place_cross(p, t, r, nr, err);
}

static int place_cpu_list(struct plan *p, const struct topo *t, const char *arg,
			  const struct pu **list, const struct role_req *r, int nr, char *err)
{
	(void)list;
	return place_cpus(p, t, arg, r, nr, err);
}

/* auto: the placement resolve_auto picks, planned; p->used names it. */
static int place_auto(struct plan *p, const struct topo *t, const char *arg,
		      const struct pu **list, const struct role_req *r, int nr, char *err)
{
	const char *pl = resolve_auto(t, nr, p);
	snprintf(p->used, sizeof(p->used), "%s", pl);
	return placement_find(pl, &arg)->plan(p, t, arg, list, r, nr, err);
}

/* The placements: list, --help (placement_help), the man page and the completions are made from
 * this table, and plan_make plans through it. */
const struct placement_def placement_defs[] = {
	{ "auto",
	  "on the allowed set: cross-socket where 2+ packages have allowed cores; cross-llc in the "
	  "home package where the target CPU's HITM stand-in only sees another LLC (AMD Zen 3+); "
	  "else same-socket; on a hybrid part every thread on one CPU kind, the most performant "
	  "with room",
	  place_auto },
	{ "smt", "writer and reader on sibling PUs of one core", place_smt },
	{ "same-llc",
	  "every thread on distinct cores under the first last-level cache (L3, else L2) of the "
	  "home package",
	  place_same_llc },
	{ "cross-llc",
	  "writers under the home package's first last-level cache, the other roles under its "
	  "other ones",
	  place_cross_llc },
	{ "same-socket", "distinct cores of the home package (the first with allowed cores)",
	  place_same_socket },
	{ "cross-socket",
	  "writers on the first package with allowed cores, the other roles on the second",
	  place_cross_socket },
	{ "spread",
	  "distinct cores, alternating packages (PUs outside any package count as one more)",
	  place_spread },
	{ "compact", "allowed PUs in order, filling each core first", place_compact },
	{ "cpus:LIST", "explicit OS CPU numbers, writers first", place_cpu_list },
	{ NULL, NULL, NULL },
};

const struct placement_def *placement_find(const char *pl, const char **arg)
{
	for (const struct placement_def *d = placement_defs; d->name; d++) {
		/* "cpus:LIST": "cpus:" and its argument */
		const char *colon = strchr(d->name, ':');
		size_t n = colon ? (size_t)(colon - d->name) + 1 : strlen(d->name) + 1;
		if (!strncmp(pl, d->name, n)) {
			*arg = colon ? pl + n : NULL;
			return d;
		}
	}
	return NULL;
}

const char *placement_names(void)
{
	static char names[256];
	if (!names[0])
		for (const struct placement_def *d = placement_defs; d->name; d++)
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? "," : "", d->name);
	return names;
}

void placement_help(char *buf, size_t n, const char *auto_is, const char *why)
{
	int k = snprintf(buf, n, "thread placement (c2cbench list says what each does):");
	for (const struct placement_def *d = placement_defs; d->name && k > 0 && (size_t)k < n;
	     d++)
		k += snprintf(buf + k, n - (size_t)k, " %s%s", d->name, d[1].name ? "," : "");
	if (k > 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, " (auto: %s%s%s)",
			 auto_is ? auto_is : placement_defs[0].desc, auto_is ? ", " : "",
			 auto_is && why ? why : "");
}

/* Plan pl on t, or on the PUs of kind only (kind >= 0: auto keeps writer and reader on one kind).
 */
static int plan_on(const struct topo *t, int kind, const char *pl, const struct role_req *r, int nr,
		   struct plan *p, char *err)
{
	const char *arg;
	const struct placement_def *d = placement_find(pl, &arg);
	char sug[128];
	if (!d)
		return err_accepted(err, placement_names(), "those `c2cbench list` names",
				    "--placement: '%s' is not accepted%s", pl,
				    suggest_list(pl, placement_names(), sug, sizeof(sug)));
	struct topo k = *t;
	if (kind >= 0) {
		k.pu = xcalloc((size_t)t->npus + 1, sizeof(*k.pu));
		for (int i = 0; i < t->npus; i++) {
			k.pu[i] = t->pu[i];
			k.pu[i].allowed &= t->pu[i].kind == kind;
		}
	}
	snprintf(p->used, sizeof(p->used), "%s", pl);
	const struct pu **list = xcalloc((size_t)t->npus + 1, sizeof(*list));
	int rc = d->plan(p, &k, arg, list, r, nr, err);
	free(list);
	if (kind >= 0)
		free(k.pu);
	return rc;
}

/* auto on a hybrid part: the most performant kind that can hold the plan (hwloc ranks kinds from
 * the most power-efficient up), else every kind, said in auto_why. */
static int plan_auto_kinds(const struct topo *t, const struct role_req *r, int nr, struct plan *p,
			   char *err)
{
	char why[ERRLEN];
	for (int k = t->nkinds - 1; k >= 0; k--) {
		memset(p->slot, 0, sizeof(p->slot));
		p->n = 0;
		if (!plan_on(t, k, "auto", r, nr, p, why)) {
			size_t n = strlen(p->auto_why);
			snprintf(p->auto_why + n, sizeof(p->auto_why) - n,
				 "; every thread on %s PUs (%s)", t->kind_name[k],
				 k == t->nkinds - 1 ? "the topology's most performant kind"
						    : "no faster kind has room");
			return 0;
		}
	}
	p->n = 0;
	int rc = plan_on(t, -1, "auto", r, nr, p, err);
	size_t n = strlen(p->auto_why);
	if (!rc)
		snprintf(p->auto_why + n, sizeof(p->auto_why) - n,
			 "; mixes CPU kinds: no one kind has room for every thread");
	return rc;
}

int plan_make(const struct topo *t, const char *pl, const struct role_req *r, int nr,
	      struct plan *p, char *err)
{
	memset(p, 0, sizeof(*p));
	p->roles = r;
	p->nroles = nr;
	if (total_threads(r, nr) >
	    PLAN_MAX) { /* name each role's share: the limit is on their sum */
		char share[200] = "";
		for (int i = 0, k = 0; i < nr && k < (int)sizeof(share); i++)
			k += snprintf(share + k, sizeof(share) - (size_t)k, "%s%d %s%s",
				      i ? ", " : "", r[i].count, r[i].name,
				      r[i].count == 1 ? "" : "s");
		return err_set(err,
			       "%d threads requested (%s); accepted: at most %d threads in all",
			       total_threads(r, nr), share, PLAN_MAX);
	}
	int rc = !strcmp(pl, "auto") && t->nkinds > 1 ? plan_auto_kinds(t, r, nr, p, err)
						      : plan_on(t, -1, pl, r, nr, p, err);
	p->mem_node =
	    p->n ? p->slot[0].node : -1; /* --mem-node writer until plan_mem_node says otherwise */
	return rc;
}

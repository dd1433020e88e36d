/* Plans on the odd and restricted machines of tests/data/topo/ (cgroup-restricted, memory-only and
 * memory-less nodes, hybrid with two cpukinds, two PUs without caches or cores, PUs outside any
 * package with sparse node numbers), each placement and pingpong pair class judged against the
 * XML's own objects: the test reads the XML's tags itself and never asks the planner what to
 * expect. Then the caps and refusals on hostile XMLs and synthetic descriptions. */
#include "benches/pingpong/places.h"
#include "harness/placement.h"
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include <ctype.h>
#include <string.h>

#define DIR "tests/data/topo/"
#define MAXPU 64
#define MAXNODE 16

/* What the XML says, read from its tags. */
struct xpu {
	/* pkg: the Package's gp_index (-1: none); core, llc: gp_index or -1; node: the nearest
	 * ancestor's memory child that may be used */
	int os, pkg, core, llc, kind;
	int allowed, node;
};
struct xml {
	int npu, nnode, nkind;
	struct xpu pu[MAXPU];
	int node_os[MAXNODE], node_ok[MAXNODE]; /* allowed and with memory */
	char kind_name[4][32];
	int kind_eff[4];
};

static const char *attr(const char *tag, const char *name, char *out, size_t n)
{
	char key[40];
	snprintf(key, sizeof(key), " %s=\"", name);
	const char *end = strchr(tag, '>'), *a = strstr(tag, key);
	if (!a || a > end)
		return NULL;
	a += strlen(key);
	size_t len = (size_t)(strchr(a, '"') - a);
	snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), a);
	return out;
}

static int attr_int(const char *tag, const char *name, int dflt)
{
	char v[64];
	return attr(tag, name, v, sizeof(v)) ? atoi(v) : dflt;
}

/* Is bit i set in an hwloc bitmap string ("0x000000f0", words most significant first)? */
static int bit(const char *bm, int i)
{
	int words = 1;
	for (const char *s = bm; *s; s++)
		words += *s == ',';
	int w = words - 1 - i / 32;
	const char *s = bm;
	for (int k = 0; k < w; k++)
		s = strchr(s, ',') + 1;
	return (int)((strtoul(s, NULL, 16) >> (i % 32)) & 1);
}

static void xml_read(const char *path, struct xml *x)
{
	char *s = slurp(path), ncpu[300] = "", nmem[300] = "", v[300];
	assert_non_null(s);
	memset(x, 0, sizeof(*x));
	/* the open objects: type, gp_index, and the node of their memory children that may be
	 * used */
	char type[32][16];
	int gp[32], mem[32], depth = 0;
	for (char *p = strchr(s, '<'); p; p = strchr(p + 1, '<')) {
		if (!strncmp(p, "</object", 8)) {
			depth--;
			continue;
		}
		if (!strncmp(p, "<cpukind", 8)) {
			int k = x->nkind++;
			attr(p, "cpuset", v, sizeof(v));
			x->kind_eff[k] = attr_int(p, "forced_efficiency", 0);
			attr(strstr(p, "<info"), "value", x->kind_name[k], sizeof(x->kind_name[k]));
			for (int i = 0; i < x->npu; i++)
				if (bit(v, x->pu[i].os))
					x->pu[i].kind = k;
			continue;
		}
		if (strncmp(p, "<object ", 8))
			continue;
		char *end = strchr(p, '>');
		attr(p, "type", type[depth], sizeof(type[depth]));
		gp[depth] = attr_int(p, "gp_index", -1);
		mem[depth] = -1;
		if (depth == 0) {
			attr(p, "allowed_cpuset", ncpu, sizeof(ncpu));
			attr(p, "allowed_nodeset", nmem, sizeof(nmem));
		}
		if (!strcmp(type[depth], "NUMANode")) {
			int os = attr_int(p, "os_index", -1), k = x->nnode++;
			x->node_os[k] = os;
			x->node_ok[k] = bit(nmem, os) && attr(p, "local_memory", v, sizeof(v)) &&
					strtoull(v, NULL, 10) > 0;
			if (x->node_ok[k] && mem[depth - 1] < 0)
				mem[depth - 1] = os;
		} else if (!strcmp(type[depth], "PU")) {
			struct xpu *u = &x->pu[x->npu++];
			*u = (struct xpu){attr_int(p, "os_index", -1), -1, -1, -1, -1, 0, -1};
			u->allowed = bit(ncpu, u->os);
			for (int d = depth - 1; d >= 0; d--) {
				if (!strcmp(type[d], "Package") && u->pkg < 0)
					u->pkg = gp[d];
				if (!strcmp(type[d], "Core") && u->core < 0)
					u->core = gp[d];
				if (!strcmp(type[d], "L3Cache") ||
				    (!strcmp(type[d], "L2Cache") && u->llc < 0))
					u->llc = gp[d];
				if (mem[d] >= 0 && u->node < 0)
					u->node = mem[d];
			}
			if (u->core <
			    0) /* no Core objects: each PU is its own core, as topo_load counts */
				u->core = 100000 + u->os;
		}
		if (end[-1] != '/')
			depth++;
	}
	for (int i = 0; i < x->npu; i++) /* no usable node above it: any node that may be used */
		for (int k = 0; k < x->nnode && x->pu[i].node < 0; k++)
			if (x->node_ok[k])
				x->pu[i].node = x->node_os[k];
	free(s);
}

static const struct xpu *xpu(const struct xml *x, int os)
{
	for (int i = 0; i < x->npu; i++)
		if (x->pu[i].os == os)
			return &x->pu[i];
	fail_msg("P#%d is not in the XML", os);
	return NULL;
}

/* Distinct values of field (an offset into struct xpu) among allowed PUs with pkg == pkg and
 * llc == llc (any: -2). */
static int distinct(const struct xml *x, size_t field, int pkg, int llc)
{
	int seen[MAXPU], n = 0;
	for (int i = 0; i < x->npu; i++) {
		const struct xpu *u = &x->pu[i];
		int v = *(const int *)((const char *)u + field), k;
		if (!u->allowed || (pkg != -2 && u->pkg != pkg) || (llc != -2 && u->llc != llc))
			continue;
		for (k = 0; k < n && seen[k] != v; k++)
			;
		if (k == n)
			seen[n++] = v;
	}
	return n;
}

/* The home package: the first package holding an allowed PU, else -1 (the PUs outside any). */
static int home(const struct xml *x)
{
	for (int i = 0; i < x->npu; i++)
		if (x->pu[i].allowed && x->pu[i].pkg >= 0)
			return x->pu[i].pkg;
	return -1;
}

static int first_llc(const struct xml *x, int pkg)
{
	for (int i = 0; i < x->npu; i++)
		if (x->pu[i].allowed && x->pu[i].pkg == pkg && x->pu[i].llc >= 0)
			return x->pu[i].llc;
	return -1;
}

static int possible(const struct xml *x, const char *pl)
{
	int h = home(x), l = first_llc(x, h);
	if (!strcmp(pl, "smt")) {
		for (int i = 0; i < x->npu; i++)
			for (int j = i + 1; j < x->npu; j++)
				if (x->pu[i].allowed && x->pu[j].allowed &&
				    x->pu[i].core == x->pu[j].core)
					return 1;
		return 0;
	}
	if (!strcmp(pl, "same-llc"))
		return l >= 0 && distinct(x, offsetof(struct xpu, core), h, l) >= 2;
	if (!strcmp(pl, "cross-llc"))
		return l >= 0 &&
		       distinct(x, offsetof(struct xpu, llc), h, -2) -
				       (distinct(x, offsetof(struct xpu, llc), h, -1) > 0) >=
			       2;
	if (!strcmp(pl, "same-socket"))
		return distinct(x, offsetof(struct xpu, core), h, -2) >= 2;
	if (!strcmp(pl, "cross-socket")) {
		int n = distinct(x, offsetof(struct xpu, pkg), -2, -2);
		return n - (distinct(x, offsetof(struct xpu, pkg), -1, -2) > 0) >= 2;
	}
	return distinct(x, offsetof(struct xpu, os), -2, -2) >= 2; /* auto, spread, compact */
}

/* Writer a and reader b meet the placement's definition, read from the XML. */
static void meets(const struct xml *x, const char *pl, const struct xpu *a, const struct xpu *b)
{
	int h = home(x);
	assert_int_not_equal(a->os, b->os);
	if (!strcmp(pl, "smt"))
		assert_int_equal(a->core, b->core);
	if (!strcmp(pl, "same-llc") || !strcmp(pl, "cross-llc") || !strcmp(pl, "same-socket")) {
		assert_int_equal(a->pkg, h);
		assert_int_equal(b->pkg, h);
		assert_int_not_equal(a->core, b->core);
	}
	if (!strcmp(pl, "same-llc"))
		assert_true(a->llc >= 0 && a->llc == b->llc);
	if (!strcmp(pl, "cross-llc"))
		assert_true(a->llc >= 0 && b->llc >= 0 && a->llc != b->llc);
	if (!strcmp(pl, "cross-socket"))
		assert_true(a->pkg >= 0 && b->pkg >= 0 && a->pkg != b->pkg);
	if (!strcmp(pl, "spread")) {
		assert_int_not_equal(a->core, b->core);
		if (distinct(x, offsetof(struct xpu, pkg), -2, -2) >=
		    2) /* PUs outside any package: one more */
			assert_int_not_equal(a->pkg, b->pkg);
	}
}

static const char *const named[] = {"auto",	   "smt",	   "same-llc", "cross-llc",
				    "same-socket", "cross-socket", "spread",   "compact"};

static void every_placement(const char *file, struct xml *x, struct topo *t)
{
	char spec[200], err[ERRLEN];
	struct role_req wr[2] = {{"writer", 1}, {"reader", 1}};
	snprintf(spec, sizeof(spec), "xml:" DIR "%s", file);
	xml_read(spec + 4, x);
	err[0] = 0;
	assert_int_equal(topo_load(t, spec, err), 0);
	assert_int_equal(t->npus, x->npu);
	/* the topology as the planner reads it, against the XML */
	for (int i = 0; i < t->npus; i++) {
		const struct xpu *u = xpu(x, t->pu[i].os);
		assert_int_equal(t->pu[i].allowed, u->allowed);
		assert_int_equal(t->pu[i].pkg < 0, u->pkg < 0);
		assert_int_equal(t->pu[i].node, u->node);
		assert_string_equal(topo_kind_name(t, &t->pu[i]),
				    x->nkind ? x->kind_name[u->kind] : "-");
	}
	for (size_t k = 0; k < ARRAY_SIZE(named); k++) {
		struct plan *p = xcalloc(1, sizeof(*p));
		int rc = plan_make(t, named[k], wr, 2, p, err);
		print_message("%s %s: %s\n", file, named[k], rc ? err : p->used);
		if (!possible(x, named[k])) {
			assert_int_equal(rc, -1);
			/* names the placement, and the machine */
			assert_non_null(strstr(err, named[k]));
			assert_non_null(strstr(err, file));
			assert_null(strchr(err, '\n'));
			free(p);
			continue;
		}
		assert_int_equal(rc, 0);
		assert_int_equal(p->n, 2);
		const struct xpu *a = xpu(x, p->slot[0].os), *b = xpu(x, p->slot[1].os);
		assert_true(a->allowed && b->allowed);
		assert_int_equal(p->slot[0].node, a->node);
		assert_int_equal(p->slot[1].node, b->node);
		assert_int_equal(p->mem_node, a->node); /* --mem-node writer, the default */
		meets(x, strcmp(named[k], "auto") ? named[k] : p->used, a, b);
		if (!strcmp(named[k], "auto")) {
			assert_true(strlen(p->auto_why) > 10);
			if (x->nkind) { /* one kind, the most performant (highest efficiency) */
				int best = 0;
				for (int j = 1; j < x->nkind; j++)
					best = x->kind_eff[j] > x->kind_eff[best] ? j : best;
				assert_int_equal(a->kind, best);
				assert_int_equal(b->kind, best);
			}
		}
		free(p);
	}
}

/* --mem-node N for each node of the XML: accepted exactly when it is allowed and has memory; the
 * refusal lists the nodes that are, as the XML numbers them. */
static void mem_nodes(const struct xml *x, const struct topo *t)
{
	char list[200] = "", err[ERRLEN], n[16];
	struct role_req wr[2] = {{"writer", 1}, {"reader", 1}};
	struct plan *p = xcalloc(1, sizeof(*p));
	int ok[MAXNODE], nok = 0;
	for (int k = 0; k < x->nnode; k++)
		if (x->node_ok[k])
			ok[nok++] = x->node_os[k];
	for (int i = 0; i < nok;
	     i++) /* sorted by OS number, runs of 2+ as A-B (hwloc's list form) */
		for (int j = i + 1; j < nok; j++)
			if (ok[j] < ok[i]) {
				int tmp = ok[i];
				ok[i] = ok[j], ok[j] = tmp;
			}
	for (int i = 0; i < nok;) {
		int j = i;
		while (j + 1 < nok && ok[j + 1] == ok[j] + 1)
			j++;
		size_t l = strlen(list);
		snprintf(list + l, sizeof(list) - l, j > i ? "%s%d-%d" : "%s%d", l ? "," : "",
			 ok[i], ok[j]);
		i = j + 1;
	}
	assert_int_equal(plan_make(t, "compact", wr, 2, p, err), 0);
	for (int k = 0; k <= x->nnode; k++) {
		int os = k < x->nnode ? x->node_os[k] : 999;
		snprintf(n, sizeof(n), "%d", os);
		int rc = plan_mem_node(t, p, n, err);
		if (k < x->nnode && x->node_ok[k]) {
			assert_int_equal(rc, 0);
			assert_int_equal(p->mem_node, os);
			continue;
		}
		assert_int_equal(rc, -1);
		char want[240];
		snprintf(want, sizeof(want), "(%s)", list);
		print_message("--mem-node %d: %s\n", os, err);
		assert_non_null(strstr(err, want));
		assert_null(strchr(err, '\n'));
	}
	free(p);
}

/* pingpong's class of every pair, from the XML's tags: one core, one outermost cache, a PU
 * outside any Package (unknown-package), one Package, or two. The XMLs' packages have distinct
 * os_index values, so a Package object is a package. */
static void pair_classes(const struct xml *x, const struct topo *t)
{
	struct places pl;
	places_build(t, &pl);
	for (int i = 0; i < x->npu; i++)
		for (int j = 0; j < x->npu; j++) {
			const struct xpu *a = &x->pu[i], *b = &x->pu[j];
			if (i == j)
				continue;
			enum pair_class want =
				a->core == b->core		  ? PC_SMT
				: a->llc >= 0 && a->llc == b->llc ? PC_SAME_LLC
				: a->pkg < 0 || b->pkg < 0	  ? PC_UNKNOWN_PACKAGE
				: a->pkg == b->pkg		  ? PC_SAME_PACKAGE
								  : PC_CROSS_PACKAGE;
			assert_string_equal(pair_class_name(pair_classify(t, a->os, b->os)),
					    pair_class_name(want));
			assert_int_equal(places_classify(&pl, a->os, b->os), want);
		}
	places_free(&pl);
}

#define XML_TEST(name, file)                            \
	static void name(void **s)                      \
	{                                               \
		(void)s;                                \
		struct xml *x = xcalloc(1, sizeof(*x)); \
		struct topo t;                          \
		every_placement(file, x, &t);           \
		mem_nodes(x, &t);                       \
		pair_classes(x, &t);                    \
		topo_free(&t);                          \
		free(x);                                \
	}
XML_TEST(cgroup_restricted, "cgroup-4pkg-amd.xml")
XML_TEST(memory_only_node, "memonly-node.xml")
XML_TEST(hybrid_two_kinds, "hybrid-2kinds.xml")
XML_TEST(two_pus_no_cache, "2pu-nocache.xml")
XML_TEST(outside_any_package, "nopkg-sparse-nodes.xml")

/* Messages describe the machine planned: its allowed set, its caches, its kinds. */
static void messages_describe_the_xml(void **s)
{
	(void)s;
	struct cmd_result *r = xcalloc(1, sizeof(*r));
	run_c2c(r, "run", "pending-bit", "--dry-run", "--topology",
		"xml:" DIR "cgroup-4pkg-amd.xml", "--placement", "cpus:0,1", NULL);
	assert_int_equal(r->status, 2);
	assert_non_null(strstr(r->err, "outside the topology's allowed set"));
	assert_non_null(strstr(r->err, "4-7")); /* the XML's allowed_cpuset 0xf0 */
	assert_null(strstr(r->err, "this process"));
	assert_int_equal(count_lines(r->err), 1);
	/* auto follows the XML's CPU (CPUVendor AuthenticAMD, family 25: Zen 3/4, whose stand-in
	 * sees only another L3), not this host's PMU nor --pmu; inside the cgroup's one package */
	run_c2c(r, "run", "pending-bit", "--dry-run", "--topology",
		"xml:" DIR "cgroup-4pkg-amd.xml", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "placement cross-llc on "));
	assert_non_null(strstr(r->out, "from the topology's CPU"));
	/* the first allowed node with memory */
	assert_non_null(strstr(r->out, "memory on NUMA node 2;"));
	run_c2c(r, "run", "pending-bit", "--dry-run", "--topology", "xml:" DIR "hybrid-2kinds.xml",
		"--pmu", "amd64_fam19h_zen3", NULL);
	assert_int_equal(r->status, 0);
	/* GenuineIntel: no such stand-in */
	assert_non_null(strstr(r->out, "placement same-socket on "));
	assert_non_null(strstr(r->out, "GenuineIntel family 6 model 198"));
	run_c2c(r, "topo", "--topology", "xml:" DIR "nopkg-sparse-nodes.xml", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "outside any package (P# 4-7)"));
	/* the Group's L2s */
	assert_non_null(strstr(r->out, "L2 1 MiB    shared by 2 PU(s): P# 4-5"));
	assert_null(strstr(r->out, "none:"));
	assert_non_null(strstr(r->out, "memory nodes 0,33,72"));
	/* P#4 and P#6: outside any package, in two L2s: the plan claims no package for them */
	run_c2c(r, "run", "pingpong", "--dry-run", "--topology",
		"xml:" DIR "nopkg-sparse-nodes.xml", "--pairs", "all", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "\n4      6      unknown-package "));
	assert_non_null(strstr(r->out, "\n4      5      same-llc "));
	run_c2c(r, "topo", "--topology", "xml:" DIR "2pu-nocache.xml", NULL);
	assert_non_null(strstr(r->out, "none: xml:" DIR
				       "2pu-nocache.xml has no data or unified cache objects"));
	/* every pair of kinds among the allowed PUs of the hybrid XML is measured */
	run_c2c(r, "run", "pingpong", "--dry-run", "--topology", "xml:" DIR "hybrid-2kinds.xml",
		"--pairs", "classes", NULL);
	assert_int_equal(r->status, 0);
	struct xml *x = xcalloc(1, sizeof(*x));
	xml_read(DIR "hybrid-2kinds.xml", x);
	for (int a = 0; a < x->nkind; a++)
		for (int b = 0; b < x->nkind; b++) {
			char want[80];
			snprintf(want, sizeof(want), " %s-%s\n", x->kind_name[a], x->kind_name[b]);
			if (a <= b &&
			    x->kind_eff[a] >
				    x->kind_eff[b]) /* a pair's first PU comes first in the tree */
				continue;
			if (a != b && !strstr(r->out, want))
				snprintf(want, sizeof(want), " %s-%s\n", x->kind_name[b],
					 x->kind_name[a]);
			print_message("kinds %s", want);
			assert_non_null(strstr(r->out, want));
		}
	free(x);
	run_c2c(r, "list", NULL);
	for (const struct placement_def *d = placement_defs; d->name; d++) {
		char want[64];
		snprintf(want, sizeof(want), "placement  %-14s ", d->name);
		assert_non_null(strstr(r->out, want));
	}
	char names[200] = "";
	for (const struct placement_def *d = placement_defs; d->name; d++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 names[0] ? "," : "", d->name);
	/* one table: the accepted list is its names */
	assert_string_equal(names, placement_names());
	run_c2c(r, "run", "vmalloc", "--help", NULL);
	assert_non_null(strstr(r->out, "(auto: spread"));
	free(r);
}

static void write_file(const char *path, const char *head, const char *rep, int n, const char *mid,
		       const char *tail_rep, const char *tail)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(head, f);
	for (int i = 0; i < n; i++)
		fputs(rep, f);
	fputs(mid, f);
	for (int i = 0; i < n; i++)
		fputs(tail_rep, f);
	fputs(tail, f);
	assert_int_equal(fclose(f), 0);
}

/* Hostile topologies end in one line naming the cap, before hwloc reads them (issue #28). */
static void caps_and_hostile_xmls(void **s)
{
	(void)s;
	struct topo t;
	char err[ERRLEN], path[300], spec[320];
	char *dir = temp_dir();
	snprintf(path, sizeof(path), "%s/deep.xml", dir);
	write_file(path, "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n",
		   "<object type=\"Group\" cpuset=\"0x1\">", 20000,
		   "<object type=\"PU\" os_index=\"0\" cpuset=\"0x1\"/>", "</object>",
		   "</topology>\n");
	snprintf(spec, sizeof(spec), "xml:%s", path);
	err[0] = 0;
	assert_int_equal(topo_load(&t, spec, err), -1);
	assert_non_null(strstr(err, "more than 256 deep"));
	char *two = slurp(DIR "2pu-nocache.xml");
	assert_non_null(two);
	char *dup = strstr(two, "type=\"PU\" os_index=\"1\"");
	assert_non_null(dup);
	dup[strlen("type=\"PU\" os_index=\"")] = '0';
	snprintf(path, sizeof(path), "%s/dup.xml", dir);
	write_file(path, two, "", 0, "", "", "");
	snprintf(spec, sizeof(spec), "xml:%s", path);
	err[0] = 0;
	assert_int_equal(topo_load(&t, spec, err), -1);
	assert_non_null(strstr(err, "two PUs with os_index 0"));
	dup[strlen("type=\"PU\" os_index=\"")] = '1';
	char *v = strstr(two, "version=\"2.0\"");
	v[9] = '3';
	snprintf(path, sizeof(path), "%s/v3.xml", dir);
	write_file(path, two, "", 0, "", "", "");
	snprintf(spec, sizeof(spec), "xml:%s", path);
	err[0] = 0;
	if (topo_load(&t, spec, err) == 0) /* an hwloc that reads version 3 plans it */
		topo_free(&t);
	else if (!strstr(err, "this XML is newer than the installed hwloc"))
		fail_msg("%s", err);
	free(two);
	err[0] = 0;
	assert_int_equal(topo_load(&t, "synthetic:pack:1000000 pu:1000", err), -1);
	assert_non_null(strstr(err, "8192"));
	assert_null(strchr(err, '\n'));
	struct cmd_result *r = xcalloc(1, sizeof(*r));
	run_c2c(r, "preset", "quick", "--dry-run", "--topology", "xml:/nonexistent/topology.xml",
		NULL);
	assert_int_equal(r->status, 2);
	assert_int_equal(count_lines(r->err), 1);
	assert_non_null(strstr(r->err, "/nonexistent/topology.xml"));
	free(r);
	rm_rf(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cgroup_restricted),
		cmocka_unit_test(memory_only_node),
		cmocka_unit_test(hybrid_two_kinds),
		cmocka_unit_test(two_pus_no_cache),
		cmocka_unit_test(outside_any_package),
		cmocka_unit_test(messages_describe_the_xml),
		cmocka_unit_test(caps_and_hostile_xmls),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

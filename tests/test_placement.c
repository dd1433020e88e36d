/* Placement plans against foreign (synthetic) topologies: what a two-socket server would get. */
#include "tests/testutil.h"
#include "harness/placement.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

#define TWO_PKG "synthetic:pack:2 numa:1 core:8 pu:2"
#define ONE_PKG "synthetic:pack:1 numa:1 core:4 pu:1"

static struct role_req wr[2] = { { "writer", 1 }, { "reader", 1 } };

static void load(struct topo *t, const char *spec)
{
	char err[ERRLEN] = "";
	assert_int_equal(topo_load(t, spec, err), 0);
}

static void synthetic_shape(void **s)
{
	(void)s;
	struct topo t;
	load(&t, TWO_PKG);
	assert_int_equal(t.npackages, 2);
	assert_int_equal(t.ncores, 16);
	assert_int_equal(t.npus, 32);
	assert_int_equal(t.nnodes, 2);
	assert_int_equal(t.pus_per_core, 2);
	assert_true(t.foreign);
	topo_free(&t);
}

static void cross_socket_splits_roles(void **s)
{
	(void)s;
	struct topo t;
	struct plan p;
	char err[ERRLEN] = "";
	struct role_req r[2] = { { "writer", 3 }, { "reader", 2 } };
	load(&t, TWO_PKG);
	assert_int_equal(plan_make(&t, "cross-socket", r, 2, &p, err), 0);
	assert_int_equal(p.n, 5);
	for (int i = 0; i < p.n; i++) {
		assert_int_equal(p.slot[i].pkg, p.slot[i].role == 0 ? 0 : 1);
		for (int j = 0; j < i; j++)
			assert_int_not_equal(p.slot[i].core, p.slot[j].core);
	}
	assert_string_equal(p.used, "cross-socket");
	assert_int_equal(plan_make(&t, "auto", wr, 2, &p, err), 0);
	assert_string_equal(p.used, "cross-socket");
	assert_int_equal(plan_mem_node(&t, &p, "reader", err), 0);
	assert_int_equal(p.mem_node, 1);
	assert_int_equal(plan_mem_node(&t, &p, "writer", err), 0);
	assert_int_equal(p.mem_node, 0);
	topo_free(&t);
}

static void smt_uses_siblings(void **s)
{
	(void)s;
	struct topo t;
	struct plan p;
	char err[ERRLEN] = "";
	load(&t, TWO_PKG);
	assert_int_equal(plan_make(&t, "smt", wr, 2, &p, err), 0);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.slot[0].core, p.slot[1].core);
	assert_int_not_equal(p.slot[0].os, p.slot[1].os);
	assert_int_not_equal(p.slot[0].role, p.slot[1].role);
	topo_free(&t);
}

static void same_socket_and_spread(void **s)
{
	(void)s;
	struct topo t;
	struct plan p;
	char err[ERRLEN] = "";
	struct role_req r[2] = { { "writer", 2 }, { "reader", 2 } };
	load(&t, TWO_PKG);
	assert_int_equal(plan_make(&t, "same-socket", r, 2, &p, err), 0);
	for (int i = 0; i < p.n; i++)
		assert_int_equal(p.slot[i].pkg, 0);
	assert_int_equal(plan_make(&t, "spread", r, 2, &p, err), 0);
	assert_int_equal(p.slot[0].pkg, 0);
	assert_int_equal(p.slot[1].pkg, 1);
	assert_int_equal(plan_make(&t, "compact", r, 2, &p, err), 0);
	assert_int_equal(p.slot[0].core, p.slot[1].core);
	topo_free(&t);
}

static void one_package_refuses_cross_socket(void **s)
{
	(void)s;
	struct topo t;
	struct plan p;
	char err[ERRLEN] = "";
	load(&t, ONE_PKG);
	assert_int_equal(plan_make(&t, "cross-socket", wr, 2, &p, err), -1);
	assert_non_null(strstr(err, "needs allowed cores on 2 packages"));
	assert_non_null(strstr(err, "has them on 1"));
	assert_int_equal(plan_make(&t, "smt", wr, 2, &p, err), -1);
	assert_non_null(strstr(err, "SMT"));
	assert_int_equal(plan_make(&t, "auto", wr, 2, &p, err), 0);
	assert_string_equal(p.used, "same-socket");
	struct role_req many[2] = { { "writer", 3 }, { "reader", 2 } };
	assert_int_equal(plan_make(&t, "same-socket", many, 2, &p, err), -1);
	assert_non_null(strstr(err, "needs 5"));
	topo_free(&t);
}

static void explicit_cpus(void **s)
{
	(void)s;
	struct topo t;
	struct plan p;
	char err[ERRLEN] = "";
	load(&t, TWO_PKG);
	assert_int_equal(plan_make(&t, "cpus:3,17", wr, 2, &p, err), 0);
	assert_int_equal(p.slot[0].os, 3);
	assert_int_equal(p.slot[0].role, 0);
	assert_int_equal(p.slot[1].os, 17);
	assert_int_equal(p.slot[1].pkg, 1);
	assert_int_equal(plan_make(&t, "cpus:3,99", wr, 2, &p, err), -1);
	assert_non_null(strstr(err, "CPU 99 does not exist"));
	assert_int_equal(plan_make(&t, "cpus:3", wr, 2, &p, err), -1);
	assert_non_null(strstr(err, "gives 1 CPUs"));
	assert_int_equal(plan_make(&t, "cpus:x", wr, 2, &p, err), -1);
	assert_int_equal(plan_make(&t, "diagonal", wr, 2, &p, err), -1);
	assert_non_null(strstr(err, "accepted"));
	assert_int_equal(plan_mem_node(&t, &p, "7", err), -1);
	topo_free(&t);
}

/* Each PU in the plan once, and every slot a real PU of the topology. */
static void assert_distinct_pus(const struct topo *t, const struct plan *p)
{
	char *seen = calloc((size_t)t->npus + 1, 1);
	for (int i = 0; i < p->n; i++) {
		const struct pu *u = topo_pu(t, p->slot[i].os);
		assert_non_null(u);
		assert_int_equal(seen[u - t->pu], 0);
		seen[u - t->pu] = 1;
	}
	free(seen);
}

/* More cores than the old 1,024-entry stack lists (ASan caught the overflow): every list policy
 * plans. */
static void two_thousand_cores_one_package(void **s)
{
	(void)s;
	struct topo t;
	struct plan p;
	char err[ERRLEN] = "";
	struct role_req r[2] = { { "writer", 512 }, { "reader", 512 } };
	load(&t, "synthetic:pack:1 core:2000 pu:1");
	assert_int_equal(t.npus, 2000);
	const char *ok[] = { "compact", "spread", "same-socket", "auto" };
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		assert_int_equal(plan_make(&t, ok[i], r, 2, &p, err), 0);
		assert_int_equal(p.n, 1024);
		assert_distinct_pus(&t, &p);
	}
	assert_int_equal(plan_make(&t, "cross-socket", r, 2, &p, err), -1);
	assert_non_null(strstr(err, "needs allowed cores on 2 packages"));
	topo_free(&t);
}

/* 4,096 PUs over four packages with SMT: the last core's PUs are reachable, spread alternates
 * packages. */
static void four_thousand_pus(void **s)
{
	(void)s;
	struct topo t;
	struct plan *p = calloc(1, sizeof(*p));
	char err[ERRLEN] = "";
	struct role_req r[2] = { { "writer", 400 }, { "reader", 500 } };
	load(&t, "synthetic:pack:4 numa:1 core:512 pu:2");
	assert_int_equal(t.npus, 4096);
	assert_int_equal(t.ncores, 2048);
	assert_int_equal(t.pu[4095].smt, 1);
	assert_int_equal(t.pu[4095].core, 2047);
	const char *ok[] = { "compact", "spread", "cross-socket", "smt" };
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		assert_int_equal(plan_make(&t, ok[i], r, 2, p, err), 0);
		assert_int_equal(p->n, 900);
		assert_distinct_pus(&t, p);
	}
	assert_int_equal(plan_make(&t, "spread", r, 2, p, err), 0);
	for (int i = 0; i < 8; i++)
		assert_int_equal(p->slot[i].pkg, i % 4);
	assert_int_equal(plan_make(&t, "cross-socket", r, 2, p, err), 0);
	for (int i = 0; i < p->n; i++)
		assert_int_equal(p->slot[i].pkg, p->slot[i].role == 0 ? 0 : 1);
	struct role_req too_many[2] = { { "writer", 1000 }, { "reader", 25 } };
	assert_int_equal(plan_make(&t, "compact", too_many, 2, p, err), -1);
	assert_non_null(strstr(err, "at most 1024"));
	free(p);
	topo_free(&t);
}

/* AMD CCXs: cross-llc puts writer and reader under different L3s of one package, same-llc under
 * one; cross-llc is refused on one L3; auto picks cross-llc only when the counters' stand-in needs
 * it. */
static void llc_placements(void **s)
{
	(void)s;
	struct topo t;
	struct plan p;
	char err[ERRLEN] = "";
	load(&t, "synthetic:pack:1 l3:2 core:4 pu:2");
	assert_int_equal(plan_make(&t, "cross-llc", wr, 2, &p, err), 0);
	assert_int_equal(p.n, 2);
	assert_int_not_equal(topo_pu(&t, p.slot[0].os)->llc, topo_pu(&t, p.slot[1].os)->llc);
	assert_int_equal(p.slot[0].pkg, p.slot[1].pkg);
	struct role_req r3[2] = { { "writer", 1 }, { "reader", 3 } };
	assert_int_equal(plan_make(&t, "same-llc", r3, 2, &p, err), 0);
	for (int i = 1; i < p.n; i++)
		assert_int_equal(topo_pu(&t, p.slot[i].os)->llc, topo_pu(&t, p.slot[0].os)->llc);
	struct role_req r5[2] = { { "writer", 1 }, { "reader", 5 } };
	assert_int_equal(plan_make(&t, "cross-llc", r5, 2, &p, err),
			 -1); /* 4 cores under the other L3 */
	assert_non_null(strstr(err, "which have 4 allowed cores"));
	assert_int_equal(plan_make(&t, "auto", wr, 2, &p, err), 0);
	assert_string_equal(p.used, "same-socket");
	t.auto_cross_llc = 1;
	snprintf(t.auto_why, sizeof(t.auto_why), "stand-in sees another L3 only");
	assert_int_equal(plan_make(&t, "auto", wr, 2, &p, err), 0);
	assert_string_equal(p.used, "cross-llc");
	assert_non_null(strstr(p.auto_why, "stand-in sees another L3 only"));
	topo_free(&t);
	load(&t, "synthetic:pack:1 l3:1 core:4 pu:2");
	assert_int_equal(plan_make(&t, "cross-llc", wr, 2, &p, err), -1);
	assert_non_null(strstr(err, "needs 2 last-level caches over allowed cores of package 0"));
	assert_non_null(strstr(err, "has 1"));
	t.auto_cross_llc = 1;
	assert_int_equal(plan_make(&t, "auto", wr, 2, &p, err), 0);
	assert_string_equal(p.used, "same-socket");
	assert_non_null(strstr(p.auto_why, "cannot see this run"));
	topo_free(&t);
	load(&t, ONE_PKG); /* no caches at all in the description */
	assert_int_equal(plan_make(&t, "same-llc", wr, 2, &p, err), -1);
	assert_non_null(strstr(err, "no L3 or L2 cache"));
	topo_free(&t);
}

/* How a list of names, one a line, differs from the placements table: "" when it names every
 * placement and no other, else what it misses and what it names that the table lacks. */
static const char *differs(const char *names, char *out, size_t n)
{
	char key[80];
	out[0] = 0;
	for (const struct placement_def *d = placement_defs; d->name; d++) {
		snprintf(key, sizeof(key), "\n%s\n", d->name);
		if (!strstr(names, key))
			snprintf(out + strlen(out), n - strlen(out), " misses %s;", d->name);
	}
	for (const char *l = names; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
		int len = (int)strcspn(l, "\n");
		const char *arg;
		snprintf(key, sizeof(key), "%.*s", len, l);
		const struct placement_def *d = len ? placement_find(key, &arg) : NULL;
		if (len && (!d || strcmp(d->name, key)))
			snprintf(out + strlen(out), n - strlen(out), " names %s, not in the table;",
				 key);
	}
	return out;
}

static const char *bin(void)
{
	return getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
}

/* Each placement name of --placement's help entry: after "):", up to " (auto:", ", " between. */
static void help_names(const char *help, char *names, size_t n)
{
	const char *e = strstr(help, "\n  --placement ");
	char entry[4096] = "";
	assert_non_null(e);
	for (e++; *e && (!entry[0] || !strncmp(e, "      ", 6)); e += strcspn(e, "\n") + 1)
		snprintf(entry + strlen(entry), sizeof(entry) - strlen(entry), " %.*s",
			 (int)strcspn(e + strspn(e, " "), "\n"), e + strspn(e, " "));
	const char *a = strstr(entry, "): "), *z = strstr(entry, " (auto: ");
	assert_true(a && z && a < z);
	snprintf(names, n, "\n");
	for (a += 3; a < z; a += strspn(a, ", ")) {
		size_t len = strcspn(a, ",");
		if (a + len > z)
			len = (size_t)(z - a);
		snprintf(names + strlen(names), n - strlen(names), "%.*s\n", (int)len, a);
		a += len;
	}
}

/* list, --help, the man page and both completions name exactly the table's placements. */
static void every_place_names_the_tables_placements(void **s)
{
	(void)s;
	struct cmd_result *r = malloc(sizeof(*r));
	char *names = malloc(8192), *cmd = malloc(8192), diff[2048];
	/* the check itself: a missing name and a name the table lacks both count */
	assert_string_equal(differs("\nauto\nsmt\nsame-llc\ncross-llc\nsame-socket\ncross-socket\n"
				    "spread\ncompact\ncpus:LIST\n",
				    diff, sizeof(diff)),
			    "");
	assert_non_null(strstr(differs("\nauto\nsmt\n", diff, sizeof(diff)), " misses spread;"));
	assert_non_null(strstr(differs("\nauto\nsideways\n", diff, sizeof(diff)),
			       " names sideways, not in the table;"));
	/* list: every placement with its description */
	run_c2c(r, "list", NULL);
	assert_int_equal(r->status, 0);
	snprintf(names, 8192, "\n");
	for (const char *l = r->out; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
		char name[64];
		if (strncmp(l, "placement ", 10) || sscanf(l + 10, "%63s", name) != 1)
			continue;
		snprintf(names + strlen(names), 8192 - strlen(names), "%s\n", name);
		const char *arg, *desc = l + 10 + strspn(l + 10, " ") + strlen(name);
		char whole[1024]; /* the description, its wrapped lines joined again */
		desc += strspn(desc, " ");
		snprintf(whole, sizeof(whole), "%.*s", (int)strcspn(desc, "\n"), desc);
		for (const char *c = desc + strcspn(desc, "\n"); !strncmp(c, "\n ", 2);) {
			c += 1 + strspn(c + 1, " ");
			size_t n = strcspn(c, "\n");
			snprintf(whole + strlen(whole), sizeof(whole) - strlen(whole), " %.*s",
				 (int)n, c);
			c += n;
		}
		if (placement_find(name, &arg) && strcmp(whole, placement_find(name, &arg)->desc))
			fail_msg("list: placement %s: '%s' is not the table's description", name,
				 whole);
	}
	if (differs(names, diff, sizeof(diff))[0])
		fail_msg("c2cbench list:%s", diff);
	/* --help, for a bench of the harness's auto and one of its own */
	const char *benches[] = { "pending-bit", "vmalloc" };
	for (size_t i = 0; i < 2; i++) {
		run_c2c(r, "run", benches[i], "--help", NULL);
		assert_int_equal(r->status, 0);
		help_names(r->out, names, 8192);
		if (differs(names, diff, sizeof(diff))[0])
			fail_msg("c2cbench run %s --help:%s", benches[i], diff);
	}
	/* the man page's PLACEMENTS section: ".TP", ".B NAME" each, '-' written "\-" */
	const char *man = getenv("C2C_MANPAGE") ? getenv("C2C_MANPAGE") : "build/c2cbench.1";
	char *page = slurp(man), *sec = page ? strstr(page, "\n.SH PLACEMENTS\n") : NULL;
	assert_non_null(sec);
	snprintf(names, 8192, "\n");
	for (const char *l = sec + 16; *l && strncmp(l, ".SH ", 4);
	     l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0)) {
		if (strncmp(l, ".B ", 3) || strncmp(l - 4, ".TP\n", 4)) /* an entry's name */
			continue;
		for (const char *c = l + 3; *c && *c != '\n'; c++)
			if (*c != '\\' || c[1] != '-')
				snprintf(names + strlen(names), 8192 - strlen(names), "%c", *c);
		snprintf(names + strlen(names), 8192 - strlen(names), "\n");
	}
	if (differs(names, diff, sizeof(diff))[0])
		fail_msg("%s (make generates it: scripts/man-page.sh):%s", man, diff);
	/* bash's completion after --placement */
	snprintf(cmd, 8192,
		 "bash -c 'source scripts/completion/c2cbench.bash; COMP_WORDS=(%s run pending-bit "
		 "--placement \"\"); COMP_CWORD=4; _c2cbench; printf \"%%s\\n\" "
		 "\"${COMPREPLY[@]}\"'",
		 bin());
	names[0] = '\n';
	assert_int_equal(sh_capture(names + 1, 8191, cmd), 0);
	if (differs(names, diff, sizeof(diff))[0])
		fail_msg("scripts/completion/c2cbench.bash:%s", diff);
	/* zsh's, in a real zsh (tests/zsh/complete.zsh), where it has zpty */
	char *dir = temp_dir();
	snprintf(cmd, 8192,
		 "command -v zsh >/dev/null || exit 3; cp scripts/completion/_c2cbench.zsh "
		 "%s/_c2cbench && ln -s \"$(readlink -f %s)\" %s/c2cbench && PATH=%s:$PATH zsh -f "
		 "tests/zsh/complete.zsh %s 'c2cbench run pending-bit --placement ' 2>&1",
		 dir, bin(), dir, dir, dir);
	int st = sh_capture(names, 8192, cmd);
	if (st == 3)
		fprintf(stderr, "test_placement: zsh completion not checked: %s\n",
			names[0] ? names : "no zsh here");
	else if (st || strncmp(names, "== ", 3))
		fail_msg("zsh completion (status %d): %s", st, names);
	else if (differs(names + strcspn(names, "\n"), diff, sizeof(diff))[0])
		fail_msg("scripts/completion/_c2cbench.zsh:%s", diff);
	rm_rf(dir);
	free(dir);
	free(page);
	free(names);
	free(cmd);
	free(r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(synthetic_shape),
		cmocka_unit_test(cross_socket_splits_roles),
		cmocka_unit_test(smt_uses_siblings),
		cmocka_unit_test(same_socket_and_spread),
		cmocka_unit_test(one_package_refuses_cross_socket),
		cmocka_unit_test(explicit_cpus),
		cmocka_unit_test(llc_placements),
		cmocka_unit_test(two_thousand_cores_one_package),
		cmocka_unit_test(four_thousand_pus),
		cmocka_unit_test(every_place_names_the_tables_placements),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}

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
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}

/* Pair selection and classification against synthetic topologies (two packages, L3s, SMT). */
#include "benches/pingpong/pairs.h"
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

#define TWO_PKG                                                                                    \
	"synthetic:pack:2 l3:2 core:4 pu:2" /* 32 PUs: P#0,1 one core; P#0-7 one L3; P#0-15 one    \
					       package */

static void load(struct topo *t, const char *spec)
{
	char err[ERRLEN] = "";
	assert_int_equal(topo_load(t, spec, err), 0);
}

static void test_classify_two_packages(void **state)
{
	struct topo t;
	(void)state;
	load(&t, TWO_PKG);
	assert_int_equal(t.npus, 32);
	assert_int_equal(pair_classify(&t, 0, 1), PC_SMT);
	assert_int_equal(pair_classify(&t, 6, 7), PC_SMT);
	assert_int_equal(pair_classify(&t, 0, 2), PC_SAME_LLC);
	assert_int_equal(pair_classify(&t, 1, 7), PC_SAME_LLC);
	assert_int_equal(pair_classify(&t, 0, 8), PC_SAME_PACKAGE);
	assert_int_equal(pair_classify(&t, 7, 15), PC_SAME_PACKAGE);
	assert_int_equal(pair_classify(&t, 0, 16), PC_CROSS_PACKAGE);
	assert_int_equal(pair_classify(&t, 15, 16), PC_CROSS_PACKAGE);
	assert_int_equal(pair_classify(&t, 16, 17), PC_SMT);
	assert_int_equal(pair_classify(&t, 16, 31), PC_SAME_PACKAGE);
	assert_string_equal(pair_class_name(PC_SAME_LLC), "same-llc");
	topo_free(&t);
}

/* Without cache objects nothing is "same-llc": cores of a package are only same-package. */
static void test_classify_without_caches(void **state)
{
	struct topo t;
	(void)state;
	load(&t, "synthetic:pack:2 core:2 pu:2");
	assert_int_equal(pair_classify(&t, 0, 1), PC_SMT);
	assert_int_equal(pair_classify(&t, 0, 2), PC_SAME_PACKAGE);
	assert_int_equal(pair_classify(&t, 1, 4), PC_CROSS_PACKAGE);
	topo_free(&t);
}

/* No Package objects: cores that share no cache are not claimed to share a socket, nor not to. */
static void test_classify_without_packages(void **state)
{
	struct topo t;
	(void)state;
	load(&t, "synthetic:core:3 pu:2");
	assert_int_equal(pair_classify(&t, 0, 1), PC_SMT);
	assert_int_equal(pair_classify(&t, 0, 2), PC_UNKNOWN_PACKAGE);
	assert_int_equal(pair_classify(&t, 1, 5), PC_UNKNOWN_PACKAGE);
	assert_string_equal(pair_class_name(PC_UNKNOWN_PACKAGE), "unknown-package");
	topo_free(&t);
	load(&t, "synthetic:l2:2 core:2 pu:1"); /* a shared L2 is known without a package */
	assert_int_equal(pair_classify(&t, 0, 1), PC_SAME_LLC);
	assert_int_equal(pair_classify(&t, 1, 2), PC_UNKNOWN_PACKAGE);
	topo_free(&t);
}

static void test_pu_set(void **state)
{
	struct topo t;
	char err[ERRLEN] = "";
	int *set;
	(void)state;
	load(&t, TWO_PKG);
	assert_int_equal(pairs_pu_set(&t, "auto", &set, err), 32);
	free(set);
	assert_int_equal(pairs_pu_set(&t, "cpus:16,0-1", &set, err), 3);
	assert_int_equal(set[0], 0);
	assert_int_equal(set[1], 1);
	assert_int_equal(set[2], 16);
	free(set);
	static const char *const bad[] = { "cpus:0,99", "cpus:",  "cpus:abc",	 "cpus:3",
					   "cpus:0-",	"spread", "cross-socket" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = 0;
		assert_int_equal(pairs_pu_set(&t, bad[i], &set, err), -1);
		assert_null(set);
		assert_non_null(strstr(err, "accepted") ? err : strstr(err, "CPU"));
		assert_null(strchr(err, '\n'));
	}
	topo_free(&t);
}

static void test_select_all_and_vs(void **state)
{
	struct topo t;
	char err[ERRLEN] = "";
	int *set;
	struct pu_pair *p;
	(void)state;
	load(&t, TWO_PKG);
	int n = pairs_pu_set(&t, "cpus:0,1,2,16", &set, err);
	assert_int_equal(pairs_select(&t, set, n, "all", 1, &p, err), 6);
	int cls[PC_COUNT] = { 0 };
	for (int i = 0; i < 6; i++) {
		assert_true(p[i].a < p[i].b);
		cls[p[i].cls]++;
	}
	assert_int_equal(cls[PC_SMT], 1);	    /* 0-1 */
	assert_int_equal(cls[PC_SAME_LLC], 2);	    /* 0-2, 1-2 */
	assert_int_equal(cls[PC_CROSS_PACKAGE], 3); /* x-16 */
	free(p);
	free(set);
	n = pairs_pu_set(&t, "auto", &set, err);
	assert_int_equal(pairs_select(&t, set, n, "vs:16", 1, &p, err), 31);
	for (int i = 0; i < 31; i++) {
		assert_int_equal(p[i].a, 16);
		assert_int_not_equal(p[i].b, 16);
		assert_int_equal(p[i].cls, pair_classify(&t, 16, p[i].b));
	}
	free(p);
	free(set);
	topo_free(&t);
}

static void test_select_sample_and_classes(void **state)
{
	struct topo t;
	char err[ERRLEN] = "";
	int *set;
	struct pu_pair *p, *q;
	(void)state;
	load(&t, TWO_PKG);
	int n = pairs_pu_set(&t, "auto", &set, err);
	assert_int_equal(pairs_select(&t, set, n, "sample:40", 7, &p, err), 40);
	assert_int_equal(pairs_select(&t, set, n, "sample:40", 7, &q, err), 40);
	assert_memory_equal(p, q, 40 * sizeof(*p)); /* the seed makes it reproducible */
	for (int i = 0; i < 40; i++) {
		assert_int_not_equal(p[i].a, p[i].b);
		for (int j = 0; j < i; j++)
			assert_false(p[i].a == p[j].a && p[i].b == p[j].b);
	}
	free(q);
	assert_int_equal(pairs_select(&t, set, n, "sample:40", 8, &q, err), 40);
	assert_memory_not_equal(p, q, 40 * sizeof(*p));
	free(p);
	free(q);
	assert_int_equal(pairs_select(&t, set, n, "sample:496", 7, &p, err), 496); /* every pair */
	free(p);
	assert_int_equal(pairs_select(&t, set, n, "classes", 1, &p, err), 4);
	int seen = 0;
	for (int i = 0; i < 4; i++)
		seen |= 1 << p[i].cls;
	assert_int_equal(seen, 15);
	free(p);
	static const char *const bad[] = { "sample:0", "sample:497", "sample:x", "vs:99",
					   "vs:",      "vs:1x",	     "bogus",	 "" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = 0;
		assert_int_equal(pairs_select(&t, set, n, bad[i], 1, &p, err), -1);
		assert_null(p);
		assert_non_null(strstr(err, "accepted"));
	}
	free(set);
	topo_free(&t);
}

/* No SMT: the classes selection finds only the classes the machine has. */
static void test_classes_without_smt(void **state)
{
	struct topo t;
	char err[ERRLEN] = "";
	int *set;
	struct pu_pair *p;
	(void)state;
	load(&t, "synthetic:pack:2 l3:1 core:2 pu:1");
	int n = pairs_pu_set(&t, "auto", &set, err);
	assert_int_equal(pairs_select(&t, set, n, "classes", 1, &p, err), 2);
	assert_int_equal(p[0].cls, PC_SAME_LLC);
	assert_int_equal(p[1].cls, PC_CROSS_PACKAGE);
	free(p);
	free(set);
	topo_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify_two_packages),
		cmocka_unit_test(test_classify_without_caches),
		cmocka_unit_test(test_classify_without_packages),
		cmocka_unit_test(test_pu_set),
		cmocka_unit_test(test_select_all_and_vs),
		cmocka_unit_test(test_select_sample_and_classes),
		cmocka_unit_test(test_classes_without_smt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

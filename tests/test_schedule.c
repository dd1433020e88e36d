/* pingpong's schedule of disjoint pairs (circle method, split by core and by --concurrent), its
 * accuracy-check sample and verdict, the --matrix table and the h:mm:ss estimate. */
#include "harness/progress.h"
#include "benches/pingpong/check.h"
#include "benches/pingpong/matrix.h"
#include "benches/pingpong/measure.h"
#include "benches/pingpong/places.h"
#include "benches/pingpong/pingpong.h"
#include "benches/pingpong/schedule.h"
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void load(struct topo *t, const char *spec)
{
	char err[ERRLEN] = "";
	assert_int_equal(topo_load(t, spec, err), 0);
}

/* Every pair of n positions in exactly one round, no position twice in a round, n-1 rounds for
 * even n (n for odd), and a full round holds n/2 pairs. */
static void check_circle(int n)
{
	int nr = circle_rounds(n);
	int *seen = calloc((size_t)nr * (size_t)n, sizeof(int)),
	    *per = calloc((size_t)nr, sizeof(int));
	assert_int_equal(nr, n % 2 ? n : n - 1);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++) {
			int r = circle_round(n, i, j);
			assert_true(r >= 0 && r < nr);
			assert_int_equal(r, circle_round(n, j, i));
			if (seen[r * n + i]++ || seen[r * n + j]++)
				fail_msg("n=%d: position %d or %d twice in round %d", n, i, j, r);
			per[r]++;
		}
	for (int r = 0; r < nr; r++)
		assert_int_equal(per[r], n / 2);
	free(seen);
	free(per);
}

static void test_circle_method(void **state)
{
	(void)state;
	for (int n = 2; n <= 70; n++)
		check_circle(n);
	check_circle(256);
	check_circle(512);
}

/* All pairs of a synthetic topology scheduled with cap: every pair once, no PU and (unless by_pu)
 * no core used by two pairs of one round, no round above cap. Returns the number of rounds. */
static int check_schedule_by(const char *spec, int cap, int by_pu, int *most)
{
	struct topo t;
	struct schedule s;
	struct pu_pair *pair;
	int *set, err_n;
	char err[ERRLEN] = "";
	load(&t, spec);
	int n = pairs_pu_set(&t, "auto", &set, err);
	assert_true(n >= 2);
	int np = pairs_select(&t, set, n, "all", 1, &pair, err);
	assert_int_equal(np, n * (n - 1) / 2);
	assert_int_equal(schedule_build(&t, set, n, pair, np, cap, by_pu, &s, err), 0);
	int *in = calloc((size_t)np, sizeof(int)), *pu = calloc((size_t)t.npus, sizeof(int));
	int *core = calloc((size_t)t.ncores, sizeof(int));
	*most = 0;
	for (int r = 0; r < s.nrounds; r++) {
		assert_true(s.size[r] >= 1 && s.size[r] <= cap);
		*most = s.size[r] > *most ? s.size[r] : *most;
		for (int x = s.first[r]; x < s.first[r + 1]; x++) {
			const struct pu_pair *p = &pair[s.member[x]];
			int ca = topo_pu(&t, p->a)->core, cb = topo_pu(&t, p->b)->core;
			in[s.member[x]]++;
			assert_int_equal(s.round[s.member[x]], r);
			if (pu[p->a] == r + 1 || pu[p->b] == r + 1)
				fail_msg("%s: a PU of %d-%d twice in round %d", spec, p->a, p->b,
					 r);
			if (!by_pu && (core[ca] == r + 1 || (ca != cb && core[cb] == r + 1)))
				fail_msg("%s: a core of %d-%d twice in round %d", spec, p->a, p->b,
					 r);
			pu[p->a] = pu[p->b] = core[ca] = core[cb] = r + 1;
		}
	}
	for (int k = 0; k < np; k++)
		assert_int_equal(in[k], 1);
	err_n = s.nrounds;
	free(in);
	free(pu);
	free(core);
	free(pair);
	free(set);
	schedule_free(&s);
	topo_free(&t);
	return err_n;
}

static int check_schedule(const char *spec, int cap, int *most)
{
	return check_schedule_by(spec, cap, 0, most);
}

static void test_schedule_full_matrix(void **state)
{
	int most;
	(void)state;
	/* no SMT and room for every pair: exactly the circle method, P-1 rounds of P/2 pairs */
	assert_int_equal(check_schedule("synthetic:pack:1 core:8 pu:1", 4, &most), 7);
	assert_int_equal(most, 4);
	assert_int_equal(check_schedule("synthetic:pack:2 core:32 pu:1", 32, &most), 63);
	assert_int_equal(most, 32);
	assert_int_equal(check_schedule("synthetic:pack:2 core:5 pu:1", 5, &most),
			 9); /* odd: P rounds */
	/* a cap splits the rounds: 256 PUs, 16 at once: 255 rounds of 128 pairs, 8 rounds each */
	assert_int_equal(check_schedule("synthetic:pack:2 core:128 pu:1", 16, &most), 255 * 8);
	assert_int_equal(most, 16);
	/* SMT: pairs of one round on disjoint cores, so more rounds than P-1, never two pairs on a
	 * core */
	int r = check_schedule("synthetic:pack:2 l3:2 core:4 pu:2", 8, &most);
	assert_true(r > 31 && r <= 31 * 3);
	r = check_schedule("synthetic:pack:2 numa:1 core:64 pu:2", 64, &most);
	assert_true(r > 255 && r <= 255 * 3);
	assert_int_equal(most, 64);
	r = check_schedule("synthetic:pack:2 numa:2 core:64 pu:2", 128, &most);
	assert_true(r > 511 && r <= 511 * 3);
	/* by_pu (--concurrent auto): SMT siblings may run two pairs, so exactly the P-1 circle
	 * rounds */
	assert_int_equal(check_schedule_by("synthetic:pack:2 l3:2 core:4 pu:2", 16, 1, &most), 31);
	assert_int_equal(most, 16);
	assert_int_equal(check_schedule_by("synthetic:pack:2 l3:8 core:24 pu:2", 384, 1, &most),
			 767);
	assert_int_equal(most, 384);
	assert_int_equal(check_schedule_by("synthetic:pack:2 l3:8 core:24 pu:2", 192, 1, &most),
			 767 * 2);
	/* cap 1 is one pair at a time */
	assert_int_equal(check_schedule("synthetic:pack:1 core:4 pu:2", 1, &most), 28);
}

static void test_auto_cap_and_hms(void **state)
{
	struct topo t;
	int *set;
	char err[ERRLEN], hms[32];
	(void)state;
	load(&t, "synthetic:pack:2 numa:1 core:64 pu:2");
	int n = pairs_pu_set(&t, "auto", &set, err);
	assert_int_equal(schedule_auto_cap(&t, set, n, 0), 64); /* 128 cores */
	assert_int_equal(schedule_auto_cap(&t, set, 2, 0), 1);  /* PUs 0,1: one core */
	assert_int_equal(schedule_auto_cap(&t, set, n, 1), 128); /* 256 PUs */
	free(set);
	topo_free(&t);
	fmt_hms(hms, sizeof(hms), 0);
	assert_string_equal(hms, "0:00:00");
	fmt_hms(hms, sizeof(hms), 16646);
	assert_string_equal(hms, "4:37:26");
	fmt_hms(hms, sizeof(hms), 59.6);
	assert_string_equal(hms, "0:01:00");
}

static void test_check_sample_and_verdict(void **state)
{
	struct pu_pair p[10];
	int idx[10];
	(void)state;
	for (int k = 0; k < 10; k++) /* classes: 6 cross-package, 3 same-llc, 1 smt */
		p[k] = (struct pu_pair){0, k + 1,
					k < 6   ? PC_CROSS_PACKAGE
					: k < 9 ? PC_SAME_LLC
						: PC_SMT};
	int n = check_sample(p, 10, 2, idx);
	assert_int_equal(n, 5);
	int per[PC_COUNT] = { 0 };
	for (int j = 0; j < n; j++)
		per[p[idx[j]].cls]++;
	assert_int_equal(per[PC_CROSS_PACKAGE], 2);
	assert_int_equal(per[PC_SAME_LLC], 2);
	assert_int_equal(per[PC_SMT], 1);
	assert_int_equal(idx[0], 0); /* the first of a class, then spread: 0 and 3 of 0..5 */
	assert_int_equal(idx[1], 3);
	enum pair_class cls[4] = { PC_SMT, PC_SMT, PC_CROSS_PACKAGE, PC_CROSS_PACKAGE };
	double alone[4] = { 10, 20, 100, 100 }, conc[4] = { 10.1, 20.4, 110, 104 };
	struct check_class out[PC_COUNT];
	assert_int_equal(check_classes(cls, alone, conc, 4, 0.05, out), 1);
	assert_int_equal(out[PC_SMT].n, 2);
	assert_false(out[PC_SMT].outside);
	assert_true(fabs(out[PC_SMT].ratio - 1.015) < 1e-9);
	assert_true(fabs(out[PC_SMT].lo - 1.01) < 1e-9 && fabs(out[PC_SMT].hi - 1.02) < 1e-9);
	assert_true(out[PC_CROSS_PACKAGE].outside); /* median 1.07 */
	assert_int_equal(out[PC_SAME_LLC].n, 0);
	assert_int_equal(check_classes(cls, alone, conc, 4, 0.10, out), 0);
}

static void test_matrix_file(void **state)
{
	int set[3] = { 4, 0, 2 };
	struct pu_pair p[2] = { { 0, 2, PC_SMT }, { 4, 0, PC_CROSS_PACKAGE } };
	double v[2] = { 12.5, 101 };
	char err[ERRLEN], path[512];
	(void)state;
	snprintf(path, sizeof(path), "%s/m.csv", test_dir);
	assert_int_equal(matrix_write(path, set, 3, p, v, 2, 0, err), 0);
	char *s = slurp(path);
	/* OS CPU order 0, 2, 4; symmetric; the diagonal and the pair 2-4 (not measured) are empty
	 */
	assert_string_equal(s, ",12.50,101.00\n12.50,,\n101.00,,\n");
	free(s);
	snprintf(path, sizeof(path), "%s/no/such/dir/m.csv", test_dir);
	assert_int_equal(matrix_write(path, set, 3, p, v, 2, 0, err), -1);
	assert_non_null(strstr(err, "--matrix"));
}


/* The one-pass classifier gives pair_classify's answer for every pair, caches or not. */
static void test_places_match_classify(void **state)
{
	const char *topos[] = { "synthetic:pack:2 l3:2 core:4 pu:2",
				"synthetic:pack:2 l3:2 l2:2 core:2 pu:2",
				"synthetic:pack:2 core:4 pu:2",
				"synthetic:core:6 pu:1",
				"synthetic:pack:2 numa:2 l3:1 core:3 pu:4",
				NULL };
	(void)state;
	for (int x = 0; topos[x]; x++) {
		struct topo t;
		struct places pl;
		int seen[PC_COUNT] = { 0 };
		load(&t, topos[x]);
		places_build(&t, &pl);
		for (int i = 0; i < t.npus; i++)
			for (int j = 0; j < t.npus; j++)
				if (i != j) {
					enum pair_class c =
					    pair_classify(&t, t.pu[i].os, t.pu[j].os);
					assert_int_equal(
					    places_classify(&pl, t.pu[i].os, t.pu[j].os), c);
					seen[c]++;
				}
		assert_true(seen[PC_SMT] || !strstr(topos[x], "pu:2"));
		assert_int_equal(places_classify(&pl, 0, t.npus + 5), PC_CROSS_PACKAGE);
		places_free(&pl);
		topo_free(&t);
	}
}

/* The round path with two pairs at once, on the first two PUs this process may use (two pairs
 * cannot be disjoint on 2 PUs, so they share the PUs and the scheduler interleaves them: slow, but
 * every thread, line and result of a multi-pair round is exercised): each pair gets its own lines
 * and its own figures. PUs 0 and 1 need not be this process's (taskset, a container's cpuset). */
static void test_measure_round_two_pairs(void **state)
{
	struct topo t;
	char err[ERRLEN] = "";
	int x = -1, y = -1;
	(void)state;
	load(&t, NULL);
	for (int i = 0; i < t.npus; i++)
		if (t.pu[i].allowed && x < 0)
			x = t.pu[i].os;
		else if (t.pu[i].allowed && y < 0)
			y = t.pu[i].os;
	if (y < 0) {
		topo_free(&t);
		print_message("skipped: needs two PUs this process may use\n");
		skip();
	}
	struct pu_pair a = { x, y, PC_SAME_LLC }, b = { y, x, PC_SAME_LLC };
	const struct pu_pair *pp[2] = { &a, &b };
	struct pp_meas m[2];
	for (int mode = 0; mode < NMODES; mode++) {
		struct pp_setup su = { &t, mode, 2, PP_HOME_READER, 5, 2, 0, NULL, -1 };
		memset(m, 0, sizeof(m));
		if (pp_measure_round(&su, pp, 2, m, err))
			fail_msg("%s", err);
		for (int k = 0; k < 2; k++) {
			assert_true(m[k].min > 0 && m[k].min <= m[k].median);
			assert_true(m[k].line_med_lo <= m[k].line_med_hi);
			assert_true(m[k].handoffs >= 2 * 5 * 2 * 2); /* 5 samples x 2 round trips x
									2 lines, 2 handoffs each */
			assert_true(m[k].mem_node >= 0);
			assert_int_not_equal(m[k].line_addr, 0);
		}
		assert_int_not_equal(m[0].line_addr,
				     m[1].line_addr); /* a page of its own per pair */
	}
	topo_free(&t);
}

/* A row measured in another pair's round: the counter columns after the bench's become NA, the
 * bench's own and counters_* stay; a counted row is left alone. */
static void test_mark_uncounted(void **state)
{
	struct pp_priv p;
	(void)state;
	memset(&p, 0, sizeof(p));
	for (int counted = 0; counted < 2; counted++) {
		struct row r = { 0 };
		row_set(&r, "min_ns", "10.00");
		row_set(&r, "counted", "%s", counted ? "yes" : "no");
		row_set(&r, PP_LAST_COL, "1");
		row_set(&r, "initiator_hitm_per_kop", "5.0");
		row_set(&r, "counters_status", "ok");
		pp_mark_uncounted(&p, &r);
		assert_string_equal(row_get(&r, "min_ns"), "10.00");
		assert_string_equal(row_get(&r, PP_LAST_COL), "1");
		assert_string_equal(row_get(&r, "counters_status"), "ok");
		assert_string_equal(row_get(&r, "initiator_hitm_per_kop"), counted ? "5.0" : "NA");
		assert_true(counted ||
			    strstr(r.na_reason,
				   "initiator_hitm_per_kop: measured in the round of another "
				   "pair"));
		row_clear(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_circle_method),
		cmocka_unit_test(test_schedule_full_matrix),
		cmocka_unit_test(test_auto_cap_and_hms),
		cmocka_unit_test(test_check_sample_and_verdict),
		cmocka_unit_test(test_matrix_file),
		cmocka_unit_test(test_places_match_classify),
		cmocka_unit_test(test_measure_round_two_pairs),
		cmocka_unit_test(test_mark_uncounted),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}

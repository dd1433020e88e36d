/* Settings achieved beside the requested ones (docs/validity.md, rule setting), in real short runs
 * of every bench; the gap side table's attempt and valid columns; a migration as evidence, not an
 * error. */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include "benches/shepherd/stats.h"
#include "harness/validity.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every rule off but setting: what these tests judge is the setting rule alone. */
#define ALL_BUT_SETTING                                                                            \
	"--valid-oncpu", "0", "--valid-overlap", "0", "--valid-window", "100", "--valid-steal",    \
		"100", "--valid-probe", "1000"

static struct cmd_result r; /* the last run's (stderr names what measured nothing) */

/* Run c2cbench (arguments NULL-terminated) into dir/name and read the CSV back; its exit status:
 * 0, or 4 when a configuration got no valid repetition (and then stderr says so). */
static int run_table(struct table *t, const char *name, const char *const *args)
{
	char path[600], err[512];
	const char *a[48];
	int n = 0;
	snprintf(path, sizeof(path), "%s/%s", test_dir, name);
	while (args[n] && n < 40) {
		a[n] = args[n];
		n++;
	}
	a[n++] = "--out";
	a[n++] = path;
	a[n++] = "--quiet";
	a[n] = NULL;
	run_c2cv(&r, a);
	if (r.status && (r.status != 4 || !strstr(r.err, "c2cbench: measured nothing: ")))
		fail_msg("%s: exit %d: %s", name, r.status, r.err);
	if (table_read(t, path, err))
		fail_msg("%s: %s", name, err);
	return r.status;
}

/* A column's number in row i: a test failure when it is missing or not a positive number. */
static double positive(const struct table *t, long i, const char *col)
{
	const char *v = table_get(t, i, col);
	if (!v)
		fail_msg("column %s missing", col);
	double d = atof(v);
	if (!(d > 0))
		fail_msg("%s is '%s', not a positive number", col, v);
	return d;
}

/* pending-bit and vmalloc: the work, drain period and purge as achieved, each positive. */
static void achieved_pending_bit_vmalloc(void **s)
{
	(void)s;
	struct table t;
	run_table(&t, "pb.csv",
		  (const char *const[]){ "run", "pending-bit", "--duration", "0.05", "--warmup",
					 "0.01", "--max-attempts", "1", LENIENT, "--reps", "1",
					 "--layout", "aligned", "--work", "200", "--drain-us",
					 "500", NULL });
	assert_int_equal(t.nrows, 1);
	if (row_measured(&t, 0)) { /* an invalid attempt (a loaded host) need not have */
		positive(&t, 0, "work_ns_achieved");
		positive(&t, 0, "drain_us_achieved");
	}
	table_free(&t);
	run_table(&t, "vm.csv",
		  (const char *const[]){ "run", "vmalloc", "--duration", "0.1", "--warmup", "0.02",
					 "--max-attempts", "1", LENIENT, "--reps", "1", "--layout",
					 "aligned", "--lazy-max", "2000",
					 NULL });
	assert_int_equal(t.nrows, 1);
	if (row_measured(&t, 0)) {
		positive(&t, 0, "work_ns_achieved");
		/* lazy_max 2000 is crossed in 0.1 s: the drain worker purged */
		positive(&t, 0, "drains");
		positive(&t, 0, "purge_us_modelled");
		positive(&t, 0, "purge_us_achieved");
	}
	table_free(&t);
}

/* refill: the caller's work per allocation; the unbound worker's per page; NA with its reason for
 * a bound worker that never populated (it is expected not to run during the burst). */
static void achieved_refill(void **s)
{
	(void)s;
	struct table t;
	if (usable_cpus() < 2)
		skip();
	run_table(&t, "rf.csv",
		  (const char *const[]){ "run", "refill", "--worker", "bound,unbound", "--attempts",
					 "4096", "--max-attempts", "1", LENIENT, "--reps", "1",
					 "--warmup", "0.01", NULL });
	assert_int_equal(t.nrows, 2);
	for (long i = 0; i < t.nrows; i++) {
		positive(&t, i, "alloc_ns_achieved");
		if (atof(table_get(&t, i, "pages_populated")) > 0) {
			positive(&t, i, "populate_ns_achieved");
		} else {
			assert_string_equal(table_get(&t, i, "populate_ns_achieved"), "NA");
			assert_non_null(strstr(table_get(&t, i, "na_reason"),
					       "populate_ns_achieved: the worker never populated a "
					       "page"));
		}
		if (!strcmp(table_get(&t, i, "worker"), "unbound"))
			positive(&t, i, "populate_ns_achieved");
	}
	table_free(&t);
}

/* shepherd: the tick (one tick at least: a sleeper never wakes early), zone work and op as
 * achieved; its gap rows carry the attempt and validity of the main row they belong to. */
static void achieved_shepherd(void **s)
{
	(void)s;
	struct table t, g;
	char gaps[600], err[512];
	run_table(&t, "sh.csv",
		  (const char *const[]){ "run", "shepherd", "--check", "busy,pending", "--cpus",
					 "2", "--tick-us", "20", "--duration", "0.3", "--warmup",
					 "0.05", "--max-attempts", "1", LENIENT, "--reps", "1",
					 NULL });
	assert_int_equal(t.nrows, 2);
	int with = 0; /* main rows with histograms: each attempt that had a window */
	for (long i = 0; i < t.nrows; i++) {
		with += strcmp(table_get(&t, i, "gaps_file"), "NA") != 0;
		if (!row_measured(&t, i)) /* a loaded host: its reason, no settings to judge */
			continue;
		assert_true(positive(&t, i, "tick_us_achieved") >= 20);
		positive(&t, i, "zone_work_us_achieved");
		positive(&t, i, "op_ns_achieved");
	}
	snprintf(gaps, sizeof(gaps), "%s/sh-gaps.csv", test_dir);
	if (!with) { /* no attempt had a window: no side table */
		assert_false(file_exists(gaps));
		table_free(&t);
		return;
	}
	assert_int_equal(table_read(&g, gaps, err), 0);
	assert_int_equal(g.nrows, with * SW_GAP_KINDS * SW_BINS);
	for (long i = 0; i < g.nrows; i++) { /* each gap row: its main row's attempt and validity */
		const char *check = table_get(&g, i, "check");
		long m = 0;
		while (m < t.nrows && strcmp(table_get(&t, m, "check"), check))
			m++;
		assert_true(m < t.nrows);
		assert_string_equal(table_get(&g, i, "attempt"), "1");
		assert_string_equal(table_get(&g, i, "valid"), table_get(&t, m, "valid"));
	}
	table_free(&g);
	table_free(&t);
}

/* The drainer asked for a drain every microsecond: it shares the writer's CPU and each drain is a
 * timed sleep, so it cannot be achieved on any machine. The row says so, with both values; the run
 * measured nothing, and its end and exit status say so, with the rule in words and a bound to try.
 */
static void unachievable_drain_is_invalid(void **s)
{
	(void)s;
	struct table t;
	int st = run_table(&t, "pb1.csv",
			   (const char *const[]){"run", "pending-bit", "--duration", "0.05",
						 "--warmup", "0.01", "--max-attempts", "1",
						 ALL_BUT_SETTING, "--reps", "1", "--layout",
						 "aligned", "--drain-us", "1", NULL});
	assert_int_equal(t.nrows, 1);
	double got = positive(&t, 0, "drain_us_achieved");
	assert_true(got > 1.25);
	assert_string_equal(table_get(&t, 0, "valid"), "no");
	const char *why = strstr(table_get(&t, 0, "invalid_reason"), "setting: drain period ");
	assert_non_null(why);
	assert_non_null(strstr(why, " us achieved for 1 requested"));
	assert_int_equal(st, 4);
	char path[600];
	snprintf(path, sizeof(path), "%s/pb1.csv", test_dir);
	char *one = joined_lines(r.err); /* lines over 100 columns continue on the next */
	assert_non_null(strstr(one, "c2cbench: measured nothing: 1 of 1 configuration(s) of "
				    "pending-bit got no valid repetition"));
	assert_non_null(
		strstr(one, "  try: more attempts per repetition, --max-attempts 2 (now 1)\n"));
	free(one);
	/* the setting rule (the only one on but ops and migration) is named, with the setting and a
	 * bound */
	if (!strcmp(check_measured_nothing(r.err, path, "layout aligned"), "setting") &&
	    (!strstr(r.err, "achieved settings (drain period first) were ") ||
	     !strstr(r.err, "--valid-setting ")))
		fail_msg("the setting rule not in words: %s", r.err);
	table_free(&t);
}

/* shepherd at a 10 us tick: wherever its wake-ups are a quarter tick late on average, the row is
 * invalid naming the tick and both values; the gap rows of every attempt carry that attempt's
 * verdict. */
static void tick_rule_matches_column(void **s)
{
	(void)s;
	struct table t, g;
	char gaps[600], err[512];
	run_table(&t, "sh10.csv",
		  (const char *const[]){ "run", "shepherd", "--check", "pending", "--cpus", "2",
					 "--tick-us", "10", "--duration", "0.2", "--warmup", "0.05",
					 "--max-attempts", "2", ALL_BUT_SETTING, "--reps", "1",
					 NULL });
	assert_true(t.nrows >= 1 && t.nrows <= 2);
	for (long i = 0; i < t.nrows; i++) {
		double got = positive(&t, i, "tick_us_achieved"), in_reason = 0;
		const char *why = strstr(table_get(&t, i, "invalid_reason"), "setting: tick ");
		if (got > 12.5) {
			assert_string_equal(table_get(&t, i, "valid"), "no");
			assert_non_null(why);
			assert_int_equal(sscanf(why,
						"setting: tick %lf us achieved for 10 requested",
						&in_reason),
					 1);
			assert_true(in_reason > 0.99 * got && in_reason < 1.01 * got);
		} else {
			assert_null(why);
		}
	}
	snprintf(gaps, sizeof(gaps), "%s/sh10-gaps.csv", test_dir);
	assert_int_equal(table_read(&g, gaps, err), 0);
	assert_int_equal(g.nrows, t.nrows * SW_GAP_KINDS * SW_BINS);
	for (long i = 0; i < g.nrows; i++) {
		long a = atol(table_get(&g, i, "attempt"));
		assert_true(a >= 1 && a <= t.nrows);
		assert_string_equal(table_get(&g, i, "valid"), table_get(&t, a - 1, "valid"));
	}
	table_free(&g);
	table_free(&t);
}

/* pingpong's pair as it records it: a responder that ended on the initiator's CPU is a migration
 * (an invalid row, run again), no longer an error that ends the run. */
static void pingpong_migration_is_invalid(void **s)
{
	(void)s;
	struct evidence e = { 0 };
	char why[512];
	for (int i = 0; i < 2; i++) {
		struct thr t = { 0 };
		t.idx = i;
		t.want_cpu = t.cpu_start = t.got_cpu_end = i;
		t.t0 = 1000;
		t.t1 = 2000000;
		t.cpu_ns1 = 1999000;
		t.ops = 100;
		t.measured = 1;
		t.steal_ns = -1;
		if (i)
			t.got_cpu_end = 0;
		evidence_thread(&e, &t, i ? "responder" : "initiator", 1);
	}
	assert_int_equal(validity_check(&e, &vrules_default, why, sizeof(why)), 0);
	assert_string_equal(why, "migration: responder1 bound to CPU 1 ran on 1 then 0");
	evidence_free(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(achieved_pending_bit_vmalloc),
		cmocka_unit_test(achieved_refill),
		cmocka_unit_test(achieved_shepherd),
		cmocka_unit_test(unachievable_drain_is_invalid),
		cmocka_unit_test(tick_rule_matches_column),
		cmocka_unit_test(pingpong_migration_is_invalid),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}

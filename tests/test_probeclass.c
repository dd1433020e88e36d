/* Probe classes: repetitions on hidden placements whose probe latencies cluster apart are told
 * apart (schema/probeclass.h), and the run's summary says when a line's medians pool them. */
#include "schema/probeclass.h"
#include "harness/bench.h"
#include "lib/opts.h"
#include "harness/row.h"
#include "tests/runsum_shim.h"
#include "lib/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "tests/testutil.h"
#include "tests/report_util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The vmalloc reference VM's pair, as the issue saw it: about 30, 60-75 and 260-320 ns. */
static void three_clusters_on_made_up_rows(void **state)
{
	(void)state;
	const double lat[] = { 31, 262, 64, 29.5, 318, 75, -1, 60, 30 };
	int cls[9];
	assert_int_equal(probe_classes(lat, 9, cls), 3);
	const int want[] = { 0, 2, 1, 0, 2, 1, -1, 1, 0 };
	for (int i = 0; i < 9; i++)
		assert_int_equal(cls[i], want[i]);
	char t[256];
	probe_classes_text(lat, cls, 9, 3, t, sizeof(t));
	assert_string_equal(t, "30-31 ns (3 repetition(s)), 60-75 ns (3), 262-318 ns (2)");
	/* steady latencies within 1.5x of each other: one class */
	const double steady[] = { 60, 75, 88, 70 };
	assert_int_equal(probe_classes(steady, 4, cls), 1);
	assert_int_equal(probe_classes(lat + 6, 1, cls), 0); /* nothing measured */
}

static void same_class_rule(void **state)
{
	(void)state;
	double a[] = { 30, 300 }, b[] = { 44, 290 }, c[] = { 46, 300 };
	assert_true(probe_same_class(a, b, 2));
	assert_false(probe_same_class(a, c, 2)); /* 46 / 30 > 1.5 */
	double na[] = { -1, 300 };
	assert_true(probe_same_class(na, b, 2)); /* an unmeasured pair does not split */
	assert_true(probe_latency(30, 40) == 35);
	assert_true(probe_latency(-1, 40) == 40);
	assert_true(probe_latency(-1, -1) == -1);
}

/* A made-up run, layout shared at 30 and 300 ns, aligned steady: the summary says so for shared
 * only, naming both classes. */
static void summary_says_when_medians_pool_classes(void **state)
{
	(void)state;
	const struct bench *bp = bench_find("pending-bit");
	assert_non_null(bp);
	struct opt_spec htab[HARNESS_OPTS_MAX];
	const struct opt_spec *tables[] = {bench_harness_opts(bp, htab, HARNESS_OPTS_MAX), bp->opts,
					   NULL};
	struct opts o = { 0 };
	char err[ERRLEN], *argv[] = { "run", NULL };
	assert_int_equal(opts_parse(&o, tables, 1, argv, err), 0);
	struct variant var[2] = { { .name = "shared" }, { .name = "aligned" } };
	struct bench_ctx c = { .b = bp, .o = &o, .var = var, .nvar = 2, .reps = 6, .attempts = 1 };
	struct summary *s = summary_new(&c);
	const double shared[] = { 30, 31, 300, 29, 310, 30 };
	for (int i = 0; i < 6; i++)
		for (int v = 0; v < 2; v++) {
			struct row r = { 0 };
			double p = v ? 62 + i : shared[i];
			row_set(&r, "layout", "%s", var[v].name);
			row_set(&r, "writer_ns_per_op", "%g", 10.0 + i);
			row_set(&r, "reader_ns_per_op", "%g", 5.0 + i);
			row_set(&r, "probe_before_ns", "%.1f", p);
			row_set(&r, "probe_after_ns", "%.1f", p);
			summary_add(s, &r, v, i, 1, 1, 1);
			row_clear(&r);
		}
	char *buf = summary_printed(s, &o);
	for (char *p = buf; (p = strstr(p, "\n  ")); ) /* unwrap */
		memmove(p, p + 2, strlen(p + 2) + 1), *p = ' ';
	if (!strstr(buf, "probe classes: shared ran on 2 placements whose probe latencies cluster "
			 "apart (more than 1.5x): 29-31 ns (4 repetition(s)), 300-310 ns (2); its "
			 "medians pool them"))
		fail_msg("no probe-class line for shared in:\n%s", buf);
	assert_null(strstr(buf, "probe classes: aligned"));
	free(buf);
}

/* compare and report on the made-up sets of tests/data/verdict-context: B's repetitions at 30
 * and 300 ns are named as two classes, A's (60-66 ns) are not. */
static void compare_and_report_name_the_classes(void **state)
{
	(void)state;
	struct cmd_result r;
	char out[600];
	const char *a = "tests/data/verdict-context/strict",
		   *b = "tests/data/verdict-context/relaxed";
	run_c2c(&r, "compare", a, b, "--csv", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "B's valid repetitions fall in 2 probe classes on CPUs 0-1"));
	assert_null(strstr(r.out, "A's valid repetitions fall in"));
	snprintf(out, sizeof(out), "%s/report", test_dir);
	char *md = report_md_of(out, a, b);
	if (!strstr(md, "m-relaxed, pending-bit shared: 2 probe classes on CPUs 0-1: 30-31 ns (3 "
			"repetition(s)), 298-299 ns (2)."))
		fail_msg("no probe-class line in:\n%.3000s", md);
	assert_null(strstr(md, "m-strict, pending-bit shared: "));
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(three_clusters_on_made_up_rows),
		cmocka_unit_test(same_class_rule),
		cmocka_unit_test(summary_says_when_medians_pool_classes),
		cmocka_unit_test(compare_and_report_name_the_classes),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}

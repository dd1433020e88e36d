/* One verdict everywhere: the same made-up values give the same words in compare, report and the
 * run's summary (all three call stats/twosample.h); too few repetitions are said, with no
 * faster or slower word; Holm and Benjamini-Hochberg against worked examples. */
#include "stats/twosample.h"
#include "harness/bench.h"
#include "lib/opts.h"
#include "harness/row.h"
#include "tests/runsum_shim.h"
#include "lib/csvread.h"
#include "lib/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "tests/testutil.h"
#include "tests/report_util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HDR                                                                                        \
	"schema_version,bench,layout,rep,offset,policy,atomics,placement,writers,readers,mem_"     \
	"node,"                                                                                    \
	"work_ns,drain_us,duration_requested_s,warmup_requested_s,writer_ns_per_op,reader_ns_per_" \
	"op,"                                                                                      \
	"label,host,cpu_model,valid,na_reason\n"

/* One machine's result set: n repetitions of pending-bit shared with writer values w. */
static void write_set(const char *path, const char *label, const double *w, int n)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(HDR, f);
	for (int i = 0; i < n; i++)
		fprintf(f,
			"2,pending-bit,shared,%d,32,rmw,lock,same-socket,1,1,0,0,0,0.2,0.2,%g,NA,"
			"%s,host-%s,CPU,yes,reader_ns_per_op: not measured here\n",
			i, w[i], label, label);
	fclose(f);
}

/* compare's verdict on the shared writer line, from its CSV, without the subject "B ". */
static void compare_verdict(const char *a, const char *b, const char *tests, char *out, size_t n)
{
	struct cmd_result r;
	struct table t;
	char err[ERRLEN];
	run_c2c(&r, "compare", a, b, "--csv", NULL);
	if (r.status)
		fail_msg("compare: %s", r.err);
	assert_int_equal(table_parse(&t, "compare.csv", r.out, strlen(r.out), err), 0);
	out[0] = 0;
	for (int i = 0; i < t.nrows; i++)
		if (!strcmp(table_get(&t, i, "metric"), "writer_ns_per_op")) {
			const char *v = table_get(&t, i, "verdict");
			snprintf(out, n, "%s", strncmp(v, "B ", 2) ? v : v + 2);
			assert_string_equal(table_get(&t, i, "tests"),
					    tests); /* the reader: no test */
		}
	table_free(&t);
	assert_true(out[0]);
}



/* The run's summary of a made-up run: layout shared (the baseline) with values a, aligned with
 * values b, through summary_add and summary_print as the driver calls them. */
static char *summary_text(const double *a, const double *b, int n)
{
	const struct bench *bp = bench_find("pending-bit");
	assert_non_null(bp);
	struct opt_spec htab[HARNESS_OPTS_MAX];
	const struct opt_spec *tables[] = {bench_harness_opts(bp, htab, HARNESS_OPTS_MAX), bp->opts,
					   NULL};
	struct opts o = { 0 };
	char err[ERRLEN], *argv[] = { "run", NULL };
	assert_int_equal(opts_parse(&o, tables, 1, argv, err), 0);
	struct variant var[2] = { { .name = "shared" }, { .name = "aligned" } };
	struct bench_ctx c = { .b = bp, .o = &o, .var = var, .nvar = 2, .reps = n, .attempts = 1 };
	struct summary *s = summary_new(&c);
	for (int i = 0; i < n; i++)
		for (int v = 0; v < 2; v++) {
			struct row r = { 0 };
			row_set(&r, "layout", "%s", var[v].name);
			row_set(&r, "writer_ns_per_op", "%g", v ? b[i] : a[i]);
			row_na(&r, "reader_ns_per_op", "not measured here");
			summary_add(s, &r, v, i, 1, 1, 1);
			row_clear(&r);
		}
	char *buf = summary_printed(s, &o);
	text_unwrap(buf);
	return buf;
}

/* The verdict as Markdown writes it: brackets escaped, < as an entity. */
static void md_form(const char *v, char *out, size_t n)
{
	size_t k = 0;
	for (; *v && k + 8 < n; v++)
		if (*v == '[' || *v == ']')
			k += (size_t)snprintf(out + k, n - k, "\\%c", *v);
		else if (*v == '<')
			k += (size_t)snprintf(out + k, n - k, "&lt;");
		else
			out[k++] = *v;
	out[k] = 0;
}

/* Feed one pair of sets to all three; each must give verdict want (and the same words). */
static void same_words(const double *a, const double *b, int n, const char *want, const char *tag)
{
	char pa[600], pb[600], dir[600], v[300], md[400];
	snprintf(pa, sizeof(pa), "%s/%s-a.csv", test_dir, tag);
	snprintf(pb, sizeof(pb), "%s/%s-b.csv", test_dir, tag);
	snprintf(dir, sizeof(dir), "%s/%s-report", test_dir, tag);
	write_set(pa, "ma", a, n);
	write_set(pb, "mb", b, n);
	compare_verdict(pa, pb, n < ts_min_reps() ? "0" : "1", v, sizeof(v));
	if (!strstr(v, want))
		fail_msg("%s: compare says '%s', expected '%s'", tag, v, want);
	char *rep = report_md_of(dir, pa, pb);
	md_form(v, md, sizeof(md));
	if (!strstr(rep, md))
		fail_msg("%s: report lacks compare's words '%s'", tag, md);
	char *sum = summary_text(a, b, n);
	if (!strstr(sum, v))
		fail_msg("%s: the summary lacks compare's words '%s' in:\n%s", tag, v, sum);
	if (strstr(want, "cannot reach")) { /* no direction anywhere, and the summary says so */
		const char *words[] = { "faster", "slower", "better", "worse" };
		for (int i = 0; i < 4; i++) {
			if (strstr(sum, words[i]) || strstr(rep, words[i]))
				fail_msg("%s: '%s' with too few repetitions", tag, words[i]);
		}
		assert_non_null(strstr(sum, "too few for the U test to reach p < 0.05"));
		/* the family is named as sized, not as the 0 tests that ran */
		assert_non_null(strstr(sum, "adjusted over the 0 test(s) run"));
		assert_non_null(strstr(sum, "of the family's "));
		assert_null(strstr(sum, "family's 0"));
	}
	free(rep);
	free(sum);
}

static const double base[] = { 10, 11, 9, 10.5, 9.5 }, twice[] = { 20, 22, 18, 21, 19 };
static const double close_[] = { 10.2, 9.8, 10.1, 9.9, 10 };
static const double tight[] = { 10, 10.1, 9.9, 10.05, 9.95 }; /* +-1%: the interval shows it */

static void three_outputs_one_verdict(void **state)
{
	(void)state;
	same_words(base, twice, 5, "slower by 2.00x [", "slower");
	same_words(twice, base, 5, "faster by 2.00x [", "faster");
	same_words(base, close_, 5,
		   "inconclusive: p 1 is not below 0.05; the interval [-9.09, +11.11]%", "same");
	same_words(tight, tight, 5, "no change beyond +-5%: [-1.49, +1.51]%", "equal");
	same_words(base, twice, 3,
		   "inconclusive: 3 repetitions a side cannot reach p < 0.05; 4 a side can", "few");
}

/* The smallest exact p from n a side, and the count that first reaches 0.05. */
static void small_n_rule(void **state)
{
	(void)state;
	assert_int_equal(ts_min_reps(), 4); /* 2 / C(8, 4) = 0.029; 2 / C(6, 3) = 0.1 */
	assert_true(ts_small(3, 3));
	assert_false(ts_small(4, 4));
	assert_false(ts_small(2, 9)); /* 2 / C(11, 2) = 0.036 */
	assert_true(ts_small(1, 30)); /* no interval from one value */
	struct ts_stat s;
	const double a[] = { 1, 2, 3 }, b[] = { 4, 5, 6 };
	ts_compute(a, 3, b, 3, &s);
	assert_true(s.small);
	assert_false(s.significant);
	assert_false(ts_is_test(&s));
}

static void near(const double *got, const double *want, int n)
{
	for (int i = 0; i < n; i++)
		if (fabs(got[i] - want[i]) > 1e-12)
			fail_msg("adjusted p %d: %.15g, expected %.15g", i, got[i], want[i]);
}

/* Holm (1979) step-down, worked by hand: sorted 0.01, 0.02, 0.03, 0.04, 0.05 times 5, 4, 3, 2, 1
 * = 0.05, 0.08, 0.09, 0.08, 0.05, then made non-decreasing: 0.05, 0.08, 0.09, 0.09, 0.09. Given
 * out of order, each comes back in its place. */
static void holm_worked_example(void **state)
{
	(void)state;
	const double p[] = {0.03, 0.01, 0.05, 0.02, 0.04}, want[] = {0.09, 0.05, 0.09, 0.08, 0.09};
	double adj[5];
	ts_holm(p, 5, adj);
	near(adj, want, 5);
	const double q[] = { 0.5, 0.3 }, wq[] = { 0.6, 0.6 }; /* 2 x 0.3, then max(0.6, 0.5) */
	ts_holm(q, 2, adj);
	near(adj, wq, 2);
	const double big[] = { 0.9, 0.001 }, wb[] = { 0.9, 0.002 };
	ts_holm(big, 2, adj);
	near(adj, wb, 2);
	assert_string_equal(ts_adjust(p, 5, adj), "Holm");
}

/* Benjamini-Hochberg (1995) step-up, worked by hand: sorted 0.01, 0.02, 0.03, 0.04, 0.05 times
 * 5/1, 5/2, 5/3, 5/4, 5/5 = 0.05 each; and 0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205
 * (n 8): 0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.0845714..., 0.205. */
static void bh_worked_example(void **state)
{
	(void)state;
	const double p[] = {0.05, 0.01, 0.03, 0.02, 0.04}, want[] = {0.05, 0.05, 0.05, 0.05, 0.05};
	double adj[30];
	ts_bh(p, 5, adj);
	near(adj, want, 5);
	const double q[] = { 0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205 };
	const double wq[] = { 0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.074 * 8 / 7, 0.205 };
	ts_bh(q, 8, adj);
	near(adj, wq, 8);
	/* over TS_HOLM_MAX tests the table is adjusted by BH */
	double many[TS_HOLM_MAX + 1];
	for (int i = 0; i <= TS_HOLM_MAX; i++)
		many[i] = 0.001 * (i + 1);
	assert_string_equal(ts_adjust(many, TS_HOLM_MAX + 1, adj), "BH");
	for (int i = 0; i <= TS_HOLM_MAX; i++) /* i+1 over 21, times 21 over i+1: 0.021 each */
		assert_true(fabs(adj[i] - 0.021) < 1e-12);
}

/* The verdict uses the adjusted p: a line significant alone is not once two tests share it. */
static void verdict_uses_adjusted_p(void **state)
{
	(void)state;
	struct ts_stat s;
	char v[256];
	ts_compute(base, 4, twice, 4, &s); /* fully apart: exact p 0.0286 */
	assert_true(s.significant);
	ts_verdict(&s, -1, 1, "B", v, sizeof(v));
	assert_non_null(strstr(v, "B slower by 2.00x ["));
	double p[2] = { s.p, s.p }, adj[2];
	ts_adjust(p, 2, adj);
	ts_decide(&s, adj[0]);
	assert_false(s.significant);
	ts_verdict(&s, -1, 1, "B", v, sizeof(v));
	assert_string_equal(v, "inconclusive: p 0.0571 is not below 0.05; the interval "
			       "[+72.73, +131.58]%");
}

/* Two layouts, 4 repetitions a side, B twice A in both: raw p 0.0286 each, Holm 0.057 over the
 * family's two tests. compare and the report's summary both say inconclusive, with why: 4 a side
 * cannot reach p < 0.05 over two tests. (aligned is 1.1x shared on both sides.) */
static int count_of(const char *s, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* Two machines' sets of two layouts, reps repetitions each, B twice A's writer_ns_per_op. */
static void write_two(const char *pa, const char *pb, int reps)
{
	for (int side = 0; side < 2; side++) {
		FILE *f = fopen(side ? pb : pa, "w");
		assert_non_null(f);
		fputs(HDR, f);
		for (int l = 0; l < 2; l++)
			for (int i = 0; i < reps; i++)
				fprintf(f,
					"2,pending-bit,%s,%d,32,rmw,lock,same-socket,1,1,0,0,0,"
					"0.2,0.2,%g,NA,%s,host-%s,CPU,yes,"
					"reader_ns_per_op: not measured here\n",
					l ? "aligned" : "shared", i,
					(side ? twice : base)[i] * (l ? 1.1 : 1),
					side ? "mb" : "ma", side ? "mb" : "ma");
		fclose(f);
	}
}

/* Lines with too few repetitions say how many a side can reach p < 0.05 over the family they
 * join once they have them (2 tests: 5 a side, not the 4 of a test alone), in compare and report.
 */
static void too_few_sized_for_the_family(void **state)
{
	(void)state;
	char pa[600], pb[600], dir[600];
	snprintf(pa, sizeof(pa), "%s/fam-a.csv", test_dir);
	snprintf(pb, sizeof(pb), "%s/fam-b.csv", test_dir);
	snprintf(dir, sizeof(dir), "%s/fam-report", test_dir);
	write_two(pa, pb, 3);
	const char *want = "3 repetitions a side cannot reach p < 0.05 over this family's 2 tests; "
			   "5 a side can";
	struct cmd_result r;
	run_c2c(&r, "compare", "--csv", pa, pb, NULL);
	assert_int_equal(r.status, 0);
	if (count_of(r.out, want) != 2)
		fail_msg("compare --csv: expected '%s' twice in:\n%s", want, r.out);
	char *rep = report_md_of(dir, pa, pb);
	if (!strstr(rep,
		    "3 repetitions a side cannot reach p &lt; 0.05 over this family's 2 tests; 5 a "
		    "side can"))
		fail_msg("the report sized the repetitions for a test alone:\n%s", rep);
	assert_null(strstr(rep, "4 a side can"));
	free(rep);
}

static void table_of_two_adjusted(void **state)
{
	(void)state;
	char pa[600], pb[600], dir[600];
	snprintf(pa, sizeof(pa), "%s/two-a.csv", test_dir);
	snprintf(pb, sizeof(pb), "%s/two-b.csv", test_dir);
	snprintf(dir, sizeof(dir), "%s/two-report", test_dir);
	write_two(pa, pb, 4);
	struct cmd_result r;
	run_c2c(&r, "compare", pa, pb, NULL);
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "slower by"));
	char *rep = report_md_of(dir, pa, pb);
	char *sum = strstr(rep, "## Summary");
	assert_non_null(sum);
	char *end = strstr(sum, "## Machines");
	assert_non_null(end);
	*end = 0;
	if (strstr(sum, "slower by") ||
	    !strstr(sum, "inconclusive, 2 of 2 test(s) undecided: 4 repetitions a side cannot "
			 "reach p &lt; 0.05 over this family's 2 tests; 5 a side can"))
		fail_msg("the report's summary judged each line alone:\n%s", sum);
	assert_non_null(strstr(sum, "0.0286 (Holm 0.0571)"));
	/* the detail ratio table below: the same two tests, adjusted the same way, and said */
	char *det = strstr(end + 1, "Ratios to ma");
	if (!det || strstr(end + 1, "slower by"))
		fail_msg("the report's detail table judged each line alone:\n%s", end + 1);
	assert_non_null(strstr(det,
			       "This table holds 2 tests of verdict metrics: each verdict uses its "
			       "p adjusted over them (Holm; the p column shows both)"));
	assert_non_null(strstr(det, "| shared | writer | ma | 10.25 | mb | 20.5 | 2.00 |"));
	assert_non_null(strstr(det, "| 0.0286 (Holm 0.0571) | inconclusive: 4 repetitions a side "
				    "cannot reach p &lt; 0.05 over this family's 2 tests; 5 a side "
				    "can |"));
	free(rep);
}

/* A detail ratio table of more than 20 tests (five machines, three layouts, two metrics: 24)
 * adjusts by Benjamini-Hochberg, says so, and decides on the adjusted p: a 2x change is still
 * called, the lines without one are not. */
static void detail_table_over_20_tests_bh(void **state)
{
	(void)state;
	char csv[600], dir[600], lab[16], host[24];
	const char *lay[] = { "shared", "aligned", "padded" };
	snprintf(csv, sizeof(csv), "%s/five.csv", test_dir);
	snprintf(dir, sizeof(dir), "%s/five-report", test_dir);
	FILE *f = pb_csv(csv);
	for (int m = 0; m < 5; m++)
		for (int l = 0; l < 3; l++)
			for (int rep = 0; rep < 10; rep++) {
				double noise = 1 + 0.003 * rep, slow = m == 4 && !l ? 2 : 1;
				snprintf(lab, sizeof(lab), "m%d", m);
				snprintf(host, sizeof(host), "host-%d", m);
				pb_row(f, lab, host, "CPU", lay[l], "rmw", rep, 10 * slow * noise,
				       3 * noise, 1);
			}
	fclose(f);
	char *rep = report_md_of(dir, csv, NULL);
	char *det = strstr(rep, "Ratios to m0");
	if (!det)
		fail_msg("no detail ratio table in:\n%.3000s", rep);
	if (!strstr(det, "This table holds 24 tests of verdict metrics: each verdict uses its p "
			 "adjusted over them (BH; the p column shows both)"))
		fail_msg("no count of 24 tests with BH in:\n%.3000s", det);
	const char *slow = strstr(det, "| m4 | 20."), *eol = slow ? strchr(slow, '\n') : NULL;
	if (!eol || !strstr(slow, " (BH ") || strstr(slow, " (BH ") > eol ||
	    !strstr(slow, "| slower by 2.00x") || strstr(slow, "| slower by 2.00x") > eol)
		fail_msg("no 2x line called on its BH p in:\n%.5000s", det);
	int called = 0;
	for (const char *q = det; (q = strstr(q, "slower by")); q++)
		called++;
	assert_int_equal(called, 1);
	free(rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(small_n_rule),
		cmocka_unit_test(holm_worked_example),
		cmocka_unit_test(bh_worked_example),
		cmocka_unit_test(verdict_uses_adjusted_p),
		cmocka_unit_test(three_outputs_one_verdict),
		cmocka_unit_test(table_of_two_adjusted),
		cmocka_unit_test(too_few_sized_for_the_family),
		cmocka_unit_test(detail_table_over_20_tests_bh),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}

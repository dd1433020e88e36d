/* The files that describe a result set are checked like its rows (issue 39): a .meta's row count
 * against the CSV (a shortfall named in compare's and report's first lines; a count no run writes
 * refused), a key given twice, a .meta cut short; a .columns bounded in size like a .bench, with
 * rows, each column once, each of the CSV's columns and no other, and a link that loops refused,
 * never read as "none"; a .bench of another bench, or naming a column its CSV has not, refused;
 * metric values of their kind; two declarations that disagree, or a metric declared context, give
 * no verdict. */
#include "lib/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char set[400], csv[500], meta[500], cols[500];

/* One short real run (the rules relaxed: these tests are about its files, not its validity). */
static int setup(void **s)
{
	struct cmd_result r;
	test_dir_setup(s);
	snprintf(set, sizeof(set), "%s/orig", test_dir);
	snprintf(csv, sizeof(csv), "%s/pb.csv", test_dir);
	run_c2c(&r, "run", "pending-bit", "--layout", "shared,aligned", "--duration", "0.03",
		"--warmup", "0.01", "--reps", "3", "--max-attempts", "1", LENIENT, "--quiet",
		"--out", csv, NULL);
	if (!RAN(r.status)) {
		fprintf(stderr, "setup: run: exit %d: %s\n", r.status, r.err);
		return -1;
	}
	char cmd[1400];
	snprintf(cmd, sizeof(cmd), "mkdir '%s' && cp '%s'/pb.* '%s'/", set, test_dir, set);
	return system(cmd);
}

/* A fresh copy of the run's set under NAME (its paths in csv, meta, cols). */
static void copy_set(const char *name)
{
	char cmd[1400];
	snprintf(csv, sizeof(csv), "%s/%s/pb.csv", test_dir, name);
	snprintf(meta, sizeof(meta), "%s/%s/pb.meta", test_dir, name);
	snprintf(cols, sizeof(cols), "%s/%s/pb.columns", test_dir, name);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/%s' && cp -r '%s' '%s/%s'", test_dir, name, set,
		 test_dir, name);
	assert_int_equal(system(cmd), 0);
}

static void sh(const char *fmt, const char *path)
{
	char cmd[1400];
	snprintf(cmd, sizeof(cmd), fmt, path);
	if (system(cmd))
		fail_msg("%s failed", cmd);
}

/* compare CSV against the untouched set, and report on CSV: each refused in one line holding
 * says (status 2), or (says NULL) run, its result in r. */
static void both(struct cmd_result *r, const char *says)
{
	char orig[500], out[600];
	snprintf(orig, sizeof(orig), "%s/pb.csv", set);
	run_c2c(r, "compare", orig, csv, NULL);
	if (says && (r->status != 2 || count_lines(r->err) != 1 || !strstr(r->err, says)))
		fail_msg("compare: exit %d, stderr %s (wanted '%s')", r->status, r->err, says);
	snprintf(out, sizeof(out), "%s/rep-%d", test_dir, rand());
	struct cmd_result q;
	run_c2c(&q, "report", csv, "-o", out, NULL);
	if (says && (q.status != 2 || !strstr(q.err, says)))
		fail_msg("report: exit %d, stderr %s (wanted '%s')", q.status, q.err, says);
}

/* 2 of the 6 rows lost, status complete: the first line says so, and the side is marked. */
static void rows_lost_are_named_first(void **s)
{
	(void)s;
	struct cmd_result r;
	copy_set("lost");
	sh("sed -i '$d' '%s'", csv); /* the last two rows gone */
	sh("sed -i '$d' '%s'", csv);
	char want[1200];
	snprintf(want, sizeof(want),
		 "c2cbench: warning: %s holds 4 row(s) where %s records 6: rows were lost",
		 csv, meta);
	both(&r, NULL);
	assert_int_equal(r.status, 0);
	if (strncmp(r.err, want, strlen(want)))
		fail_msg("compare's first line is not '%s': %s", want, r.err);
	if (!strstr(r.out, "; WARNING:"))
		fail_msg("no mark in: %.600s", r.out);
	char out[600];
	snprintf(out, sizeof(out), "%s/rep-lost", test_dir);
	run_c2c(&r, "report", csv, "-o", out, NULL);
	assert_int_equal(r.status, 0);
	if (strncmp(r.err, want, strlen(want)))
		fail_msg("report's first line is not '%s': %s", want, r.err);
	snprintf(out, sizeof(out), "%s/rep-lost/report.md", test_dir);
	char *md = slurp(out);
	assert_non_null(strstr(md, "Warning: 1 input(s) are marked interrupted or unfinished"));
	free(md);
}

/* A count no run writes: refused, not taken. */
static void impossible_row_counts_refused(void **s)
{
	(void)s;
	struct cmd_result r;
	const char *bad[] = { "-5", "99999999999999999999999", "abc", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char cmd[700];
		copy_set("count");
		snprintf(cmd, sizeof(cmd), "sed -i 's/^rows = .*/rows = %s/' '%%s'", bad[i]);
		sh(cmd, meta);
		both(&r, "is not accepted; accepted: the count of rows a run wrote");
	}
}

/* A key a run writes once, given twice (two labels: which is it?): refused. */
static void label_twice_refused(void **s)
{
	(void)s;
	struct cmd_result r;
	copy_set("label2");
	sh("sed -i 's/^label = .*/&\\nlabel = other/' '%s'", meta);
	both(&r, "'label' is given twice in [context]");
}

/* A .meta line longer than 511 bytes is one line: its tail ("cpu_family = 99" at byte 512, before
 * the real key) is never read as a key of its own (it would change the fingerprint its id is
 * checked against). */
static void long_meta_line_read_whole(void **s)
{
	(void)s;
	struct cmd_result r;
	copy_set("long");
	char cmd[2400];
	snprintf(cmd, sizeof(cmd),
		 "sed -i \"s/^compiler = .*/compiler = $(printf '%%0500d' 0 | tr 0 k)"
		 "cpu_family = 99/\" '%s' && grep -q 'kcpu_family = 99$' '%s'",
		 meta, meta);
	assert_int_equal(system(cmd), 0);
	both(&r, NULL);
	if (r.status || strstr(r.err, "does not match"))
		fail_msg("exit %d: %s", r.status, r.err);
}

/* A .meta cut before its [run] section: warned, the side marked. */
static void truncated_meta_warned(void **s)
{
	(void)s;
	struct cmd_result r;
	copy_set("cut");
	sh("sed -i '/^\\[validity\\]/,$d' '%s'", meta);
	both(&r, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "no [run] section (cut short?)"));
	assert_non_null(strstr(r.out, "; WARNING:")); /* marked (the line wraps after) */
}

/* X.columns: bounded like X.bench, with rows, each column once, never a loop read as none. */
static void declarations_checked(void **s)
{
	(void)s;
	struct cmd_result r;
	copy_set("big");
	sh("yes 'pad,pad,metric,ns,lower,' | head -c 1100000 >> '%s'", cols);
	both(&r, "larger than 1048576 bytes; accepted: a column declaration");
	copy_set("dup");
	char cmd[2400]; /* writer_ns_per_op again, higher is better this time */
	snprintf(cmd, sizeof(cmd),
		 "grep '^writer_ns_per_op,' '%s' | sed 's/,lower,/,higher,/' > '%s.x' && "
		 "cat '%s.x' >> '%s'",
		 cols, cols, cols, cols);
	assert_int_equal(system(cmd), 0);
	both(&r, "column 'writer_ns_per_op' is declared again (first on line");
	copy_set("empty");
	sh("sed -i '2,$d' '%s'", cols);
	both(&r, "declares no column");
	copy_set("missing"); /* a CSV column it does not declare, a column the CSV has not */
	sh("sed -i '/^seed,/d' '%s'", cols);
	both(&r, "column 'seed' is not in its declaration (X.columns)");
	copy_set("extra");
	sh("echo 'bogus_ns,bogus_ns,metric,ns,lower,not in the CSV' >> '%s'", cols);
	both(&r, "declares 'bogus_ns', which the CSV");
	copy_set("other"); /* a description of another bench is not this one's */
	char bench[600];
	snprintf(bench, sizeof(bench), "%.*s.bench", (int)strlen(cols) - 8, cols);
	sh("sed -i 's/^name = pending-bit$/name = vmalloc/' '%s'", bench);
	both(&r, "bench 'pending-bit', but its X.bench describes 'vmalloc'");
	copy_set("absent"); /* a description naming a column its CSV has not: its summary, a view */
	snprintf(bench, sizeof(bench), "%.*s.bench", (int)strlen(cols) - 8, cols);
	sh("sed -i 's/^summary = writer_ns_per_op$/summary = no_such_ns/' '%s'", bench);
	both(&r, "its summary names column 'no_such_ns', which the CSV");
	copy_set("absent");
	sh("sed -i '0,/^col = writer_ns_per_op$/s//col = no_such_ns/' '%s'", bench);
	both(&r, "its view's metric names column 'no_such_ns', which the CSV");
	copy_set("keyed"); /* a configuration it keys on that its X.columns makes a metric */
	snprintf(bench, sizeof(bench), "%.*s.bench", (int)strlen(cols) - 8, cols);
	sh("sed -i 's/^config = writers$/config = writer_ns_per_op/' '%s'", bench);
	both(&r, "its config names column 'writer_ns_per_op', which");
	assert_non_null(strstr(r.err, "pb.columns declares metric; accepted: a configuration"));
	copy_set("kinds"); /* a verdict or summary on a configuration column: never measured */
	snprintf(bench, sizeof(bench), "%.*s.bench", (int)strlen(cols) - 8, cols);
	sh("sed -i 's/^verdict = writer_ns_per_op:lower$/verdict = work_ns:lower/' '%s'", bench);
	both(&r, "its verdict names column 'work_ns', which");
	assert_non_null(strstr(r.err, "declares configuration; accepted: a metric column"));
	copy_set("kinds");
	sh("sed -i 's/^summary = writer_ns_per_op$/summary = policy/' '%s'", bench);
	both(&r, "its summary names column 'policy', which");
	copy_set("sides"); /* a view that reads the metric the other way round from X.columns */
	snprintf(bench, sizeof(bench), "%.*s.bench", (int)strlen(cols) - 8, cols);
	sh("sed -i '0,/^higher_better = 0$/s//higher_better = 1/' '%s'", bench);
	both(&r, "is higher better, where");
	assert_non_null(strstr(r.err, "declares it lower; accepted: the same side"));
	copy_set("loop");
	unlink(cols);
	assert_int_equal(symlink("pb.columns", cols), 0);
	both(&r, "Too many levels of symbolic links");
}

/* Set column col of the first data row of csv to value (and valid = yes, so an empty value is
 * one a valid row claims). */
static void set_cell(const char *col, const char *value)
{
	char cmd[2400];
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import csv, sys; r = list(csv.reader(open(sys.argv[1], "
		 "newline=\"\"))); h = r[0]; r[1][h.index(sys.argv[2])] = sys.argv[3]; "
		 "r[1][h.index(\"valid\")] = \"yes\"; r[1][h.index(\"invalid_reason\")] = \"\"; "
		 "csv.writer(open(sys.argv[1], \"w\", newline=\"\"), "
		 "lineterminator=\"\\n\").writerows(r)' '%s' '%s' '%s'",
		 csv, col, value);
	assert_int_equal(system(cmd), 0);
}

/* A rate, a time or a count is never negative, never empty in a valid row (NA says why not),
 * never subnormal: refused with file, line and column, so no ratio mixes signs. */
static void values_checked_for_their_kind(void **s)
{
	(void)s;
	struct cmd_result r;
	const char *bad[][2] = { { "-2.5", "a rate, time or count is never negative" },
				 { "1e-320", "subnormal, no measurement" },
				 { "", "writer_ns_per_op is empty in a row marked valid" } };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[700];
		copy_set("kind");
		set_cell("writer_ns_per_op", bad[i][0]);
		snprintf(want, sizeof(want), "%s:2: ", csv);
		both(&r, bad[i][1]);
		assert_non_null(strstr(r.err, want)); /* the file and line */
		assert_non_null(strstr(r.err, "writer_ns_per_op"));
	}
	copy_set("kind"); /* 0 is a count, NA a value not measured: both taken */
	set_cell("writer_ns_per_op", "0");
	both(&r, NULL);
	assert_int_equal(r.status, 0);
}

/* Two sides whose declarations of a metric disagree (A higher is better, B lower): compare names
 * the difference and gives that metric no verdict either way round (it leaves the verdict
 * family; tests/data/declared: B's ops_per_s is 2x A's, "B better by 2.00x" before). */
static void differing_declarations_get_no_verdict(void **s)
{
	(void)s;
	struct cmd_result r;
	char a[500], b[500], cmd[1600];
	snprintf(a, sizeof(a), "%s/decl/a.csv", test_dir);
	snprintf(b, sizeof(b), "%s/decl/b.csv", test_dir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/decl' && cp tests/data/declared/* '%s/decl/' && "
		 "sed -i 's/,higher,/,lower,/' '%s/decl/b.columns'",
		 test_dir, test_dir, test_dir);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "compare", a, b, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err,
			       "future ops_per_s: one input declares higher better, another lower: "
			       "the declarations differ, so it gets no verdict"));
	assert_non_null(
		strstr(r.out, "future ops_per_s: 2.000 over 2 configuration(s): not tested:"));
	assert_null(strstr(r.out, "better by"));
	assert_null(strstr(r.out, "worse by"));
	run_c2c(&r, "compare", b, a, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "one input declares lower better, another higher"));
	assert_non_null(
		strstr(r.out, "future ops_per_s: 0.500 over 2 configuration(s): not tested:"));
	assert_null(strstr(r.out, "better by"));
	assert_null(strstr(r.out, "worse by"));
	char out[600]; /* report reads them through the same engine: said there too */
	snprintf(out, sizeof(out), "%s/decl-report", test_dir);
	run_c2c(&r, "report", a, b, "-o", out, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.err, "the declarations differ"));
}

/* A side with no declaration (an older set: no X.columns, no X.bench) is read with this build's,
 * whichever side it is on: against one declaring writer_ns_per_op higher better (its X.columns;
 * no X.bench, whose views would contradict it), both orders say the declarations differ and give
 * no verdict (before, only the undeclared side first did). */
static void undeclared_side_either_way(void **s)
{
	(void)s;
	struct cmd_result r;
	char a[500], b[500], cmd[6000];
	snprintf(a, sizeof(a), "%s/undecl/A", test_dir);
	snprintf(b, sizeof(b), "%s/undecl/B", test_dir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s' '%s' && cp tests/data/schemas/v12/01-rmw.* '%s/' && "
		 "cp tests/data/schemas/v12/01-rmw.* '%s/' && rm '%s/01-rmw.columns' "
		 "'%s/01-rmw.bench' '%s/01-rmw.bench' && sed -i 's/^label = v12$/label = v12b/' "
		 "'%s/01-rmw.meta' && "
		 "sed -i 's/,v12,/,v12b,/g' '%s/01-rmw.csv' && sed -i "
		 "'s/^writer_ns_per_op,\\([^,]*\\),metric,ns,lower,/"
		 "writer_ns_per_op,\\1,metric,ns,higher,/' '%s/01-rmw.columns' && "
		 "grep -q '^writer_ns_per_op,[^,]*,metric,ns,higher,' '%s/01-rmw.columns'",
		 a, b, a, b, a, a, b, b, b, b, b);
	assert_int_equal(system(cmd), 0);
	for (int swap = 0; swap < 2; swap++) {
		run_c2c(&r, "compare", swap ? b : a, swap ? a : b, NULL);
		assert_int_equal(r.status, 0);
		if (!strstr(r.err, "pending-bit writer_ns_per_op: one input declares ") ||
		    !strstr(r.err, "the declarations differ, so it gets no verdict"))
			fail_msg("swap %d: no differing declarations named in: %s", swap, r.err);
		assert_non_null(strstr(r.out, "pending-bit writer_ns_per_op: 1.000 over 3 "
					      "configuration(s): not tested"));
	}
}

/* A metric one input declares context (or evidence, configuration) in X.columns: described, never
 * tested, either way round; said once (tests/data/declared: B's ops_per_s is 2x A's). */
static void context_declared_gets_no_verdict(void **s)
{
	(void)s;
	struct cmd_result r;
	char a[500], b[500], cmd[1600];
	snprintf(a, sizeof(a), "%s/ctx/a.csv", test_dir);
	snprintf(b, sizeof(b), "%s/ctx/b.csv", test_dir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/ctx' && cp tests/data/declared/* '%s/ctx/' && "
		 "sed -i 's/^ops_per_s,ops_per_s,metric,ops\\/s,higher,/"
		 "ops_per_s,ops_per_s,context,ops\\/s,n\\/a,/' '%s/ctx/b.columns' && "
		 "grep -q '^ops_per_s,ops_per_s,context,' '%s/ctx/b.columns'",
		 test_dir, test_dir, test_dir, test_dir);
	assert_int_equal(system(cmd), 0);
	for (int swap = 0; swap < 2; swap++) {
		run_c2c(&r, "compare", swap ? b : a, swap ? a : b, "--metric", "ops_per_s", NULL);
		assert_int_equal(r.status, 0);
		assert_int_equal(count_lines(r.err), 1);
		assert_non_null(strstr(r.err, "future ops_per_s: "));
		assert_non_null(strstr(r.err, "b.columns declares it context, not a metric, so it "
					      "gets no verdict"));
		const char *says = swap ? "future ops_per_s: 0.500 over 2 configuration(s): not "
					  "tested: an input declares it no metric"
					: "future ops_per_s: 2.000 over 2 configuration(s): not "
					  "tested: an input declares it no metric";
		assert_non_null(strstr(r.out, says));
		assert_null(strstr(r.out, "better by"));
		assert_null(strstr(r.out, "worse by"));
	}
	run_c2c(&r, "compare", a, b, NULL); /* A's metric, B's context: no verdict either */
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "not tested: an input declares it no metric"));
	assert_null(strstr(r.out, "better by"));
}

/* Two sides that declare a metric in different units (ops/s and kops/s): its ratio would mix
 * them; named, and no verdict either way round. */
static void differing_units_get_no_verdict(void **s)
{
	(void)s;
	struct cmd_result r;
	char a[500], b[500], cmd[1600];
	snprintf(a, sizeof(a), "%s/unit/a.csv", test_dir);
	snprintf(b, sizeof(b), "%s/unit/b.csv", test_dir);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/unit' && cp tests/data/declared/* '%s/unit/' && "
		 "sed -i 's/^ops_per_s,ops_per_s,metric,ops\\/s,/ops_per_s,ops_per_s,metric,"
		 "kops\\/s,/' '%s/unit/b.columns' && grep -q ',kops/s,' '%s/unit/b.columns'",
		 test_dir, test_dir, test_dir, test_dir);
	assert_int_equal(system(cmd), 0);
	for (int swap = 0; swap < 2; swap++) {
		run_c2c(&r, "compare", swap ? b : a, swap ? a : b, NULL);
		assert_int_equal(r.status, 0);
		const char *says = swap ? "declares it in 'kops/s', another in 'ops/s'"
					: "declares it in 'ops/s', another in 'kops/s'";
		assert_non_null(strstr(r.err, says));
		assert_non_null(strstr(r.out, "not tested: the inputs declare its unit "
					      "differently"));
		assert_null(strstr(r.out, "better by"));
		assert_null(strstr(r.out, "worse by"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_lost_are_named_first),
		cmocka_unit_test(impossible_row_counts_refused),
		cmocka_unit_test(label_twice_refused),
		cmocka_unit_test(long_meta_line_read_whole),
		cmocka_unit_test(truncated_meta_warned),
		cmocka_unit_test(declarations_checked),
		cmocka_unit_test(values_checked_for_their_kind),
		cmocka_unit_test(differing_declarations_get_no_verdict),
		cmocka_unit_test(undeclared_side_either_way),
		cmocka_unit_test(context_declared_gets_no_verdict),
		cmocka_unit_test(differing_units_get_no_verdict),
	};
	return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}

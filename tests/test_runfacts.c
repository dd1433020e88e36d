/* A run's settings in its .meta's [run] section (schema/runfacts.h): written and read back the
 * same, a value no run writes refused in one line, an older .meta read as unknown; and the run
 * summary reads them: `c2cbench summary` of a run prints what the run printed. */
#include "schema/runfacts.h"
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[] = "/tmp/c2c-runfacts.XXXXXX";

static void write_meta(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void round_trip(void **state)
{
	(void)state;
	struct run_facts w = { 0 }, r;
	char path[128], err[ERRLEN];
	w.known = 1, w.reps = 7, w.reps_auto = 1, w.ci_width = 0.05, w.max_reps = 30, w.max_s = 90;
	w.attempts = 3, w.cv_warn = 2.5, w.keep_invalid = 1;
	run_facts_add_var(&w, "shared");
	run_facts_add_var(&w, "aligned");
	snprintf(w.stop[1].how, sizeof(w.stop[1].how), "ci");
	w.stop[1].rounds = 6, w.stop[1].width = 0.031;
	w.fixed = calloc(1, sizeof(*w.fixed));
	w.fixed[0] = (struct run_fixed){ 1, xstrdup("over_pct"), xstrdup("more; than lazy_max") };
	w.nfixed = 1;
	snprintf(path, sizeof(path), "%s/a.meta", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "[context]\nlabel = x\n\n[run]\nstatus = complete\n");
	run_facts_put(f, &w);
	fclose(f);
	assert_int_equal(run_facts_read(&r, path, err), 0);
	assert_true(r.known);
	assert_int_equal(r.reps, 7);
	assert_true(r.reps_auto);
	assert_true(r.ci_width == 0.05 && r.max_reps == 30 && r.max_s == 90);
	assert_int_equal(r.attempts, 3);
	assert_true(r.cv_warn == 2.5);
	assert_true(r.keep_invalid);
	assert_int_equal(r.nvar, 2);
	assert_int_equal(run_facts_var(&r, "aligned"), 1);
	assert_int_equal(run_facts_var(&r, "padded"), -1);
	assert_string_equal(r.stop[1].how, "ci");
	assert_int_equal(r.stop[1].rounds, 6);
	assert_true(r.stop[0].how[0] == 0 && r.stop[0].width < 0);
	assert_int_equal(r.nfixed, 1);
	assert_int_equal(r.fixed[0].var, 1);
	assert_string_equal(r.fixed[0].metric, "over_pct");
	assert_string_equal(r.fixed[0].why, "more, than lazy_max"); /* ';' is INI's comment */
	run_facts_free(&r);
	run_facts_free(&w);
}

/* Many variants are found by name at once (a 768-PU matrix names 589,056). */
static void many_variants(void **state)
{
	(void)state;
	struct run_facts r = { 0 };
	char name[32];
	for (int i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "%d-%d/cas", i, i + 1);
		assert_int_equal(run_facts_add_var(&r, name), i);
	}
	for (int i = 4999; i >= 0; i -= 7) {
		snprintf(name, sizeof(name), "%d-%d/cas", i, i + 1);
		assert_int_equal(run_facts_var(&r, name), i);
	}
	run_facts_free(&r);
}

static void older_and_refused(void **state)
{
	(void)state;
	struct run_facts r;
	char path[128], err[ERRLEN];
	snprintf(path, sizeof(path), "%s/old.meta", dir);
	write_meta(path, "[context]\nlabel = x\n\n[run]\nstatus = complete\nrows = 4\n");
	assert_int_equal(run_facts_read(&r, path, err), 0);
	assert_false(r.known); /* an older set: the summary derives them from its rows */
	run_facts_free(&r);
	assert_int_equal(run_facts_read(&r, "/nonexistent/x.meta", err), 0);
	assert_false(r.known);
	static const char *const bad[] = {
		"reps = 0\n", "reps = five\n", "reps = 1000001\n", "max_attempts = -1\n",
		"cv_warn = nan\n",
		"keep_invalid = maybe\n", "variant = a\nvariant = a\n",
		"variant = a\nby_construction = 3 over_pct why\n",
		"variant = a\nstop = 0 ci 2 0.1\n", "reps_auto_rule = 0.05 30\n",
		"variant = a\nreps_auto = yes\nvariant = b\nstop = 1 ci 2 0.1\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[256];
		snprintf(text, sizeof(text), "[run]\nstatus = complete\n%s", bad[i]);
		write_meta(path, text);
		err[0] = 0;
		if (run_facts_read(&r, path, err) != -1)
			fail_msg("accepted: %s", bad[i]);
		assert_non_null(strstr(err, "is not accepted; accepted:"));
		assert_null(strchr(err, '\n'));
	}
}

/* The summary a run prints is `c2cbench summary` of its files, whole: the table, the changes and
 * verdicts, the counters' line. Relaxed rules so that a loaded machine still gives rows; a run that
 * measured nothing (exit 4) still prints its summary, the same. */
static void summary_is_the_runs(void **state)
{
	(void)state;
	char csv[128];
	struct cmd_result run, sum;
	snprintf(csv, sizeof(csv), "%s/run.csv", dir);
	run_c2c(&run, "run", "pending-bit", "--layout", "shared,aligned", "--reps", "4",
		"--duration", "0.02", "--warmup", "0.01", "--valid-oncpu", "0", "--out", csv, NULL);
	if (run.status != 0 && run.status != 4)
		fail_msg("run exited %d: %s", run.status, run.err);
	run_c2c(&sum, "summary", csv, NULL);
	assert_int_equal(sum.status, 0);
	assert_non_null(strstr(sum.out, "pending-bit: 4 repetition(s) requested"));
	if (!strstr(run.out, sum.out))
		fail_msg("the run printed:\n%s\n---\nsummary printed:\n%s", run.out, sum.out);
}

/* A copy of run.csv's result set (from summary_is_the_runs) as NAME.*, its .meta edited by the sed
 * script; fails unless the edited .meta matches grep_re. Returns the copy's CSV path. */
static const char *edited_run(const char *name, const char *sed, const char *grep_re)
{
	static char path[160];
	char cmd[1200];
	snprintf(cmd, sizeof(cmd),
		 "cd %s && for x in csv columns bench; do cp run.$x %s.$x; done && "
		 "sed '%s' run.meta > %s.meta && grep -q '%s' %s.meta",
		 dir, name, sed, name, grep_re, name);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/%s.csv", dir, name);
	return path;
}

/* A .meta that says fewer repetitions and attempts than its rows hold (edited, or another run's):
 * the summary sizes what it keeps by the rows, and prints; under `make asan` an overrun fails. */
static void meta_says_fewer(void **state)
{
	(void)state;
	struct cmd_result sum;
	run_c2c(&sum, "summary",
		edited_run("fewer",
			   "s/^reps = .*/reps = 1/; s/^max_attempts = .*/max_attempts = 1/",
			   "^reps = 1$"),
		NULL);
	assert_int_equal(sum.status, 0);
	assert_non_null(strstr(sum.out, "pending-bit: 1 repetition(s) requested"));
}

/* A CSV to standard output is no result set of its own: the summary (on standard error) reads a
 * private whole copy, which is gone afterwards. */
static void summary_of_standard_output(void **state)
{
	(void)state;
	char tmp[128], cmd[200];
	struct cmd_result run;
	snprintf(tmp, sizeof(tmp), "%s/tmp", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", tmp);
	assert_int_equal(system(cmd), 0);
	setenv("TMPDIR", tmp, 1);
	run_c2c(&run, "run", "pending-bit", "--layout", "shared,aligned", "--reps", "2",
		"--duration", "0.02", "--warmup", "0.01", "--valid-oncpu", "0", "--out", "-", NULL);
	unsetenv("TMPDIR");
	if (run.status != 0 && run.status != 4)
		fail_msg("run exited %d: %s", run.status, run.err);
	assert_true(!strncmp(run.out, "schema_version,", 15)); /* the CSV, and only it */
	assert_null(strstr(run.out, "repetition(s) requested"));
	assert_non_null(strstr(run.err, "pending-bit: 2 repetition(s) requested"));
	snprintf(cmd, sizeof(cmd), "rmdir %s", tmp); /* fails unless empty */
	assert_int_equal(system(cmd), 0);
}

/* A set from before the .meta recorded the run's settings says so, and where it reads them from;
 * a column its schema lacks reads "not recorded", never as an unmeasured value; a line without a
 * test says why: no valid value of which side, or the bench's reason for a bound. */
static void older_set_says_what_it_lacks(void **state)
{
	(void)state;
	struct cmd_result sum;
	char path[160];
	run_c2c(&sum, "summary",
		"results/reference/epyc-zen3-kvm-2vcpu/vm-20261201T154250-quick/01-rmw.csv", NULL);
	assert_int_equal(sum.status, 0);
	assert_non_null(strstr(sum.out, "pending-bit: up to 5 repetition(s) in its rows; 3 of 18"));
	assert_non_null(strstr(sum.out, "(its .meta does not record the run's settings: they are "
					"read from its rows)"));
	assert_non_null(strstr(sum.out, "its rows show up to 2 attempt(s) a repetition"));
	assert_null(strstr(sum.out, "requested"));
	assert_null(strstr(sum.out, "--max-attempts"));
	assert_non_null(strstr(sum.out, "shared   5 of 5        NA (not recorded, schema 6)"));
	assert_non_null(strstr(sum.out, "writer_rmw_per_s: NA (not recorded, schema 6)\n"));
	assert_null(strstr(sum.out, "NA: NA"));
	assert_null(strstr(sum.out, "(A), each line B"));
	assert_non_null(strstr(sum.out, "change against 'shared', each line a variant: "));
	/* a directory given with a trailing slash names its files once each, without "//" */
	run_c2c(&sum, "summary", "results/reference/epyc-zen3-kvm-2vcpu/vm-20261201T154250-quick/",
		NULL);
	assert_int_equal(sum.status, 0);
	assert_non_null(strstr(sum.out, "== results/reference/epyc-zen3-kvm-2vcpu/"
					"vm-20261201T154250-quick/01-rmw.csv\n"));
	assert_null(strstr(sum.out, "//"));
	/* the baseline has no valid value of a metric; a bound the run declared */
	snprintf(path, sizeof(path), "%s/older.csv", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "schema_version,bench,layout,rep,threads,cycle_ns,cycle_cpu_ns,valid\n");
	for (int r = 0; r < 5; r++)
		fprintf(f, "7,vmalloc,shared,%d,2,%d,NA,yes\n7,vmalloc,section,%d,2,%d,%d,yes\n", r,
			1000 + r, r, 900 + r, 900 + r);
	fclose(f);
	run_c2c(&sum, "summary", path, NULL);
	assert_int_equal(sum.status, 0);
	assert_non_null(strstr(sum.out, "cycle_cpu_ns: NA (no valid value of the baseline)\n"));
	run_c2c(&sum, "summary",
		edited_run("bound",
			   "s/^variant = aligned$/variant = aligned\\nby_construction = 1 "
			   "reader_ns_per_op made up here/",
			   "^by_construction = 1 "),
		NULL);
	assert_int_equal(sum.status, 0);
	assert_non_null(strstr(sum.out, "reader_ns_per_op: not tested: made up here\n"));
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(many_variants),
		cmocka_unit_test(older_and_refused),
		cmocka_unit_test(summary_is_the_runs),
		cmocka_unit_test(meta_says_fewer),
		cmocka_unit_test(summary_of_standard_output),
		cmocka_unit_test(older_set_says_what_it_lacks),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

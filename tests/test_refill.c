/* The refill bench end to end: known answers from the real binary, and its refusals of bad input.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <pthread.h>
#include <unistd.h>
#include <linux/capability.h>
#include "tests/testutil.h"
#include "lib/csvread.h"

/* Field `col` of data row `row` (0-based) of a CSV text, copied into out; -1 when either is absent.
 */
static int csv_field(const char *csv, int row, const char *col, char *out, size_t n)
{
	struct table t;
	csv_load_text(&t, "refill.csv", csv);
	const char *v = table_get(&t, row, col);
	if (v)
		snprintf(out, n, "%s", v);
	table_free(&t);
	return v ? 0 : -1;
}

static long csv_long(const char *csv, int row, const char *col)
{
	char v[128];
	assert_int_equal(csv_field(csv, row, col, v, sizeof(v)), 0);
	return strtol(v, NULL, 10);
}

/* Run the bench with --out in a fresh directory and up to 15 more arguments (NULL-terminated);
 * returns the CSV text (caller frees) or NULL. */
static char *run_refill_v(struct cmd_result *r, const char *const *a)
{
	char *dir = temp_dir(), path[512];
	snprintf(path, sizeof(path), "%s/refill.csv", dir);
	/* the model's counts, not the validity rules, are under test: relaxed (a loaded machine
	 * would otherwise exit 4 with every attempt invalid) */
	run_c2c(r, "run", "refill", "--quiet", LENIENT, "--out", path, a[0], a[1], a[2], a[3], a[4],
		a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], NULL);
	/* even so a configuration may get no valid repetition (exit 4): its rows keep the model's
	 * counts, which the tests check, and each invalid one says why */
	if (!RAN(r->status))
		fail_msg("exit %d: %s", r->status, r->err);
	if (r->status == 4) {
		struct table t;
		csv_load(&t, path);
		for (long i = 0; i < t.nrows; i++)
			row_measured(&t, i);
		table_free(&t);
		print_message("exit 4 (a loaded host): the counts are checked on invalid rows\n");
	}
	char *csv = slurp(path);
	rm_rf(dir);
	free(dir);
	return csv;
}
#define run_refill(r, ...) run_refill_v(r, (const char *const[16]){ __VA_ARGS__, NULL })

/* An invariant of the model, not a measurement: with --hold token the bound worker cannot run
 * during the burst (it must take the token the caller holds), so successes equal the initial
 * reserve by construction. The test guards the construction; the measurements are unbound's counts
 * and slice's. */
static void test_token_bound_gets_exactly_the_reserve(void **state)
{
	(void)state;
	static struct cmd_result r;
	char *csv = run_refill(&r, "--worker", "bound", "--attempts", "4096", "--alloc-ns", "0",
			       "--max-attempts", "1", "--reps", "2", "--warmup", "0.01");
	assert_true(RAN(r.status)); /* 4: see run_refill_v */
	assert_non_null(csv);
	for (int row = 0; row < 2; row++) {
		assert_int_equal(csv_long(csv, row, "allocs_ok"), 2 * 512);
		assert_int_equal(csv_long(csv, row, "allocs_failed"), 4096 - 2 * 512);
		assert_int_equal(csv_long(csv, row, "retries_ok"), 0);
		assert_int_equal(csv_long(csv, row, "worker_runs"), 0);
		assert_int_equal(csv_long(csv, row, "pages_populated"), 0);
		assert_int_equal(csv_long(csv, row, "initial_reserve_objs"), 1024);
		assert_int_equal(csv_long(csv, row, "caller_cpu"),
				 csv_long(csv, row, "worker_cpu"));
		assert_true(csv_long(csv, row, "reserve_empty_ns") > 0);
		/* the state bound to the caller's node (mem_node), found there or not found */
		long planned = csv_long(csv, row, "mem_node"),
		     found = csv_long(csv, row, "mem_node_actual");
		assert_true(planned >= 0);
		assert_true(found == -1 || found == planned);
	}
	free(csv);
	/* another configuration: 16-byte objects, 3 empty pages and 100 objects left in a partial
	 * page */
	csv = run_refill(&r, "--worker", "bound", "--attempts", "2000", "--size", "16",
			 "--initial-empty", "3", "--initial-partial=100");
	assert_true(RAN(r.status)); /* 4: see run_refill_v */
	assert_non_null(csv);
	assert_int_equal(csv_long(csv, 0, "allocs_ok"), 3 * 256 + 100);
	assert_int_equal(csv_long(csv, 0, "allocs_failed"), 2000 - 868);
	free(csv);
}

/* The burst ends early only when asked: after --max-failures failures, or at a --duration given. */
static void test_burst_caps(void **state)
{
	(void)state;
	static struct cmd_result r;
	char v[64];
	char *csv = run_refill(&r, "--worker", "bound", "--attempts", "100000", "--max-failures",
			       "100", "--warmup", "0.01");
	assert_true(RAN(r.status)); /* 4: see run_refill_v */
	assert_non_null(csv);
	assert_int_equal(csv_long(csv, 0, "allocs_ok"), 1024);
	assert_int_equal(csv_long(csv, 0, "allocs_failed"), 100);
	assert_int_equal(csv_long(csv, 0, "attempts_made"), 1124);
	assert_int_equal(csv_field(csv, 0, "burst_end", v, sizeof(v)), 0);
	assert_string_equal(v, "max_failures");
	free(csv);
	/* 1000000 attempts at 4 us or more each would take seconds: the 0.05 s cap ends the burst
	 */
	csv = run_refill(&r, "--worker", "bound", "--attempts", "1000000", "--duration", "0.05",
			 "--warmup", "0.01");
	assert_true(RAN(r.status)); /* 4: see run_refill_v */
	assert_non_null(csv);
	assert_int_equal(csv_field(csv, 0, "burst_end", v, sizeof(v)), 0);
	assert_string_equal(v, "duration");
	assert_true(csv_long(csv, 0, "attempts_made") < 1000000);
	assert_int_equal(csv_long(csv, 0, "allocs_ok"), 1024);
	free(csv);
}

/* unbound on two or more CPUs: the worker refills on the other CPU; a long retry window absorbs a
 * loaded machine's scheduling delays, so no allocation fails. */
static void test_unbound_has_no_failures(void **state)
{
	(void)state;
	static struct cmd_result r;
	if (usable_cpus() < 2)
		skip();
	char *csv = run_refill(&r, "--worker", "unbound", "--attempts", "16384", "--retries",
			       "100000", "--retry-ns", "20000", "--max-attempts", "1", "--reps",
			       "1", "--warmup", "0.01");
	assert_true(RAN(r.status)); /* 4: see run_refill_v */
	assert_non_null(csv);
	assert_int_equal(csv_long(csv, 0, "allocs_failed"), 0);
	assert_int_equal(csv_long(csv, 0, "allocs_ok"), 16384);
	assert_true(csv_long(csv, 0, "worker_runs") > 0);
	/* 16384 objects need 32 pages, 1024 came from the reserve: at least 30 were populated */
	assert_true(csv_long(csv, 0, "pages_populated") >= 30);
	assert_true(csv_long(csv, 0, "caller_cpu") != csv_long(csv, 0, "worker_cpu"));
	free(csv);
}

/* The summary's first line of a worker mode, its first table's ("bound    2 of 2 ..."). */
static void table_line(const char *out, const char *mode, char *line, size_t n)
{
	char want[64];
	snprintf(want, sizeof(want), "\n%s ", mode);
	const char *p = strstr(out, want);
	if (!p)
		fail_msg("no summary line for %s in: %s", mode, out);
	snprintf(line, n, "%.*s", (int)strcspn(p + 1, "\n"), p + 1);
	assert_non_null(strstr(line, " of ")); /* valid N of M */
}

/* The summary puts no invariant beside a measurement: under --hold token bound's counts are a
 * bound, printed with the reason, and neither a ratio nor a change is taken against them; under
 * --hold slice (a measurement) the ratio is back. */
static void test_summary_prints_the_reserve_as_a_bound(void **state)
{
	(void)state;
	static struct cmd_result r;
	char *dir = temp_dir(), path[512];
	const char *workers = usable_cpus() < 2 ? "bound" : "bound,unbound";
	snprintf(path, sizeof(path), "%s/refill.csv", dir);
	run_c2c(&r, "run", "refill", "--worker", workers, "--attempts", "4096", "--alloc-ns", "0",
		"--max-attempts", "1", "--reps", "2", "--warmup", "0.01", LENIENT, "--out", path,
		NULL);
	/* 4: a worker with no valid repetition (a loaded host). The bound is printed as one all
	 * the same, its value only where a repetition of bound measured */
	if (!RAN(r.status))
		fail_msg("exit %d: %s", r.status, r.err);
	struct table t;
	int bound_ok = 0;
	csv_load(&t, path);
	for (long i = 0; i < t.nrows; i++)
		if (!strcmp(csv_cell(&t, i, "worker"), "bound")) {
			/* the rows keep the model's counts, valid or not */
			assert_string_equal(csv_cell(&t, i, "allocs_ok"), "1024");
			assert_string_equal(csv_cell(&t, i, "allocs_failed"), "3072");
			bound_ok += row_measured(&t, i);
		}
	table_free(&t);
	const char *fixed = strstr(r.out, "fixed by construction: a bound, not a measurement");
	assert_non_null(fixed);
	char line[300];
	table_line(r.out, "bound", line, sizeof(line));
	if (bound_ok) {
		assert_non_null(strstr(fixed, "\nbound    allocs_ok = 1024: the initial reserve"));
		assert_non_null(strstr(fixed, "\nbound    allocs_failed = 3072: "));
		/* its ratio cell */
		assert_non_null(strstr(line, bound_ok == 2 ? "1024 [1024..1024] (0.0%)   bound"
							   : "1024 (CV NA)   bound"));
	} else { /* named a bound without a value; no ratio to it */
		print_message("bound measured nothing (exit 4): its values are not checked\n");
		assert_non_null(strstr(fixed, "\nbound    allocs_ok: the initial reserve"));
		assert_non_null(strstr(line, "NA (no valid value)   bound"));
	}
	if (strchr(workers, ',')) { /* unbound's allocs_ok and allocs_failed: no ratio to a bound */
		table_line(r.out, "unbound", line, sizeof(line));
		const char *na = strstr(line, "     NA"); /* a ratio cell, %7s */
		assert_non_null(na);
		assert_non_null(strstr(na + 1, "     NA"));
		if (r.status == 0) /* the changes against bound: none taken, each said why */
			assert_non_null(
			    strstr(r.out, "allocs_ok: not tested: the initial reserve"));
		else if (!strstr(r.out, "allocs_ok: not tested: the initial reserve"))
			print_message("exit 4: no change lines against bound to check\n");
	}
	snprintf(path, sizeof(path), "%s/slice.csv", dir);
	run_c2c(&r, "run", "refill", "--worker", "bound", "--hold", "slice", "--attempts", "4096",
		"--max-attempts", "1", "--reps", "1", "--warmup", "0.01", LENIENT, "--out", path,
		NULL);
	if (!RAN(r.status))
		fail_msg("exit %d: %s", r.status, r.err);
	assert_null(strstr(r.out, "fixed by construction"));
	table_line(r.out, "bound", line, sizeof(line));
	if (r.status == 0) {
		assert_non_null(strstr(line, "   1.000")); /* allocs_ok: its ratio to itself */
	} else { /* its one attempt invalid (a loaded host): a measurement, with no value */
		print_message("--hold slice measured nothing (exit 4): its ratio is not checked\n");
		assert_non_null(strstr(line, "NA (no valid value)      NA"));
		check_measured_nothing(r.err, path, "worker bound");
	}
	rm_rf(dir);
	free(dir);
}

static void *probe_fifo(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };
	*(int *)arg = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	return NULL;
}

static int can_fifo(void)
{
	pthread_t t;
	int e = -1;
	assert_int_equal(pthread_create(&t, NULL, probe_fifo, &e), 0);
	pthread_join(t, NULL);
	return e == 0;
}

/* fifo, where the privilege exists: the SCHED_FIFO caller keeps the bound worker off its CPU. */
static void test_fifo_bound_gets_exactly_the_reserve(void **state)
{
	(void)state;
	static struct cmd_result r;
	if (!can_fifo()) {
		print_message(
		    "no privilege for SCHED_FIFO here: the fifo known answer is not checked\n");
		skip();
	}
	char *csv = run_refill(&r, "--worker", "bound", "--hold", "fifo", "--attempts", "4096",
			       "--max-attempts", "1", "--reps", "1");
	assert_true(RAN(r.status)); /* 4: see run_refill_v */
	assert_non_null(csv);
	assert_int_equal(csv_long(csv, 0, "allocs_ok"), 1024);
	assert_int_equal(csv_long(csv, 0, "worker_runs"), 0);
	free(csv);
}

/* Run the binary in a child restricted by setup(); the result comes back through shared memory. */
static void run_restricted(struct cmd_result *out, int (*setup)(void), const char *const *args)
{
	struct cmd_result *shared = mmap(NULL, sizeof(*shared), PROT_READ | PROT_WRITE,
					 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	assert_true(shared != MAP_FAILED);
	shared->status = -1;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		if (setup()) {
			shared->status = -2; /* the restriction could not be made */
			_exit(0);
		}
		run_c2cv(shared, args);
		_exit(0);
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	memcpy(out, shared, sizeof(*out));
	munmap(shared, sizeof(*shared));
}

/* No CAP_SYS_NICE for anything this child executes, and no RLIMIT_RTPRIO either. */
static int drop_rt_privilege(void)
{
	struct rlimit rl = { 0, 0 };
	if (setrlimit(RLIMIT_RTPRIO, &rl))
		return -1;
	if (prctl(PR_CAPBSET_READ, CAP_SYS_NICE, 0, 0, 0) == 1 &&
	    prctl(PR_CAPBSET_DROP, CAP_SYS_NICE, 0, 0, 0))
		return geteuid() == 0
			   ? -1
			   : 0; /* non-root without CAP_SETPCAP has no CAP_SYS_NICE after exec */
	return 0;
}

static void test_fifo_without_privilege_is_refused(void **state)
{
	(void)state;
	static struct cmd_result r;
	/* the bound worker alone: the unbound one's need of a second CPU is not refused first */
	const char *const args[] = { "run", "refill", "--hold", "fifo", "--worker", "bound",
				     "--attempts", "64", "--out", "/nonexistent/x.csv", NULL };
	run_restricted(&r, drop_rt_privilege, args);
	if (r.status == -2) {
		print_message("cannot drop CAP_SYS_NICE here: the fifo refusal is not checked\n");
		skip();
	}
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "c2cbench: error: --hold fifo"));
	assert_non_null(strstr(r.err, "CAP_SYS_NICE"));
	assert_string_equal(r.out, "");
}

static int one_cpu(void)
{
	cpu_set_t s, one;
	CPU_ZERO(&one);
	if (sched_getaffinity(0, sizeof(s), &s))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &s)) {
			CPU_SET(c, &one);
			return sched_setaffinity(0, sizeof(one), &one);
		}
	return -1;
}

/* `taskset -c N`: unbound has nowhere to go, and says so; bound still runs. */
static void test_one_cpu_refuses_unbound(void **state)
{
	(void)state;
	static struct cmd_result r;
	const char *const unbound[] = { "run",	      "refill", "--worker", "bound,unbound",
					"--attempts", "64",	"--out",    "/nonexistent/x.csv",
					NULL };
	run_restricted(&r, one_cpu, unbound);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err,
			       "c2cbench: error: --worker unbound needs a CPU other than the "
			       "caller's"));
	char *dir = temp_dir(), path[512];
	snprintf(path, sizeof(path), "%s/one.csv", dir);
	const char *const bound[] = { "run", "refill", "--worker", "bound", "--attempts",
				      "64",  "--out",  path,	   NULL };
	run_restricted(&r, one_cpu, bound);
	/* ran, not refused: 4 where its one CPU got too little of a loaded host (seen inside the
	 * cloud-shared-l3 guest beside another guest), with its rows written all the same */
	assert_true(RAN(r.status));
	assert_true(file_exists(path));
	rm_rf(dir);
	free(dir);
}

/* Bad values: one line naming the value and what is accepted, exit 2, nothing measured or written.
 */
static void test_bad_input(void **state)
{
	(void)state;
	static struct cmd_result r;
	const char *const bad[][2] = {
		{ "--size", "0" },	    { "--size", "-8" },
		{ "--size", "6" },	    { "--size", "8192" },
		{ "--attempts", "0" },	    { "--attempts", "-5" },
		{ "--retries", "-1" },	    { "--chunk-pages", "0" },
		{ "--chunk-pages", "1" },   { "--initial-partial", "512" },
		{ "--alloc-ns", "-2" },	    { "--populate-ns", "x" },
		{ "--worker", "sideways" }, { "--worker", "bound,bound" },
		{ "--worker", "" },	    { "--hold", "nap" },
		{ "--duration", "0" },	    { "--warmup", "-1" },
		{ "--caller-cpu", "9999" }, { "--caller-cpu", "one" },
		{ "--worker-cpu", "-1" },   { "--placement", "spread" },
		{ "--max-failures", "-1" },
	};
	char *dir = temp_dir(), path[512];
	snprintf(path, sizeof(path), "%s/bad.csv", dir);
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		run_c2c(&r, "run", "refill", "--attempts", "64", "--out", path, bad[k][0],
			bad[k][1], NULL);
		if (r.status != 2 || count_lines(r.err) != 1 || !strstr(r.err, "c2cbench: error: "))
			fail_msg("%s %s: status %d, stderr '%s'", bad[k][0], bad[k][1], r.status,
				 r.err);
		assert_false(file_exists(path));
		assert_string_equal(r.out, "");
	}
	/* the unbound worker cannot share the caller's CPU; the bound one takes no --worker-cpu.
	 * The CPU is one this process may use: CPU 0 need not be (taskset, a container's cpuset).
	 */
	cpu_set_t aff;
	char cpu[16];
	int c0 = 0;
	assert_int_equal(sched_getaffinity(0, sizeof(aff), &aff), 0);
	while (!CPU_ISSET(c0, &aff))
		c0++;
	snprintf(cpu, sizeof(cpu), "%d", c0);
	run_c2c(&r, "run", "refill", "--caller-cpu", cpu, "--worker-cpu", cpu, "--out", path, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "is not accepted; accepted: not the caller's ("));
	run_c2c(&r, "run", "refill", "--worker", "bound", "--worker-cpu", "0", "--out", path, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_false(file_exists(path));
	rm_rf(dir);
	free(dir);
}

/* --dry-run shows where the threads go and runs nothing; --help documents the options. */
static void test_dry_run_and_help(void **state)
{
	(void)state;
	static struct cmd_result r;
	run_c2c(&r, "run", "refill", "--dry-run", "--topology",
		"synthetic:pack:2 numa:2 core:4 pu:2", NULL);
	if (r.status)
		fail_msg("status %d: %s", r.status, r.err);
	assert_non_null(strstr(r.out, "worker: bound unbound"));
	assert_non_null(strstr(r.out, "caller"));
	assert_non_null(strstr(r.out, "worker 0 bound, worker 1 unbound"));
	/* the plan: under --hold token bound's verdict metrics are bounds, so no test within the
	 * run, as the summary will say; the verdict is compare's, with the change it can call */
	char *plan = strstr(r.out, "refill plan: ");
	assert_non_null(plan);
	text_unwrap(plan);
	assert_non_null(strstr(plan, "no verdict within the run (fixed by construction: allocs_ok "
				     "of bound (the initial reserve"));
	assert_non_null(strstr(plan, "allocs_failed of bound (attempts past the reserve"));
	assert_non_null(strstr(plan, "between machines, compare's verdict, 4 test(s) (allocs_ok, "
				     "allocs_failed of each worker): at a CV of 5% (--cv-warn) it "
				     "calls a change of "));
	assert_null(strstr(plan, "against the baseline"));
	run_c2c(&r, "run", "refill", "--hold", "slice", "--dry-run", "--topology",
		"synthetic:pack:2 numa:2 core:4 pu:2", NULL);
	assert_int_equal(r.status, 0);
	plan = strstr(r.out, "refill plan: ");
	assert_non_null(plan);
	text_unwrap(plan);
	assert_non_null(strstr(plan, "the verdict, 2 test(s) (allocs_ok, allocs_failed against the "
				     "baseline): at a CV of 5%"));
	run_c2c(&r, "run", "refill", "--help", NULL);
	assert_int_equal(r.status, 0);
	const char *opts[] = { "--worker",   "--hold",	      "--attempts",    "--retries",
			       "--alloc-ns", "--populate-ns", "--max-failures" };
	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++)
		assert_non_null(strstr(r.out, opts[k]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_token_bound_gets_exactly_the_reserve),
		cmocka_unit_test(test_burst_caps),
		cmocka_unit_test(test_unbound_has_no_failures),
		cmocka_unit_test(test_summary_prints_the_reserve_as_a_bound),
		cmocka_unit_test(test_fifo_bound_gets_exactly_the_reserve),
		cmocka_unit_test(test_fifo_without_privilege_is_refused),
		cmocka_unit_test(test_one_cpu_refuses_unbound),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_dry_run_and_help),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

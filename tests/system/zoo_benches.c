/* The zoo's bench checks: pingpong's classes and rounds, vmalloc's spread workers, refill's and
 * shepherd's model expectations on many CPUs, and the cmocka suite run inside the guest. */
#include "tests/system/zoo_rows.h"
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The class of a pair by the guest's sysfs, in pingpong's words. */
static const char *sysfs_class(int a, int b)
{
	const struct zoo_cpu *x = zoo_cpu(&zoo, a), *y = zoo_cpu(&zoo, b);
	assert_non_null(x);
	assert_non_null(y);
	if (x->core == y->core)
		return "smt";
	if (x->llc >= 0 && x->llc == y->llc)
		return "same-llc";
	return x->pkg == y->pkg ? "same-package" : "cross-package";
}

/* The rows of pingpong's run NAME (checks/pingpong.sh), which must have exited 0. */
static void pp_rows(struct table *t, const char *name)
{
	char dir[4096], file[64];
	zoo_check_dir(dir, sizeof(dir), "pingpong");
	zoo_ran(dir, name);
	snprintf(file, sizeof(file), "%s.csv", name);
	zoo_table(t, dir, file);
}

/* Every pair of the guest's CPUs once, each row's class as the guest's sysfs has it. */
void zoo_pingpong(void **s)
{
	(void)s;
	struct table t;
	pp_rows(&t, "all");
	long n = zoo.ncpus;
	assert_int_equal(t.nrows, n * (n - 1) / 2);
	char *seen = calloc((size_t)(n * n), 1);
	for (long r = 0; r < t.nrows; r++) {
		int a = (int)zoo_cell_int(&t, r, "cpu_a"), b = (int)zoo_cell_int(&t, r, "cpu_b");
		const char *want = sysfs_class(a, b), *got = table_get(&t, r, "class");
		if (strcmp(want, got))
			print_message("pair %d-%d: pingpong says %s, the guest's sysfs %s\n", a, b,
				      got, want);
		assert_string_equal(got, want);
		int lo = a < b ? a : b, hi = a < b ? b : a;
		assert_true(hi < n && !seen[lo * n + hi]);
		seen[lo * n + hi] = 1;
	}
	free(seen);
	table_free(&t);
}

/* What the rounds of a concurrent run show: rows in rounds of several pairs, how many of those
 * were measured while another pair was (round_overlap > 0), rows with the accuracy check's
 * verdict, and the most pairs any round had. Each round's pairs are asserted disjoint. */
struct rounds_seen {
	long wide, together, checked, most;
};

static struct rounds_seen rounds_of(const struct table *t, long n)
{
	struct rounds_seen v = {0, 0, 0, 0};
	long rounds = zoo_cell_int(t, 0, "rounds");
	for (long rd = 0; rd < rounds; rd++) {
		char *used = calloc((size_t)n, 1);
		for (long r = 0; r < t->nrows; r++) {
			if (zoo_cell_int(t, r, "round") != rd)
				continue;
			int a = (int)zoo_cell_int(t, r, "cpu_a"),
			    b = (int)zoo_cell_int(t, r, "cpu_b");
			assert_false(used[a] || used[b]); /* disjoint */
			used[a] = used[b] = 1;
			long k = zoo_cell_int(t, r, "concurrent");
			v.most = k > v.most ? k : v.most;
			if (k > 1) {
				v.wide++;
				v.together += zoo_cell_num(t, r, "round_overlap") > 0;
			}
		}
		free(used);
	}
	for (long r = 0; r < t->nrows; r++) {
		const char *st = table_get(t, r, "check_status");
		v.checked += !strcmp(st, "ok") || !strcmp(st, "outside");
	}
	print_message(
		"%ld rounds, %ld rows in rounds of several pairs, %ld of them measured while "
		"another pair was, %ld rows with the accuracy check's verdict; at most %ld pairs "
		"at once after the check, %ld step(s) down\n",
		rounds, v.wide, v.together, v.checked, zoo_cell_int(t, 0, "concurrent_cap"),
		zoo_cell_int(t, 0, "concurrent_fallbacks"));
	/* they ran at once: pairs run to a count, and under TCG a thread may start its window after
	 * a fast pair of its round ended, so a third of the rows is asked, not all (0 if run in
	 * turn) */
	if (v.wide > 0)
		assert_true(v.together > 0 && 3 * v.together >= v.wide);
	assert_true(v.checked > 0);
	return v;
}

/* --concurrent 2: where the guest has 4 cores, rounds of two disjoint pairs that ran at once, and
 * the accuracy check's verdict in the rows, with no step down (only auto steps down). */
void zoo_concurrent(void **s)
{
	(void)s;
	struct table t;
	pp_rows(&t, "two");
	struct rounds_seen v = rounds_of(&t, zoo.ncpus);
	assert_int_equal(zoo_cell_int(&t, 0, "concurrent_cap"), 2);
	assert_int_equal(zoo_cell_int(&t, 0, "concurrent_fallbacks"), 0);
	if (zoo_cores(&zoo, -1) >= 4)
		assert_true(v.wide > 0 && v.most == 2);
	table_free(&t);
}

/* --concurrent auto: every pair once, in disjoint rounds, at most the cap the rows give; the plan
 * is half the guest's CPUs at once, and a smaller cap is explained by the steps down the accuracy
 * check took (under TCG, with more vCPUs than host CPUs, a round's handoffs wait on the host's
 * scheduler and the check may rightly step down to one pair). */
void zoo_concurrent_auto(void **s)
{
	(void)s;
	struct table t;
	pp_rows(&t, "concurrent");
	long n = zoo.ncpus, cap = zoo_cell_int(&t, 0, "concurrent_cap"),
	     down = zoo_cell_int(&t, 0, "concurrent_fallbacks");
	assert_int_equal(t.nrows, n * (n - 1) / 2);
	struct rounds_seen v = rounds_of(&t, n);
	assert_true(v.most <= cap);
	if (down == 0)
		assert_int_equal(cap, n / 2);
	else
		assert_true(cap < n / 2);
	table_free(&t);
}

/* vmalloc --threads 16 --placement spread: 8 workers on each of two packages. */
void zoo_vmalloc16(void **s)
{
	(void)s;
	char dir[4096];
	zoo_check_dir(dir, sizeof(dir), "vmalloc16");
	zoo_ran(dir, "spread");
	struct table t;
	zoo_table(&t, dir, "spread.csv");
	assert_true(t.nrows >= 1);
	int per_pkg[ZOO_MAX_CPUS] = { 0 }, k = 0;
	const char *cpus = table_get(&t, 0, "worker_cpus");
	assert_non_null(cpus);
	for (const char *p = cpus; *p;) {
		char *end;
		long c = strtol(p, &end, 10);
		assert_true(end != p);
		const struct zoo_cpu *z = zoo_cpu(&zoo, (int)c);
		assert_non_null(z);
		per_pkg[z->pkg]++;
		k++;
		p = end + strspn(end, " ");
	}
	print_message("worker_cpus %s: %d on package 0, %d on package 1\n", cpus, per_pkg[0],
		      per_pkg[1]);
	assert_int_equal(k, 16);
	assert_int_equal(per_pkg[0], 8);
	assert_int_equal(per_pkg[1], 8);
	/* 16 workers over two packages at the kernel's lazy_max for 32 CPUs: the seed's setting */
	if (zoo.ncpus == 32) {
		assert_string_equal(table_get(&t, 0, "lazy_max_effective"), "49152");
		assert_string_equal(table_get(&t, 0, "seed_setting"), "yes");
	}
	table_free(&t);
}

/* fls(n) x 8192: lazy_max_pages() for n online CPUs. */
static long kernel_lazy_max(int n)
{
	int f = 0;
	while (n >> f)
		f++;
	return f * 8192L;
}

/* The vmalloc rows of NAME.csv in dir, each judged: nw workers, half on each package when spread,
 * else all on one; the lazy_max requested (req) and used (lm); one drain per threshold crossing by
 * itself (or NA with its reason), every drain a crossing's or a re-queue; seed_setting as want.
 * Each row's counts are printed, for the README's guest table. */
static void vm_rows(const char *dir, const char *name, int nw, int spread, const char *req,
		    long lm, const char *want)
{
	char file[128];
	struct table t;
	snprintf(file, sizeof(file), "%s.csv", name);
	zoo_ran(dir, name);
	zoo_table(&t, dir, file);
	assert_true(t.nrows >= 2); /* shared and section */
	for (long r = 0; r < t.nrows; r++) {
		int per_pkg[ZOO_MAX_CPUS] = { 0 }, k = 0, most = 0;
		const char *cpus = table_get(&t, r, "worker_cpus");
		assert_non_null(cpus);
		for (const char *p = cpus; *p;) {
			char *end;
			long c = strtol(p, &end, 10);
			assert_true(end != p);
			const struct zoo_cpu *z = zoo_cpu(&zoo, (int)c);
			assert_non_null(z);
			most = ++per_pkg[z->pkg] > most ? per_pkg[z->pkg] : most;
			k++;
			p = end + strspn(end, " ");
		}
		assert_int_equal(k, nw);
		if (spread) {
			assert_int_equal(per_pkg[0], nw / 2);
			assert_int_equal(per_pkg[1], nw / 2);
		} else
			assert_int_equal(most, nw);
		assert_string_equal(table_get(&t, r, "placement"), spread ? "spread" : "compact");
		assert_string_equal(table_get(&t, r, "lazy_max"), req);
		assert_int_equal(atol(table_get(&t, r, "lazy_max_effective")), lm);
		assert_int_equal(atol(table_get(&t, r, "online_cpus")), zoo.ncpus);
		/* one drain per crossing by itself, at any load; the re-queues apart */
		const char *dpc = table_get(&t, r, "drains_per_crossing");
		assert_non_null(dpc);
		if (strcmp(dpc, "NA"))
			assert_string_equal(dpc, "1.000");
		else
			assert_non_null(
				strstr(table_get(&t, r, "na_reason"), "drains_per_crossing"));
		long crossings = atol(table_get(&t, r, "crossings"));
		assert_true(atol(table_get(&t, r, "drains")) ==
			    crossings + atol(table_get(&t, r, "requeued")));
		assert_string_equal(table_get(&t, r, "seed_setting"), want);
		print_message("vmalloc %s %s: workers %s, lazy_max %ld, crossings %ld, drains %s, "
			      "requeued %s, drains_per_crossing %s, requeued_per_crossing %s\n",
			      name, table_get(&t, r, "layout"), cpus, lm, crossings,
			      table_get(&t, r, "drains"), table_get(&t, r, "requeued"), dpc,
			      table_get(&t, r, "requeued_per_crossing"));
	}
	table_free(&t);
}

/* vmalloc at the seed's setting scaled to the guest (a worker per core over both packages, the
 * kernel's lazy_max for its CPUs), and the README's 2-CPU regimes in the same guest (two workers
 * on one package, at the 2-CPU lazy_max and at --lazy-max 1): every row records the placement,
 * the lazy_max used and the drains per threshold crossing, and says how it differs from the seed's
 * setting. */
void zoo_vmalloc8(void **s)
{
	(void)s;
	char dir[4096], want[200];
	zoo_check_dir(dir, sizeof(dir), "vmalloc8");
	long lm = kernel_lazy_max(zoo.ncpus);
	snprintf(want, sizeof(want), "no: workers 8 (seed 16); lazy_max %ld (seed 49152)", lm);
	vm_rows(dir, "spread8", 8, 1, "0", lm, want);
	vm_rows(dir, "two16k", 2, 0, "16384", 16384,
		"no: workers 2 (seed 16); lazy_max 16384 (seed 49152); packages 1 (seed 2)");
	vm_rows(dir, "two1", 2, 0, "1", 1,
		"no: workers 2 (seed 16); lazy_max 1 (seed 49152); packages 1 (seed 2)");
}

/* refill on a caller CPU in the second package: the bound worker shares the caller's CPU and, with
 * --hold token, gets exactly the reserve (the model's invariant); the unbound one runs elsewhere
 * and populates pages during the burst. */
void zoo_refill(void **s)
{
	(void)s;
	char dir[4096];
	zoo_check_dir(dir, sizeof(dir), "refill");
	zoo_ran(dir, "refill");
	struct table t;
	zoo_table(&t, dir, "refill.csv");
	int bound = 0, unbound = 0;
	for (long r = 0; r < t.nrows; r++) {
		const char *w = table_get(&t, r, "worker");
		long caller = zoo_cell_int(&t, r, "caller_cpu"),
		     worker = zoo_cell_int(&t, r, "worker_cpu");
		assert_true(zoo_cpu(&zoo, (int)caller) != NULL);
		if (!strcmp(w, "bound")) {
			bound++;
			assert_int_equal(worker, caller);
			assert_int_equal(zoo_cell_int(&t, r, "allocs_failed"),
					 zoo_cell_int(&t, r, "attempts_made") -
						 zoo_cell_int(&t, r, "initial_reserve_objs"));
		} else {
			unbound++;
			assert_int_not_equal(worker, caller);
			assert_true(zoo_cell_int(&t, r, "pages_populated") > 0);
		}
	}
	assert_true(bound > 0 && unbound > 0);
	table_free(&t);
}

/* shepherd on 16 modelled CPUs (a kworker and a workload thread each): with the pending check the
 * shepherd queues vmstat_update while it runs (the seed's mechanism) and runs come back to back;
 * with busy or atomic never, and no interval holds two runs. Double intervals under pending are
 * printed, not asserted: when a loaded host stretches TCG's ticks tenfold, a 5 s window holds two
 * shepherd passes and the re-queued run may land in the next interval. */
void zoo_shepherd(void **s)
{
	(void)s;
	char dir[4096];
	zoo_check_dir(dir, sizeof(dir), "shepherd");
	zoo_ran(dir, "shepherd");
	struct table t;
	zoo_table(&t, dir, "shepherd.csv");
	long queued = 0, b2b = 0, dbl = 0, others = 0;
	for (long r = 0; r < t.nrows; r++) {
		assert_true(zoo_cell_int(&t, r, "cpus") >= 8);
		long d = zoo_cell_int(&t, r, "double_intervals");
		long q = zoo_cell_int(&t, r, "queued_while_running");
		if (!strcmp(table_get(&t, r, "check"), "pending")) {
			queued += q, dbl += d;
			b2b += zoo_cell_int(&t, r, "back_to_back_runs");
		} else
			others += d + q;
	}
	print_message("pending: queued while running %ld, back-to-back runs %ld, double intervals "
		      "%ld; busy and atomic: queued while running + double intervals %ld\n",
		      queued, b2b, dbl, others);
	assert_true(queued > 0);
	assert_true(b2b > 0);
	assert_int_equal(others, 0);
	table_free(&t);
}

/* The cmocka suite, run inside the guest on its own topology. */
void zoo_suite(void **s)
{
	(void)s;
	char dir[4096];
	zoo_check_dir(dir, sizeof(dir), "suite");
	char *log = zoo_file(dir, "suite.log");
	assert_non_null(log);
	const char *last = strstr(log, "\ntests: ");
	if (zoo_int(dir, "suite.rc") != 0) {
		const char *f = strstr(log, "\nfailing: ");
		print_message("the suite failed inside the guest:%s", f ? f : "(no summary)\n");
	}
	assert_int_equal(zoo_int(dir, "suite.rc"), 0);
	assert_non_null(last);
	int passed = -1, failed = -1;
	assert_int_equal(sscanf(last, "\ntests: %d passed, %d failed", &passed, &failed), 2);
	print_message("inside the guest: %d passed, %d failed\n", passed, failed);
	assert_int_equal(failed, 0);
	assert_true(passed > 100);
	free(log);
}

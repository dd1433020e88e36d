/* A pinned worker's CPU touches every bench's contended lines first, never the main thread: each
 * row's first_touch_cpu is the first measuring thread's CPU (every bench at its defaults:
 * bench_mem's benches, shepherd's model, refill's caller, pingpong's first toucher), and cpu_b
 * for pingpong's --home reader. Runs on two_cpus(); under load a run may measure nothing (exit
 * 4): the rows are still there, and the column is what is checked. */
#include "harness/memnode.h"
#include "harness/bench.h"
#include "lib/csvread.h"
#include "lib/util.h" /* before cmocka, which defines a fail() macro */
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

static long run_rows(struct table *t, const char *name, const char *const *args)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char csv[1024], err[ERRLEN];
	const char *argv[32];
	int n = 0;
	snprintf(csv, sizeof(csv), "%s/%s.csv", test_dir, name);
	for (; args[n]; n++)
		argv[n] = args[n];
	const char *tail[] = {"--out", csv, "--quiet", LENIENT, NULL};
	for (int i = 0; tail[i]; i++)
		argv[n++] = tail[i];
	argv[n] = NULL;
	run_c2cv(r, argv);
	if (!RAN(r->status))
		fail_msg("%s: status %d: %s", name, r->status, r->err);
	free(r);
	if (table_read(t, csv, err))
		fail_msg("%s", err);
	assert_true(t->nrows > 0);
	return t->nrows;
}

/* The CPU of the first thread in thread_ids ("writer0@3 reader0@5": 3). */
static int first_thread_cpu(const char *ids)
{
	const char *at = strchr(ids, '@');
	assert_non_null(at);
	return atoi(at + 1);
}

static void bench_mem_benches(void **s)
{
	(void)s;
	const char *cpus = two_cpus();
	if (!cpus) {
		print_message("skipped: fewer than two CPUs\n");
		skip();
	}
	/* every registered bench, run as its declaration takes (short_args): a new one too */
	for (int b = 0; bench_at(b); b++) {
		struct table t;
		const char *args[24] = { "run", bench_at(b)->name };
		int n = 2;
		assert_int_equal(short_args(bench_at(b), cpus, "0.02", args, &n), 0);
		args[n++] = "--reps";
		args[n++] = "1";
		args[n] = NULL;
		char tag[80];
		snprintf(tag, sizeof(tag), "defaults-%s", bench_at(b)->name);
		run_rows(&t, tag, args);
		int c_ft = table_col(&t, "first_touch_cpu"), c_ids = table_col(&t, "thread_ids");
		int c_na = table_col(&t, "na_reason");
		if (c_ft < 0) { /* a bench that places nothing (a scratch one) */
			table_free(&t);
			continue;
		}
		for (long i = 0; i < t.nrows; i++) {
			const char *ft = t.cell[i][c_ft];
			if (!strcmp(ft, "NA") && c_na >= 0 &&
			    strstr(t.cell[i][c_na], "first_touch_cpu: the bench placed no memory"))
				continue; /* a bench with no memory of its own (a scratch one) */
			if (!strcmp(ft, "NA") || c_ids < 0 ||
			    atoi(ft) != first_thread_cpu(t.cell[i][c_ids]))
				fail_msg("%s row %ld: first_touch_cpu %s, threads %s",
					 bench_at(b)->name, i + 1, ft,
					 c_ids < 0 ? "(none)" : t.cell[i][c_ids]);
		}
		table_free(&t);
	}
}

static void pingpong_toucher(void **s)
{
	(void)s;
	const char *cpus = two_cpus();
	if (!cpus) {
		print_message("skipped: fewer than two CPUs\n");
		skip();
	}
	for (int side = 0; side < 2; side++) {
		struct table t;
		const char *args[] = {"run",  "pingpong", "--placement", cpus,
				      "--samples", "20", "--reps", "1", "--home",
				      side ? "reader" : "first", NULL};
		run_rows(&t, side ? "pingpong-b" : "pingpong-a", args);
		int c_ft = table_col(&t, "first_touch_cpu"),
		    c_cpu = table_col(&t, side ? "cpu_b" : "cpu_a");
		assert_true(c_ft >= 0 && c_cpu >= 0);
		for (long i = 0; i < t.nrows; i++)
			assert_string_equal(t.cell[i][c_ft], t.cell[i][c_cpu]);
		table_free(&t);
	}
}

/* mem_own_by, which takes a block's lines back to the first worker's CPU after the main thread's
 * setup wrote into them: it runs there and changes no value. */
static void lines_taken_back(void **s)
{
	(void)s;
	int a, b;
	if (two_usable_cpus(&a, &b)) {
		print_message("skipped: fewer than two CPUs\n");
		skip();
	}
	size_t n = 3 * MEM_OWN_STRIDE + 24;
	unsigned char *p = aligned_alloc(4096, 4096);
	assert_non_null(p);
	for (size_t i = 0; i < 4096; i++)
		p[i] = (unsigned char)(i * 7 + 1);
	assert_int_equal(mem_own_by(p, n, b), b);
	for (size_t i = 0; i < 4096; i++)
		assert_int_equal(p[i], (unsigned char)(i * 7 + 1));
	assert_int_equal(mem_own_by(p, n, -1), -1); /* no CPU: nothing done */
	free(p);
}

/* shepherd: its model (every CPU's pool, the zones) built on the first worker's CPU. */
static void shepherd_model(void **s)
{
	(void)s;
	struct table t;
	const char *args[] = {"run", "shepherd", "--cpus", "2", "--duration", "0.1", "--warmup",
			      "0.05", "--reps", "1", NULL};
	run_rows(&t, "shepherd", args);
	int c_ft = table_col(&t, "first_touch_cpu"), c_ids = table_col(&t, "thread_ids");
	assert_true(c_ft >= 0 && c_ids >= 0);
	for (long i = 0; i < t.nrows; i++) {
		const char *ft = t.cell[i][c_ft];
		if (!strcmp(ft, "NA") || atoi(ft) != first_thread_cpu(t.cell[i][c_ids]))
			fail_msg("shepherd row %ld: first_touch_cpu %s, threads %s", i + 1, ft,
				 t.cell[i][c_ids]);
	}
	table_free(&t);
}

/* refill: its allocator state, first touched on the caller's CPU. */
static void refill_caller(void **s)
{
	(void)s;
	const char *cpus = two_cpus();
	if (!cpus) {
		print_message("skipped: fewer than two CPUs\n");
		skip();
	}
	int a, b;
	char ca[16], wa[16];
	assert_int_equal(two_usable_cpus(&a, &b), 0);
	snprintf(ca, sizeof(ca), "%d", a);
	snprintf(wa, sizeof(wa), "%d", b);
	struct table t;
	const char *args[] = {"run", "refill", "--caller-cpu", ca, "--worker-cpu", wa, "--reps",
			      "1", NULL};
	run_rows(&t, "refill", args);
	int c_ft = table_col(&t, "first_touch_cpu"), c_cpu = table_col(&t, "caller_cpu");
	assert_true(c_ft >= 0 && c_cpu >= 0);
	for (long i = 0; i < t.nrows; i++)
		assert_string_equal(t.cell[i][c_ft], t.cell[i][c_cpu]);
	table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(bench_mem_benches),
	    cmocka_unit_test(pingpong_toucher),
	    cmocka_unit_test(refill_caller),
	    cmocka_unit_test(shepherd_model),
	    cmocka_unit_test(lines_taken_back),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}

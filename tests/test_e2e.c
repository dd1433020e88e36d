/* End to end: a short real pending-bit run on all three layouts writes whole rows: positive
 * rates in valid rows, a reason and NA in invalid ones. */
#include "tests/testutil.h"
#include "harness/bench.h"
#include "schema/meta.h"
#include "lib/csvread.h"
#include "lib/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void three_layouts(void **s)
{
	(void)s;
	struct cmd_result r;
	char path[300];
	snprintf(path, sizeof(path), "%s/pb.csv", test_dir);
	run_c2c(&r, "run", "pending-bit", "--duration", "0.1", "--warmup", "0.02", "--max-attempts",
		"1", LENIENT, "--reps", "2", "--out", path, NULL);
	if (!RAN(r.status)) /* 4: a loaded host, every attempt of a layout invalid */
		fail_msg("exit %d: %s", r.status, r.err);
	assert_non_null(strstr(r.out, "shared"));
	assert_non_null(strstr(r.out, "writer_rmw_per_s")); /* the summary shows the rate */
	struct table t;
	csv_load(&t, path); /* whole rows, each ending with a newline */
	assert_int_equal(t.nrows, 3 * 2);
	const char *present[] = {"reader_ops", "work_addr", "meta_line", "placement",
				 "c2cbench_rev"};
	for (size_t i = 0; i < ARRAY_SIZE(present); i++)
		csv_cell(&t, 0, present[i]);
	int seen[3] = { 0 };
	for (long row = 0; row < t.nrows; row++) {
		const char *lay = csv_cell(&t, row, "layout");
		assert_int_equal(atoi(csv_cell(&t, row, "schema_version")), SCHEMA_VERSION);
		int k = !strcmp(lay, "shared") ? 0 : !strcmp(lay, "aligned") ? 1 : 2;
		seen[k]++;
		assert_string_equal(csv_cell(&t, row, "offset"), k == 0   ? "32"
								 : k == 1 ? "64"
									  : "128");
		assert_string_equal(csv_cell(&t, row, "same_line"), k == 0 ? "1" : "0");
		/* a valid row measured; an invalid one (a thread that did not run: the ops rule
		 * holds under LENIENT) says why, and each rate it lacks is NA with its reason */
		int valid = row_measured(&t, row);
		const char *rates[] = {"writer_ns_per_op", "reader_ns_per_op", "writer_ops_per_s"};
		for (size_t i = 0; i < ARRAY_SIZE(rates); i++) {
			const char *v = csv_cell(&t, row, rates[i]);
			char why[64];
			snprintf(why, sizeof(why), "%s: ", rates[i]);
			if (!valid && !strcmp(v, "NA") &&
			    strstr(csv_cell(&t, row, "na_reason"), why))
				continue;
			if (!(atof(v) > 0))
				fail_msg("non-positive %s '%s' in row %ld (valid %s)", rates[i], v,
					 row + 1, valid ? "yes" : "no");
		}
		/* the line-write rate: every RMW of the window, per second of it (a valid row) */
		double rate = atof(csv_cell(&t, row, "writer_rmw_per_s")),
		       rmw = atof(csv_cell(&t, row, "writer_rmw")),
		       dur = atof(csv_cell(&t, row, "duration_s"));
		if (valid) {
			assert_true(rmw > 0 && dur > 0);
			assert_true(fabs(rate - rmw / dur) <= 0.01 * rate + 1);
		}
		assert_string_not_equal(csv_cell(&t, row, "writer_cpus"),
					csv_cell(&t, row, "reader_cpus"));
	}
	assert_int_equal(seen[0], 2);
	assert_int_equal(seen[1], 2);
	assert_int_equal(seen[2], 2);
	table_free(&t);
}

static void offset_sweep_rows(void **s)
{
	(void)s;
	struct cmd_result r;
	char path[300];
	snprintf(path, sizeof(path), "%s/sweep.csv", test_dir);
	run_c2c(&r, "run", "pending-bit", "--offset-sweep", "8:128:40", "--duration", "0.05",
		"--warmup", "0.01", "--max-attempts", "1", "--reps", "1", "--policy",
		"test-then-set", "--drain-us", "50", LENIENT, "--out", path, NULL);
	assert_true(r.status == 0 || r.status == 4); /* 4: a window >100% off on a loaded machine */
	char *text = slurp(path);
	assert_int_equal(count_lines(text), 1 + 4); /* 8, 48, 88, 128 */
	assert_non_null(strstr(text, ",offset-8,"));
	assert_non_null(strstr(text, ",offset-128,"));
	assert_null(strstr(text, "no drainer"));
	free(text);
	/* test-then-set: an RMW only on a clear bit, which only a drain makes, so the writer's line
	 * writes are the drainer's rate, not its own */
	struct table t;
	csv_load(&t, path);
	for (long row = 0; row < t.nrows; row++) {
		double rmw = atof(csv_cell(&t, row, "writer_rmw")),
		       drains = atof(csv_cell(&t, row, "drains")),
		       dur = atof(csv_cell(&t, row, "duration_s")),
		       rate = atof(csv_cell(&t, row, "writer_rmw_per_s"));
		assert_true(rmw <= drains + 1);
		assert_true(rate <= (drains + 1) / dur * 1.01 + 1);
		assert_true(rate < atof(csv_cell(&t, row, "writer_ops_per_s")));
	}
	table_free(&t);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(three_layouts),
		cmocka_unit_test(offset_sweep_rows),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}

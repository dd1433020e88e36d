/* benches/example: the smallest bench runs, and its rows hold its column and the ones the harness
 * writes for it (placement*, mem_node*, the evidence of its role), with nothing of its own. */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include "harness/bench.h"
#include <stdio.h>
#include <string.h>

static void rows_of_a_short_run(void **s)
{
	(void)s;
	static struct cmd_result r;
	struct table t;
	char path[1024];
	const char *pl = two_cpus();
	if (!pl) {
		print_message("skipped: the example's two threads need two usable CPUs\n");
		skip();
	}
	snprintf(path, sizeof(path), "%s/example.csv", test_dir);
	run_c2c(&r, "run", "example", "--placement", pl, "--duration", "0.05", "--warmup", "0.01",
		"--reps", "2", "--max-attempts", "1", "--seed", "7", LENIENT, "--out", path, NULL);
	if (!RAN(r.status))
		fail_msg("example: status %d, stderr %s", r.status, r.err);
	assert_non_null(strstr(r.out, "ns_per_add")); /* the summary names its metric */
	csv_load(&t, path);
	assert_int_equal(t.nrows, 4); /* 2 variants x 2 repetitions, one attempt each */
	int packed = 0, padded = 0;
	for (long i = 0; i < t.nrows; i++) {
		const char *v = csv_cell(&t, i, "layout");
		packed += !strcmp(v, "packed");
		padded += !strcmp(v, "padded");
		assert_string_equal(csv_cell(&t, i, "bench"), "example");
		/* measured where valid; an invalid attempt (a loaded host) gives its reason */
		if (row_measured(&t, i) && !(strtod(csv_cell(&t, i, "ns_per_add"), NULL) > 0))
			fail_msg("row %ld: ns_per_add '%s'", i, csv_cell(&t, i, "ns_per_add"));
		/* the harness's columns, from the plan it made for the bench */
		assert_string_equal(csv_cell(&t, i, "placement"), pl);
		assert_string_equal(csv_cell(&t, i, "placement_requested"), pl);
		assert_string_equal(csv_cell(&t, i, "placement_auto_why"), "NA");
		assert_non_null(strstr(csv_cell(&t, i, "na_reason"),
				       "placement_auto_why: placement not auto"));
		/* --mem-node as given (the default), what compare joins on */
		assert_string_equal(csv_cell(&t, i, "mem_node_requested"), "writer");
		const char *node = csv_cell(&t, i, "mem_node"),
			   *got = csv_cell(&t, i, "mem_node_actual");
		if (strcmp(node, "-1")) /* memory placed on the node planned (or unknown: -1) */
			assert_true(!strcmp(got, node) || !strcmp(got, "-1"));
		assert_true(strtod(csv_cell(&t, i, "oncpu_adder"), NULL) >= 0);
	}
	assert_int_equal(packed, 2);
	assert_int_equal(padded, 2);
	table_free(&t);
}

/* The bench is in the registry, and no preset runs it: no presets/ entry says bench = example. */
static void registered_and_in_no_preset(void **s)
{
	(void)s;
	char out[256];
	assert_non_null(bench_find("example"));
	assert_int_equal(sh_capture(out, sizeof(out), "ls presets/*.ini | wc -l"), 0);
	assert_true(atoi(out) > 0); /* run from the tree's root, where the presets are */
	const char *grep = "cat presets/*.ini | grep -cE '^bench *= *example *$'";
	assert_int_equal(sh_capture(out, sizeof(out), grep), 1); /* grep -c: 1 when none */
	assert_int_equal(atoi(out), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(rows_of_a_short_run),
	    cmocka_unit_test(registered_and_in_no_preset),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}

/* The zoo's counters checks (the arm64 guest with its emulated PMUv3): PAPI's perf_event path. */
#include "tests/system/zoo_rows.h"
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>

/* Every ROLE_cycles_per_kop of every row is a count above 0: each measuring role counted. */
static void cycles_counted(const char *dir, const char *bench)
{
	char name[64];
	zoo_ran(dir, bench);
	snprintf(name, sizeof(name), "%s.csv", bench);
	struct table t;
	zoo_table(&t, dir, name);
	int cols = 0;
	for (int c = 0; c < t.ncols; c++) {
		const char *k = t.cols[c], *suffix = "_cycles_per_kop";
		size_t n = strlen(k), m = strlen(suffix);
		if (n <= m || strcmp(k + n - m, suffix))
			continue;
		cols++;
		for (long r = 0; r < t.nrows; r++) {
			print_message("%s row %ld: %s = %s\n", bench, r + 1, k, t.cell[r][c]);
			assert_true(zoo_cell_num(&t, r, k) > 0);
		}
	}
	assert_true(cols >= 1);
	table_free(&t);
}

/* An event the PMU does not advertise is NA with that reason in its columns, never 0. */
static void unadvertised_is_na(const char *dir)
{
	zoo_ran(dir, "auto");
	struct table t;
	zoo_table(&t, dir, "auto.csv");
	int cols = 0;
	for (int c = 0; c < t.ncols; c++) {
		if (!strstr(t.cols[c], "coh_writeback_per_kop") &&
		    !strstr(t.cols[c], "coh_inval_per_kop"))
			continue;
		cols++;
		for (long r = 0; r < t.nrows; r++)
			assert_string_equal(t.cell[r][c], "NA");
	}
	assert_true(cols >= 2);
	const char *reason = table_get(&t, 0, "na_reason");
	print_message("na_reason: %s\n", reason);
	assert_non_null(strstr(reason, "advertise"));
	table_free(&t);
	char *check = zoo_file(dir, "check.out");
	assert_non_null(check);
	assert_non_null(strstr(check, "advertise"));
	free(check);
}

void zoo_counters(void **s)
{
	(void)s;
	char dir[4096];
	zoo_check_dir(dir, sizeof(dir), "counters");
	const char *benches[] = { "pending-bit", "vmalloc", "refill", "shepherd", "pingpong" };
	for (size_t i = 0; i < sizeof(benches) / sizeof(*benches); i++)
		cycles_counted(dir, benches[i]);
	zoo_ran(dir, "multiplexed");
	struct table t;
	zoo_table(&t, dir, "multiplexed.csv");
	assert_string_equal(table_get(&t, 0, "counters_multiplexed"), "yes");
	table_free(&t);
	char *out = zoo_file(dir, "multiplexed.out");
	assert_non_null(out);
	assert_non_null(strstr(out, "multiplexed"));
	free(out);
	unadvertised_is_na(dir);
}

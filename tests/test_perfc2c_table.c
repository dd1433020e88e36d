/* HITM on the contended line only: the row's line is looked up in the Shared Data Cache Line Table
 * of `perf c2c report --stdio`. No PMU here, so the parser is tested on perf's own output as perf's
 * developers posted it (tests/data/perf-c2c-report-*.txt, sources in tests/data/README.md):
 * perf 6.x (Load Hitm: Total, LclHitm, RmtHitm) and perf 5.x (LLC Load Hitm: Total, Lcl, Rmt). */
#include "harness/perfc2c.h"
#include "harness/perfc2c_table.h"
#include "harness/row.h"
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A fixture as text (the data files are found from the source tree, like the other tests' data). */
static char *fixture(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "tests/data/%s", name);
	char *t = slurp(path);
	assert_non_null(t);
	return t;
}

/* One lookup that must find the line with these counts. */
static void expect_line(const char *text, unsigned long long addr, long long tot, long long lcl,
			long long rmt)
{
	struct c2c_hitm h;
	char why[300] = "";
	if (c2c_table_hitm(text, addr, 64, &h, why, sizeof(why)))
		fail_msg("line 0x%llx: %s", addr, why[0] ? why : "not in the table");
	assert_int_equal(h.total, tot);
	assert_int_equal(h.local, lcl);
	assert_int_equal(h.remote, rmt);
}

static void perf6_layout(void **s)
{
	(void)s;
	char *t = fixture("perf-c2c-report-6x.txt");
	expect_line(t, 0x55c8971f0080ull, 252, 252, 0);
	expect_line(t, 0x55c8971f00c0ull, 129, 129, 0);
	expect_line(t, 0x55c8971f00e8ull, 129, 129, 0); /* any address inside the 64-byte line */
	struct c2c_hitm h;
	char why[300];
	assert_int_equal(c2c_table_hitm(t, 0x55c8971f0100ull, 64, &h, why, sizeof(why)),
			 1); /* the next line: not listed */
	free(t);
}

static void perf5_layout(void **s)
{
	(void)s;
	char *t = fixture("perf-c2c-report-5x.txt");
	expect_line(t, 0x7f0d27ff61c0ull, 1475, 801,
		    674); /* Lcl/Rmt of LLC Load Hitm, not of Load Dram */
	expect_line(t, 0x7f0d27ffba00ull, 13, 6, 7);
	expect_line(t, 0x7f0d26d3ec00ull, 23, 17, 6);
	free(t);
}

/* Not perf's way: no table, a header without the HITM group, a row missing a cell. */
static void refused(void **s)
{
	(void)s;
	struct c2c_hitm h;
	char why[300];
	assert_int_equal(
	    c2c_table_hitm("perf: nothing recorded\n", 0x1000, 64, &h, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "no Shared Data Cache Line Table"));
	char *t = fixture("perf-c2c-report-5x.txt");
	char *g = strstr(t, "LLC Load Hitm");
	memcpy(g, "LLC Load Xxxx", 13);
	assert_int_equal(c2c_table_hitm(t, 0x7f0d27ff61c0ull, 64, &h, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "Load Hitm group"));
	free(t);
	t = fixture("perf-c2c-report-6x.txt");
	char *cell = strstr(t, " 66.14%");
	memmove(cell, cell + 7,
		strlen(cell + 7) + 1); /* one cell fewer: a shifted row is not read */
	assert_int_equal(c2c_table_hitm(t, 0x55c8971f0080ull, 64, &h, why, sizeof(why)), -1);
	assert_non_null(strstr(why, "columns of its header"));
	free(t);
}

/* The row's columns: perf_c2c_line and its HITM counts, or NA with the reason. */
static void into_the_row(void **s)
{
	(void)s;
	struct row r = { 0 };
	char path[512];
	snprintf(path, sizeof(path), "%s/report.txt", test_dir);
	char *t = fixture("perf-c2c-report-6x.txt");
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"# c2cbench --perf-c2c: the row's contended line(s): work_addr=0x55c8971f0040 "
		"meta_addr=0x55c8971f0080\n%s",
		t);
	fclose(f);
	free(t);
	row_set(&r, "work_addr", "0x55c8971f0040");
	row_set(&r, "meta_addr",
		"0x55c8971f0080"); /* the line's start: found whatever this machine's line size */
	perfc2c_hitm_to_row(path, &r);
	assert_string_equal(row_get(&r, "perf_c2c_line"), "meta_addr=0x55c8971f0080");
	assert_string_equal(row_get(&r, "perf_c2c_hitm_total"), "252");
	assert_string_equal(row_get(&r, "perf_c2c_hitm_local"), "252");
	assert_string_equal(row_get(&r, "perf_c2c_hitm_remote"), "0");
	row_clear(&r);
	row_set(&r, "line_addr", "0x7f0000000000");
	perfc2c_hitm_to_row(path, &r);
	assert_string_equal(row_get(&r, "perf_c2c_hitm_total"), "NA");
	assert_non_null(strstr(r.na_reason, "is not in perf's Shared Data Cache Line Table"));
	row_clear(&r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(perf6_layout),
		cmocka_unit_test(perf5_layout),
		cmocka_unit_test(refused),
		cmocka_unit_test(into_the_row),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}

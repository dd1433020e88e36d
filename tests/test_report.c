/* report: real results in, Markdown and non-empty PNGs out; several machines side by side;
 * a clear error without gnuplot. */
#include "harness/csv.h"
#include "analysis/csvread.h"
#include "harness/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char layouts_csv[512], sweep_csv[512];

static void assert_png(const char *d, const char *name)
{
	char p[1024];
	struct stat st;
	snprintf(p, sizeof(p), "%s/%s", d, name);
	if (stat(p, &st))
		fail_msg("missing plot %s", p);
	assert_true(st.st_size > 1000);
	FILE *f = fopen(p, "rb");
	unsigned char sig[8];
	assert_int_equal(fread(sig, 1, 8, f), 8);
	fclose(f);
	assert_memory_equal(sig, "\x89PNG\r\n\x1a\n", 8);
}

/* Copy a real result CSV, as if it came from another machine (host and cpu_model changed). */
static void as_other_machine(const char *src, const char *dst)
{
	struct table t;
	char err[ERRLEN], buf[8192];
	assert_int_equal(table_read(&t, src, err), 0);
	FILE *f = fopen(dst, "w");
	assert_non_null(f);
	for (long r = -1; r < t.nrows; r++)
		for (int c = 0; c < t.ncols; c++) {
			const char *v = r < 0 ? t.cols[c] : t.cell[r][c];
			if (r >= 0 && !strcmp(t.cols[c], "host"))
				v = "second-host";
			if (r >= 0 && !strcmp(t.cols[c], "cpu_model"))
				v = "Other CPU, \"quoted\"";
			csv_field(v, buf, sizeof(buf));
			fprintf(f, "%s%s", buf, c + 1 < t.ncols ? "," : "\n");
		}
	fclose(f);
	table_free(&t);
}

static void report_on_real_results(void **state)
{
	(void)state;
	struct cmd_result r;
	char out[600];
	snprintf(out, sizeof(out), "%s/report", test_dir);
	run_c2c(&r, "report", layouts_csv, sweep_csv, "-o", out, NULL);
	if (r.status)
		fail_msg("report failed: %s", r.err);
	assert_png(out, "bars-01-m1.png");
	assert_png(out, "sweep-01-m1.png");
	char p[700];
	snprintf(p, sizeof(p), "%s/report.md", out);
	char *md = slurp(p);
	assert_non_null(md);
	assert_non_null(strstr(md, "](bars-01-m1.png)"));
	assert_non_null(strstr(md, "](sweep-01-m1.png)"));
	assert_non_null(strstr(md, "| shared |"));
	assert_non_null(strstr(md, "| aligned |"));
	/* what was not measured, and why */
	assert_non_null(strstr(md, "## HITM per 1,000 operations\n\nNot measured"));
	assert_non_null(strstr(md, "| drains |"));
	assert_non_null(strstr(md, "no drainer (--drain-us 0)"));
	assert_non_null(strstr(md, "Not in these inputs: no configuration was run with two or more thread counts"));
	free(md);
	/* a report is never overwritten */
	run_c2c(&r, "report", layouts_csv, "-o", out, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "already exists"));
}

static void report_side_by_side(void **state)
{
	(void)state;
	struct cmd_result r;
	char out[600], other[600], p[700];
	snprintf(other, sizeof(other), "%s/other.csv", test_dir);
	as_other_machine(layouts_csv, other);
	snprintf(out, sizeof(out), "%s/two", test_dir);
	run_c2c(&r, "report", layouts_csv, other, "--out", out, NULL);
	if (r.status)
		fail_msg("report failed: %s", r.err);
	assert_non_null(strstr(r.out, "2 machine(s)"));
	assert_png(out, "bars-01-m1.png");
	assert_png(out, "bars-01-m2.png");
	snprintf(p, sizeof(p), "%s/report.md", out);
	char *md = slurp(p);
	assert_non_null(strstr(md, "](bars-01-m1.png) | ![second-host](bars-01-m2.png) |")); /* one row, a column per machine */
	assert_non_null(strstr(md, "Other CPU, \"quoted\""));
	free(md);
}

static void report_without_gnuplot(void **state)
{
	(void)state;
	struct cmd_result r;
	char out[600], p[700];
	char *path = strdup(getenv("PATH") ? getenv("PATH") : "");
	snprintf(out, sizeof(out), "%s/nognuplot", test_dir);
	setenv("PATH", "/nonexistent", 1);
	run_c2c(&r, "report", layouts_csv, "-o", out, NULL);
	setenv("PATH", path, 1);
	free(path);
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "no gnuplot was found on PATH"));
	assert_non_null(strstr(r.err, "gnuplot-nox"));
	snprintf(p, sizeof(p), "%s/report.md", out);
	assert_false(file_exists(p)); /* nothing half-written */
}

static void report_bad_input(void **state)
{
	(void)state;
	struct cmd_result r;
	char out[600];
	snprintf(out, sizeof(out), "%s/bad", test_dir);
	run_c2c(&r, "report", "/nonexistent.csv", "-o", out, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "/nonexistent.csv: cannot open"));
	run_c2c(&r, "report", layouts_csv, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "report needs -o DIR"));
}

static int setup(void **state)
{
	(void)state;
	struct cmd_result r;
	test_dir_setup(NULL);
	snprintf(layouts_csv, sizeof(layouts_csv), "%s/layouts.csv", test_dir);
	snprintf(sweep_csv, sizeof(sweep_csv), "%s/sweep.csv", test_dir);
	run_c2c(&r, "run", "pending-bit", "--duration", "0.05", "--warmup", "0.01", "--max-attempts", "1", "--reps", "2", "--quiet", "--layout", "shared,aligned", "--out", layouts_csv, NULL);
	if (r.status)
		return -1;
	run_c2c(&r, "run", "pending-bit", "--duration", "0.03", "--warmup", "0.01", "--max-attempts", "1", "--reps", "2", "--quiet", "--offset-sweep", "8:136:64", "--out", sweep_csv, NULL);
	return r.status ? -1 : 0;
}

/* pingpong results draw the core-to-core latency matrix as a heatmap per mode. */
static void report_heatmap(void **state)
{
	(void)state;
	struct cmd_result r;
	char csv[600], out[600], p[700];
	snprintf(csv, sizeof(csv), "%s/pp.csv", test_dir);
	snprintf(out, sizeof(out), "%s/heat", test_dir);
	run_c2c(&r, "run", "pingpong", "--max-attempts", "1", "--reps", "1", "--samples", "20", "--round-trips", "10", "--preheat-ms", "1", "--quiet",
		"--out", csv, NULL);
	if (r.status)
		fail_msg("pingpong failed: %s", r.err);
	run_c2c(&r, "report", csv, "-o", out, NULL);
	if (r.status)
		fail_msg("report failed: %s", r.err);
	assert_png(out, "heat-load-store-m1.png");
	assert_png(out, "heat-cas-m1.png");
	snprintf(p, sizeof(p), "%s/report.md", out);
	char *md = slurp(p);
	assert_non_null(strstr(md, "## Core-to-core latency (pingpong)"));
	assert_non_null(strstr(md, "](heat-cas-m1.png)"));
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_heatmap),
		cmocka_unit_test(report_on_real_results),
		cmocka_unit_test(report_side_by_side),
		cmocka_unit_test(report_without_gnuplot),
		cmocka_unit_test(report_bad_input),
	};
	return cmocka_run_group_tests(tests, setup, test_dir_teardown);
}

/* pingpong through the real binary: the CSV matrix, the per-class summary, planning on a
 * synthetic two-package topology, and bad pairs or CPU lists refused with one line and exit 2. */
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAST "--samples", "20", "--round-trips", "5", "--preheat-ms", "1"
#define SYN "synthetic:pack:2 l3:2 core:4 pu:2"

/* Field `col` (0-based) of a CSV line, for fields before any quoted one. */
static void field(const char *line, int col, char *out, size_t n)
{
	for (int i = 0; i < col && line; i++)
		line = strchr(line, ',') ? strchr(line, ',') + 1 : NULL;
	assert_non_null(line);
	size_t len = strcspn(line, ",\n");
	snprintf(out, n, "%.*s", (int)(len < n ? len : n - 1), line);
}

static int col_of(const char *header, const char *name)
{
	char f[64];
	for (int i = 0; i < 80; i++) {
		field(header, i, f, sizeof(f));
		if (!strcmp(f, name))
			return i;
	}
	fail_msg("no column %s", name);
	return -1;
}

static void test_csv_rows(void **state)
{
	struct cmd_result *r = calloc(1, sizeof(*r));
	char *dir = temp_dir(), csv[256];
	(void)state;
	snprintf(csv, sizeof(csv), "%s/pp.csv", dir);
	run_c2c(r, "run", "pingpong", "--placement", "cpus:0,1", FAST, "--max-attempts", "1", "--reps", "2", "--out", csv, NULL);
	assert_int_equal(r->status, 0);
	char *s = slurp(csv);
	assert_non_null(s);
	assert_int_equal(count_lines(s), 1 + 1 * 2 * 2); /* header + 1 pair x 2 modes x 2 reps */
	int ca = col_of(s, "cpu_a"), cb = col_of(s, "cpu_b"), cl = col_of(s, "class"), mo = col_of(s, "mode");
	int mn = col_of(s, "min_ns"), md = col_of(s, "median_ns"), ex = col_of(s, "expected_transfers_per_handoff");
	int modes[2] = { 0 };
	for (const char *l = strchr(s, '\n') + 1; *l; l = strchr(l, '\n') + 1) {
		char a[16], b[16], c[32], m[32], lo[32], med[32], e[16];
		field(l, ca, a, sizeof(a));
		field(l, cb, b, sizeof(b));
		field(l, cl, c, sizeof(c));
		field(l, mo, m, sizeof(m));
		field(l, mn, lo, sizeof(lo));
		field(l, md, med, sizeof(med));
		field(l, ex, e, sizeof(e));
		assert_string_equal(a, "0");
		assert_string_equal(b, "1");
		assert_true(!strcmp(c, "smt") || !strcmp(c, "same-llc") || !strcmp(c, "same-package") || !strcmp(c, "cross-package"));
		assert_true(atof(lo) > 0 && atof(lo) <= atof(med));
		modes[!strcmp(m, "cas")]++;
		assert_string_equal(e, !strcmp(m, "cas") ? "NA" : "1");
	}
	assert_int_equal(modes[0], 2);
	assert_int_equal(modes[1], 2);
	assert_non_null(strstr(r->out, "load-store/"));
	assert_non_null(strstr(r->out, "cas/"));
	assert_non_null(strstr(r->out, "config with CV above 5%"));
	free(s);
	rm_rf(dir);
	free(dir);
	free(r);
}

/* --cv-warn 0 flags every configuration whose repetitions differ at all. */
static void test_cv_warn_flags(void **state)
{
	struct cmd_result *r = calloc(1, sizeof(*r));
	char *dir = temp_dir(), csv[256];
	(void)state;
	snprintf(csv, sizeof(csv), "%s/pp.csv", dir);
	run_c2c(r, "run", "pingpong", "--placement", "cpus:0,1", FAST, "--max-attempts", "1", "--reps", "3", "--mode", "cas", "--cv-warn", "0",
		"--out", csv, NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "%)!"));
	assert_non_null(strstr(r->out, "config with CV above 0%: 1 of 1 (worst: 0-1/cas"));
	rm_rf(dir);
	free(dir);
	free(r);
}

static void test_dry_run_synthetic(void **state)
{
	struct cmd_result *r = calloc(1, sizeof(*r));
	(void)state;
	run_c2c(r, "run", "pingpong", "--topology", SYN, "--dry-run", "--pairs", "classes", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "0      1      smt"));
	assert_non_null(strstr(r->out, "0      2      same-llc"));
	assert_non_null(strstr(r->out, "0      8      same-package"));
	assert_non_null(strstr(r->out, "0      16     cross-package"));
	assert_non_null(strstr(r->out, "8 variant(s)")); /* 4 pairs x 2 modes */
	assert_non_null(strstr(r->err, "4 pair(s) of 32 PU(s)"));
	run_c2c(r, "run", "pingpong", "--topology", SYN, "--dry-run", "--placement", "cpus:0,1,16", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "0      1      smt"));
	assert_non_null(strstr(r->out, "0      16     cross-package"));
	assert_non_null(strstr(r->out, "1      16     cross-package"));
	assert_non_null(strstr(r->err, "3 pair(s) of 3 PU(s)"));
	run_c2c(r, "run", "pingpong", "--topology", SYN, "--dry-run", "--pairs", "vs:5", "--mode", "cas", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "31 variant(s)"));
	free(r);
}

static void expect_bad(const char *a, const char *b)
{
	struct cmd_result *r = calloc(1, sizeof(*r));
	char *dir = temp_dir(), csv[256];
	snprintf(csv, sizeof(csv), "%s/pp.csv", dir);
	run_c2c(r, "run", "pingpong", a, b, "--out", csv, NULL);
	if (r->status != 2 || count_lines(r->err) != 1 || !strstr(r->err, "error"))
		fail_msg("%s %s: status %d, stderr: %s", a, b, r->status, r->err);
	assert_false(file_exists(csv));
	rm_rf(dir);
	free(dir);
	free(r);
}

static void test_bad_input(void **state)
{
	(void)state;
	expect_bad("--placement", "cpus:0,4096");
	expect_bad("--placement", "cpus:0");
	expect_bad("--placement", "cpus:zero");
	expect_bad("--placement", "cpus:0-");
	expect_bad("--placement", "spread");
	expect_bad("--pairs", "vs:4096");
	expect_bad("--pairs", "sample:0");
	expect_bad("--pairs", "sample:1000000");
	expect_bad("--pairs", "nearest");
	expect_bad("--mode", "store");
	expect_bad("--samples", "0");
	expect_bad("--duration", "1");
	expect_bad("--mem-node", "0");
	expect_bad("--cv-warn", "200");
	expect_bad("--cv-warn", "5%");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_csv_rows),
		cmocka_unit_test(test_cv_warn_flags),
		cmocka_unit_test(test_dry_run_synthetic),
		cmocka_unit_test(test_bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* compare: the CSV reader, the statistics (known U, exact p, bootstrap), the joined table, refusals. */
#include "analysis/compare_stats.h"
#include "analysis/csvread.h"
#include "harness/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "tests/testutil.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static void reader_rfc4180(void **state)
{
	(void)state;
	struct table t;
	char err[ERRLEN];
	const char *text = "a,b,c\r\n1,\"x, \"\"y\"\"\",\"two\nlines\"\r\n\n,,\n";
	assert_int_equal(table_parse(&t, "t.csv", text, strlen(text), err), 0);
	assert_int_equal(t.ncols, 3);
	assert_int_equal(t.nrows, 2);
	assert_string_equal(t.cell[0][1], "x, \"y\"");
	assert_string_equal(t.cell[0][2], "two\nlines");
	assert_string_equal(t.cell[1][0], "");
	assert_int_equal(t.line[1], 5); /* the quoted newline counts */
	assert_string_equal(table_get(&t, 0, "c"), "two\nlines");
	assert_null(table_get(&t, 0, "nope"));
	table_free(&t);
}

static void reader_refuses(const char *text, size_t len, const char *what)
{
	struct table t;
	char err[ERRLEN];
	assert_int_equal(table_parse(&t, "h.csv", text, len, err), -1);
	if (!strstr(err, what))
		fail_msg("expected '%s' in: %s", what, err);
}

static void reader_hostile_input(void **state)
{
	(void)state;
	reader_refuses("a,b\n1,\"open\n", 12, "h.csv:2: a quoted field is not closed");
	reader_refuses("a,b\n1,2\n3\n", 10, "h.csv:3: row has 1 field(s) but the header has 2");
	reader_refuses("a,b\n1,x\"y\n", 10, "h.csv:2: a quote inside an unquoted field");
	reader_refuses("a,b\n1,\"x\"y\n", 11, "h.csv:2: text after a closing quote");
	reader_refuses("a,b\n1,x\0y\n", 10, "h.csv:2: NUL byte");
	reader_refuses("a,a\n1,2\n", 8, "column 'a' appears twice");
	reader_refuses("", 0, "h.csv: empty file");
	reader_refuses("a,b\n1,x\ry\n", 10, "carriage return");
}

/* U over all C(10,5) splits of 1..10, by brute force: the exact distribution, independently. */
static double brute_p(double u_obs)
{
	int le = 0, ge = 0, total = 0;
	for (int mask = 0; mask < 1024; mask++) {
		if (__builtin_popcount(mask) != 5)
			continue;
		double u = 0;
		for (int i = 0; i < 10; i++)
			for (int j = 0; j < 10; j++)
				if ((mask >> i & 1) && !(mask >> j & 1) && i > j)
					u++;
		total++;
		le += u <= u_obs;
		ge += u >= u_obs;
	}
	double p = 2.0 * (le < ge ? le : ge) / total;
	return p > 1 ? 1 : p;
}

static void mann_whitney_known(void **state)
{
	(void)state;
	double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 }, u, p;
	int exact;
	mann_whitney(a, 5, b, 5, &u, &p, &exact);
	assert_true(exact);
	assert_true(u == 0);
	assert_true(fabs(p - 2.0 / 252) < 1e-12);
	double c[] = { 1, 3, 5, 7, 9 }, d[] = { 2, 4, 6, 8, 10 };
	mann_whitney(c, 5, d, 5, &u, &p, &exact);
	assert_true(u == 10);
	assert_true(fabs(p - brute_p(10)) < 1e-12);
	mann_whitney(d, 5, c, 5, &u, &p, &exact);
	assert_true(u == 15); /* U(a) + U(b) = na * nb */
	double e[] = { 1, 2 }, f[] = { 2, 3 };
	mann_whitney(e, 2, f, 2, &u, &p, &exact);
	assert_true(u == 0.5); /* a tie counts one half */
	assert_false(exact);
	assert_true(p > 0.05 && p <= 1);
}

static void bootstrap_interval(void **state)
{
	(void)state;
	double a[] = { 10, 10, 10 }, b[] = { 20, 20, 20, 20 }, lo, hi;
	assert_int_equal(boot_ratio_ci(a, 3, b, 4, &lo, &hi), 0);
	assert_true(lo == 2 && hi == 2);
	double c[] = { 9, 10, 11, 10, 12 }, d[] = { 18, 21, 20, 19, 22 };
	assert_int_equal(boot_ratio_ci(c, 5, d, 5, &lo, &hi), 0);
	assert_true(lo <= 2 && 2 <= hi && lo > 1.4 && hi < 2.6);
	double lo2, hi2;
	assert_int_equal(boot_ratio_ci(c, 5, d, 5, &lo2, &hi2), 0);
	assert_true(lo == lo2 && hi == hi2); /* fixed seed: reproducible */
	assert_int_equal(boot_ratio_ci(c, 1, d, 5, &lo, &hi), -1);
}

static const char *hdr = "schema_version,bench,layout,rep,offset,policy,atomics,placement,writers,readers,mem_node,work_ns,drain_us,writer_ns_per_op,reader_ns_per_op,host,na_reason\n";

static char *write_csv(const char *name, int schema, const char *host, const double *w, int n, const char *layout2)
{
	static char path[512];
	snprintf(path, sizeof(path), "%s/%s", test_dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(hdr, f);
	for (int i = 0; i < n; i++)
		fprintf(f, "%d,pending-bit,shared,%d,32,rmw,lock,same-socket,1,1,0,0,0,%g,NA,%s,reader_ns_per_op: not measured here\n", schema, i, w[i], host);
	if (layout2)
		fprintf(f, "%d,pending-bit,%s,0,64,rmw,lock,same-socket,1,1,0,0,0,5,5,%s,\n", schema, layout2, host);
	fclose(f);
	return path;
}

/* The CSV output line for configuration layout=shared and a metric. */
static const char *line_of(const char *out, const char *needle)
{
	static char line[2048];
	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		size_t l = strcspn(p, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)l, p);
		if (strstr(line, needle))
			return line;
	}
	return NULL;
}

static void compare_known_table(void **state)
{
	(void)state;
	double a[] = { 5, 1, 4, 2, 3 }, b[] = { 10, 6, 8, 9, 7 };
	char pa[512], pb[512];
	struct cmd_result r;
	snprintf(pa, sizeof(pa), "%s", write_csv("a.csv", 1, "\"machine, one\"", a, 5, "padded"));
	snprintf(pb, sizeof(pb), "%s", write_csv("b.csv", 1, "two", b, 5, NULL));
	run_c2c(&r, "compare", pa, pb, "--csv", NULL);
	if (r.status)
		fail_msg("%s", r.err);
	const char *l = line_of(r.out, "layout=shared;offset=32;policy=rmw;atomics=lock;placement=same-socket;writers=1;readers=1;mem_node=0;work_ns=0;drain_us=0,writer_ns_per_op,");
	assert_non_null(l);
	/* medians 3 and 8, ratio 8/3, U = 0 (no A above B), exact p = 2/252 */
	assert_non_null(strstr(l, ",writer_ns_per_op,5,3,5,8,2.66667,"));
	assert_non_null(strstr(l, ",0,0.00793651,exact,**,"));
	l = line_of(r.out, "shared;offset=32;policy=rmw;atomics=lock;placement=same-socket;writers=1;readers=1;mem_node=0;work_ns=0;drain_us=0,reader_ns_per_op,");
	assert_non_null(strstr(l, ",reader_ns_per_op,0,NA,0,NA,NA,NA,NA,NA,NA,NA,,")); /* NA stays NA */
	l = line_of(r.out, "layout=padded");
	assert_non_null(l);
	assert_true(l[strlen(l) - 1] == 'A'); /* only_in = A */
	run_c2c(&r, "compare", pa, pb, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "only in A (1 configuration(s), not compared):"));
	assert_non_null(strstr(r.out, "machine(s): machine, one"));
	assert_non_null(strstr(r.out, "2.667"));
}

static void compare_refuses_other_schema(void **state)
{
	(void)state;
	double a[] = { 1, 2 };
	char pa[512], pb[512];
	struct cmd_result r;
	snprintf(pa, sizeof(pa), "%s", write_csv("s1.csv", 1, "h", a, 2, NULL));
	snprintf(pb, sizeof(pb), "%s", write_csv("s2.csv", 2, "h", a, 2, NULL));
	run_c2c(&r, "compare", pa, pb, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "has schema_version 1 but B"));
	assert_non_null(strstr(r.err, "has schema_version 2; rows of different schema versions cannot be joined"));
	assert_int_equal(r.out[0], 0);
}

static void compare_bad_input(void **state)
{
	(void)state;
	char p[512];
	struct cmd_result r;
	snprintf(p, sizeof(p), "%s/broken.csv", test_dir);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "%s1,pending-bit,\"shared,0\n", hdr);
	fclose(f);
	run_c2c(&r, "compare", p, p, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "broken.csv:2: a quoted field is not closed"));
	run_c2c(&r, "compare", p, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "compare needs two inputs"));
	snprintf(p, sizeof(p), "%s/other.csv", test_dir);
	f = fopen(p, "w");
	fprintf(f, "x,y,z,w\n1,2,3,4\n");
	fclose(f);
	run_c2c(&r, "compare", p, p, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "not a c2cbench result CSV"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reader_rfc4180),
		cmocka_unit_test(reader_hostile_input),
		cmocka_unit_test(mann_whitney_known),
		cmocka_unit_test(bootstrap_interval),
		cmocka_unit_test(compare_known_table),
		cmocka_unit_test(compare_refuses_other_schema),
		cmocka_unit_test(compare_bad_input),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}

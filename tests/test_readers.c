/* Readers verify what they read: a CSV cut short and metric values outside the one number grammar
 * are refused with file:line, never read as whole or as numbers they are not. */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include "analysis/resultset.h"
#include "cli/bench_fallback.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

#define HEAD "schema_version,bench,layout,rep,writer_ns_per_op,reader_ns_per_op\n"

static int parse(const char *text, char *err)
{
	struct table t;
	int rc = table_parse(&t, "r.csv", text, strlen(text), err);
	if (!rc)
		table_free(&t);
	return rc;
}

static void cut_last_row(void **s)
{
	(void)s;
	char err[ERRLEN] = "";
	assert_int_equal(parse(HEAD "1,pending-bit,shared,0,12.5,3.25\n", err), 0);
	/* cut inside the last unquoted field: 3.25 became 3 */
	assert_int_equal(parse(HEAD "1,pending-bit,shared,0,12.5,3", err), -1);
	assert_non_null(strstr(err, "r.csv:2: the last row does not end with a newline"));
	/* cut right after a closing quote, and a header alone without its newline */
	assert_int_equal(parse(HEAD "1,pending-bit,\"shared\"", err), -1);
	assert_non_null(strstr(err, "r.csv:2:"));
	assert_int_equal(parse("schema_version,bench", err), -1);
	assert_non_null(strstr(err, "r.csv:1: the last row does not end with a newline"));
	assert_int_equal(parse(HEAD "1,pending-bit,shared,0,12.5,3.25\r\n", err),
			 0); /* CRLF is whole */
}

/* A metric value through the grouping engine compare and report read with; returns its result
 * and leaves the message in err. */
static int metric(const char *w, const char *r, char *err)
{
	char path[600];
	struct groups g;
	snprintf(path, sizeof(path), "%s/m.csv", test_dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, HEAD "1,pending-bit,shared,0,%s,%s\n", w, r);
	fclose(f);
	assert_int_equal(groups_init(&g, NULL, err), 0);
	int rc = groups_add(&g, path, 0, err);
	groups_free(&g);
	return rc;
}

static void strict_metric_values(void **s)
{
	(void)s;
	char err[ERRLEN] = "";
	const char *ok[] = { "12.5", "NA", "0", "1e-3", "1000000" };
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++)
		assert_int_equal(metric(ok[i], "1", err), 0);
	/* a metric is a rate, time or count: never negative; an empty field in a valid row is not
	 * NA */
	assert_int_equal(metric("-2.5", "1", err), -1);
	assert_non_null(strstr(err, "m.csv:2: writer_ns_per_op = '-2.5'"));
	assert_non_null(strstr(err, "never negative"));
	assert_int_equal(metric("", "1", err), -1);
	assert_non_null(strstr(err, "m.csv:2: writer_ns_per_op is empty in a row marked valid"));
	const char *bad[] = { "0x10", " 12",   "12 ",  "inf", "-inf", "nan",
			      "+3",   "1e999", "12ns", ".5",  "1,5" };
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char q[32];
		snprintf(q, sizeof(q), "\"%s\"", bad[i]); /* quoted, so "1,5" is one field */
		assert_int_equal(metric("1", q, err), -1);
		assert_non_null(strstr(err, "m.csv:2: reader_ns_per_op = '"));
		assert_non_null(strstr(err, "no hex, spaces, inf or nan"));
	}
	/* a newline inside the value stays on the error's one line */
	assert_int_equal(metric("\"1\n2\"", "1", err), -1);
	assert_null(strchr(err, '\n'));
	assert_non_null(strstr(err, "1\\n2"));
}

int main(void)
{
	groups_set_desc_fallback(bench_fallback); /* these CSVs carry no X.bench, as compare's */
	const struct CMUnitTest t[] = {
		cmocka_unit_test(cut_last_row),
		cmocka_unit_test(strict_metric_values),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}

/* report's "Rows not used": rows counted per machine by the validity rules they broke, not by
 * their whole invalid_reason (whose measured values differ from row to row), each rule named once
 * per row, with one row's whole reason as the example. */
#include "lib/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "schema/meta.h"
#include "tests/report_util.h"
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A pending-bit row of machine m, valid or with reason why. */
static void row(FILE *f, int rep, const char *layout, const char *why)
{
	static long window; /* each row its own, as measured: a repeated row is a copy (refused) */
	fprintf(f,
		"%d,pending-bit,%s,%d,32,rmw,same-socket,1,1,0,0,0,1,0.2,10,3,NA,%ld,h,cpu,m,%s,"
		"\"%s\",\"drains: no drainer\"\n",
		SCHEMA_VERSION, layout, rep, 1000000000 + ++window, *why ? "no" : "yes", why);
}

static void counted_by_rule(void **state)
{
	(void)state;
	char csv[600], out[600];
	snprintf(csv, sizeof(csv), "%s/unused.csv", test_dir);
	snprintf(out, sizeof(out), "%s/unused", test_dir);
	FILE *f = pb_csv(csv);
	for (int rep = 0; rep < 6; rep++) /* valid rows, so the report has something to draw */
		row(f, rep, "shared", ""), row(f, rep, "aligned", "");
	row(f, 6, "shared", "window: writer0 0.222 s for 0.100 s requested (+122%)");
	row(f, 7, "shared", "window: reader0 0.480 s for 0.100 s requested (+380%)");
	row(f, 8, "aligned",
	    "window: writer0 0.3 s for 0.100 s requested (+200%); window: reader0 0.4 s for 0.100 "
	    "s requested (+300%)");
	row(f, 9, "aligned",
	    "probe: CPUs 0-1 65.9 ns before and 303.3 ns after (x4.60); oncpu: writer0 on a CPU "
	    "57.1% of its window (below 90%)");
	fclose(f);
	char *md = report_md_of(out, csv, NULL);
	md_tables_well_formed(md);
	char *s = strstr(md, "## Rows not used");
	assert_non_null(s);
	/* three rows broke window alone, with other values each: one line, the first as example */
	assert_non_null(strstr(
		s, "| m | window | 3 | window: writer0 0.222 s for 0.100 s requested (+122%) |"));
	assert_non_null(strstr(s, "| m | probe; oncpu | 1 | probe: CPUs 0-1 65.9 ns before"));
	assert_null(strstr(s, "window; window"));
	assert_null(strstr(s, "| reader0 0.480"));
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counted_by_rule),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}

/* Every role is counted: for each bench that declares roles, every role has counter columns and the
 * count of operations its threads did while measured (the per-1,000-operations denominator),
 * gathered through the same per-thread hooks that start and stop the hardware counters. */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include <stdlib.h>
#include <string.h>

static void roles_of(const char *bench, const char *const *roles, const char *const *args)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char out[512];
	const char *a[16] = { 0 };
	snprintf(out, sizeof(out), "%s/%s.csv", test_dir, bench);
	for (int i = 0; args[i] && i < 12; i++)
		a[i] = args[i];
	run_c2c(r, "run", bench, "--reps", "1", "--quiet", LENIENT, "--out", out, a[0], a[1], a[2],
		a[3], a[4], a[5], a[6], a[7], a[8], a[9], NULL);
	if (!RAN(r->status)) /* 4: every attempt invalid (a loaded host); the columns are there */
		fail_msg("%s failed: %s", bench, r->err);
	struct table t;
	csv_load(&t, out);
	long last = t.nrows - 1; /* the last attempt: the valid one where any is */
	int measured = last >= 0 && row_measured(&t, last);
	for (int i = 0; roles[i]; i++) {
		char col[128];
		snprintf(col, sizeof(col), "%s_counted_ops", roles[i]);
		const char *v = last >= 0 ? table_get(&t, last, col) : NULL;
		if (!v || (measured && atoll(v) <= 0))
			fail_msg("%s: role %s has no operation count (%s = %s)", bench, roles[i],
				 col, v ? v : "absent");
		snprintf(col, sizeof(col), "%s_cycles_per_kop",
			 roles[i]); /* its counter columns (NA without a PMU) */
		if (table_col(&t, col) < 0)
			fail_msg("%s: role %s has no counter columns", bench, roles[i]);
	}
	table_free(&t);
	free(r);
}

static void every_role_is_counted(void **s)
{
	(void)s;
	static const char *const pb[] = { "writer", "reader", "drainer", NULL };
	static const char *const pba[] = { "--duration", "0.1",	     "--warmup",
					   "0.02",	 "--layout", "shared",
					   "--drain-us", "200",	     NULL };
	static const char *const sh[] = { "kworker", "workload", "shepherd", NULL };
	/* the shepherd visits once per modelled second: long enough for visits even under qemu-user
	 */
	const char *const sha[] = { "--duration", getenv("C2C_UNDER_QEMU") ? "2" : "0.5",
				    "--warmup",	  "0.05",
				    "--check",	  "pending",
				    NULL };
	static const char *const rf[] = { "caller", "worker", NULL };
	static const char *const rfa[] = { "--worker",	"unbound", "--attempts", "16384",
					   "--retries", "100000",  "--retry-ns", "20000",
					   "--warmup",	"0.01",	   NULL };
	roles_of("pending-bit", pb, pba);
	roles_of("shepherd", sh, sha);
	roles_of("refill", rf,
		 rfa); /* the unbound worker populates pages (test_refill: at least 30) */
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(every_role_is_counted),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}

/* Every role is counted, on the SDE path: PAPI's sde component reads each bench's software-defined
 * events in every measured thread (NAME.this_thread), so each role's columns (ROLE_sde_NAME) hold
 * that role's own tally, never NA, while the run's total (sde_NAME) is read around the run. A real
 * run of each bench that declares roles; validity rules lenient and one attempt (the rules are not
 * under test). */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One SDE event and the role whose threads publish it ({ 0 } after the last). */
struct tally {
	const char *name, *role;
};

/* A column's value in the first data row: fails the test when the column is missing or NA (no
 * role's column may be NA). */
static long long col(const struct table *r, const char *bench, const char *name)
{
	const char *v = csv_cell(r, 0, name);
	if (!strcmp(v, "NA"))
		fail_msg("%s: %s is NA", bench, name);
	return atoll(v);
}

/* Run bench with its SDE events and check every role against every tally: the publishing role's
 * column equals its counted operations (positive unless zero_ok names it), every other role's is 0,
 * and the roles add up to the run's total read around the run. */
static void check_bench(const char *bench, const char *const *roles, const struct tally *t,
			const char *zero_ok, const char *const *args)
{
	struct cmd_result *res = malloc(sizeof(*res));
	struct table r;
	char out[512], events[512] = "", key[160];
	snprintf(out, sizeof(out), "%s/sde-%s-%s.csv", test_dir, bench, zero_ok ? "zero" : "all");
	for (int i = 0; t[i].name; i++)
		snprintf(events + strlen(events), sizeof(events) - strlen(events),
			 "%ssde:::c2cbench::%s", i ? "," : "", t[i].name);
	const char *a[12] = { 0 };
	for (int i = 0; args[i] && i < 11; i++)
		a[i] = args[i];
	run_c2c(res, "run", bench, "--reps", "1", "--max-attempts", "1", LENIENT, "--quiet",
		"--out", out, "--events", events, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
		a[8], a[9], a[10], NULL);
	if (!RAN(res->status)) /* the counter columns do not depend on validity */
		fail_msg("%s failed (exit %d): %s", bench, res->status, res->err);
	csv_load(&r, out);
	for (int i = 0; t[i].name; i++) {
		long long sum = 0;
		for (int k = 0; roles[k]; k++) {
			snprintf(key, sizeof(key), "%s_sde_%s", roles[k], t[i].name);
			long long v = col(&r, bench, key);
			sum += v;
			if (strcmp(roles[k], t[i].role)) {
				if (v)
					fail_msg("%s: %s = %lld, but only %s threads publish %s",
						 bench, key, v, t[i].role, t[i].name);
				continue;
			}
			snprintf(key, sizeof(key), "%s_counted_ops", roles[k]);
			long long ops = col(&r, bench, key);
			if (v != ops || (v <= 0 && !(zero_ok && !strcmp(zero_ok, roles[k]))))
				fail_msg("%s: %s_sde_%s = %lld, %s = %lld", bench, roles[k],
					 t[i].name, v, key, ops);
		}
		snprintf(key, sizeof(key), "sde_%s", t[i].name);
		if (col(&r, bench, key) != sum)
			fail_msg("%s: the roles' %s add up to %lld, the run's total is %lld", bench,
				 t[i].name, sum, col(&r, bench, key));
	}
	table_free(&r);
	free(res);
}

static void pending_bit_roles(void **s)
{
	(void)s;
	static const char *const roles[] = { "writer", "reader", "drainer", NULL };
	static const struct tally t[] = { { "pending_rmw", "writer" },
					  { "reader_ops", "reader" },
					  { "drains", "drainer" },
					  { 0 } };
	static const char *const a[] = {"--duration", "0.1",        "--warmup", "0.02", "--layout",
					"shared",     "--drain-us", "200",      NULL};
	check_bench("pending-bit", roles, t, NULL, a);
}

static void shepherd_roles(void **s)
{
	(void)s;
	static const char *const roles[] = { "kworker", "workload", "shepherd", NULL };
	static const struct tally t[] = { { "shepherd_works", "kworker" },
					  { "shepherd_bursts", "workload" },
					  { "shepherd_visits", "shepherd" },
					  { 0 } };
	/* the shepherd visits once per modelled second: long enough for visits even under qemu-user
	 */
	const char *const a[] = { "--duration", getenv("C2C_UNDER_QEMU") ? "2" : "0.5",
				  "--warmup",	"0.05",
				  "--check",	"pending",
				  NULL };
	check_bench("shepherd", roles, t, NULL, a);
}

/* Unbound: both roles work. Bound with --hold token: the worker cannot run during the burst (an
 * invariant of the model), so its tally is 0, not NA, and equals its 0 counted operations. */
static void refill_roles(void **s)
{
	(void)s;
	static const char *const roles[] = { "caller", "worker", NULL };
	static const struct tally t[] = { { "refill_attempts", "caller" },
					  { "refill_pages", "worker" },
					  { 0 } };
	static const char *const unbound[] = { "--worker",  "unbound", "--attempts", "16384",
					       "--retries", "100000",  "--retry-ns", "20000",
					       "--warmup",  "0.01",    NULL };
	static const char *const bound[] = { "--worker", "bound",      "--attempts",
					     "4096",	 "--alloc-ns", "0",
					     "--warmup", "0.01",       NULL };
	check_bench("refill", roles, t, NULL, unbound);
	check_bench("refill", roles, t, "worker", bound);
}

static void vmalloc_roles(void **s)
{
	(void)s;
	static const char *const roles[] = { "worker", "drainer", NULL };
	static const struct tally t[] = { { "vmalloc_cycles", "worker" },
					  { "vmalloc_drains", "drainer" },
					  { 0 } };
	static const char *const a[] = { "--duration", "0.1",	 "--warmup",   "0.02",
					 "--layout",   "shared", "--lazy-max", "2000", NULL };
	check_bench("vmalloc", roles, t, NULL, a);
}

static void pingpong_roles(void **s)
{
	(void)s;
	static const char *const roles[] = { "initiator", "responder", NULL };
	static const struct tally t[] = { { "pingpong_handoffs", "initiator" },
					  { "pingpong_answers", "responder" },
					  { 0 } };
	static const char *const a[] = { "--samples", "20", "--round-trips", "10", "--preheat-ms",
					 "1",	      NULL };
	check_bench("pingpong", roles, t, NULL, a);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(pending_bit_roles), cmocka_unit_test(shepherd_roles),
		cmocka_unit_test(refill_roles),	     cmocka_unit_test(vmalloc_roles),
		cmocka_unit_test(pingpong_roles),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}

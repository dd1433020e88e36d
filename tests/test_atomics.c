/* The atomics flavour axis: each value the architecture has is recorded in the CSV as run; LSE is
 * refused (exit 2, one line) on a CPU without it; a flavour of another architecture is bad input.
 */
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>
#if defined(__aarch64__)
#include <sys/auxv.h>
#ifndef HWCAP_ATOMICS
#define HWCAP_ATOMICS (1 << 8)
#endif
/* Whether this CPU has LSE, as the kernel says (AT_HWCAP), not as c2cbench's own code does. */
static int cpu_has_lse(void)
{
	return (getauxval(AT_HWCAP) & HWCAP_ATOMICS) != 0;
}
#endif

/* Run pending-bit briefly with --atomics want; return the CSV text (NULL when the run failed). */
static char *run_with(struct cmd_result *r, const char *want)
{
	static int n;
	char out[512];
	snprintf(out, sizeof(out), "%s/%s-%d.csv", test_dir, want, ++n); /* a fresh file per run */
	run_c2c(r, "run", "pending-bit", "--duration", "0.05", "--warmup", "0.01", "--max-attempts",
		"1", "--reps", "1", "--layout", "shared", "--atomics", want, "--events",
		"sde:::c2cbench::pending_rmw", LENIENT, "--out", out, "--quiet", NULL);
	return RAN(r->status) ? slurp(out) : NULL; /* the flavour is recorded in every row */
}

static void flavours_are_recorded(void **s)
{
	struct cmd_result *r = malloc(sizeof(*r));
	(void)s;
#if defined(__aarch64__)
	/* lse and what auto picks as this CPU has them: an ARMv8.0 core (Cortex-A72) has no LSE */
	int lse = cpu_has_lse();
	const char *const ok[][2] = { { "llsc", ",llsc,llsc," },
				      { "auto", lse ? ",lse,auto," : ",llsc,auto," },
				      { "lse", ",lse,lse," } };
	size_t n = lse ? 3 : 2;
#else
	static const char *const ok[][2] = { { "lock", ",lock,lock," }, { "auto", ",lock,auto," } };
	size_t n = 2;
#endif
	for (size_t i = 0; i < n; i++) {
		char *csv = run_with(r, ok[i][0]);
		if (!csv)
			fail_msg("--atomics %s failed: %s", ok[i][0], r->err);
		assert_non_null(strstr(csv, ",atomics,atomics_requested,"));
		if (!strstr(csv, ok[i][1]))
			fail_msg("--atomics %s: no %s in\n%s", ok[i][0], ok[i][1], csv);
		free(csv);
	}
	free(r);
}

static void lse_refused_where_missing(void **s)
{
	struct cmd_result *r = malloc(sizeof(*r));
	(void)s;
#if defined(__aarch64__)
	if (!getenv("C2C_UNDER_QEMU") && cpu_has_lse()) {
		free(r);
		print_message("skipped: needs a CPU without LSE (this one has it), or qemu-user\n");
		skip(); /* qemu-user emulates a Cortex-A53 below */
	}
	setenv("QEMU_CPU", "cortex-a53", 1); /* ARMv8.0: no HWCAP_ATOMICS (qemu-user only) */
	run_c2c(r, "run", "pending-bit", "--atomics", "lse", "--dry-run", NULL);
	assert_int_equal(r->status, 2);
	assert_int_equal(count_lines(r->err), 1);
	assert_non_null(strstr(r->err,
			       "--atomics lse: this CPU has no LSE atomics (HWCAP_ATOMICS not "
			       "set)"));
	char *csv = run_with(
		r, "auto"); /* auto falls back to LL/SC there, and says it was asked for auto */
	unsetenv("QEMU_CPU");
	if (!csv)
		fail_msg("auto on a CPU without LSE failed (exit %d): %s", r->status, r->err);
	assert_non_null(strstr(csv, ",llsc,auto,"));
	free(csv);
#else
	run_c2c(r, "run", "pending-bit", "--atomics", "lse", "--dry-run", NULL);
	assert_int_equal(r->status, 2);
	assert_int_equal(count_lines(r->err), 1);
	assert_non_null(strstr(r->err, "lse"));
	assert_non_null(strstr(r->err, "auto,lock"));
#endif
	free(r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(flavours_are_recorded),
		cmocka_unit_test(lse_refused_where_missing),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}

/* --perf-c2c where it cannot run: the run goes on, every row says why (perf missing; or, on a
 * machine without a PMU such as the 2-vCPU VM here, perf's own reason), and no report file is left
 * behind. Where perf and a PMU exist the report lands beside the CSV (not exercisable here). */
#include "tests/testutil.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void run_c2c_rows(struct cmd_result *r, const char *out)
{
	run_c2c(r, "run", "pending-bit", "--duration", "0.05", "--warmup", "0.01", "--reps", "1",
		"--layout", "shared,padded", "--perf-c2c", LENIENT, "--out", out, "--quiet", NULL);
}

static void perf_c2c_says_why(void **s)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char out[512], rep[600];
	(void)s;
	snprintf(out, sizeof(out), "%s/nopath.csv", test_dir);
	const char *path = getenv("PATH");
	char *saved = path ? strdup(path) : NULL;
	setenv("PATH", "/nonexistent", 1); /* no perf to start */
	run_c2c_rows(r, out);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	if (r->status)
		fail_msg("run failed: %s", r->err);
	char *csv = slurp(out);
	assert_non_null(strstr(csv, "perf_c2c_report"));
	assert_non_null(strstr(csv, "perf_c2c_report: perf cannot be started: no perf in PATH"));
	free(csv);
	snprintf(rep, sizeof(rep), "%s.perf-c2c-1.txt", out);
	assert_false(file_exists(rep));
	if (access("/usr/bin/perf", X_OK) == 0 && !file_exists("/sys/bus/event_source/devices/cpu")) {
		snprintf(out, sizeof(out), "%s/nopmu.csv", test_dir); /* perf is there, the PMU is not */
		run_c2c_rows(r, out);
		assert_int_equal(r->status, 0);
		csv = slurp(out);
		assert_non_null(strstr(csv, "perf_c2c_report: perf c2c record failed: "));
		free(csv);
		snprintf(rep, sizeof(rep), "%s.perf-c2c-1.txt", out);
		assert_false(file_exists(rep));
	}
	free(r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(perf_c2c_says_why),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}

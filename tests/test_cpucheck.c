/* CPUs that vanish, go offline or are forbidden are named before any thread starts. Offlining a real
 * CPU needs root and a machine to spare, so the sysfs reading is checked on a directory laid out like
 * /sys/devices/system/cpu, and the real one on what this machine has. */
#include "tests/testutil.h"
#include "harness/cpucheck.h"
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void put(const char *root, const char *rel, const char *text)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", root, rel);
	if (text) {
		FILE *f = fopen(p, "w");
		assert_non_null(f);
		fputs(text, f);
		fclose(f);
	} else
		assert_int_equal(mkdir(p, 0755), 0);
}

static void offline_and_missing_cpus_are_named(void **s)
{
	(void)s;
	char *root = temp_dir(), why[300];
	put(root, "cpu0", NULL); /* no online file: cannot be offlined */
	put(root, "cpu1", NULL);
	put(root, "cpu1/online", "1\n");
	put(root, "cpu3", NULL);
	put(root, "cpu3/online", "0\n");
	assert_int_equal(cpu_unusable(root, 0, why, sizeof(why)), 0);
	assert_int_equal(cpu_unusable(root, 1, why, sizeof(why)), 0);
	assert_int_equal(cpu_unusable(root, 3, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "CPU 3 is offline ("));
	assert_non_null(strstr(why, "/cpu3/online is 0)"));
	assert_int_equal(cpu_unusable(root, 2, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "CPU 2 does not exist on this machine"));
	rm_rf(root);
	free(root);
}

static void this_machine(void **s)
{
	(void)s;
	char why[300];
	cpu_set_t mine, one;
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	int first = -1, second = -1;
	for (int c = 0; c < CPU_SETSIZE && second < 0; c++)
		if (CPU_ISSET(c, &mine)) {
			if (first < 0)
				first = c;
			else
				second = c;
		}
	assert_int_equal(cpu_unusable(SYSFS_CPU, first, why, sizeof(why)), 0);
	assert_int_equal(cpu_unusable(SYSFS_CPU, 4000, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "CPU 4000 does not exist"));
	if (second < 0)
		skip();
	CPU_ZERO(&one);
	CPU_SET(first, &one);
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one), 0); /* as taskset -c FIRST would */
	int bad = cpu_unusable(SYSFS_CPU, second, why, sizeof(why));
	assert_int_equal(sched_setaffinity(0, sizeof(mine), &mine), 0);
	assert_int_equal(bad, 1);
	char want[64];
	snprintf(want, sizeof(want), "CPU %d is outside this process's allowed CPUs", second);
	assert_non_null(strstr(why, want));
}

static void placement_names_a_missing_cpu(void **s)
{
	(void)s;
	struct cmd_result r;
	run_c2c(&r, "run", "pending-bit", "--placement", "cpus:0,4000", "--dry-run", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "placement cpus:0,4000: CPU 4000 does not exist on this machine (no /sys/devices/system/cpu/cpu4000)"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(offline_and_missing_cpus_are_named),
		cmocka_unit_test(this_machine),
		cmocka_unit_test(placement_names_a_missing_cpu),
	};
	return cmocka_run_group_tests(t, NULL, NULL);
}

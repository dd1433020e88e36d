/* CPUs that vanish, go offline or are forbidden are named before any thread starts. Offlining a
 * real CPU needs root and a machine to spare, so the sysfs reading is checked on a directory laid
 * out like /sys/devices/system/cpu, and the real one on what this machine has. */
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
	char *root = temp_dir(), why[300], rel[64], want[64];
	/* the usable CPUs are ones this process may use (the affinity is checked too): CPUs 0 and 1
	 * need not be (taskset, a container's cpuset); b is -1 where there is one */
	int a = -1, b = -1;
	if (two_usable_cpus(&a, &b)) {
		cpu_set_t mine;
		assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
		for (a = 0; !CPU_ISSET(a, &mine); a++)
			;
	}
	int off = (b > a ? b : a) + 2, gone = off - 1;
	snprintf(rel, sizeof(rel), "cpu%d", a);
	put(root, rel, NULL); /* no online file: cannot be offlined */
	if (b >= 0) {
		snprintf(rel, sizeof(rel), "cpu%d", b);
		put(root, rel, NULL);
		snprintf(rel, sizeof(rel), "cpu%d/online", b);
		put(root, rel, "1\n");
	}
	snprintf(rel, sizeof(rel), "cpu%d", off);
	put(root, rel, NULL);
	snprintf(rel, sizeof(rel), "cpu%d/online", off);
	put(root, rel, "0\n");
	assert_int_equal(cpu_unusable(root, a, why, sizeof(why)), 0);
	if (b >= 0)
		assert_int_equal(cpu_unusable(root, b, why, sizeof(why)), 0);
	assert_int_equal(cpu_unusable(root, off, why, sizeof(why)), 1);
	snprintf(want, sizeof(want), "CPU %d is offline (", off);
	assert_non_null(strstr(why, want));
	snprintf(want, sizeof(want), "/cpu%d/online is 0)", off);
	assert_non_null(strstr(why, want));
	assert_int_equal(cpu_unusable(root, gone, why, sizeof(why)), 1);
	snprintf(want, sizeof(want), "CPU %d does not exist on this machine", gone);
	assert_non_null(strstr(why, want));
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
	assert_int_equal(sched_setaffinity(0, sizeof(one), &one),
			 0); /* as taskset -c FIRST would */
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
	cpu_set_t mine;
	char list[32], says[160];
	int first = 0; /* a CPU this process may use first: CPU 0 need not be (taskset, cpuset) */
	assert_int_equal(sched_getaffinity(0, sizeof(mine), &mine), 0);
	while (!CPU_ISSET(first, &mine))
		first++;
	snprintf(list, sizeof(list), "cpus:%d,4000", first);
	snprintf(says, sizeof(says), "placement %s: CPU 4000 does not exist on this machine "
		 "(no /sys/devices/system/cpu/cpu4000)", list);
	run_c2c(&r, "run", "pending-bit", "--placement", list, "--dry-run", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, says));
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

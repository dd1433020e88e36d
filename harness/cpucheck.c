#include "harness/cpucheck.h"
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* CPUs come and go between planning and running (hotplug, cpuset and taskset changes): name the
 * cause, since "Invalid argument" from the binding call does not. */
int cpu_unusable(const char *root, int cpu, char *why, size_t n)
{
	char path[512], v[8] = "";
	snprintf(path, sizeof(path), "%s/cpu%d", root, cpu);
	if (cpu < 0 || access(path, F_OK)) {
		snprintf(why, n, "CPU %d does not exist on this machine (no %s)", cpu, path);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/cpu%d/online", root, cpu);
	FILE *f = fopen(path, "r"); /* absent on CPUs that cannot be taken offline (often CPU 0) */
	if (f) {
		if (!fgets(v, sizeof(v), f))
			v[0] = 0;
		fclose(f);
		if (v[0] == '0') {
			snprintf(why, n,
				 "CPU %d is offline (%s is 0); bring it online or plan other CPUs",
				 cpu, path);
			return 1;
		}
	}
	cpu_set_t set;
	CPU_ZERO(&set);
	if (cpu < CPU_SETSIZE && !sched_getaffinity(0, sizeof(set), &set) &&
	    !CPU_ISSET(cpu, &set)) {
		snprintf(why, n,
			 "CPU %d is outside this process's allowed CPUs (taskset or cgroup cpuset)",
			 cpu);
		return 1;
	}
	return 0;
}

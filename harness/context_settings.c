/* The run context's settings facts (harness/context_facts.h): frequency, SMT, THP, NUMA
 * balancing and the other sysfs/procfs settings, NUMA nodes per package, prefetchers and snoop
 * mode; each NA with the reason where the machine does not say. */
#include "harness/context_facts.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

/* The governor of every allowed PU: one name, or "mixed(a,b)" when they differ. */
void ctx_governor(struct context *c, const struct topo *t)
{
	char first[64] = "", g[64], path[128];
	int seen = 0, mixed = 0;
	for (int i = 0; i < t->npus; i++) {
		if (!t->pu[i].allowed)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", t->pu[i].os);
		if (ctx_read_line(path, g, sizeof(g)))
			continue;
		if (!seen++)
			snprintf(first, sizeof(first), "%s", g);
		else if (strcmp(first, g))
			mixed = 1;
	}
	if (!seen)
		fact_na(
		    c, "governor",
		    "no cpufreq scaling_governor in sysfs (no frequency driver; common in VMs)");
	else if (mixed)
		fact_set(c, "governor", "mixed(%s,...)", first);
	else
		fact_set(c, "governor", "%s", first);
}

void ctx_boost(struct context *c)
{
	char v[32];
	if (!ctx_read_line("/sys/devices/system/cpu/cpufreq/boost", v, sizeof(v)) ||
	    !ctx_read_line("/sys/devices/system/cpu/cpu0/cpufreq/boost", v, sizeof(v)))
		fact_set(c, "boost", "%s", !strcmp(v, "1") ? "on" : !strcmp(v, "0") ? "off" : v);
	else if (!ctx_read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof(v)))
		fact_set(c, "boost", "%s", !strcmp(v, "1") ? "off" : "on");
	else
		fact_na(c, "boost", "no cpufreq boost or intel_pstate/no_turbo control in sysfs");
}

/* A sysfs/procfs setting as a fact; map translates raw values ("0" -> "off"), NULL keeps them. */
static void setting(struct context *c, const char *key, const char *path,
		    const char *const (*map)[2], size_t nmap, const char *why)
{
	char v[160];
	if (ctx_read_line(path, v, sizeof(v))) {
		fact_na(c, key, why);
		return;
	}
	char *open = strchr(v, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close) { /* "always [madvise] never": the selected word */
		*close = 0;
		memmove(v, open + 1, strlen(open + 1) + 1);
	}
	for (size_t i = 0; i < nmap; i++)
		if (!strcmp(v, map[i][0])) {
			fact_set(c, key, "%s", map[i][1]);
			return;
		}
	fact_set(c, key, "%s", v);
}

void ctx_system_settings(struct context *c)
{
	static const char *const onoff[][2] = { { "0", "off" }, { "1", "on" } };
	struct utsname u;
	setting(c, "smt", "/sys/devices/system/cpu/smt/active", onoff, 2,
		"no /sys/devices/system/cpu/smt/active");
	setting(c, "smt_control", "/sys/devices/system/cpu/smt/control", NULL, 0,
		"no /sys/devices/system/cpu/smt/control");
	setting(c, "thp", "/sys/kernel/mm/transparent_hugepage/enabled", NULL, 0,
		"no transparent hugepage support in this kernel");
	setting(c, "numa_balancing", "/proc/sys/kernel/numa_balancing", onoff, 2,
		"no /proc/sys/kernel/numa_balancing (kernel without NUMA balancing)");
	setting(c, "perf_event_paranoid", "/proc/sys/kernel/perf_event_paranoid", NULL, 0,
		"no /proc/sys/kernel/perf_event_paranoid (kernel without perf events)");
	setting(c, "clocksource",
		"/sys/devices/system/clocksource/clocksource0/current_clocksource", NULL, 0,
		"no clocksource in sysfs");
	if (uname(&u)) {
		fact_na(c, "arch", "uname failed");
		fact_na(c, "kernel_build", "uname failed");
	} else {
		fact_set(c, "arch", "%s", u.machine);
		fact_set(c, "kernel_build", "%s", u.version);
	}
}

/* NUMA nodes per package (SNC on Intel, NPS on AMD: how a package's memory is split), from
 * hwloc: "2", or "mixed(1,2)" when packages differ. */
void ctx_numa_per_package(struct context *c, const struct topo *t)
{
	int n = hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_PACKAGE), first = -1, mixed = 0;
	char list[120] = "";
	size_t k = 0;
	for (int i = 0; i < n; i++) {
		hwloc_obj_t pk = hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, (unsigned)i);
		int nodes = hwloc_get_nbobjs_inside_cpuset_by_type(t->h, pk->cpuset,
								   HWLOC_OBJ_NUMANODE);
		mixed |= first >= 0 && nodes != first;
		first = first < 0 ? nodes : first;
		if (k < sizeof(list))
			k += (size_t)snprintf(list + k, sizeof(list) - k, "%s%d", i ? "," : "",
					      nodes);
	}
	if (n <= 0)
		fact_na(c, "numa_per_package", "hwloc reports no package");
	else if (mixed)
		fact_set(c, "numa_per_package", "mixed(%s)", list);
	else
		fact_set(c, "numa_per_package", "%d", first);
}

/* Hardware prefetcher state and snoop mode: BIOS settings Linux shows in no sysfs file. The
 * prefetchers are MSR bits (Intel 0x1A4, AMD 0xC0000108 on Zen 3 and later) that /dev/cpu/0/msr
 * reads only as root with the msr module loaded; the snoop mode (home, early, directory, COD) is
 * exposed nowhere, only its effect (SNC/COD: NUMA nodes per package). */
void ctx_prefetch_snoop(struct context *c, const struct topo *t)
{
	unsigned long long v = 0;
	int intel = !strcmp(t->vendor, "GenuineIntel"), amd = !strcmp(t->vendor, "AuthenticAMD");
	long reg = intel ? 0x1a4 : 0xc0000108L;
	FILE *f = intel || amd ? fopen("/dev/cpu/0/msr", "rb") : NULL;
	char why[160];
	if (!intel && !amd)
		fact_na(c, "prefetchers",
			"no known prefetcher control register on this CPU vendor");
	else if (!f) {
		snprintf(why, sizeof(why), "needs the msr module as root (/dev/cpu/0/msr: %s)",
			 strerror(errno));
		fact_na(c, "prefetchers", why);
	} else if (fseek(f, reg, SEEK_SET) || fread(&v, sizeof(v), 1, f) != 1)
		fact_na(c, "prefetchers",
			"MSR read refused (a guest, or a CPU without the register)");
	else /* a set bit disables that prefetcher on both vendors' registers */
		fact_set(c, "prefetchers", "%s (MSR 0x%lx = 0x%llx)",
			 (v & 0xf) ? "some disabled" : "all enabled", reg, v);
	if (f)
		fclose(f);
	fact_na(c, "snoop_mode", "Linux exposes no snoop mode (a BIOS setting; SNC or COD shows as "
				 "numa_per_package)");
}

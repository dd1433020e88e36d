#include "harness/context.h"
#include "schema/fingerprint.h"
#include "lib/util.h"
#include <dirent.h>
#include <errno.h>
#include <perfmon/pfmlib.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#ifndef C2C_GIT_REV
#define C2C_GIT_REV "unknown"
#endif
#ifndef C2C_CFLAGS
#define C2C_CFLAGS "unknown"
#endif

static struct ctx_fact *fact_new(struct context *c, const char *key)
{
	if (c->nfacts >= CTX_FACTS)
		abort(); /* more facts than the table holds is a programming error */
	struct ctx_fact *f = &c->fact[c->nfacts++];
	snprintf(f->key, sizeof(f->key), "%s", key);
	return f;
}

static void __attribute__((format(printf, 3, 4)))
fact_set(struct context *c, const char *key, const char *fmt, ...)
{
	struct ctx_fact *f = fact_new(c, key);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(f->val, sizeof(f->val), fmt, ap);
	va_end(ap);
}

static void fact_na(struct context *c, const char *key, const char *why)
{
	struct ctx_fact *f = fact_new(c, key);
	snprintf(f->val, sizeof(f->val), "NA");
	snprintf(f->why, sizeof(f->why), "%s", why);
}

/* First line of a small sysfs/procfs file, without the newline; -1 if it cannot be read. */
static int read_line(const char *path, char *out, size_t n)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int ok = fgets(out, (int)n, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	out[strcspn(out, "\n")] = 0;
	return 0;
}

/* The value of the first "name : value" line of /proc/cpuinfo (x86 and most ISAs use this form). */
static int cpuinfo(const char *name, char *out, size_t n)
{
	char line[1024];
	size_t len = strlen(name);
	FILE *f = fopen("/proc/cpuinfo", "r");
	int rc = -1;
	if (!f)
		return -1;
	while (rc && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) &&
		    (line[len] == '\t' || line[len] == ' ' || line[len] == ':') &&
		    strchr(line, ':')) {
			char *v = strchr(line, ':') + 1;
			v += *v == ' ';
			v[strcspn(v, "\n")] = 0;
			snprintf(out, n, "%s", v);
			rc = 0;
		}
	fclose(f);
	return rc;
}

static const char *pkg_info(const struct topo *t, const char *name)
{
	hwloc_obj_t pkg = t && t->h ? hwloc_get_obj_by_type(t->h, HWLOC_OBJ_PACKAGE, 0) : NULL;
	return pkg ? hwloc_obj_get_info_by_name(pkg, name) : NULL;
}

/* First "model name" line of /proc/cpuinfo (x86; other ISAs fall back to the hwloc CPUModel info).
 */
static void cpu_model(char *out, size_t n, const struct topo *t)
{
	const char *m = pkg_info(t, "CPUModel");
	if (cpuinfo("model name", out, n)) {
		snprintf(out, n, "%s", m ? m : "unknown");
		out[strcspn(out, "\n")] = 0;
	}
}

/* arm64's MIDR fields as /proc/cpuinfo shows them: stepping is "rVARIANTpREVISION". */
static int midr_stepping(char *out, size_t n)
{
	char var[32], rev[32];
	long v, r;
	if (cpuinfo("CPU variant", var, sizeof(var)) || cpuinfo("CPU revision", rev, sizeof(rev)))
		return -1;
	v = strtol(var, NULL, 0);
	r = strtol(rev, NULL, 0);
	snprintf(out, n, "r%ldp%ld", v, r);
	return 0;
}

/* hwloc's x86 backend reads these from cpuid; /proc/cpuinfo is the fallback (x86 names, then
 * arm64's MIDR: implementer, architecture, part, variant and revision). */
static void cpu_ids(struct context *c, const struct topo *t)
{
	static const char *const keys[][4] = {
		{ "cpu_vendor", "CPUVendor", "vendor_id", "CPU implementer" },
		{ "cpu_family", "CPUFamilyNumber", "cpu family", "CPU architecture" },
		{ "cpu_model_number", "CPUModelNumber", "model", "CPU part" },
		{ "cpu_stepping", "CPUStepping", "stepping", NULL },
	};
	char buf[160];
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *v = pkg_info(t, keys[i][1]);
		if (v)
			fact_set(c, keys[i][0], "%s", v);
		else if (!cpuinfo(keys[i][2], buf, sizeof(buf)))
			fact_set(c, keys[i][0], "%s", buf);
		else if (keys[i][3] ? !cpuinfo(keys[i][3], buf, sizeof(buf))
				    : !midr_stepping(buf, sizeof(buf)))
			fact_set(c, keys[i][0], "%s", buf);
		else
			fact_na(c, keys[i][0],
				"neither hwloc nor /proc/cpuinfo reports it on this ISA");
	}
	if (!cpuinfo("microcode", buf, sizeof(buf)) ||
	    !read_line("/sys/devices/system/cpu/cpu0/microcode/version", buf, sizeof(buf)))
		fact_set(c, "microcode", "%s", buf);
	else
		fact_na(c, "microcode",
			"no microcode revision in /proc/cpuinfo or sysfs (common in VMs)");
}

/* The core PMU libpfm4 detects (what the counters module would program), else why there is none. */
static void pfm_pmu(struct context *c)
{
	char others[120] = "";
	size_t k = 0;
	if (pfm_initialize() != PFM_SUCCESS) {
		fact_na(c, "pmu", "libpfm4 failed to initialise");
		return;
	}
	for (int p = PFM_PMU_NONE + 1; p < PFM_PMU_MAX; p++) {
		pfm_pmu_info_t info;
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info((pfm_pmu_t)p, &info) != PFM_SUCCESS || !info.is_present)
			continue;
		if (info.type == PFM_PMU_TYPE_CORE) {
			fact_set(c, "pmu", "%s", info.name);
			return;
		}
		if (k < sizeof(others))
			k += (size_t)snprintf(others + k, sizeof(others) - k, "%s%s", k ? " " : "",
					      info.name);
	}
	char why[160];
	snprintf(why, sizeof(why), "libpfm4 detects no core PMU (present: %s)",
		 k ? others : "none");
	fact_na(c, "pmu", why);
}

/* The kernel's hardware PMU (perf_event): what decides whether counters can work at all. */
static void kernel_pmu(struct context *c)
{
	static const char *const names[] = { "cpu", "cpu_core", "armv8_pmuv3", "armv8_pmuv3_0" };
	char path[128];
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s", names[i]);
		if (!access(path, F_OK)) {
			fact_set(c, "kernel_pmu", "%s", names[i]);
			return;
		}
	}
	fact_set(c, "kernel_pmu", "none");
}

static void caches(struct context *c, const struct topo *t)
{
	static const struct {
		const char *key;
		hwloc_obj_type_t type;
	} lv[] = {{"l1d_bytes", HWLOC_OBJ_L1CACHE},
		  {"l2_bytes", HWLOC_OBJ_L2CACHE},
		  {"l3_bytes", HWLOC_OBJ_L3CACHE}};
	for (size_t i = 0; i < ARRAY_SIZE(lv); i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(t->h, lv[i].type, 0);
		if (o && o->attr->cache.size)
			fact_set(c, lv[i].key, "%llu", (unsigned long long)o->attr->cache.size);
		else
			fact_na(c, lv[i].key, "hwloc reports no such cache");
	}
	fact_set(c, "l3_count", "%d", hwloc_get_nbobjs_by_type(t->h, HWLOC_OBJ_L3CACHE));
}

/* A guest's DMI vendor, as systemd-detect-virt maps it; NULL when it names no hypervisor. */
static const char *dmi_hypervisor(void)
{
	static const char *const known[][2] = {
		{ "QEMU", "kvm" },
		{ "KVM", "kvm" },
		{ "Amazon EC2", "amazon" },
		{ "VMware", "vmware" },
		{ "innotek GmbH", "oracle" },
		{ "Xen", "xen" },
		{ "BHYVE", "bhyve" },
		{ "Parallels", "parallels" },
		{ "Google", "google" },
		{ "Apple Virtualization", "apple" },
	};
	char v[160], p[160];
	if (read_line("/sys/class/dmi/id/sys_vendor", v, sizeof(v)))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (!strncmp(v, known[i][0], strlen(known[i][0])))
			return known[i][1];
	if (!strcmp(v, "Microsoft Corporation") &&
	    !read_line("/sys/class/dmi/id/product_name", p, sizeof(p)) &&
	    !strcmp(p, "Virtual Machine"))
		return "hyperv";
	return NULL;
}

/* cpuid leaf 1 ECX bit 31, then the vendor signature at 0x40000000; /sys/hypervisor elsewhere. */
static void hypervisor(struct context *c)
{
	char buf[64];
#if defined(__x86_64__) || defined(__i386__)
	static const char *const known[][2] = {
	    {"KVMKVMKVM", "kvm"},     {"Microsoft Hv", "hyperv"},    {"VMwareVMware", "vmware"},
	    {"XenVMMXenVMM", "xen"},  {"bhyve bhyve ", "bhyve"},     {"TCGTCGTCGTCG", "qemu-tcg"},
	    {"ACRNACRNACRN", "acrn"}, {" lrpepyh  vr", "parallels"},
	};
	unsigned a, b, cx, d;
	__cpuid(1, a, b, cx, d);
	if (cx & (1u << 31)) {
		char sig[13];
		__cpuid(0x40000000, a, b, cx, d);
		memcpy(sig, &b, 4);
		memcpy(sig + 4, &cx, 4);
		memcpy(sig + 8, &d, 4);
		sig[12] = 0;
		for (size_t i = 0; i < ARRAY_SIZE(known); i++)
			if (!strncmp(sig, known[i][0], strlen(known[i][0]))) {
				fact_set(c, "hypervisor", "%s", known[i][1]);
				return;
			}
		for (char *p = sig; *p; p++)
			if (*p < 0x21 || *p > 0x7e || *p == ';')
				*p = '_';
		fact_set(c, "hypervisor", "unknown-%s", sig);
		return;
	}
#endif
	const char *dmi = dmi_hypervisor();
	if (!read_line("/sys/hypervisor/type", buf, sizeof(buf)))
		fact_set(c, "hypervisor", "%s", buf);
	else if (dmi)
		fact_set(c, "hypervisor", "%s", dmi);
#if defined(__x86_64__) || defined(__i386__)
	else
		fact_set(c, "hypervisor", "none");
#else
	else if (!access("/sys/class/dmi/id/sys_vendor", R_OK))
		fact_set(c, "hypervisor", "none"); /* DMI there, naming no hypervisor */
	else
		fact_na(c, "hypervisor",
			"no cpuid on this ISA, no /sys/hypervisor/type and no DMI");
#endif
}

/* The firmware's idea of the machine (what systemd-detect-virt reads): a guest's DMI names its
 * hypervisor or cloud ("QEMU", "Amazon EC2", "BHYVE"), bare metal its maker and model. */
static void dmi(struct context *c)
{
	static const char *const keys[][2] = { { "dmi_sys_vendor", "sys_vendor" },
					       { "dmi_product_name", "product_name" } };
	char path[96], v[160];
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		snprintf(path, sizeof(path), "/sys/class/dmi/id/%s", keys[i][1]);
		if (read_line(path, v, sizeof(v)))
			fact_na(c, keys[i][0],
				"no /sys/class/dmi/id (no DMI firmware tables, e.g. a device-tree "
				"system)");
		else
			fact_set(c, keys[i][0], "%s", v);
	}
}

/* Each NUMA node's memory as hwloc reports it, in GiB to one decimal: "0:15.6GiB 1:15.7GiB". */
static void mem_per_node(struct context *c, const struct topo *t)
{
	char buf[160];
	size_t k = 0;
	buf[0] = 0;
	for (hwloc_obj_t o = NULL;
	     t->h && (o = hwloc_get_next_obj_by_type(t->h, HWLOC_OBJ_NUMANODE, o));)
		if (k < sizeof(buf))
			k += (size_t)snprintf(
			    buf + k, sizeof(buf) - k, "%s%u:%.1fGiB", k ? " " : "", o->os_index,
			    (double)o->attr->numanode.local_memory / (1024.0 * 1024 * 1024));
	if (k)
		fact_set(c, "mem_per_node", "%s", buf);
	else
		fact_na(c, "mem_per_node", "hwloc reports no NUMA node");
}

/* The PUs and memory nodes this run may use, as the plan saw them (topo.c: hwloc's allowed sets,
 * narrowed to the process affinity): a job in part of a node (Slurm without --exclusive, a
 * container, taskset) records its part. Not hashed into the fingerprint: the same machine. */
static void allowed_sets(struct context *c, const struct topo *t)
{
	char buf[4096];
	int n = 0;
	for (int i = 0; i < t->npus; i++)
		n += t->pu[i].allowed;
	topo_pu_list(t, buf, sizeof(buf));
	if (strlen(buf) < sizeof(c->fact[0].val))
		fact_set(c, "allowed_pus", "%s", buf);
	else { /* a list that does not fit is not recorded cut short */
		char why[96];
		snprintf(why, sizeof(why),
			 "the list of the %d allowed PUs is longer than %zu bytes", n,
			 sizeof(c->fact[0].val) - 1);
		fact_na(c, "allowed_pus", why);
	}
	topo_node_list(t, buf, sizeof(buf));
	if (strlen(buf) < sizeof(c->fact[0].val))
		fact_set(c, "allowed_mem_nodes", "%s", buf);
	else
		fact_na(c, "allowed_mem_nodes", "the list of allowed nodes is too long to record");
}

/* A fingerprint field: the context's own fields, else a fact (NA when unknown). */
static const char *fp_get(void *arg, const char *key)
{
	static __thread char num[32];
	const struct context *c = arg;
	const int ints[] = { c->packages, c->cores, c->pus, c->nodes };
	const char *const ikeys[] = { "packages", "cores", "pus", "numa_nodes" };
	for (size_t i = 0; i < ARRAY_SIZE(ints); i++)
		if (!strcmp(key, ikeys[i])) {
			snprintf(num, sizeof(num), "%d", ints[i]);
			return num;
		}
	if (!strcmp(key, "kernel"))
		return c->kernel;
	const struct ctx_fact *f = context_fact(c, key);
	return f ? f->val : NULL;
}

/* The governor of every allowed PU: one name, or "mixed(a,b)" when they differ. */
static void governor(struct context *c, const struct topo *t)
{
	char first[64] = "", g[64], path[128];
	int seen = 0, mixed = 0;
	for (int i = 0; i < t->npus; i++) {
		if (!t->pu[i].allowed)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", t->pu[i].os);
		if (read_line(path, g, sizeof(g)))
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

static void boost(struct context *c)
{
	char v[32];
	if (!read_line("/sys/devices/system/cpu/cpufreq/boost", v, sizeof(v)) ||
	    !read_line("/sys/devices/system/cpu/cpu0/cpufreq/boost", v, sizeof(v)))
		fact_set(c, "boost", "%s", !strcmp(v, "1") ? "on" : !strcmp(v, "0") ? "off" : v);
	else if (!read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof(v)))
		fact_set(c, "boost", "%s", !strcmp(v, "1") ? "off" : "on");
	else
		fact_na(c, "boost", "no cpufreq boost or intel_pstate/no_turbo control in sysfs");
}

/* A sysfs/procfs setting as a fact; map translates raw values ("0" -> "off"), NULL keeps them. */
static void setting(struct context *c, const char *key, const char *path,
		    const char *const (*map)[2], size_t nmap, const char *why)
{
	char v[160];
	if (read_line(path, v, sizeof(v))) {
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

static void system_settings(struct context *c)
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
static void numa_per_package(struct context *c, const struct topo *t)
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
static void prefetch_snoop(struct context *c, const struct topo *t)
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

void context_collect(struct context *c, const struct topo *t)
{
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	memset(c, 0, sizeof(*c));
	if (gethostname(c->host, sizeof(c->host) - 1))
		snprintf(c->host, sizeof(c->host), "unknown");
	label_from_host(c->host, c->label, sizeof(c->label));
	cpu_model(c->cpu_model, sizeof(c->cpu_model), t);
	snprintf(c->kernel, sizeof(c->kernel), "%s", uname(&u) ? "unknown" : u.release);
	snprintf(c->compiler, sizeof(c->compiler), "gcc %s", __VERSION__);
	snprintf(c->git_rev, sizeof(c->git_rev), "%s", C2C_GIT_REV);
	strftime(c->started, sizeof(c->started), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	c->packages = t->npackages;
	c->cores = t->ncores;
	c->pus = t->npus;
	c->nodes = t->nnodes;
	c->line_size = t->line_size;
	cpu_ids(c, t);
	pfm_pmu(c);
	kernel_pmu(c);
	caches(c, t);
	hypervisor(c);
	governor(c, t);
	boost(c);
	system_settings(c);
	dmi(c);
	mem_per_node(c, t);
	numa_per_package(c, t);
	prefetch_snoop(c, t);
	allowed_sets(c, t);
	fact_set(c, "cflags", "%s", C2C_CFLAGS);
	fp_id(fp_get, c, c->fingerprint);
}

void context_foreign(struct context *c, const struct topo *t, const char *why)
{
	static const char *const unknown[] = {"cpu_family", "cpu_model_number", "cpu_stepping",
					      "microcode", "hypervisor", "governor", "boost",
					      "smt", "numa_balancing", "dmi_sys_vendor",
					      "dmi_product_name"};
	time_t now = time(NULL);
	struct tm tm;
	memset(c, 0, sizeof(*c));
	snprintf(c->host, sizeof(c->host), "NA");
	snprintf(c->cpu_model, sizeof(c->cpu_model), "NA");
	snprintf(c->kernel, sizeof(c->kernel), "NA");
	snprintf(c->compiler, sizeof(c->compiler), "gcc %s", __VERSION__);
	snprintf(c->git_rev, sizeof(c->git_rev), "%s", C2C_GIT_REV);
	strftime(c->started, sizeof(c->started), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	c->packages = t->npackages;
	c->cores = t->ncores;
	c->pus = t->npus;
	c->nodes = t->nnodes;
	c->line_size = t->line_size;
	if (t->vendor[0])
		fact_set(c, "cpu_vendor", "%s", t->vendor);
	else
		fact_na(c, "cpu_vendor", why);
	for (size_t i = 0; i < ARRAY_SIZE(unknown); i++)
		fact_na(c, unknown[i], why);
	caches(c, t);
	numa_per_package(c, t);
	fact_na(c, "prefetchers", why);
	fact_na(c, "snoop_mode", why);
	fp_id(fp_get, c, c->fingerprint);
}

const struct ctx_fact *context_fact(const struct context *c, const char *key)
{
	for (int i = 0; i < c->nfacts; i++)
		if (!strcmp(c->fact[i].key, key))
			return &c->fact[i];
	return NULL;
}

const char *context_git_rev(void)
{
	return C2C_GIT_REV;
}

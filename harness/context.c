#include "harness/context.h"
#include "harness/context_facts.h"
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
	    !ctx_read_line("/sys/devices/system/cpu/cpu0/microcode/version", buf, sizeof(buf)))
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
	if (ctx_read_line("/sys/class/dmi/id/sys_vendor", v, sizeof(v)))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (!strncmp(v, known[i][0], strlen(known[i][0])))
			return known[i][1];
	if (!strcmp(v, "Microsoft Corporation") &&
	    !ctx_read_line("/sys/class/dmi/id/product_name", p, sizeof(p)) &&
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
	if (!ctx_read_line("/sys/hypervisor/type", buf, sizeof(buf)))
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
		if (ctx_read_line(path, v, sizeof(v)))
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
	ctx_governor(c, t);
	ctx_boost(c);
	ctx_system_settings(c);
	dmi(c);
	mem_per_node(c, t);
	ctx_numa_per_package(c, t);
	ctx_prefetch_snoop(c, t);
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
	ctx_numa_per_package(c, t);
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

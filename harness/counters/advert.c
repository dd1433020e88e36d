/* Arm PMUv3 events the kernel's PMU advertises (sysfs events/, built from PMCEID), and the rule
 * for events PMCEID does not cover. docs/counters.md states the rule. */
#include "harness/counters/advert.h"
#include "lib/util.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* PMCEID0/1 cover the common events 0x00-0x3f, PMCEID2/3 the extended ones 0x4000-0x403f; the
 * kernel (armv8pmu_event_attr_is_visible in arch/arm64/kernel/perf_event.c, drivers/perf/
 * arm_pmuv3.c from 6.4) lists in sysfs only those of them that PMCEID says are implemented. */
#define PMCEID_N 0x40
#define PMCEID_EXT 0x4000

static int in_pmceid(unsigned ev)
{
	return ev < PMCEID_N || (ev >= PMCEID_EXT && ev < PMCEID_EXT + PMCEID_N);
}

/* Events outside PMCEID's ranges, each a refinement of a common event PMCEID does cover (Arm ARM,
 * common event numbers; names as in the kernel's pmu-events arm64 recommended.json and sysfs).
 * Such an event is taken as implemented only where its parent is advertised. */
static const struct refinement {
	unsigned ev;
	const char *name;
	unsigned parent;
	const char *parent_name; /* the parent's file in sysfs events/ */
} refinements[] = {
	{ 0x40, "l1d_cache_rd", 0x04, "l1d_cache" },
	{ 0x41, "l1d_cache_wr", 0x04, "l1d_cache" },
	{ 0x42, "l1d_cache_refill_rd", 0x03, "l1d_cache_refill" },
	{ 0x43, "l1d_cache_refill_wr", 0x03, "l1d_cache_refill" },
	{ 0x44, "l1d_cache_refill_inner", 0x03, "l1d_cache_refill" },
	{ 0x45, "l1d_cache_refill_outer", 0x03, "l1d_cache_refill" },
	{ 0x46, "l1d_cache_wb_victim", 0x15, "l1d_cache_wb" },
	{ 0x47, "l1d_cache_wb_clean", 0x15, "l1d_cache_wb" },
	{ 0x48, "l1d_cache_inval", 0x04, "l1d_cache" },
	{ 0x4c, "l1d_tlb_refill_rd", 0x05, "l1d_tlb_refill" },
	{ 0x4d, "l1d_tlb_refill_wr", 0x05, "l1d_tlb_refill" },
	{ 0x4e, "l1d_tlb_rd", 0x25, "l1d_tlb" },
	{ 0x4f, "l1d_tlb_wr", 0x25, "l1d_tlb" },
	{ 0x50, "l2d_cache_rd", 0x16, "l2d_cache" },
	{ 0x51, "l2d_cache_wr", 0x16, "l2d_cache" },
	{ 0x52, "l2d_cache_refill_rd", 0x17, "l2d_cache_refill" },
	{ 0x53, "l2d_cache_refill_wr", 0x17, "l2d_cache_refill" },
	{ 0x56, "l2d_cache_wb_victim", 0x18, "l2d_cache_wb" },
	{ 0x57, "l2d_cache_wb_clean", 0x18, "l2d_cache_wb" },
	{ 0x58, "l2d_cache_inval", 0x16, "l2d_cache" },
	{ 0x60, "bus_access_rd", 0x19, "bus_access" },
	{ 0x61, "bus_access_wr", 0x19, "bus_access" },
	{ 0x66, "mem_access_rd", 0x13, "mem_access" },
	{ 0x67, "mem_access_wr", 0x13, "mem_access" },
};

const char *adv_devices_dir(char *buf, size_t n)
{
	const char *root = getenv("C2C_SYSFS_ROOT");
	snprintf(buf, n, "%s/bus/event_source/devices", root && *root ? root : "/sys");
	return buf;
}

int adv_arm_pmu(const char *pmu)
{
	return pmu && !strncmp(pmu, "arm_", 4);
}

int adv_event_number(const char *encoding, unsigned *ev)
{
	const char *c = encoding ? strstr(encoding, "config=") : NULL;
	char *end;
	if (!c)
		return -1;
	unsigned long v = strtoul(c + 7, &end, 0);
	if (end == c + 7)
		return -1;
	*ev = (unsigned)(v & 0xffff); /* PMUv3: the event number is config's low 16 bits */
	return 0;
}

/* One armv8_ PMU: the events its sysfs events/ lists (one bit per PMUv3 event number). */
struct adv_pmu {
	char name[64];
	unsigned char has[0x10000 / 8];
};

static int listed(const struct adv_pmu *p, unsigned ev)
{
	return p->has[ev >> 3] >> (ev & 7) & 1;
}

/* Read dir/NAME/events/: each file holds "event=0x0011" (the kernel's format for armv8 PMUs). */
static void read_events(const char *dir, struct adv_pmu *p)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s/events", dir, p->name);
	DIR *d = opendir(path);
	struct dirent *de;
	while (d && (de = readdir(d))) {
		char file[1400], *text, *e;
		if (de->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, de->d_name);
		text = file_text(file, 4096);
		e = text ? strstr(text, "event=") : NULL;
		if (e) {
			unsigned long v = strtoul(e + 6, NULL, 0);
			if (v <= 0xffff)
				p->has[v >> 3] |= (unsigned char)(1u << (v & 7));
		}
		free(text);
	}
	if (d)
		closedir(d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct adv_pmu *)a)->name, ((const struct adv_pmu *)b)->name);
}

/* The armv8_ PMUs under devdir (a heterogeneous machine has one per core type), sorted by name. */
static int read_pmus(const char *devdir, struct adv_pmu *p, int max)
{
	DIR *d = opendir(devdir);
	struct dirent *de;
	int n = 0;
	while (d && n < max && (de = readdir(d))) {
		if (strncmp(de->d_name, "armv8_", 6) || strlen(de->d_name) >= sizeof(p->name))
			continue;
		memset(&p[n], 0, sizeof(p[n]));
		memcpy(p[n].name, de->d_name, strlen(de->d_name) + 1); /* length checked above */
		read_events(devdir, &p[n++]);
	}
	if (d)
		closedir(d);
	qsort(p, (size_t)n, sizeof(*p), by_name);
	return n;
}

/* The event's name as sysfs spells common events: "arm_n1::L1D_CACHE_WB:u" -> "l1d_cache_wb". */
static void sysfs_name(const char *native, char *out, size_t n)
{
	const char *s = strstr(native, "::") ? strstr(native, "::") + 2 : native;
	size_t k = 0;
	for (; *s && *s != ':' && *s != '|' && k + 1 < n; s++)
		out[k++] = (char)(*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s);
	out[k] = 0;
}

/* The first PMU that lacks ev, or NULL when all list it. */
static const struct adv_pmu *lacking(const struct adv_pmu *p, int n, unsigned ev)
{
	for (int i = 0; i < n; i++)
		if (!listed(&p[i], ev))
			return &p[i];
	return NULL;
}

static void names(const struct adv_pmu *p, int n, char *out, size_t len)
{
	size_t k = 0;
	out[0] = 0;
	for (int i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(out + k, len - k, "%s%s", i ? "," : "", p[i].name);
}

/* ev refines a common event: advertised where its parent is. */
static enum adv_verdict by_parent(const struct adv_pmu *p, int np, const char *all,
				  const struct refinement *r, char *why, size_t n)
{
	const struct adv_pmu *l = lacking(p, np, r->parent);
	if (l)
		snprintf(why, n, "not advertised by %s: no %s in sysfs events/ (PMCEID), "
			 "the parent of %s (0x%02x, outside PMCEID)",
			 l->name, r->parent_name, r->name, r->ev);
	else
		snprintf(why, n, "advertised by %s through its parent %s (0x%02x) in sysfs "
			 "events/: %s (0x%02x) is outside PMCEID",
			 all, r->parent_name, r->parent, r->name, r->ev);
	return l ? ADV_NO : ADV_YES;
}

enum adv_verdict adv_check(const char *devdir, int have_ev, unsigned ev, const char *name,
			   char *why, size_t n)
{
	struct adv_pmu *p = xcalloc(8, sizeof(*p));
	int np = read_pmus(devdir, p, 8);
	enum adv_verdict v = ADV_UNVERIFIED;
	char own[64], all[600];
	const struct refinement *r = NULL;
	have_ev = have_ev && ev <= 0xffff; /* PMUv3 event numbers are 16 bits */
	names(p, np, all, sizeof(all));
	sysfs_name(name ? name : "", own, sizeof(own));
	for (size_t i = 0; have_ev && i < ARRAY_SIZE(refinements) && !r; i++)
		if (refinements[i].ev == ev)
			r = &refinements[i];
	if (!np) {
		v = ADV_NONE;
		snprintf(why, n, "not verifiable: no armv8_* PMU in %.150s", devdir);
	} else if (!have_ev) {
		snprintf(why, n, "not verifiable against %s: no PMUv3 event number for %.60s",
			 all, name ? name : "?");
	} else if (!in_pmceid(ev) && !lacking(p, np, ev)) { /* listed, outside PMCEID's ranges */
		v = ADV_YES;
		snprintf(why, n, "advertised by %s: %s (0x%02x) in sysfs events/", all, own, ev);
	} else if (in_pmceid(ev)) {
		const struct adv_pmu *l = lacking(p, np, ev);
		v = l ? ADV_NO : ADV_YES;
		if (l)
			snprintf(why, n, "not advertised by %s: no %s in sysfs events/ (PMCEID)",
				 l->name, own);
		else
			snprintf(why, n, "advertised by %s: %s (0x%02x) in sysfs events/ (PMCEID)",
				 all, own, ev);
	} else if (r) {
		v = by_parent(p, np, all, r, why, n);
	} else {
		snprintf(why, n, "not verifiable against %s: 0x%x is outside PMCEID and has no "
			 "parent common event in c2cbench's map", all, ev);
	}
	free(p);
	return v;
}

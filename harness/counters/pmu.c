#include "harness/counters/pmu.h"
#include "harness/util.h"
#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int inited;

int pmu_init(const char *force, char *err)
{
	if (inited)
		return 0;
	if (force && setenv("LIBPFM_FORCE_PMU", force, 1))
		return err_set(err, "cannot set LIBPFM_FORCE_PMU");
	int rc = pfm_initialize();
	if (rc != PFM_SUCCESS)
		return err_set(err, "libpfm4 initialisation failed: %s", pfm_strerror(rc));
	inited = 1;
	return 0;
}

static int pmu_info(pfm_pmu_t p, pfm_pmu_info_t *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->size = sizeof(*pi);
	return pfm_get_pmu_info(p, pi) == PFM_SUCCESS;
}

/* PAPI (pe_libpfm4_events.c): the first present core PMU that is not the architectural fallback or an E-core. */
const char *pmu_default(void)
{
	pfm_pmu_t p;
	pfm_pmu_info_t pi;
	pfm_for_all_pmus(p)
	{
		if (pmu_info(p, &pi) && pi.is_present && pi.type == PFM_PMU_TYPE_CORE && strcmp(pi.name, "ix86arch") &&
		    !strstr(pi.desc, "E-Core"))
			return pi.name;
	}
	return NULL;
}

int pmu_known(const char *name)
{
	pfm_pmu_t p;
	pfm_pmu_info_t pi;
	pfm_for_all_pmus(p)
	{
		if (pmu_info(p, &pi) && !strcmp(pi.name, name))
			return 1;
	}
	return 0;
}

const char *pmu_known_list(void)
{
	static char buf[4096];
	size_t k = 0;
	pfm_pmu_t p;
	pfm_pmu_info_t pi;
	buf[0] = 0;
	pfm_for_all_pmus(p)
	{
		if (pmu_info(p, &pi) && pi.type == PFM_PMU_TYPE_CORE && k < sizeof(buf))
			k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", k ? "," : "", pi.name);
	}
	return buf;
}

int pmu_encode(const char *event, char *enc, size_t n, char *why, size_t wn)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t a;
	char *fstr = NULL;
	memset(&attr, 0, sizeof(attr));
	memset(&a, 0, sizeof(a));
	a.attr = &attr;
	a.size = sizeof(a);
	a.fstr = &fstr;
	int rc = pfm_get_os_event_encoding(event, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &a);
	free(fstr);
	if (rc != PFM_SUCCESS) {
		snprintf(why, wn, "%s", pfm_strerror(rc));
		return -1;
	}
	if (attr.config1)
		snprintf(enc, n, "config=0x%llx config1=0x%llx", (unsigned long long)attr.config, (unsigned long long)attr.config1);
	else
		snprintf(enc, n, "config=0x%llx", (unsigned long long)attr.config);
	return 0;
}

/* perf_event modifiers libpfm4 adds in PERF_EVENT_EXT mode (not in the PMU tables). */
static int perf_modifier(const char *m, size_t len)
{
	static const char *const mods[] = { "u", "k", "h", "mg", "mh", "period", "freq", "excl", "precise", "cpu", "pinned", "hw_smpl" };
	for (size_t i = 0; i < ARRAY_SIZE(mods); i++)
		if (strlen(mods[i]) == len && !strncasecmp(mods[i], m, len))
			return 1;
	return 0;
}

/* Is every ":"-separated part after the event name an attribute of event idx? */
static int attrs_match(int idx, int nattrs, char **part, int nparts)
{
	for (int k = 0; k < nparts; k++) {
		size_t len = strcspn(part[k], "=");
		int ok = perf_modifier(part[k], len);
		for (int a = 0; a < nattrs && !ok; a++) {
			pfm_event_attr_info_t ai;
			memset(&ai, 0, sizeof(ai));
			ai.size = sizeof(ai);
			if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ai) == PFM_SUCCESS && ai.name &&
			    strlen(ai.name) == len && !strncasecmp(ai.name, part[k], len))
				ok = 1;
		}
		if (!ok)
			return 0;
	}
	return 1;
}

int pmu_name_anywhere(const char *event)
{
	char *copy = xstrdup(event), *name = copy, *want_pmu = NULL, *part[32];
	int nparts = 0, found = 0;
	char *sep = strstr(copy, "::");
	if (sep) {
		*sep = 0;
		want_pmu = copy;
		name = sep + 2;
	}
	for (char *c = strchr(name, ':'); c && nparts < 32; c = strchr(c + 1, ':')) {
		*c = 0;
		part[nparts++] = c + 1;
	}
	pfm_pmu_t p;
	pfm_pmu_info_t pi;
	pfm_for_all_pmus(p)
	{
		if (found || !pmu_info(p, &pi) || (want_pmu && strcmp(pi.name, want_pmu)))
			continue;
		for (int idx = pi.first_event; idx != -1 && !found; idx = pfm_get_event_next(idx)) {
			pfm_event_info_t ei;
			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) == PFM_SUCCESS && !strcasecmp(ei.name, name))
				found = attrs_match(idx, ei.nattrs, part, nparts);
		}
	}
	free(copy);
	return found;
}

void pmu_each_event(void (*fn)(const char *name, void *arg), void *arg)
{
	pfm_pmu_t p;
	pfm_pmu_info_t pi;
	pfm_for_all_pmus(p)
	{
		if (!pmu_info(p, &pi) || !pi.is_present)
			continue;
		for (int idx = pi.first_event; idx != -1; idx = pfm_get_event_next(idx)) {
			pfm_event_info_t ei;
			memset(&ei, 0, sizeof(ei));
			ei.size = sizeof(ei);
			if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) == PFM_SUCCESS)
				fn(ei.name, arg);
		}
	}
}

#include "harness/counters/pmu.h"
#include "harness/counters/fallback.h"
#include "lib/util.h"
#include <perfmon/pfmlib.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* What libpfm4 detects by itself and which PMUs it has, asked in a child process: libpfm4 cannot be
 * re-initialised with another forced PMU in the same process (pfm_terminate keeps PMUs active). */
struct pfm_view {
	char detected[64];
	char known[8192]; /* ",name,name,...," */
};

static void view_child(int fd)
{
	char buf[sizeof(struct pfm_view)];
	size_t k = 0;
	unsetenv("LIBPFM_FORCE_PMU");
	if (pfm_initialize() == PFM_SUCCESS) {
		const char *d = pmu_default();
		pfm_pmu_t p;
		pfm_pmu_info_t pi;
		k = (size_t)snprintf(buf, sizeof(buf), "%s\n,", d ? d : "");
		pfm_for_all_pmus(p)
		{
			if (pmu_info(p, &pi) && k < sizeof(buf))
				k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s,", pi.name);
		}
	}
	if (k > sizeof(buf))
		k = sizeof(buf);
	for (size_t off = 0; off < k;) {
		ssize_t w = write(fd, buf + off, k - off);
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	_exit(0);
}

static int pfm_view_get(struct pfm_view *v, char *err)
{
	int fd[2];
	char buf[sizeof(*v)];
	size_t k = 0;
	memset(v, 0, sizeof(*v));
	if (pipe(fd))
		return err_set(err, "pipe: %s", strerror(errno));
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return err_set(err, "fork: %s", strerror(errno));
	}
	if (!pid) {
		close(fd[0]);
		view_child(fd[1]);
	}
	close(fd[1]);
	ssize_t r;
	while (k + 1 < sizeof(buf) && (r = read(fd[0], buf + k, sizeof(buf) - 1 - k)) > 0)
		k += (size_t)r;
	buf[k] = 0;
	close(fd[0]);
	waitpid(pid, NULL, 0);
	char *nl = strchr(buf, '\n');
	if (!nl)
		return err_set(err, "libpfm4 initialisation failed (in the detection child)");
	*nl = 0;
	snprintf(v->detected, sizeof(v->detected), "%.63s", buf);
	snprintf(v->known, sizeof(v->known), "%.8000s", nl + 1);
	return 0;
}

static int view_known(const struct pfm_view *v, const char *name)
{
	char pat[80];
	snprintf(pat, sizeof(pat), ",%s,", name);
	return strstr(v->known, pat) != NULL;
}

/* --pmu NAME: the PMU itself, or the compatible one when the installed libpfm4 has no NAME table.
 */
static void choose_forced(const struct pfm_view *v, const char *force, struct pmu_choice *c)
{
	const struct pmu_fallback *f = view_known(v, force) ? NULL : pmu_fallback_for_target(force);
	snprintf(c->table, sizeof(c->table), "%s", force);
	if (f && view_known(v, f->use)) {
		snprintf(c->used, sizeof(c->used), "%s", f->use);
		snprintf(c->why, sizeof(c->why),
			 "--pmu %s: the installed libpfm4 has no %s table; forced %s (%s)", force,
			 force, f->use, f->why);
		c->fallback = 1;
	} else {
		snprintf(c->used, sizeof(c->used), "%s", force);
		snprintf(c->why, sizeof(c->why), "forced with --pmu (LIBPFM_FORCE_PMU)");
	}
}

/* No PMU from libpfm4: the closest compatible one by CPUID, or none with the reason. */
static int choose_by_cpuid(const struct pfm_view *v, struct pmu_choice *c, char *err)
{
	struct cpu_sig s;
	char why[200];
	if (cpu_sig_read(&s, err))
		return -1;
	const struct pmu_fallback *f = pmu_fallback_for_cpu(&s, why, sizeof(why));
	if (f && !view_known(v, f->use))
		snprintf(why, sizeof(why), "the compatible PMU %s is not in the installed libpfm4",
			 f->use);
	if (!f || !view_known(v, f->use)) {
		snprintf(c->why, sizeof(c->why),
			 "none: the installed libpfm4 knows no PMU for this CPU%s and %s (--pmu "
			 "NAME forces one)",
			 s.fake ? " (C2C_CPUID)" : "", why);
		return 0;
	}
	snprintf(c->used, sizeof(c->used), "%s", f->use);
	snprintf(c->table, sizeof(c->table), "%s", f->target);
	snprintf(c->why, sizeof(c->why),
		 "%s (%s family 0x%x model 0x%x%s): the installed libpfm4 has no table for it; "
		 "forced %s: %s",
		 f->cpu, s.vendor, s.family, s.model, s.fake ? ", C2C_CPUID" : "", f->use, f->why);
	c->fallback = 1;
	return 0;
}

int pmu_select(const char *force, struct pmu_choice *c, char *err)
{
	struct pfm_view *v = xcalloc(1, sizeof(*v));
	int rc = 0;
	memset(c, 0, sizeof(*c));
	static struct pmu_choice last;
	static char last_force[64];
	if (inited &&
	    !strcmp(last_force,
		    force ? force
			  : "")) { /* once per process: the same question, the same answer */
		free(v);
		*c = last;
		return 0;
	}
	if (inited) {
		free(v);
		return err_set(err, "libpfm4 was initialised before the PMU was chosen");
	}
	snprintf(last_force, sizeof(last_force), "%s", force ? force : "");
	const char *env = getenv("LIBPFM_FORCE_PMU"); /* read before c2cbench sets it itself */
	if (!force && env && *env)
		force = env; /* the user forced it in the environment: the same as --pmu */
	if (pfm_view_get(v, err)) {
		free(v);
		return -1;
	}
	const char *fake = getenv("C2C_CPUID");
	if (!(fake && *fake)) /* a made-up CPU: libpfm4's pick is this machine's, not its */
		snprintf(c->detected, sizeof(c->detected), "%s", v->detected);
	if (force) {
		choose_forced(v, force, c);
	} else if (c->detected[0]) {
		snprintf(c->used, sizeof(c->used), "%s", c->detected);
		snprintf(c->table, sizeof(c->table), "%s", c->detected);
		snprintf(c->why, sizeof(c->why), "detected by libpfm4");
	} else {
		rc = choose_by_cpuid(v, c, err);
	}
	free(v);
	if (rc)
		return -1;
	/* rows of another table may pass through perf_raw, which a forced libpfm4 encodes only with
	 * LIBPFM_ENCODE_INACTIVE (pmu_encode still refuses the names of other tables) */
	if (c->fallback && setenv("LIBPFM_ENCODE_INACTIVE", "1", 1))
		return err_set(err, "cannot set LIBPFM_ENCODE_INACTIVE");
	last = *c;
	return pmu_init(c->used[0] && (force || c->fallback) ? c->used : NULL, err);
}

/* PAPI (pe_libpfm4_events.c): the first present core PMU that is not the architectural fallback or
 * an E-core. */
const char *pmu_default(void)
{
	pfm_pmu_t p;
	pfm_pmu_info_t pi;
	pfm_for_all_pmus(p)
	{
		if (pmu_info(p, &pi) && pi.is_present && pi.type == PFM_PMU_TYPE_CORE &&
		    strcmp(pi.name, "ix86arch") && !strstr(pi.desc, "E-Core"))
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
			k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s", k ? "," : "",
					      pi.name);
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
	/* LIBPFM_ENCODE_INACTIVE (fallbacks) lets every table encode: only the PMU in use and
	 * perf_raw count */
	pfm_event_info_t ei;
	pfm_pmu_info_t pi;
	memset(&ei, 0, sizeof(ei));
	ei.size = sizeof(ei);
	if (pfm_get_event_info(a.idx, PFM_OS_NONE, &ei) == PFM_SUCCESS && pmu_info(ei.pmu, &pi) &&
	    !pi.is_present && strcmp(pi.name, "perf_raw")) {
		snprintf(why, wn, "an event of PMU %s, not of the PMU in use", pi.name);
		return -1;
	}
	if (attr.config1)
		snprintf(enc, n, "config=0x%llx config1=0x%llx", (unsigned long long)attr.config,
			 (unsigned long long)attr.config1);
	else
		snprintf(enc, n, "config=0x%llx", (unsigned long long)attr.config);
	return 0;
}

int pmu_perf_attr(const char *event, struct perf_event_attr *attr, char *why, size_t wn)
{
	pfm_perf_encode_arg_t a;
	memset(attr, 0, sizeof(*attr));
	memset(&a, 0, sizeof(a));
	a.attr = attr;
	a.size = sizeof(a);
	int rc = pfm_get_os_event_encoding(event, PFM_PLM3, PFM_OS_PERF_EVENT, &a);
	if (rc != PFM_SUCCESS) {
		snprintf(why, wn, "%s", pfm_strerror(rc));
		return -1;
	}
	attr->size = sizeof(*attr);
	return 0;
}

/* perf_event modifiers libpfm4 adds in PERF_EVENT_EXT mode (not in the PMU tables). */
static int perf_modifier(const char *m, size_t len)
{
	static const char *const mods[] = {"u",    "k",    "h",       "mg",  "mh",     "period",
					   "freq", "excl", "precise", "cpu", "pinned", "hw_smpl"};
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
			if (pfm_get_event_attr_info(idx, a, PFM_OS_NONE, &ai) == PFM_SUCCESS &&
			    ai.name && strlen(ai.name) == len &&
			    !strncasecmp(ai.name, part[k], len))
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
			if (pfm_get_event_info(idx, PFM_OS_NONE, &ei) == PFM_SUCCESS &&
			    !strcasecmp(ei.name, name))
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

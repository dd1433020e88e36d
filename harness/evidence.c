#include "harness/evidence.h"
#include "lib/opts.h"
#include "lib/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STEAL_FIELD 8 /* cpuN user nice system idle iowait irq softirq steal ... */

/* One "cpuN ..." line of /proc/stat into s (grown as needed); other lines are skipped. */
static void steal_line(struct steal_snap *s, const char *line)
{
	int cpu, off = 0;
	unsigned long long v[STEAL_FIELD];
	if (strncmp(line, "cpu", 3) || sscanf(line + 3, "%d%n", &cpu, &off) != 1 || cpu < 0 ||
	    cpu > 65535)
		return;
	const char *p = line + 3 + off;
	for (int i = 0; i < STEAL_FIELD; i++) {
		int k = 0;
		if (sscanf(p, "%llu%n", &v[i], &k) != 1)
			return; /* an old kernel without the steal field */
		p += k;
	}
	if (cpu >= s->n) {
		int n = cpu + 64;
		s->ticks = realloc(s->ticks, (size_t)n * sizeof(*s->ticks));
		if (!s->ticks)
			out_of_memory(0);
		memset(s->ticks + s->n, 0xff, (size_t)(n - s->n) * sizeof(*s->ticks));
		s->n = n;
	}
	s->ticks[cpu] = v[STEAL_FIELD - 1];
	s->ok = 1;
}

void steal_read(struct steal_snap *s)
{
	char line[512];
	FILE *f = fopen("/proc/stat", "re");
	s->ok = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		steal_line(s, line);
	fclose(f);
}

void steal_apply(const struct steal_snap *a, const struct steal_snap *b, struct thr *thr, int n)
{
	double ns_per_tick = 1e9 / (double)sysconf(_SC_CLK_TCK);
	for (int i = 0; i < n; i++) {
		int c = thr[i].want_cpu;
		int known = a->ok && b->ok && c >= 0 && c < a->n && c < b->n &&
			    a->ticks[c] != UINT64_MAX && b->ticks[c] != UINT64_MAX;
		thr[i].steal_ns = known && b->ticks[c] >= a->ticks[c]
				      ? (double)(b->ticks[c] - a->ticks[c]) * ns_per_tick
				      : -1;
	}
}

void steal_free(struct steal_snap *s)
{
	free(s->ticks);
	memset(s, 0, sizeof(*s));
}

void evidence_reset(struct evidence *e)
{
	e->n = 0;
	e->nprobe = 0;
	e->nset = 0;
	e->nothing[0] = 0;
}

void evidence_free(struct evidence *e)
{
	free(e->th);
	memset(e, 0, sizeof(*e));
}

void evidence_of(const struct thr *t, const char *role, int corun, struct ev_thread *x)
{
	memset(x, 0, sizeof(*x));
	snprintf(x->role, sizeof(x->role), "%s", role);
	x->idx = t->idx;
	x->want_cpu = t->want_cpu;
	x->cpu_start = t->cpu_start;
	x->cpu_end = t->got_cpu_end;
	x->corun = corun;
	x->measured = t->measured && t->t1 >= t->t0;
	x->t0 = t->t0;
	x->t1 = t->t1;
	x->cpu_ns = t->cpu_ns1 >= t->cpu_ns0 ? t->cpu_ns1 - t->cpu_ns0 : 0;
	x->ops = t->ops;
	x->vcsw = t->vcsw0 >= 0 && t->vcsw1 >= t->vcsw0 ? t->vcsw1 - t->vcsw0 : -1;
	x->ivcsw = t->ivcsw0 >= 0 && t->ivcsw1 >= t->ivcsw0 ? t->ivcsw1 - t->ivcsw0 : -1;
	x->steal_ns = t->steal_ns;
}

void evidence_add(struct evidence *e, const struct ev_thread *x)
{
	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 8;
		e->th = realloc(e->th, (size_t)e->cap * sizeof(*e->th));
		if (!e->th)
			out_of_memory(0);
	}
	e->th[e->n++] = *x;
}

void evidence_thread(struct evidence *e, const struct thr *t, const char *role, int corun)
{
	struct ev_thread x;
	evidence_of(t, role, corun, &x);
	evidence_add(e, &x);
}

void evidence_setting(struct evidence *e, const char *name, double requested, double achieved,
		      const char *unit)
{
	if (e->nset >= EV_SETTINGS)
		abort(); /* a bench declares a fixed, small set: more is a programming error */
	struct ev_setting *s = &e->set[e->nset++];
	snprintf(s->name, sizeof(s->name), "%s", name);
	snprintf(s->unit, sizeof(s->unit), "%s", unit);
	s->requested = requested;
	s->achieved = achieved;
}

void evidence_setting_max(struct evidence *e, const char *name, double requested, double achieved,
			  const char *unit)
{
	for (int i = 0; i < e->nset; i++)
		if (!strcmp(e->set[i].name, name)) {
			if (fabs(achieved - requested) > fabs(e->set[i].achieved - requested))
				e->set[i].achieved = achieved;
			return;
		}
	evidence_setting(e, name, requested, achieved, unit);
}

double ev_oncpu(const struct ev_thread *t)
{
	if (!t->measured || t->t1 <= t->t0)
		return -1;
	return (double)t->cpu_ns / (double)(t->t1 - t->t0);
}

double ev_oncpu_shared(const struct evidence *e, int i)
{
	const struct ev_thread *t = &e->th[i];
	uint64_t ns = 0;
	if (!t->measured || t->t1 <= t->t0)
		return 0;
	for (int j = 0; j < e->n; j++)
		if (j != i && e->th[j].measured && e->th[j].want_cpu == t->want_cpu)
			ns += e->th[j].cpu_ns;
	return (double)ns / (double)(t->t1 - t->t0);
}

int ev_corun_on_cpu(const struct evidence *e, int i)
{
	const struct ev_thread *t = &e->th[i];
	int k = 0;
	for (int j = 0; j < e->n; j++)
		k += e->th[j].corun && e->th[j].measured && e->th[j].want_cpu == t->want_cpu &&
		     t->want_cpu >= 0;
	return k;
}

double ev_oncpu_others(const struct evidence *e, int i)
{
	const struct ev_thread *t = &e->th[i];
	uint64_t ns = 0;
	if (!t->measured || t->t1 <= t->t0)
		return 0;
	for (int j = 0; j < e->n; j++)
		if (j != i && !e->th[j].corun && e->th[j].measured &&
		    e->th[j].want_cpu == t->want_cpu)
			ns += e->th[j].cpu_ns;
	double f = (double)ns / (double)(t->t1 - t->t0);
	return f < 1 ? f : 1;
}

double steal_tick_frac(const struct ev_thread *t)
{
	if (!t->measured || t->t1 <= t->t0)
		return 0;
	return 1e9 / (double)sysconf(_SC_CLK_TCK) / (double)(t->t1 - t->t0);
}

double ev_overlap(const struct evidence *e)
{
	uint64_t lo = 0, hi = UINT64_MAX, longest = 0;
	int k = 0;
	for (int i = 0; i < e->n; i++) {
		const struct ev_thread *t = &e->th[i];
		if (!t->corun || !t->measured)
			continue;
		k++;
		lo = t->t0 > lo ? t->t0 : lo;
		hi = t->t1 < hi ? t->t1 : hi;
		longest = t->t1 - t->t0 > longest ? t->t1 - t->t0 : longest;
	}
	if (k < 2 || !longest)
		return -1;
	return hi > lo ? (double)(hi - lo) / (double)longest : 0;
}

double ev_steal_frac(const struct ev_thread *t)
{
	if (t->steal_ns < 0 || !t->measured || t->t1 <= t->t0)
		return -1;
	return t->steal_ns / (double)(t->t1 - t->t0);
}

/* A space-separated list of one value per thread (NA where unknown), as one column. */
static void thread_list(const struct evidence *e, struct row *r, const char *key, int what)
{
	char buf[4000];
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < e->n && k + 40 < sizeof(buf); i++) {
		const struct ev_thread *t = &e->th[i];
		const char *sep = i ? " " : "";
		switch (what) {
		case 0:
			k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s%d@%d", sep, t->role,
					      t->idx, t->want_cpu);
			break;
		case 1:
			k += (size_t)snprintf(buf + k, sizeof(buf) - k,
					      t->measured ? "%s%llu" : "%sNA", sep,
					      (unsigned long long)(t->t1 - t->t0));
			break;
		case 2:
			k += (size_t)snprintf(buf + k, sizeof(buf) - k,
					      t->measured ? "%s%llu" : "%sNA", sep,
					      (unsigned long long)t->cpu_ns);
			break;
		case 3:
			k += (size_t)snprintf(buf + k, sizeof(buf) - k,
					      t->vcsw >= 0 ? "%s%ld" : "%sNA", sep, t->vcsw);
			break;
		case 4:
			k += (size_t)snprintf(buf + k, sizeof(buf) - k,
					      t->ivcsw >= 0 ? "%s%ld" : "%sNA", sep, t->ivcsw);
			break;
		case 5:
			k += (size_t)snprintf(buf + k, sizeof(buf) - k,
					      t->measured ? "%s%d" : "%sNA", sep, t->cpu_start);
			break;
		case 6:
			k += (size_t)snprintf(buf + k, sizeof(buf) - k,
					      t->measured ? "%s%d" : "%sNA", sep, t->cpu_end);
			break;
		default:
			k += (size_t)snprintf(buf + k, sizeof(buf) - k,
					      t->steal_ns >= 0 ? "%s%.0f" : "%sNA", sep,
					      t->steal_ns);
			break;
		}
	}
	if (!e->n)
		row_na(r, key, "no measuring thread recorded");
	else
		row_set(r, key, "%s", buf);
}

/* Per role: the lowest on-CPU fraction among its threads. */
static void role_oncpu(const struct evidence *e, struct row *r, const char *role)
{
	char key[64];
	double lo = 2;
	int seen = 0;
	snprintf(key, sizeof(key), "oncpu_%s", role);
	for (int i = 0; i < e->n; i++)
		if (!strcmp(e->th[i].role, role)) {
			seen = 1;
			double f = ev_oncpu(&e->th[i]);
			if (f >= 0 && f < lo)
				lo = f;
		}
	if (!seen)
		row_na(r, key, "no thread of this role in this configuration");
	else if (lo > 1.5)
		row_na(r, key, "no window taken");
	else
		row_set(r, key, "%.4f", lo);
}

static void probe_cols(const struct evidence *e, struct row *r)
{
	char pairs[128] = "", before[128] = "", after[128] = "";
	size_t a = 0, b = 0, c = 0;
	for (int i = 0; i < e->nprobe; i++) {
		const char *sep = i ? " " : "";
		a += (size_t)snprintf(pairs + a, sizeof(pairs) - a, "%s%d-%d", sep, e->probe_a[i],
				      e->probe_b[i]);
		b += (size_t)snprintf(before + b, sizeof(before) - b,
				      e->probe_before[i] >= 0 ? "%s%.1f" : "%sNA", sep,
				      e->probe_before[i]);
		c += (size_t)snprintf(after + c, sizeof(after) - c,
				      e->probe_after[i] >= 0 ? "%s%.1f" : "%sNA", sep,
				      e->probe_after[i]);
	}
	if (!e->nprobe) {
		row_na(r, "probe_pairs",
		       "no pair probed: none of distinct CPUs, or the bench measured this row with "
		       "another (its README)");
		row_na(r, "probe_before_ns", "no pair probed");
		row_na(r, "probe_after_ns", "no pair probed");
		return;
	}
	row_set(r, "probe_pairs", "%s", pairs);
	row_set(r, "probe_before_ns", "%s", before);
	row_set(r, "probe_after_ns", "%s", after);
}

void evidence_to_row(const struct evidence *e, struct row *r, const char *roles)
{
	static const char *const lists[] = {
	    "thread_ids",   "thread_window_ns", "thread_cpu_ns",  "thread_vcsw",
	    "thread_ivcsw", "thread_cpu_start", "thread_cpu_end", "thread_steal_ns"};
	for (int i = 0; i < (int)ARRAY_SIZE(lists); i++)
		thread_list(e, r, lists[i], i);
	char *names[16];
	int nr = roles ? list_split(roles, names, 16) : 0;
	for (int i = 0; i < nr; i++) {
		role_oncpu(e, r, names[i]);
		free(names[i]);
	}
	double ov = ev_overlap(e), steal = -1;
	if (ov >= 0)
		row_set(r, "window_overlap", "%.4f", ov);
	else
		row_na(r, "window_overlap", "fewer than two co-running threads");
	for (int i = 0; i < e->n; i++) {
		double f = ev_steal_frac(&e->th[i]);
		steal = f > steal ? f : steal;
	}
	if (steal >= 0)
		row_set(r, "steal_max_frac", "%.4f", steal);
	else
		row_na(r, "steal_max_frac", "no steal field in /proc/stat");
	probe_cols(e, r);
}

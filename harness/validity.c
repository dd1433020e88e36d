#include "harness/validity.h"
#include "schema/meta.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const struct vrules vrules_default = {
	.window_tol = 0.10,
	.oncpu_min = 0.90,
	.overlap_min = 0.90,
	.steal_max = 0.02,
	.probe_factor = VALID_PROBE_DEFAULT,
	.setting_tol = 0.25,
};

const char *const vrule_name[VR_N] = { "ops",	"window",    "oncpu", "overlap",
				       "steal", "migration", "probe", "setting" };

/* Record rule r broken with value x; low: the lowest value is the furthest (oncpu, overlap). */
static void hit(struct vbroken *b, enum vrule r, double x, int low)
{
	if (!b)
		return;
	if (!b->hit[r]++ || (low ? x < b->worst[r] : x > b->worst[r]))
		b->worst[r] = x;
}

/* Append "rule: what" to the reason, "; "-separated. */
static void broken(char *reason, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void broken(char *reason, size_t n, const char *fmt, ...)
{
	size_t k = strlen(reason);
	va_list ap;
	if (k + 3 >= n)
		return;
	if (k)
		k += (size_t)snprintf(reason + k, n - k, "; ");
	va_start(ap, fmt);
	vsnprintf(reason + k, n - k, fmt, ap);
	va_end(ap);
}

/* A role that must co-run and completed no operation (summed over its threads), or a window the
 * bench found nothing to measure in. */
static void rule_ops(const struct evidence *e, char *reason, size_t n, struct vbroken *b)
{
	if (e->nothing[0]) {
		hit(b, VR_OPS, 1, 0);
		broken(reason, n, "ops: %s", e->nothing);
	}
	for (int i = 0; i < e->n; i++) {
		const struct ev_thread *t = &e->th[i];
		if (!t->corun)
			continue;
		uint64_t ops = 0;
		int first = 1;
		for (int j = 0; j < e->n; j++)
			if (!strcmp(e->th[j].role, t->role)) {
				ops += e->th[j].ops;
				first &= j >= i;
			}
		if (first && !ops) {
			hit(b, VR_OPS, 1, 0);
			broken(reason, n, "ops: %s completed 0 operations", t->role);
		}
	}
}

/* Per co-running thread: a window at all, its length, its time on a CPU. */
static void rule_threads(const struct evidence *e, const struct vrules *v, char *reason, size_t n,
			 struct vbroken *b)
{
	for (int i = 0; i < e->n; i++) {
		const struct ev_thread *t = &e->th[i];
		if (!t->corun)
			continue;
		if (!t->measured) {
			hit(b, VR_WINDOW, 1, 0);
			broken(reason, n, "window: %s%d took no window", t->role, t->idx);
			continue;
		}
		double w = (double)(t->t1 - t->t0) / 1e9;
		if (e->requested_s > 0 &&
		    fabs(w - e->requested_s) > v->window_tol * e->requested_s) {
			hit(b, VR_WINDOW, fabs(w - e->requested_s) / e->requested_s, 0);
			broken(reason, n, "window: %s%d %.3f s for %.3f s requested (%+.0f%%)",
			       t->role, t->idx, w, e->requested_s,
			       100 * (w - e->requested_s) / e->requested_s);
		}
		int k = ev_corun_on_cpu(e, i);
		double f = ev_oncpu(t), own = ev_oncpu_shared(e, i);
		if (k > 1) { /* oversubscribed: its own share against its fair share of the CPU */
			double fair = (1 - ev_oncpu_others(e, i)) / k;
			if (f >= 0 && f < v->oncpu_min * fair) {
				hit(b, VR_ONCPU, fair > 0 ? f / fair : 0, 1);
				broken(reason, n,
				       "oncpu: %s%d on a CPU %.1f%% of its window, below %.0f%% of "
				       "its fair share %.1f%% (CPU %d shared by %d co-running "
				       "threads)",
				       t->role, t->idx, 100 * f, 100 * v->oncpu_min, 100 * fair,
				       t->want_cpu, k);
			}
		} else if (f >= 0 && f + own < v->oncpu_min) {
			hit(b, VR_ONCPU, f + own, 1);
			broken(reason, n,
			       "oncpu: %s%d on a CPU %.1f%% of its window (+%.1f%% by the bench's "
			       "other threads on CPU %d) after %ld involuntary and %ld voluntary "
			       "switches",
			       t->role, t->idx, 100 * f, 100 * own, t->want_cpu, t->ivcsw, t->vcsw);
		}
	}
	double ov = ev_overlap(e);
	if (ov >= 0 && (ov < v->overlap_min || ov == 0)) { /* none in common: nothing co-ran */
		hit(b, VR_OVERLAP, ov, 1);
		broken(reason, n, "overlap: co-running windows overlap %.1f%% of the longest",
		       100 * ov);
	}
}

/* Every measuring thread: its CPU's steal and where it started and ended. */
static void rule_cpus(const struct evidence *e, const struct vrules *v, char *reason, size_t n,
		      struct vbroken *b)
{
	for (int i = 0; i < e->n; i++) {
		const struct ev_thread *t = &e->th[i];
		if (!t->measured)
			continue;
		double s = ev_steal_frac(t), tick = steal_tick_frac(t), lim = v->steal_max;
		int coarse = tick > v->steal_max; /* one tick is more than the bound: a coin flip */
		if (coarse && lim < 1.5 * tick)
			lim = 1.5 * tick; /* then two ticks at least (steal is whole ticks) */
		if (s > lim && !coarse) {
			hit(b, VR_STEAL, s, 0);
			broken(reason, n, "steal: CPU %d lost %.1f%% of %s%d's window", t->want_cpu,
			       100 * s, t->role, t->idx);
		} else if (s > lim) {
			hit(b, VR_STEAL, s, 0);
			broken(
			    reason, n,
			    "steal: CPU %d lost %.1f%% of %s%d's window (coarse: /proc/stat counts "
			    "steal in ticks of %.1f%% of this window, so at least two ticks count)",
			    t->want_cpu, 100 * s, t->role, t->idx, 100 * tick);
		}
		if (t->cpu_start != t->want_cpu || t->cpu_end != t->want_cpu) {
			hit(b, VR_MIGRATION, 1, 0);
			broken(reason, n, "migration: %s%d bound to CPU %d ran on %d then %d",
			       t->role, t->idx, t->want_cpu, t->cpu_start, t->cpu_end);
		}
	}
}

/* The placement probe (the hypervisor moved a vCPU) and the settings achieved. */
static void rule_row(const struct evidence *e, const struct vrules *v, char *reason, size_t n,
		     struct vbroken *vb)
{
	for (int i = 0; i < e->nprobe; i++) {
		double a = e->probe_before[i], b = e->probe_after[i];
		double x = a > 0 && b > 0 ? (b > a ? b / a : a / b) : 0;
		if (x > v->probe_factor) {
			hit(vb, VR_PROBE, x, 0);
			broken(reason, n,
			       "probe: CPUs %d-%d %.1f ns before and %.1f ns after (x%.2f)",
			       e->probe_a[i], e->probe_b[i], a, b, x);
		}
	}
	for (int i = 0; i < e->nset; i++) {
		const struct ev_setting *s = &e->set[i];
		double off = s->requested > 0 ? fabs(s->achieved - s->requested) / s->requested : 0;
		if (s->achieved >= 0 && s->requested > 0 && off > v->setting_tol) {
			if (vb && (!vb->hit[VR_SETTING] || off > vb->worst[VR_SETTING]))
				snprintf(vb->setting, sizeof(vb->setting), "%s", s->name);
			hit(vb, VR_SETTING, off, 0);
			broken(reason, n,
			       "setting: %s %.4g %s achieved for %.4g requested (%+.0f%%)", s->name,
			       s->achieved, s->unit, s->requested,
			       100 * (s->achieved - s->requested) / s->requested);
		}
	}
}

int validity_judge(const struct evidence *e, const struct vrules *v, char *reason, size_t n,
		   struct vbroken *b)
{
	reason[0] = 0;
	rule_ops(e, reason, n, b);
	rule_threads(e, v, reason, n, b);
	rule_cpus(e, v, reason, n, b);
	rule_row(e, v, reason, n, b);
	return !reason[0];
}

int validity_check(const struct evidence *e, const struct vrules *v, char *reason, size_t n)
{
	return validity_judge(e, v, reason, n, NULL);
}

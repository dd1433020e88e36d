/* From run records to the figures the patch talks about: runs per interval, sub-minimum gaps. */
#include "benches/shepherd/stats.h"
#include "benches/shepherd/jiffies.h"
#include <string.h>

void sw_gap_edges(long interval, long hz, long edges[SW_BINS])
{
	long min = sw_min_legit_gap(interval, hz);
	long e[SW_BINS] = { 0, 1, 10, hz / 10, hz / 2, min, interval + 1, interval + hz / 2 + 1 };
	/* a small HZ would make bins collapse: keep every bin at least one tick wide */
	for (int i = 0; i < SW_BINS; i++)
		edges[i] = i && e[i] <= edges[i - 1] ? edges[i - 1] + 1 : e[i];
}

int sw_gap_bin(const long edges[SW_BINS], long gap)
{
	int b = 0;
	while (b + 1 < SW_BINS && gap >= edges[b + 1])
		b++;
	return b;
}

static long floor_div(long a, long b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* Runs per (CPU, interval): intervals are phase-locked to CPU c's timer, whole seconds minus 3c. */
static void count_intervals(const struct sw_model *m, int c, long m0, long m1, struct sw_result *r)
{
	const struct sw_cpu *w = &m->cpu[c];
	long I = m->p.interval, skew = 3L * c;
	long b0 = floor_div(m0 + skew + I - 1, I),
	     b1 = floor_div(m1 + skew, I); /* buckets [b0, b1) */
	size_t k = 0;
	for (long b = b0; b < b1; b++) {
		long lo = b * I - skew, hi = lo + I;
		uint64_t n = 0;
		while (k < w->nruns && w->runs[k].start < lo)
			k++;
		for (; k < w->nruns && w->runs[k].start < hi; k++)
			n++;
		r->full_intervals++;
		r->runs_in_full += n;
		r->double_intervals += n >= 2;
	}
}

static void add_gap(struct sw_result *r, int kind, long gap)
{
	r->gaps[kind]++;
	r->hist[kind][sw_gap_bin(r->edges, gap)]++;
	r->short_gaps[kind] += gap < r->min_legit;
	if (r->min_gap[kind] < 0 || gap < r->min_gap[kind])
		r->min_gap[kind] = gap;
}

static void count_runs(const struct sw_model *m, int c, long m0, long m1, struct sw_result *r,
		       double *run_ticks)
{
	const struct sw_cpu *w = &m->cpu[c];
	uint64_t short_before = r->short_gaps[SW_GAP_START] + r->short_gaps[SW_GAP_END];
	for (size_t k = 0; k < w->nruns; k++) {
		const struct sw_runrec *x = &w->runs[k];
		if (x->start < m0 || x->start >= m1)
			continue;
		r->runs++;
		r->back_to_back += x->why == SW_WHY_QUEUED_RUNNING;
		*run_ticks += (double)(x->end - x->start);
		if (x->end - x->start > r->run_ticks_max)
			r->run_ticks_max = x->end - x->start;
		if (k == 0)
			continue;
		add_gap(r, SW_GAP_START, x->start - w->runs[k - 1].start);
		add_gap(r, SW_GAP_END, x->start - w->runs[k - 1].end);
	}
	r->cpus_with_short_gaps +=
	    r->short_gaps[SW_GAP_START] + r->short_gaps[SW_GAP_END] > short_before;
}

static void add_lock(struct sw_lockstat *to, const struct sw_lockstat *s)
{
	to->acquisitions += s->acquisitions;
	to->contended += s->contended;
	to->wait_ns += s->wait_ns;
	if (s->wait_max_ns > to->wait_max_ns)
		to->wait_max_ns = s->wait_max_ns;
}

void sw_collect(const struct sw_model *m, long m0, long m1, struct sw_result *r)
{
	double run_ticks = 0;
	memset(r, 0, sizeof(*r));
	r->window_ticks = m1 - m0;
	r->min_legit = sw_min_legit_gap(m->p.interval, m->p.hz);
	r->min_gap[SW_GAP_START] = r->min_gap[SW_GAP_END] = -1;
	sw_gap_edges(m->p.interval, m->p.hz, r->edges);
	for (int c = 0; c < m->p.ncpus; c++) {
		count_intervals(m, c, m0, m1, r);
		count_runs(m, c, m0, m1, r, &run_ticks);
		r->rearm_failed += m->cpu[c].rearm_failed;
		r->decays += m->cpu[c].decays;
		r->workload_ops += m->cpu[c].ops;
	}
	r->run_ticks_mean = r->runs ? run_ticks / (double)r->runs : 0;
	r->shep = m->shep;
	for (int z = 0; z < m->p.nzones; z++)
		for (int s = 0; s < SW_NSITES; s++) {
			add_lock(&r->lock_site[s], &m->zone[z].st[s]);
			add_lock(&r->lock_total, &m->zone[z].st[s]);
		}
}

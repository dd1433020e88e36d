/* The mm half of the shepherd model: vm_stat diffs, need_update, vmstat_update, pcp high decay and
 * the zone lock it drains under, and the shepherd's visit with its check (vmstat_shepherd)
 * (mm/vmstat.c, mm/page_alloc.c; docs/kernel-mechanisms.md section 2.1). */
#include "benches/shepherd/model.h"
#include "harness/spin.h"
#include <sched.h>

/* xorshift64: the workload's choices, private to its thread. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void cond_resched(const struct sw_model *m)
{
	if (!m->p.no_yield)
		sched_yield();
}

void sw_zone_lock(struct sw_model *m, int z, int site)
{
	struct sw_zone *zn = &m->zone[z];
	uint64_t wait = 0;
	int contended = 0;
	/* perf lock contention counts the slow path only: a failed first try */
	if (pthread_mutex_trylock(&zn->lock)) {
		uint64_t t0 = now_ns();
		pthread_mutex_lock(&zn->lock);
		wait = now_ns() - t0;
		contended = 1;
	}
	if (sw_measuring(m)) {
		struct sw_lockstat *s = &zn->st[site];
		s->acquisitions++;
		s->contended += (uint64_t)contended;
		s->wait_ns += wait;
		if (wait > s->wait_max_ns)
			s->wait_max_ns = wait;
	}
}

void sw_zone_unlock(struct sw_model *m, int z)
{
	pthread_mutex_unlock(&m->zone[z].lock);
}

/* free_pcppages_bulk(): n pages back to the buddy allocator under zone->lock (pcp lock held). */
static void free_pcppages_bulk(struct sw_model *m, int c, int z, int n, int site)
{
	sw_zone_lock(m, z, site);
	m->zone[z].free_pages += n;
	sw_zone_unlock(m, z);
	m->cpu[c].pcp[z].count -= n;
}

int sw_decay_pcp_high(struct sw_model *m, int c, int z)
{
	struct sw_cpu *w = &m->cpu[c];
	struct sw_pcp *p = &w->pcp[z];
	int todo = 0;
	pthread_mutex_lock(&w->pcp_lock);
	/* high shrinks by 1/8 per call, never below high_min or count - (batch << SCALE_MAX) */
	if (p->high > p->high_min) {
		int a = p->count - (p->batch << SW_PCP_BATCH_SCALE_MAX),
		    b = p->high - (p->high >> 3);
		int h = a > b ? a : b;
		p->high = h > p->high_min ? h : p->high_min;
		todo |= p->high > p->high_min;
	}
	/* drain the excess in batches, zone->lock once per batch */
	for (int to_drain = p->count - p->high; to_drain > 0;) {
		int n = to_drain < p->batch ? to_drain : p->batch;
		free_pcppages_bulk(m, c, z, n, SW_SITE_DECAY);
		to_drain -= n;
		todo = 1;
	}
	pthread_mutex_unlock(&w->pcp_lock);
	return todo;
}

int sw_need_update(struct sw_model *m, int c)
{
	const struct sw_cpu *w = &m->cpu[c];
	/* memchr_inv over each populated zone's diffs, then the node's */
	for (int z = 0; z < m->p.nzones; z++)
		for (int i = 0; i < SW_ITEMS; i++)
			if (__atomic_load_n(&w->diff[z][i], __ATOMIC_RELAXED))
				return 1;
	for (int i = 0; i < SW_ITEMS; i++)
		if (__atomic_load_n(&w->node_diff[i], __ATOMIC_RELAXED))
			return 1;
	return 0;
}

/* refresh_cpu_vm_stats(true), then the re-arm when anything changed; returns the tick it ended on
 * (the re-arm's own tick, so an end-to-start gap is never shorter than the re-arm delay). */
long sw_vmstat_update(struct sw_model *m, int c)
{
	struct sw_cpu *w = &m->cpu[c];
	int changes = 0;
	for (int z = 0; z < m->p.nzones; z++) {
		/* this_cpu_xchg each diff to 0 and fold it: zones are zeroed one at a time */
		for (int i = 0; i < SW_ITEMS; i++) {
			int v = __atomic_exchange_n(&w->diff[z][i], 0, __ATOMIC_RELAXED);
			if (v) {
				__atomic_fetch_add(&m->zone[z].vm_stat[i], v, __ATOMIC_RELAXED);
				changes++;
			}
		}
		spin_iters(w->zone_work_iters);
		cond_resched(m); /* later zones stay dirty meanwhile: need_update() is still true */
		changes += sw_decay_pcp_high(m, c, z);
		if (sw_measuring(m))
			w->decays++;
	}
	for (int i = 0; i < SW_ITEMS; i++)
		changes += __atomic_exchange_n(&w->node_diff[i], 0, __ATOMIC_RELAXED) != 0;
	long end = sw_now_tick(m);
	if (changes)
		sw_rearm(m, c, end);
	return end;
}

void sw_mod_state(struct sw_model *m, int c, int z, int item, int delta)
{
	struct sw_cpu *w = &m->cpu[c];
	int t = m->p.threshold;
	/* __mod_zone_page_state: fold into the zone when the per-CPU diff passes the threshold */
	int v = __atomic_add_fetch(&w->diff[z][item], (int8_t)delta, __ATOMIC_RELAXED);
	if (v > t || v < -t)
		__atomic_fetch_add(&m->zone[z].vm_stat[item],
				   __atomic_exchange_n(&w->diff[z][item], 0, __ATOMIC_RELAXED),
				   __ATOMIC_RELAXED);
	v = __atomic_add_fetch(&w->node_diff[item], (int8_t)delta, __ATOMIC_RELAXED);
	if (v > t || v < -t)
		__atomic_exchange_n(&w->node_diff[item], 0, __ATOMIC_RELAXED);
}

void sw_pcp_alloc(struct sw_model *m, int c, int z)
{
	struct sw_cpu *w = &m->cpu[c];
	struct sw_pcp *p = &w->pcp[z];
	pthread_mutex_lock(&w->pcp_lock);
	if (p->count == 0) {
		/* rmqueue_bulk(batch) under zone->lock; nr_pcp_alloc raises high by a batch */
		sw_zone_lock(m, z, SW_SITE_REFILL);
		m->zone[z].free_pages -= p->batch;
		sw_zone_unlock(m, z);
		p->count += p->batch;
		p->high = p->high + p->batch < p->high_max ? p->high + p->batch : p->high_max;
	}
	p->count--;
	pthread_mutex_unlock(&w->pcp_lock);
}

void sw_pcp_free(struct sw_model *m, int c, int z)
{
	struct sw_cpu *w = &m->cpu[c];
	struct sw_pcp *p = &w->pcp[z];
	pthread_mutex_lock(&w->pcp_lock);
	/* free_frozen_page_commit: over high, give a batch back to the zone */
	if (++p->count >= p->high)
		free_pcppages_bulk(m, c, z, p->count < p->batch ? p->count : p->batch,
				   SW_SITE_FREE);
	pthread_mutex_unlock(&w->pcp_lock);
}

void sw_workload_burst(struct sw_model *m, int c)
{
	struct sw_cpu *w = &m->cpu[c];
	int batch = m->p.pcp_batch;
	int z = (int)(rnd(&w->rng) % (uint64_t)m->p.nzones);
	int pages = 2 * batch + (int)(rnd(&w->rng) % (uint64_t)(4 * batch));
	/* stress-ng style: take a burst of pages, then give them back; every page dirties a counter
	 */
	for (int k = 0; k < pages; k++) {
		sw_pcp_alloc(m, c, z);
		sw_mod_state(m, c, z, (int)(rnd(&w->rng) % SW_ITEMS), 1);
		spin_iters(w->op_iters);
	}
	for (int k = 0; k < pages; k++) {
		sw_pcp_free(m, c, z);
		sw_mod_state(m, c, z, (int)(rnd(&w->rng) % SW_ITEMS), -1);
		spin_iters(w->op_iters);
	}
	if (sw_measuring(m))
		w->ops += (uint64_t)(2 * pages);
}

/* The check and the queue of --check atomic in one compare-and-swap: nothing can slip between them.
 */
static int atomic_visit(struct sw_model *m, int c)
{
	struct sw_cpu *w = &m->cpu[c];
	int idle = SW_IDLE;
	if (__atomic_load_n(&w->state, __ATOMIC_ACQUIRE) != SW_IDLE)
		return -1;
	if (!sw_need_update(m, c))
		return -2;
	if (!__atomic_compare_exchange_n(&w->state, &idle, SW_STATE_PENDING, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST))
		return -3;
	return sw_queue_work(m, c);
}

/* The kernel's shepherd: `if (!check(dw) && need_update(cpu)) queue_delayed_work_on(cpu, wq, dw,
 * 0)`. */
static int kernel_visit(struct sw_model *m, int c, long now)
{
	int busy =
	    m->p.check == SW_CHECK_PENDING ? sw_delayed_work_pending(m, c) : sw_work_busy(m, c);
	if (busy)
		return -1;
	if (!sw_need_update(m, c))
		return -2;
	int q = sw_queue_delayed_work_on(m, c, 0, now);
	return q ? q : -3;
}

int sw_shepherd_visit(struct sw_model *m, int c, long now)
{
	int r = m->p.check == SW_CHECK_ATOMIC ? atomic_visit(m, c) : kernel_visit(m, c, now);
	if (!sw_measuring(m))
		return r > 0 ? r : 0;
	struct sw_shepstat *s = &m->shep;
	s->visits++;
	s->skipped_busy += r == -1;
	s->skipped_clean += r == -2;
	s->lost_races += r == -3; /* the check said idle, the queue found it taken */
	/* r == 2: __queue_work saw the item in busy_hash (statistics only: no check decided on it)
	 */
	s->queues += r > 0;
	s->queued_while_running += r == 2;
	s->queued_while_idle += r == 1;
	return r > 0 ? r : 0;
}

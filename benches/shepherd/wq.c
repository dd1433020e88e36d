/* The workqueue half of the shepherd model: PENDING, the pool, process_one_work, what the three
 * checks look at. Orderings follow kernel/workqueue.c (see docs/kernel-mechanisms.md section 1). */
#include "benches/shepherd/jiffies.h"
#include "benches/shepherd/model.h"
#include "harness/threads.h"
#include <sched.h>
#include <stdlib.h>
#include <string.h>

long sw_now_tick(const struct sw_model *m)
{
	return (long)((now_ns() - m->base_ns) / (uint64_t)m->p.tick_ns);
}

int sw_measuring(const struct sw_model *m)
{
	/* a model without a harness phase (a unit test stepping it by hand) always counts */
	const volatile int *ph = __atomic_load_n(&m->phase, __ATOMIC_ACQUIRE);
	return !ph || __atomic_load_n(ph, __ATOMIC_ACQUIRE) == PHASE_MEASURE;
}

static void init_cpu(struct sw_model *m, int c, long now)
{
	struct sw_cpu *w = &m->cpu[c];
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca,
				  CLOCK_MONOTONIC); /* kworkers sleep until a tick on this clock */
	pthread_mutex_init(&w->pool_lock, NULL);
	pthread_cond_init(&w->pool_cv, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&w->exec, NULL);
	pthread_mutex_init(&w->pcp_lock, NULL);
	for (int z = 0; z < m->p.nzones; z++) {
		struct sw_pcp *p = &w->pcp[z];
		p->batch = m->p.pcp_batch;
		p->high_min = 4 * p->batch;
		p->high_max = 32 * p->batch;
		p->high = p->high_min;
	}
	w->rng = 0x9E3779B97F4A7C15ull * (uint64_t)(c + 1);
	/* Steady state: each CPU's vmstat_work already armed, as after its last run. */
	w->data = SW_WORK_PENDING;
	w->state = SW_STATE_PENDING;
	w->expires = now + sw_round_jiffies_relative(m->p.interval, c, m->p.hz, now);
}

struct sw_model *sw_model_new(const struct sw_params *p, long now)
{
	struct sw_model *m = aligned_alloc(C2C_BLOCK, sizeof(*m));
	if (!m)
		out_of_memory(0);
	memset(m, 0, sizeof(*m));
	m->p = *p;
	m->base_ns = now_ns();
	size_t csz = sizeof(struct sw_cpu) * (size_t)p->ncpus,
	       zsz = sizeof(struct sw_zone) * (size_t)p->nzones;
	m->cpu = aligned_alloc(C2C_BLOCK, csz);
	m->zone = aligned_alloc(C2C_BLOCK, zsz);
	if (!m->cpu || !m->zone)
		out_of_memory(0);
	memset(m->cpu, 0, csz);
	memset(m->zone, 0, zsz);
	for (int z = 0; z < p->nzones; z++) {
		pthread_mutex_init(&m->zone[z].lock, NULL);
		m->zone[z].free_pages = 1L << 30;
	}
	for (int c = 0; c < p->ncpus; c++)
		init_cpu(m, c, now);
	return m;
}

struct builder {
	const struct sw_params *p;
	long now;
	int cpu, got;
	struct sw_model *m;
};

static void *build_pinned(void *arg)
{
	struct builder *b = arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(b->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return NULL; /* not pinned: the caller builds it */
	b->m = sw_model_new(b->p, b->now);
	b->got = sched_getcpu();
	return NULL;
}

struct sw_model *sw_model_new_on(const struct sw_params *p, long now, int cpu, int *touch)
{
	struct builder b = {p, now, cpu, -1, NULL};
	pthread_t tid;
	if (cpu >= 0 && cpu < CPU_SETSIZE && !pthread_create(&tid, NULL, build_pinned, &b))
		pthread_join(tid, NULL);
	*touch = b.m ? b.got : -1;
	return b.m ? b.m : sw_model_new(p, now);
}

void sw_model_free(struct sw_model *m)
{
	if (!m)
		return;
	for (int c = 0; c < m->p.ncpus; c++) {
		struct sw_cpu *w = &m->cpu[c];
		pthread_mutex_destroy(&w->pool_lock);
		pthread_cond_destroy(&w->pool_cv);
		pthread_mutex_destroy(&w->exec);
		pthread_mutex_destroy(&w->pcp_lock);
		free(w->runs);
	}
	for (int z = 0; z < m->p.nzones; z++)
		pthread_mutex_destroy(&m->zone[z].lock);
	free(m->cpu);
	free(m->zone);
	free(m);
}

int sw_delayed_work_pending(struct sw_model *m, int c)
{
	return (__atomic_load_n(&m->cpu[c].data, __ATOMIC_RELAXED) & SW_WORK_PENDING) != 0;
}

int sw_work_busy(struct sw_model *m, int c)
{
	struct sw_cpu *w = &m->cpu[c];
	int busy = sw_delayed_work_pending(m, c);
	/* find_worker_executing_work() under pool->lock: the only trace of a running work item */
	pthread_mutex_lock(&w->pool_lock);
	busy |= w->running << 1;
	pthread_mutex_unlock(&w->pool_lock);
	return busy;
}

/* __queue_work(): onto the worklist under the pool lock, wake the kworker. Return 2 if the item
 * was running at that moment (it will run again right after, as assign_work() does), else 1. */
int sw_queue_work(struct sw_model *m, int c)
{
	struct sw_cpu *w = &m->cpu[c];
	pthread_mutex_lock(&w->pool_lock);
	int hit = w->running;
	w->queued = 1;
	w->queued_while_running |= hit;
	pthread_cond_signal(&w->pool_cv);
	pthread_mutex_unlock(&w->pool_lock);
	return 1 + hit;
}

/* __queue_delayed_work() with delay > 0: add_timer_on(). */
static void arm_timer(struct sw_model *m, int c, long expires)
{
	struct sw_cpu *w = &m->cpu[c];
	pthread_mutex_lock(&w->pool_lock);
	w->expires = expires;
	pthread_cond_signal(&w->pool_cv);
	pthread_mutex_unlock(&w->pool_lock);
}

int sw_queue_delayed_work_on(struct sw_model *m, int c, long delay, long now)
{
	struct sw_cpu *w = &m->cpu[c];
	/* test_and_set_bit(WORK_STRUCT_PENDING_BIT): a locked RMW on every call */
	if (__atomic_fetch_or(&w->data, SW_WORK_PENDING, __ATOMIC_SEQ_CST) & SW_WORK_PENDING)
		return 0;
	/* "If @delay is 0, queue @dwork->work immediately" */
	if (delay == 0)
		return sw_queue_work(m, c);
	arm_timer(m, c, now + delay);
	return 1;
}

void sw_rearm(struct sw_model *m, int c, long now)
{
	long delay = sw_round_jiffies_relative(m->p.interval, c, m->p.hz, now);
	struct sw_cpu *w = &m->cpu[c];
	if (m->p.check == SW_CHECK_ATOMIC) {
		/* The owner is RUNNING; it publishes PENDING with the timer when the run ends. */
		w->rearm_expires = now + delay;
		return;
	}
	/* PENDING already set by a shepherd queue: no timer is armed (step 4 of the race). */
	if (!sw_queue_delayed_work_on(m, c, delay, now) && sw_measuring(m))
		w->rearm_failed++;
}

int sw_timer_due_locked(struct sw_model *m, int c, long now)
{
	struct sw_cpu *w = &m->cpu[c];
	if (!w->expires || w->expires > now)
		return 0;
	/* delayed_work_timer_fn -> __queue_work: PENDING stays set while the item waits on the list
	 */
	w->expires = 0;
	w->queued = 1;
	w->timer_fired = 1;
	return 1;
}

int sw_process_begin(struct sw_model *m, int c, long now)
{
	struct sw_cpu *w = &m->cpu[c];
	pthread_mutex_lock(&w->pool_lock);
	sw_timer_due_locked(m, c, now);
	if (!w->queued) {
		pthread_mutex_unlock(&w->pool_lock);
		return 0;
	}
	int why = w->queued_while_running ? SW_WHY_QUEUED_RUNNING
		  : w->timer_fired        ? SW_WHY_TIMER
					  : SW_WHY_QUEUED_IDLE;
	w->queued = 0;
	w->queued_while_running = 0;
	w->timer_fired = 0;
	w->running = 1; /* hash_add(busy_hash), current_work = work */
	if (m->p.check == SW_CHECK_ATOMIC)
		__atomic_store_n(&w->state, SW_RUNNING, __ATOMIC_SEQ_CST);
	else /* set_work_pool_and_clear_pending(): the function will run with PENDING = 0 */
		__atomic_fetch_and(&w->data, ~SW_WORK_PENDING, __ATOMIC_SEQ_CST);
	pthread_mutex_unlock(&w->pool_lock);
	if (w->nruns == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 256;
		w->runs = realloc(w->runs, w->cap * sizeof(*w->runs));
		if (!w->runs)
			out_of_memory(0);
	}
	w->runs[w->nruns++] = (struct sw_runrec){ now, now, why };
	return 1;
}

void sw_process_end(struct sw_model *m, int c, long now)
{
	struct sw_cpu *w = &m->cpu[c];
	w->runs[w->nruns - 1].end = now;
	pthread_mutex_lock(&w->pool_lock);
	w->running = 0; /* hash_del, current_work = NULL */
	if (m->p.check == SW_CHECK_ATOMIC) {
		/* RUNNING -> PENDING (timer armed) or RUNNING -> IDLE, by the owner, under the pool
		 * lock */
		if (w->rearm_expires)
			w->expires = w->rearm_expires;
		__atomic_store_n(&w->state, w->rearm_expires ? SW_STATE_PENDING : SW_IDLE,
				 __ATOMIC_SEQ_CST);
		w->rearm_expires = 0;
	}
	pthread_mutex_unlock(&w->pool_lock);
}

/* The shepherd model's threads: kworkers sleep until queued or their timer is due, workloads dirty
 * counters without pause, the shepherd sweeps every CPU once per rounded interval. */
#include "benches/shepherd/run.h"
#include "benches/shepherd/jiffies.h"
#include "harness/counters/sde.h"
#include "harness/spin.h"
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

/* Sleepers re-check the stop flag at least this often (the harness has no wake-up hook). */
#define SW_WAIT_CAP_NS 5000000ull

/* The role table matches the threads sw_plan makes (one kworker and one workload per modelled CPU,
 * one shepherd): every role is counted, with columns of its own. */
static struct role_req sw_roles[SW_NROLES] = {
	{ "kworker", 0 }, { "workload", 0 }, { "shepherd", 1 },
};

/* Each role's operations as software-defined events (sde:::c2cbench::NAME), measured phase only. */
static struct sde_counter sw_sde[SW_NROLES] = {
    [SW_ROLE_KWORKER] = {"shepherd_works", "shepherd: work items the kworkers ran while measured",
			 0, 0},
    [SW_ROLE_WORKLOAD] = {"shepherd_bursts",
			  "shepherd: page alloc/free bursts the workloads ran while measured", 0,
			  0},
    [SW_ROLE_SHEPHERD] = {"shepherd_visits", "shepherd: CPUs the shepherd visited while measured",
			  0, 0},
};

/* Exported at start-up so every command (events, --events checks) knows the names. */
static void __attribute__((constructor)) sw_sde_export(void)
{
	sde_export(sw_sde, SW_NROLES);
}

/* Start this thread's measured phase (counters, t0) the first time it sees the phase begin. */
static void measure_edge(struct thr *t, int *measuring)
{
	if (!*measuring && run_phase(t->ctl) == PHASE_MEASURE) {
		thr_measure_begin(t);
		*measuring = 1;
	}
}

/* End it with the operations done while measuring (the counters' denominator). */
static void measure_close(struct thr *t, int measuring, uint64_t ops)
{
	if (!measuring)
		return;
	thr_measure_end(t);
	t->ops = ops;
	if (t->role >= 0 &&
	    t->role < SW_NROLES) /* published after the window, before the counters are read */
		sde_add(&sw_sde[t->role], ops);
}

static int by_os(const void *a, const void *b)
{
	return (*(const struct pu *const *)a)->os - (*(const struct pu *const *)b)->os;
}

int sw_plan(const struct topo *t, int ncpus, struct plan *p, char *err)
{
	const struct pu **cpu = xcalloc((size_t)t->npus + 1, sizeof(*cpu));
	int n = 0;
	for (int i = 0; i < t->npus; i++)
		if (t->pu[i].allowed)
			cpu[n++] = &t->pu[i];
	/* OS order, as the kernel numbers CPUs (pu[] is in topological order) */
	qsort(cpu, (size_t)n, sizeof(*cpu), by_os);
	if (!n || 2 * ncpus + 1 > PLAN_MAX) {
		free(cpu);
		return !n ? err_set(err, "no allowed CPU on %s", t->source)
			  : err_set(err, "--cpus: '%d' is too many; accepted: 1 to %d", ncpus,
				    (PLAN_MAX - 1) / 2);
	}
	memset(p, 0, sizeof(*p));
	snprintf(p->used, sizeof(p->used), "round-robin");
	for (int k = 0; k < 2 * ncpus + 1; k++) {
		int c = k < 2 * ncpus ? k / 2 : 0; /* the shepherd runs on modelled CPU 0's pool */
		int role = k == 2 * ncpus ? SW_ROLE_SHEPHERD : k % 2;
		const struct pu *u = cpu[c % n];
		p->slot[p->n++] = (struct slot){ role, c, u->os, u->pkg, u->core, u->smt, u->node };
	}
	free(cpu);
	sw_roles[SW_ROLE_KWORKER].count = ncpus;
	sw_roles[SW_ROLE_WORKLOAD].count = ncpus;
	p->roles = sw_roles;
	p->nroles = SW_NROLES;
	p->mem_node = p->slot[0].node;
	return 0;
}

static struct timespec abs_ts(uint64_t ns)
{
	return (struct timespec){ (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
}

static uint64_t tick_ns_at(const struct sw_model *m, long tick)
{
	return m->base_ns + (uint64_t)tick * (uint64_t)m->p.tick_ns;
}

/* worker_thread(): sleep until the work is queued or its timer is due, then process_one_work.
 * Its operations: the work items it ran while measuring. */
static void kworker_loop(struct sw_model *m, int c, struct thr *t)
{
	const struct runctl *ctl = t->ctl;
	struct sw_cpu *w = &m->cpu[c];
	int measuring = 0;
	uint64_t works = 0;
	for (;;) {
		pthread_mutex_lock(&w->pool_lock);
		while (!w->queued && !sw_timer_due_locked(m, c, sw_now_tick(m))) {
			measure_edge(t, &measuring);
			if (run_phase(ctl) == PHASE_STOP) {
				pthread_mutex_unlock(&w->pool_lock);
				measure_close(t, measuring, works);
				return;
			}
			uint64_t until = now_ns() + SW_WAIT_CAP_NS;
			if (w->expires && tick_ns_at(m, w->expires) < until)
				until = tick_ns_at(m, w->expires);
			struct timespec ts = abs_ts(until);
			pthread_cond_timedwait(&w->pool_cv, &w->pool_lock, &ts);
		}
		pthread_mutex_unlock(&w->pool_lock);
		/* one work item at a time on a bound pool: the shepherd, on CPU 0's pool, takes
		 * turns with it */
		pthread_mutex_lock(&w->exec);
		if (sw_process_begin(m, c, sw_now_tick(m))) {
			sw_process_end(m, c, sw_vmstat_update(m, c));
			works += measuring;
		}
		pthread_mutex_unlock(&w->exec);
		measure_edge(t, &measuring);
	}
}

/* Sleep until tick `until` (starting the measured phase when it begins); return 0 if the run was
 * stopped meanwhile. */
static int sleep_until_tick(const struct sw_model *m, long until, struct thr *t, int *measuring)
{
	const struct runctl *ctl = t->ctl;
	while (sw_now_tick(m) < until) {
		measure_edge(t, measuring);
		if (run_phase(ctl) == PHASE_STOP)
			return 0;
		uint64_t ns = now_ns() + SW_WAIT_CAP_NS;
		if (tick_ns_at(m, until) < ns)
			ns = tick_ns_at(m, until);
		struct timespec ts = abs_ts(ns);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return run_phase(ctl) != PHASE_STOP;
}

/* vmstat_shepherd(): every rounded interval, visit each CPU with the configured check.
 * Its operations: the CPUs it visited while measuring. */
static void shepherd_loop(struct sw_model *m, struct thr *t)
{
	int s = m->p.shepherd_cpu, measuring = 0;
	uint64_t visits = 0;
	long now = sw_now_tick(m);
	long next = now + sw_round_jiffies_relative(m->p.interval, s, m->p.hz, now);
	while (sleep_until_tick(m, next, t, &measuring)) {
		measure_edge(t, &measuring);
		if (measuring) { /* the tick as achieved: how many whole ticks after its deadline it
				    woke */
			t->stat[SW_ST_LATE_TICKS] += (uint64_t)(sw_now_tick(m) - next);
			t->stat[SW_ST_WAKES]++;
		}
		pthread_mutex_lock(&m->cpu[s].exec);
		for (int c = 0; c < m->p.ncpus; c++) {
			sw_shepherd_visit(m, c, sw_now_tick(m));
			visits += measuring;
			if (!m->p.no_yield)
				sched_yield(); /* cond_resched() */
		}
		pthread_mutex_unlock(&m->cpu[s].exec);
		if (sw_measuring(m))
			m->shep.passes++;
		now = sw_now_tick(m);
		next = now + sw_round_jiffies_relative(m->p.interval, s, m->p.hz, now);
	}
	measure_close(t, measuring, visits);
}

/* The stress-ng stand-in: allocate and free pages, dirtying counters, until the run stops. */
static void workload_loop(struct sw_model *m, int c, struct thr *t)
{
	int measuring = 0;
	uint64_t bursts = 0;
	while (run_phase(t->ctl) != PHASE_STOP) {
		measure_edge(t, &measuring);
		sw_workload_burst(m, c);
		bursts += measuring;
	}
	measure_close(t, measuring, bursts); /* its operations: the bursts it ran while measuring */
}

/* Each thread calibrates its work where it is pinned, before its window, and times it after. */
static void sw_body(struct thr *t, void *arg)
{
	struct sw_model *m = arg;
	struct sw_cpu *w = &m->cpu[t->idx];
	__atomic_store_n(&m->phase, &t->ctl->phase, __ATOMIC_RELEASE);
	/* the default 50 us timer slack would be half a tick: wake on time */
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
	if (t->role == SW_ROLE_KWORKER) {
		w->zone_work_iters = spin_iters_here((double)m->p.zone_work_ns);
		kworker_loop(m, t->idx, t);
		t->work_ns_achieved = m->p.zone_work_ns > 0 ? spin_check_ns(w->zone_work_iters) : 0;
	} else if (t->role == SW_ROLE_WORKLOAD) {
		w->op_iters = spin_iters_here((double)m->p.op_ns);
		workload_loop(m, t->idx, t);
		t->work_ns_achieved = m->p.op_ns > 0 ? spin_check_ns(w->op_iters) : 0;
	} else {
		shepherd_loop(m, t);
	}
}

int sw_run(struct sw_model *m, const struct topo *t, const struct plan *p, double warmup,
	   double duration, const struct thr_hooks *hooks, struct sw_result *r, char *err)
{
	return sw_run_ev(m, t, p, warmup, duration, hooks, r, NULL, NULL, err);
}

int sw_run_ev(struct sw_model *m, const struct topo *t, const struct plan *p, double warmup,
	      double duration, const struct thr_hooks *hooks, struct sw_result *r,
	      void (*ev)(void *arg, const struct thr *t, int n), void *ev_arg, char *err)
{
	struct thr *thr = thr_alloc(p->n);
	int rc = threads_run(t, p, thr, warmup, duration, sw_body, m, hooks, err);
	if (!rc && ev)
		ev(ev_arg, thr, p->n);
	if (!rc) {
		/* the window every workload thread measured in, in ticks */
		uint64_t t0 = 0, t1 = UINT64_MAX;
		for (int i = 0; i < p->n; i++)
			if (thr[i].role == SW_ROLE_WORKLOAD) {
				t0 = thr[i].t0 > t0 ? thr[i].t0 : t0;
				t1 = thr[i].t1 < t1 ? thr[i].t1 : t1;
			}
		long m0 = t1 > t0 ? (long)((t0 - m->base_ns + (uint64_t)m->p.tick_ns - 1) /
					   (uint64_t)m->p.tick_ns)
				  : 0,
		     m1 = t1 > t0 ? (long)((t1 - m->base_ns) / (uint64_t)m->p.tick_ns) : 0;
		/* no common tick (a loaded host): not an error; the caller's row says so and the
		 * validity rules (window, overlap) judge the attempt */
		memset(r, 0, sizeof(*r));
		if (m1 > m0)
			sw_collect(m, m0, m1, r);
		else
			r->no_window = 1;
	}
	free(thr);
	return rc;
}

#include "harness/threads.h"
#include "harness/cpucheck.h"
#include "harness/evidence.h"
#include "harness/progress.h"
#include "harness/signals.h"
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

void gate_init(struct gate *g, unsigned n)
{
	memset(g, 0, sizeof(*g));
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	g->need = n;
}

int gate_wait(struct gate *g)
{
	pthread_mutex_lock(&g->mu);
	unsigned gen = g->gen;
	if (!g->off && ++g->arrived == g->need) { /* the last one in opens this round for all */
		g->arrived = 0;
		g->gen++;
		pthread_cond_broadcast(&g->cv);
	}
	while (!g->off && gen == g->gen)
		pthread_cond_wait(&g->cv, &g->mu);
	int rc = gen == g->gen ? -1 : 0;
	pthread_mutex_unlock(&g->mu);
	return rc;
}

void gate_off(struct gate *g)
{
	pthread_mutex_lock(&g->mu);
	g->off = 1;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

void gate_destroy(struct gate *g)
{
	pthread_cond_destroy(&g->cv);
	pthread_mutex_destroy(&g->mu);
}

int thread_start_error(int e, const char *what, char *err)
{
	return err_set(err,
		       "cannot create %s: %s (thread or memory limit: ulimit -u, ulimit -v); "
		       "nothing was measured",
		       what, strerror(e));
}

struct thr *thr_alloc(int n)
{
	struct thr *t = aligned_alloc(C2C_BLOCK, sizeof(struct thr) * (size_t)(n ? n : 1));
	if (!t)
		out_of_memory(0);
	memset(t, 0, sizeof(struct thr) * (size_t)(n ? n : 1));
	return t;
}

int bind_self(const struct topo *topo, int cpu, int *got, char *err)
{
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	hwloc_bitmap_only(set, (unsigned)cpu);
	int rc = hwloc_set_cpubind(topo->h, set, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT);
	int e = errno;
	char why[300];
	hwloc_bitmap_free(set);
	if (rc && cpu_unusable(SYSFS_CPU, cpu, why, sizeof(why)))
		return err_set(err, "cannot bind a thread to CPU %d: %s", cpu, why);
	if (rc)
		return err_set(err, "cannot bind a thread to CPU %d: %s", cpu, strerror(e));
	*got = sched_getcpu();
	if (*got != cpu)
		return err_set(err, "thread bound to CPU %d runs on CPU %d", cpu, *got);
	return 0;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Context switches so far: a thread that was switched out during its window says so here. */
static void thread_csw(long *vol, long *invol)
{
	struct rusage ru;
	if (getrusage(RUSAGE_THREAD, &ru)) {
		*vol = *invol = -1;
		return;
	}
	*vol = ru.ru_nvcsw;
	*invol = ru.ru_nivcsw;
}

/* Outside the hot loop: where it is, its CPU time and switches, then the window's start. */
void thr_evidence_begin(struct thr *t)
{
	t->cpu_start = sched_getcpu();
	thread_csw(&t->vcsw0, &t->ivcsw0);
	t->cpu_ns0 = thread_cpu_ns();
	t->t0 = now_ns();
}

/* The window's end first, then the evidence: the calls never count inside the window. */
void thr_evidence_end(struct thr *t)
{
	t->t1 = now_ns();
	t->cpu_ns1 = thread_cpu_ns();
	thread_csw(&t->vcsw1, &t->ivcsw1);
	t->got_cpu_end = sched_getcpu();
	t->measured = 1;
}

/* The hooks this thread runs: the run's, unless the caller said not for this one. */
static const struct thr_hooks *hooks_of(const struct thr *t)
{
	return t->no_hooks ? NULL : t->ctl->hooks;
}

void thr_measure_begin(struct thr *t)
{
	const struct thr_hooks *h = hooks_of(t);
	memset(t->stat, 0, sizeof(t->stat)); /* bench tallies cover the measured phase only */
	if (h && h->measure_begin)
		h->measure_begin(t, h->arg);
	thr_evidence_begin(t);
}

void thr_measure_end(struct thr *t)
{
	const struct thr_hooks *h = hooks_of(t);
	thr_evidence_end(t);
	if (h && h->measure_end)
		h->measure_end(t, h->arg);
	t->got_cpu_end = sched_getcpu();
}

void thr_drive(struct thr *t, batch_fn fn, void *arg)
{
	const struct runctl *c = t->ctl;
	uint64_t ops = 0;
	while (run_phase(c) == PHASE_WARMUP)
		fn(t, arg);
	thr_measure_begin(t);
	while (run_phase(c) == PHASE_MEASURE)
		ops += fn(t, arg);
	thr_measure_end(t);
	t->ops = ops;
}

static void *thread_main(void *p)
{
	struct thr *t = p;
	struct runctl *c = t->ctl;
	const struct thr_hooks *h = hooks_of(t);
	int ok = !bind_self(c->topo, t->want_cpu, &t->got_cpu, t->bind_err);
	if (ok && h && h->thread_init && h->thread_init(t, h->arg)) {
		snprintf(t->bind_err, sizeof(t->bind_err), "counter setup failed on CPU %d",
			 t->want_cpu);
		ok = 0;
	}
	if (ok && c->prologue)
		c->prologue(t, c->arg);
	if (gate_wait(&c->start) ||
	    gate_wait(&c->start)) /* second wait: main has checked every binding */
		ok = 0; /* called off: a thread could not be created */
	if (ok && run_phase(c) != PHASE_STOP)
		c->body(t, c->arg);
	if (ok && h && h->thread_fini)
		h->thread_fini(t, h->arg);
	return NULL;
}

int threads_run(const struct topo *topo, const struct plan *p, struct thr *thr, double warmup_s,
		double duration_s, void (*body)(struct thr *, void *), void *arg,
		const struct thr_hooks *hooks, char *err)
{
	const struct thr_how how = { warmup_s, duration_s, 0, NULL, body, arg, hooks };
	for (int i = 0; i < p->n; i++) {
		thr[i].role = p->slot[i].role;
		thr[i].idx = p->slot[i].idx;
		thr[i].want_cpu = p->slot[i].os;
	}
	return threads_start(topo, thr, p->n, &how, err);
}

int threads_start(const struct topo *topo, struct thr *thr, int n, const struct thr_how *how,
		  char *err)
{
	struct runctl *c = aligned_alloc(C2C_BLOCK, sizeof(*c));
	int started = 0, rc = 0;
	if (!c)
		out_of_memory(0);
	memset(c, 0, sizeof(*c));
	c->topo = topo;
	c->prologue = how->prologue;
	c->body = how->body;
	c->arg = how->arg;
	c->hooks = how->hooks;
	c->phase = how->counted ? PHASE_MEASURE : PHASE_WARMUP;
	char why[300] = "";
	for (int i = 0; i < n; i++) /* a CPU gone since planning (hotplug, cpuset change): refuse
				       before any thread starts */
		if (cpu_unusable(SYSFS_CPU, thr[i].want_cpu, why, sizeof(why))) {
			free(c);
			return err_set(err, "cannot run the planned threads: %s", why);
		}
	gate_init(&c->start, (unsigned)n + 1);
	for (int i = 0; i < n; i++) {
		thr[i].got_cpu = thr[i].got_cpu_end = -1;
		thr[i].ctl = c;
		int e = pthread_create(&thr[i].tid, NULL, thread_main, &thr[i]);
		if (e) {
			char what[64];
			snprintf(what, sizeof(what), "thread %d of %d", i + 1, n);
			rc = thread_start_error(e, what, err);
			break;
		}
		started++;
	}
	if (started < n) { /* the gate can never fill: call it off, the started threads return */
		__atomic_store_n(&c->phase, PHASE_STOP, __ATOMIC_RELEASE);
		gate_off(&c->start);
		for (int i = 0; i < started; i++)
			pthread_join(thr[i].tid, NULL);
		gate_destroy(&c->start);
		free(c);
		return rc;
	}
	gate_wait(&c->start);
	for (int i = 0; i < n && !rc; i++)
		if (thr[i].bind_err[0])
			rc = err_set(err, "%s", thr[i].bind_err);
	if (rc)
		__atomic_store_n(&c->phase, PHASE_STOP, __ATOMIC_RELEASE);
	gate_wait(&c->start);
	struct steal_snap s0 = { 0 }, s1 = { 0 };
	if (!rc && !how->counted) {
		int stopped = sleep_or_stop((uint64_t)(how->warmup_s * 1e9));
		steal_read(&s0);
		__atomic_store_n(&c->phase, PHASE_MEASURE, __ATOMIC_RELEASE);
		stopped = stopped || sleep_or_stop((uint64_t)(how->duration_s * 1e9));
		__atomic_store_n(&c->phase, PHASE_STOP, __ATOMIC_RELEASE);
		steal_read(&s1);
		if (stopped) /* a configuration cut short is not a measurement: no row for it */
			rc = err_set(err, "interrupted by signal %d", signals_pending());
	} else if (!rc) {
		steal_read(&s0);
	}
	for (int i = 0; i < n; i++)
		if (how->counted) /* a long count: the live line goes on meanwhile */
			join_ticking(thr[i].tid);
		else
			pthread_join(thr[i].tid, NULL);
	if (!rc && how->counted)
		steal_read(&s1);
	steal_apply(&s0, &s1, thr, n); /* after the joins: main never writes a running thread's
					  record */
	steal_free(&s0);
	steal_free(&s1);
	/* a thread that ended elsewhere is a migration (an invalid row, evidence.h); a CPU gone
	 * offline is an error */
	for (int i = 0; i < n && !rc; i++)
		if (thr[i].got_cpu_end >= 0 && thr[i].got_cpu_end != thr[i].want_cpu &&
		    cpu_unusable(SYSFS_CPU, thr[i].want_cpu, why, sizeof(why)))
			rc = err_set(err,
				     "thread bound to CPU %d ended on CPU %d, no row for it: %s",
				     thr[i].want_cpu, thr[i].got_cpu_end, why);
	gate_destroy(&c->start);
	free(c);
	return rc;
}

void thr_sum_role(const struct thr *t, int n, int role, struct thr_sum *s)
{
	size_t k = 0;
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < n; i++) {
		if (t[i].role != role)
			continue;
		s->ops += t[i].ops;
		s->ns += t[i].t1 - t[i].t0;
		for (int j = 0; j < 8; j++)
			s->stat[j] += t[i].stat[j];
		if (k < sizeof(s->cpus))
			k += (size_t)snprintf(s->cpus + k, sizeof(s->cpus) - k, "%s%d",
					      k ? " " : "", t[i].got_cpu);
	}
}

void join_ticking(pthread_t t)
{
	struct timespec ts;
	for (;;) {
		clock_gettime(CLOCK_REALTIME,
			      &ts); /* pthread_timedjoin_np's deadline is on this clock */
		ts.tv_sec += 1;
		if (pthread_timedjoin_np(t, NULL, &ts) != ETIMEDOUT)
			return;
		progress_tick();
	}
}

/* refill's threads: the caller's burst of atomic allocations and the balance worker (mm/percpu.c).
 */
#include "benches/refill/refill.h"
#include "harness/counters/sde.h"
#include "harness/signals.h"
#include "harness/spin.h"
#include <errno.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static long futex(int *addr, int op, int val)
{
	return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

/* schedule_work(): a locked fetch-or of PENDING on every call; only the setter wakes the worker. */
static void queue_balance(struct rf_run *r)
{
	if (__atomic_fetch_or(&r->work.data, WORK_STRUCT_PENDING, __ATOMIC_SEQ_CST) &
	    WORK_STRUCT_PENDING)
		return;
	__atomic_fetch_add(&r->wake, 1, __ATOMIC_SEQ_CST);
	futex(&r->wake, FUTEX_WAKE_PRIVATE, 1);
}

/* One allocation attempt under pcpu_lock, queueing the balance work as the kernel does. */
static int try_alloc(struct rf_run *r)
{
	int queue = 0, ok;
	pthread_mutex_lock(&r->lock);
	long before = r->st.nr_empty_pop_pages;
	ok = pcpu_alloc_atomic(&r->st, &queue);
	if (r->st.nr_empty_pop_pages != before)
		pcpu_reserve_clock(&r->st, now_ns());
	if (queue)
		queue_balance(r);
	pthread_mutex_unlock(&r->lock);
	return ok;
}

/* pcpu_balance_populated(): top the reserve up, dropping the lock around each page's population. */
static void balance_populated(struct rf_run *r)
{
	pthread_mutex_lock(&r->lock);
	long n = pcpu_nr_to_pop(&r->st);
	pthread_mutex_unlock(&r->lock);
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&r->lock);
		int created = pcpu_claim_page(&r->st);
		pthread_mutex_unlock(&r->lock);
		if (created) {
			r->chunks++;
			spin_iters(r->chunk_iters);
		}
		spin_iters(r->populate_iters);
		pthread_mutex_lock(&r->lock);
		pcpu_page_populated(&r->st);
		pcpu_reserve_clock(&r->st, now_ns());
		pthread_mutex_unlock(&r->lock);
		r->pages++;
	}
}

/* Counter hooks (--events): set up after binding, like the harness's own threads. */
static int hooks_init(struct rf_run *r, int role, int cpu, char *err)
{
	struct thr *t = &r->thr[role];
	t->role = role;
	t->want_cpu = cpu;
	if (r->hooks && r->hooks->thread_init && r->hooks->thread_init(t, r->hooks->arg))
		return err_set(err, "counter setup failed on CPU %d", cpu);
	return 0;
}

static void hooks_begin(struct rf_run *r, int role)
{
	if (r->hooks && r->hooks->measure_begin)
		r->hooks->measure_begin(&r->thr[role], r->hooks->arg);
	thr_evidence_begin(&r->thr[role]);
}

/* Each role's operations as software-defined events (sde:::c2cbench::NAME), measured phase only. */
static struct sde_counter rf_sde[2] = {
    [ROLE_CALLER] = {"refill_attempts",
		     "refill: pcpu_alloc attempts the caller made while measured", 0, 0},
    [ROLE_WORKER] = {"refill_pages", "refill: pages the balance work populated while measured", 0,
		     0},
};

/* Exported at start-up so every command (events, --events checks) knows the names. */
static void __attribute__((constructor)) rf_sde_export(void)
{
	sde_export(rf_sde, 2);
}

/* ops: what the per-1,000 counter columns divide by (caller: attempts; worker: pages populated). */
static void hooks_end(struct rf_run *r, int role, uint64_t ops)
{
	r->thr[role].ops = ops;
	thr_evidence_end(&r->thr[role]);
	if (r->hooks && r->hooks->measure_end)
		r->hooks->measure_end(&r->thr[role], r->hooks->arg);
	sde_add(&rf_sde[role],
		ops); /* after the window, before the counters are read (hooks_fini) */
}

static void hooks_fini(struct rf_run *r, int role)
{
	if (r->hooks && r->hooks->thread_fini)
		r->hooks->thread_fini(&r->thr[role], r->hooks->arg);
}

/* The worker's calibrated work, measured on its CPU where it is bound. */
static void worker_calibrate(struct rf_run *r)
{
	r->populate_iters = spin_iters_here(r->p->populate_ns);
	r->chunk_iters = spin_iters_here(r->p->chunk_ns);
	r->populate_ns_achieved = -1;
}

/* The kworker: sleep until PENDING is set; a bound one must then get the caller's CPU (the token).
 */
void *worker_main(void *arg)
{
	struct rf_run *r = arg;
	int cpu = r->unbound ? r->p->worker_cpu : r->p->caller_cpu;
	int bound_token = !r->unbound && r->p->hold == HOLD_TOKEN;
	int bad = bind_self(r->topo, cpu, &r->worker_got, r->worker_err) ||
		  hooks_init(r, ROLE_WORKER, cpu, r->worker_err);
	worker_calibrate(
	    r); /* before the gate: the caller is not spinning yet, even on the same CPU */
	if (gate_wait(&r->start) ||
	    gate_wait(&r->start)) { /* called off: the caller thread never started */
		if (!bad)
			hooks_fini(r, ROLE_WORKER);
		return NULL;
	}
	if (bad)
		return NULL;
	if (__atomic_load_n(&r->abort, __ATOMIC_ACQUIRE)) {
		hooks_fini(r, ROLE_WORKER);
		return NULL;
	}
	hooks_begin(r, ROLE_WORKER);
	for (;;) {
		int seq = __atomic_load_n(&r->wake, __ATOMIC_ACQUIRE);
		int stop = __atomic_load_n(&r->stop, __ATOMIC_ACQUIRE);
		if (!stop &&
		    !(__atomic_load_n(&r->work.data, __ATOMIC_ACQUIRE) & WORK_STRUCT_PENDING)) {
			futex(&r->wake, FUTEX_WAIT_PRIVATE, seq);
			continue;
		}
		if (bound_token)
			pthread_mutex_lock(&r->token);
		stop = __atomic_load_n(&r->stop, __ATOMIC_ACQUIRE);
		if (!stop) { /* process_one_work(): PENDING is cleared before the function runs */
			__atomic_fetch_and(&r->work.data, ~WORK_STRUCT_PENDING, __ATOMIC_SEQ_CST);
			r->runs++;
			balance_populated(r);
		}
		if (bound_token)
			pthread_mutex_unlock(&r->token);
		if (stop) {
			hooks_end(r, ROLE_WORKER, r->pages);
			r->populate_ns_achieved = r->pages && r->p->populate_ns > 0
						      ? spin_check_ns(r->populate_iters)
						      : -1;
			hooks_fini(r, ROLE_WORKER);
			return NULL;
		}
	}
}

/* Take the CPU the way --hold says, before the burst starts. */
static int caller_hold(struct rf_run *r)
{
	if (r->p->hold == HOLD_FIFO) {
		struct sched_param sp = { .sched_priority = 1 };
		int e = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
		if (e)
			return err_set(r->caller_err,
				       "--hold fifo: cannot make the caller SCHED_FIFO: %s",
				       strerror(e));
	}
	if (r->p->hold == HOLD_TOKEN)
		pthread_mutex_lock(&r->token);
	return 0;
}

/* The burst: every attempt, with retries; the calibrated work follows each success. */
static void burst(struct rf_run *r)
{
	const struct rf_priv *p = r->p;
	uint64_t ok = 0, failed = 0, rok = 0,
		 cap = p->max_failures ? (uint64_t)p->max_failures : UINT64_MAX;
	r->t0 = now_ns();
	pthread_mutex_lock(&r->lock);
	pcpu_reserve_clock(&r->st, r->t0);
	pthread_mutex_unlock(&r->lock);
	r->end = END_ATTEMPTS;
	for (long a = 0; a < p->attempts; a++) {
		if (failed >= cap) {
			r->end = END_MAX_FAILURES;
			break;
		}
		if (a % RF_CHECK_EVERY == 0 &&
		    (signals_pending() || (p->cap_ns && now_ns() - r->t0 >= p->cap_ns))) {
			r->end = signals_pending() ? END_SIGNAL : END_DURATION;
			break;
		}
		int got = try_alloc(r);
		for (long k = 0; !got && k < p->retries; k++) {
			spin_iters(r->retry_iters);
			got = try_alloc(r);
			rok += got;
		}
		if (got) {
			ok++;
			spin_iters(r->alloc_iters);
		} else {
			failed++;
		}
	}
	r->t1 = now_ns();
	pthread_mutex_lock(&r->lock);
	pcpu_reserve_clock_end(&r->st, r->t1);
	pthread_mutex_unlock(&r->lock);
	r->ok = ok;
	r->failed = failed;
	r->retries_ok = rok;
}

/* Let the worker run again: the bound one gets the token only after stop is set, so it never
 * counts a run after the burst. */
static void caller_release(struct rf_run *r, int held)
{
	__atomic_store_n(&r->stop, 1, __ATOMIC_RELEASE);
	__atomic_fetch_add(&r->wake, 1, __ATOMIC_SEQ_CST);
	futex(&r->wake, FUTEX_WAKE_PRIVATE, 1);
	if (held && r->p->hold == HOLD_TOKEN)
		pthread_mutex_unlock(&r->token);
	if (held && r->p->hold == HOLD_FIFO) {
		struct sched_param sp = { .sched_priority = 0 };
		pthread_setschedparam(pthread_self(), SCHED_OTHER, &sp);
	}
}

/* Busy time on the caller's CPU, unmeasured: the clock ramps up before the burst starts. */
static void warm_up(uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	while (now_ns() < end && !signals_pending())
		spin_iters(1000);
}

void *caller_main(void *arg)
{
	struct rf_run *r = arg;
	int cpu = r->p->caller_cpu;
	int bad = bind_self(r->topo, cpu, &r->caller_got, r->caller_err) ||
		  hooks_init(r, ROLE_CALLER, cpu, r->caller_err);
	gate_wait(&r->start); /* the caller starts last: its gate is never called off */
	gate_wait(&r->start);
	if (bad || __atomic_load_n(&r->abort, __ATOMIC_ACQUIRE)) {
		caller_release(r, 0);
		if (!bad)
			hooks_fini(r, ROLE_CALLER);
		return NULL;
	}
	warm_up(r->p->warmup_ns);
	/* calibrated after the warm-up (the clock ramped up), on this CPU, before the burst */
	r->alloc_iters = spin_iters_here(r->p->alloc_ns);
	r->retry_iters = spin_iters_here(r->p->retry_ns);
	r->alloc_ns_achieved = -1;
	int held = !caller_hold(r);
	if (held) {
		hooks_begin(r, ROLE_CALLER);
		burst(r);
		hooks_end(r, ROLE_CALLER, r->ok + r->failed);
		if (r->p->alloc_ns >
		    0) /* still holding the CPU: a bound worker does not share this timing */
			r->alloc_ns_achieved = spin_check_ns(r->alloc_iters);
	}
	caller_release(r, held);
	hooks_fini(r, ROLE_CALLER);
	return NULL;
}

/* refill: per-CPU reserve starvation with a bound refill worker (seed 001, mm/percpu.c).
 * A caller pinned to one CPU makes a burst of atomic per-CPU allocations without giving the CPU up
 * (the kernel's preemption-disabled section). The allocator serves atomic allocations from populated
 * pages only and queues its balance work when the reserve runs low. `bound`: the worker may only run
 * on the caller's CPU, as schedule_work() on a per-CPU workqueue does; `unbound`: it runs on another
 * CPU, as the fix (an unbound workqueue) allows. The bench places its own two threads. */
#include "harness/bench.h"
#include "harness/memnode.h"
#include "benches/refill/pcpu_reserve.h"
#include "harness/signals.h"
#include "harness/spin.h"
#include "layouts/work.h"
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { RF_BOUND, RF_UNBOUND };
enum { HOLD_TOKEN, HOLD_FIFO, HOLD_SLICE };
enum { ROLE_CALLER, ROLE_WORKER }; /* counter columns: caller_*_per_kop, worker_*_per_kop */
enum { END_ATTEMPTS, END_MAX_FAILURES, END_DURATION, END_SIGNAL };
static const char *const end_names[] = { "attempts", "max_failures", "duration", "signal" };
#define RF_CHECK_EVERY 64 /* attempts between looks at the clock and at signals */

static const struct opt_spec rf_opts[] = {
	{ "worker", OPT_CHOICES, "bound,unbound", "LIST", "balance-worker modes to compare, the first is the baseline: bound (on the caller's CPU, schedule_work) or unbound (on another CPU, the fix)", "bound,unbound", NULL },
	{ "hold", OPT_CHOICE, "token", "HOW", "how the caller keeps its CPU for the burst: token (the bound worker must take a per-CPU token the caller holds; deterministic), fifo (caller SCHED_FIFO; needs CAP_SYS_NICE), slice (both ordinary threads: the time-slice case)", "token,fifo,slice", NULL },
	{ "attempts", OPT_COUNT, "131072", "N", "allocations in the burst; the burst ends when all were attempted; --duration, only when given, caps a burst's time; --warmup is busy time on the caller's CPU before each burst", NULL, NULL },
	{ "max-failures", OPT_UINT, "0", "N", "end the burst early after N failed allocations (0: never; the seed's test seems to have stopped near 4096)", NULL, NULL },
	{ "retries", OPT_UINT, "4", "N", "retries of a failed allocation before it counts as failed", NULL, NULL },
	{ "retry-ns", OPT_UINT, "1000", "NS", "busy wait before each retry (the caller keeps its CPU)", NULL, NULL },
	{ "alloc-ns", OPT_UINT, "2000", "NS", "calibrated work after each successful allocation (the memset over every CPU's unit, hooks); with the default the unbound worker keeps up", NULL, NULL },
	{ "populate-ns", OPT_UINT, "20000", "NS", "calibrated work to populate one page (the worker, outside pcpu_lock)", NULL, NULL },
	{ "chunk-ns", OPT_UINT, "0", "NS", "extra calibrated work to create a chunk when the newest has no unpopulated page", NULL, NULL },
	{ "size", OPT_COUNT, "8", "BYTES", "bytes per allocation: a multiple of 4 up to 4096 (8: 512 objects a page)", NULL, NULL },
	{ "initial-empty", OPT_UINT, "2", "PAGES", "populated empty pages in the reserve at the start of a burst", NULL, NULL },
	{ "initial-partial", OPT_UINT, "0", "OBJS", "free objects in a partly used page at the start of a burst", NULL, NULL },
	{ "chunk-pages", OPT_COUNT, "64", "PAGES", "pages per chunk", NULL, NULL },
	{ "caller-cpu", OPT_TEXT, "auto", "CPU", "OS CPU number for the caller (auto: the first CPU this process may use)", NULL, NULL },
	{ "worker-cpu", OPT_TEXT, "auto", "CPU", "OS CPU number for the unbound worker (auto: another core than the caller's, same package first, else an SMT sibling)", NULL, NULL },
	{ 0 },
};

static const char *const rf_summary[] = { "allocs_ok", "allocs_failed", "retries_ok", "worker_runs", "reserve_empty_ns", NULL };

struct rf_priv {
	struct pcpu_cfg cfg;
	int hold;
	int caller_cpu, worker_cpu; /* worker_cpu: the unbound worker's, -1 when no unbound variant */
	long attempts, retries, max_failures;
	double alloc_ns, retry_ns, populate_ns, chunk_ns;
	uint64_t cap_ns;    /* --duration when given, else 0: no time cap */
	uint64_t warmup_ns; /* --warmup: the caller spins on its CPU before the burst */
	uint64_t rt_period_ns; /* --hold fifo: pause this long before a burst, so it starts with a full RT budget */
	struct role_req roles[2];
	uint64_t alloc_iters, populate_iters, chunk_iters, retry_iters;
};

/* One burst's shared state. Each field that one thread writes and the other reads is alone on its block. */
struct rf_run {
	C2C_ALIGNED pthread_mutex_t lock; /* pcpu_lock: guards st */
	struct pcpu_state st;
	C2C_ALIGNED struct work_struct work; /* pcpu_balance_work: PENDING in work.data */
	C2C_ALIGNED int wake;                /* futex word: bumped when PENDING is set or at stop */
	C2C_ALIGNED int stop;
	C2C_ALIGNED pthread_mutex_t token; /* the caller's CPU, for --hold token */
	C2C_ALIGNED pthread_barrier_t start;
	C2C_ALIGNED int abort; /* set by the main thread between the two start barriers */
	/* read-only during the burst */
	C2C_ALIGNED const struct rf_priv *p;
	const struct topo *topo;
	const struct thr_hooks *hooks; /* counters (may be NULL) */
	struct thr *thr;               /* [ROLE_CALLER], [ROLE_WORKER]: records the hooks count with */
	int unbound;
	/* written by the caller only */
	C2C_ALIGNED uint64_t ok, failed, retries_ok, t0, t1;
	int end; /* END_*: why the burst ended */
	int caller_got;
	char caller_err[ERRLEN];
	/* written by the worker only */
	C2C_ALIGNED uint64_t runs, pages, chunks;
	int worker_got;
	char worker_err[ERRLEN];
};

static long futex(int *addr, int op, int val)
{
	return syscall(SYS_futex, addr, op, val, NULL, NULL, 0);
}

/* schedule_work(): a locked fetch-or of PENDING on every call; only the setter wakes the worker. */
static void queue_balance(struct rf_run *r)
{
	if (__atomic_fetch_or(&r->work.data, WORK_STRUCT_PENDING, __ATOMIC_SEQ_CST) & WORK_STRUCT_PENDING)
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
	const struct rf_priv *p = r->p;
	pthread_mutex_lock(&r->lock);
	long n = pcpu_nr_to_pop(&r->st);
	pthread_mutex_unlock(&r->lock);
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&r->lock);
		int created = pcpu_claim_page(&r->st);
		pthread_mutex_unlock(&r->lock);
		if (created) {
			r->chunks++;
			spin_iters(p->chunk_iters);
		}
		spin_iters(p->populate_iters);
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
}

/* ops: what the per-1,000 counter columns divide by (caller: attempts; worker: pages populated). */
static void hooks_end(struct rf_run *r, int role, uint64_t ops)
{
	r->thr[role].ops = ops;
	if (r->hooks && r->hooks->measure_end)
		r->hooks->measure_end(&r->thr[role], r->hooks->arg);
}

static void hooks_fini(struct rf_run *r, int role)
{
	if (r->hooks && r->hooks->thread_fini)
		r->hooks->thread_fini(&r->thr[role], r->hooks->arg);
}

/* The kworker: sleep until PENDING is set; a bound one must then get the caller's CPU (the token). */
static void *worker_main(void *arg)
{
	struct rf_run *r = arg;
	int cpu = r->unbound ? r->p->worker_cpu : r->p->caller_cpu;
	int bound_token = !r->unbound && r->p->hold == HOLD_TOKEN;
	int bad = bind_self(r->topo, cpu, &r->worker_got, r->worker_err) || hooks_init(r, ROLE_WORKER, cpu, r->worker_err);
	pthread_barrier_wait(&r->start);
	pthread_barrier_wait(&r->start);
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
		if (!stop && !(__atomic_load_n(&r->work.data, __ATOMIC_ACQUIRE) & WORK_STRUCT_PENDING)) {
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
			return err_set(r->caller_err, "--hold fifo: cannot make the caller SCHED_FIFO: %s", strerror(e));
	}
	if (r->p->hold == HOLD_TOKEN)
		pthread_mutex_lock(&r->token);
	return 0;
}

/* The burst: every attempt, with retries; the calibrated work follows each success. */
static void burst(struct rf_run *r)
{
	const struct rf_priv *p = r->p;
	uint64_t ok = 0, failed = 0, rok = 0, cap = p->max_failures ? (uint64_t)p->max_failures : UINT64_MAX;
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
		if (a % RF_CHECK_EVERY == 0 && (signals_pending() || (p->cap_ns && now_ns() - r->t0 >= p->cap_ns))) {
			r->end = signals_pending() ? END_SIGNAL : END_DURATION;
			break;
		}
		int got = try_alloc(r);
		for (long k = 0; !got && k < p->retries; k++) {
			spin_iters(p->retry_iters);
			got = try_alloc(r);
			rok += got;
		}
		if (got) {
			ok++;
			spin_iters(p->alloc_iters);
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

static void *caller_main(void *arg)
{
	struct rf_run *r = arg;
	int cpu = r->p->caller_cpu;
	int bad = bind_self(r->topo, cpu, &r->caller_got, r->caller_err) || hooks_init(r, ROLE_CALLER, cpu, r->caller_err);
	pthread_barrier_wait(&r->start);
	pthread_barrier_wait(&r->start);
	if (bad || __atomic_load_n(&r->abort, __ATOMIC_ACQUIRE)) {
		caller_release(r, 0);
		if (!bad)
			hooks_fini(r, ROLE_CALLER);
		return NULL;
	}
	warm_up(r->p->warmup_ns);
	int held = !caller_hold(r);
	if (held) {
		hooks_begin(r, ROLE_CALLER);
		burst(r);
		hooks_end(r, ROLE_CALLER, r->ok + r->failed);
	}
	caller_release(r, held);
	hooks_fini(r, ROLE_CALLER);
	return NULL;
}

/* Is os a CPU this process may use: allowed by the cpuset and, on this machine, by its affinity? */
static int cpu_usable(const struct topo *t, const cpu_set_t *aff, int os)
{
	const struct pu *u = topo_pu(t, os);
	return u && u->allowed && (t->foreign || CPU_ISSET((size_t)os, aff));
}

/* The unbound worker's CPU: another core (same package first), else an SMT sibling; -1 if none. */
static int pick_worker_cpu(const struct topo *t, const cpu_set_t *aff, int caller)
{
	const struct pu *c = topo_pu(t, caller);
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < t->npus; i++) {
			const struct pu *u = &t->pu[i];
			if (u->os == caller || !cpu_usable(t, aff, u->os))
				continue;
			if ((pass == 0 && u->core != c->core && u->pkg == c->pkg) || (pass == 1 && u->core != c->core) || pass == 2)
				return u->os;
		}
	return -1;
}

/* A comma list of the usable CPUs, for error messages. */
static void usable_list(const struct topo *t, const cpu_set_t *aff, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < t->npus && k < n; i++)
		if (cpu_usable(t, aff, t->pu[i].os))
			k += (size_t)snprintf(buf + k, n - k, "%s%d", k ? "," : "", t->pu[i].os);
}

/* --caller-cpu / --worker-cpu: "auto" (-1 here) or a usable OS CPU number. */
static int parse_cpu(const struct topo *t, const cpu_set_t *aff, const char *opt, const char *s, int *out, char *err)
{
	long v;
	char list[256];
	if (!strcmp(s, "auto")) {
		*out = -1;
		return 0;
	}
	usable_list(t, aff, list, sizeof(list));
	if (parse_long(s, &v) || v < 0 || v > 1 << 20 || !cpu_usable(t, aff, (int)v))
		return err_set(err, "--%s: '%s' is not accepted; accepted: auto or a CPU this process may use (%s)", opt, s, list);
	*out = (int)v;
	return 0;
}

static void *probe_fifo(void *arg)
{
	struct sched_param sp = { .sched_priority = 1 };
	*(int *)arg = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	return NULL;
}

/* --hold fifo needs the privilege to make a thread SCHED_FIFO: try it on a throw-away thread. */
static int check_fifo(char *err)
{
	pthread_t t;
	int e = 0;
	if (pthread_create(&t, NULL, probe_fifo, &e))
		return err_set(err, "--hold fifo: cannot create a thread to check SCHED_FIFO");
	pthread_join(t, NULL);
	if (e)
		return err_set(err, "--hold fifo: the caller cannot be made SCHED_FIFO (%s): it needs CAP_SYS_NICE or RLIMIT_RTPRIO >= 1; accepted without privilege: --hold token or --hold slice", strerror(e));
	return 0;
}

/* The worst-case burst length in seconds (failed attempts spin through every retry). */
static double burst_estimate(const struct rf_priv *p, int unbound)
{
	double reserve = (double)(p->cfg.initial_empty * pcpu_objs_per_page(p->cfg.obj_size) + p->cfg.initial_partial);
	double a = (double)p->attempts, alloc = p->alloc_ns;
	if (unbound || reserve >= a)
		return a * alloc / 1e9;
	double failing = a - reserve;
	if (p->max_failures && (double)p->max_failures < failing)
		failing = (double)p->max_failures;
	return (reserve * alloc + failing * (double)p->retries * p->retry_ns) / 1e9;
}

/* The RT bandwidth period (sched_rt_period_us): RT throttling, or the fair server on newer kernels,
 * budgets SCHED_FIFO time per period, so back-to-back bursts would let the bound worker in. */
static uint64_t rt_period_ns(void)
{
	FILE *f = fopen("/proc/sys/kernel/sched_rt_period_us", "r");
	long us = 0;
	if (f) {
		if (fscanf(f, "%ld", &us) != 1)
			us = 0;
		fclose(f);
	}
	return (uint64_t)(us > 0 && us <= 10000000 ? us : 1000000) * 1000;
}

static int read_numbers(struct bench_ctx *c, struct rf_priv *p, char *err)
{
	const char *hold = opt_str(c->o, "hold");
	p->hold = !strcmp(hold, "fifo") ? HOLD_FIFO : !strcmp(hold, "slice") ? HOLD_SLICE : HOLD_TOKEN;
	p->cfg = (struct pcpu_cfg){
		.obj_size = opt_long(c->o, "size"),
		.chunk_pages = opt_long(c->o, "chunk-pages"),
		.initial_empty = opt_long(c->o, "initial-empty"),
		.initial_partial = opt_long(c->o, "initial-partial"),
	};
	p->attempts = opt_long(c->o, "attempts");
	p->retries = opt_long(c->o, "retries");
	p->max_failures = opt_long(c->o, "max-failures");
	/* the harness's default duration is for timed benches: a burst is capped only when asked */
	p->cap_ns = opt_given(c->o, "duration") ? (uint64_t)(c->duration * 1e9) : 0;
	p->warmup_ns = (uint64_t)(c->warmup * 1e9);
	p->alloc_ns = (double)opt_long(c->o, "alloc-ns");
	p->retry_ns = (double)opt_long(c->o, "retry-ns");
	p->populate_ns = (double)opt_long(c->o, "populate-ns");
	p->chunk_ns = (double)opt_long(c->o, "chunk-ns");
	return pcpu_cfg_check(&p->cfg, err);
}

/* Where the threads go: the caller, the bound worker beside it, the unbound worker elsewhere. */
static int place(struct bench_ctx *c, struct rf_priv *p, int want_unbound, char *err)
{
	cpu_set_t aff;
	char list[256];
	CPU_ZERO(&aff);
	if (!c->topo->foreign && sched_getaffinity(0, sizeof(aff), &aff))
		return err_set(err, "cannot read this process's CPU affinity: %s", strerror(errno));
	if (parse_cpu(c->topo, &aff, "caller-cpu", opt_str(c->o, "caller-cpu"), &p->caller_cpu, err) ||
	    parse_cpu(c->topo, &aff, "worker-cpu", opt_str(c->o, "worker-cpu"), &p->worker_cpu, err))
		return -1;
	for (int i = 0; p->caller_cpu < 0 && i < c->topo->npus; i++)
		if (cpu_usable(c->topo, &aff, c->topo->pu[i].os))
			p->caller_cpu = c->topo->pu[i].os;
	usable_list(c->topo, &aff, list, sizeof(list));
	if (p->caller_cpu < 0)
		return err_set(err, "no CPU this process may use was found in the topology");
	if (!want_unbound) {
		if (opt_given(c->o, "worker-cpu"))
			return err_set(err, "--worker-cpu places the unbound worker; accepted only with --worker including unbound (the bound worker runs on the caller's CPU)");
		p->worker_cpu = -1;
		return 0;
	}
	if (p->worker_cpu == p->caller_cpu)
		return err_set(err, "--worker-cpu: '%d' is not accepted; accepted: a CPU other than the caller's (%d) among %s", p->worker_cpu, p->caller_cpu, list);
	if (p->worker_cpu < 0)
		p->worker_cpu = pick_worker_cpu(c->topo, &aff, p->caller_cpu);
	if (p->worker_cpu < 0)
		return err_set(err, "--worker unbound needs a CPU other than the caller's, but this process may use only CPU %s; accepted here: --worker bound", list);
	return 0;
}

/* For --dry-run: the plan the bench will use, in the harness's format. */
static void fill_plan(struct bench_ctx *c, struct rf_priv *p, int want_bound)
{
	int cpus[3] = { p->caller_cpu, want_bound ? p->caller_cpu : -1, p->worker_cpu }, nw = 0;
	p->roles[ROLE_CALLER] = (struct role_req){ "caller", 1 };
	p->roles[ROLE_WORKER] = (struct role_req){ "worker", want_bound + (p->worker_cpu >= 0) };
	snprintf(c->plan.used, sizeof(c->plan.used), "own: %s%s%s", want_bound ? "worker 0 bound" : "",
		 want_bound && p->worker_cpu >= 0 ? ", " : "", p->worker_cpu >= 0 ? (want_bound ? "worker 1 unbound" : "worker 0 unbound") : "");
	c->plan.roles = p->roles;
	c->plan.nroles = 2;
	c->plan.n = 0;
	for (int k = 0; k < 3; k++) {
		const struct pu *u = cpus[k] >= 0 ? topo_pu(c->topo, cpus[k]) : NULL;
		int role = k ? ROLE_WORKER : ROLE_CALLER;
		if (u)
			c->plan.slot[c->plan.n++] = (struct slot){ role, k ? nw++ : 0, u->os, u->pkg, u->core, u->smt, u->node };
	}
	c->plan.mem_node = topo_pu(c->topo, p->caller_cpu)->node;
}

static int rf_prepare(struct bench_ctx *c, char *err)
{
	struct rf_priv *p = xcalloc(1, sizeof(*p));
	char *names[2];
	int want[2] = { 0, 0 };
	c->priv = p;
	if (read_numbers(c, p, err))
		return -1;
	int n = list_split(opt_str(c->o, "worker"), names, 2);
	for (int i = 0; i < n; i++) {
		int m = !strcmp(names[i], "unbound") ? RF_UNBOUND : RF_BOUND;
		want[m] = 1;
		bench_variant(c, names[i], m);
		free(names[i]);
	}
	if (place(c, p, want[RF_UNBOUND], err))
		return -1;
	if (p->hold == HOLD_FIFO && !c->topo->foreign && !opt_flag(c->o, "dry-run") && check_fifo(err))
		return -1;
	fill_plan(c, p, want[RF_BOUND]);
	p->alloc_iters = spin_for_ns(p->alloc_ns);
	p->retry_iters = spin_for_ns(p->retry_ns);
	p->populate_iters = spin_for_ns(p->populate_ns);
	p->chunk_iters = spin_for_ns(p->chunk_ns);
	/* the dry run's time estimate: the longest burst (or the cap), the warm-up and the RT pause */
	double longest = 0;
	for (int m = 0; m < 2; m++)
		if (want[m] && burst_estimate(p, m) > longest)
			longest = burst_estimate(p, m);
	if (p->cap_ns && longest > c->duration)
		longest = c->duration;
	p->rt_period_ns = p->hold == HOLD_FIFO ? rt_period_ns() : 0;
	c->run_s = longest + c->warmup + (double)p->rt_period_ns / 1e9;
	if (p->hold == HOLD_FIFO && want[RF_BOUND] && longest > 0.9)
		fprintf(stderr, "c2cbench: warning: a bound burst may last %.2f s; RT throttling (sched_rt_runtime_us) can let the worker run after ~0.95 s of SCHED_FIFO\n", longest);
	return 0;
}

/* Bookkeeping must balance: every object handed out came from the initial pages or a populated one. */
static int check_books(const struct rf_run *r, char *err)
{
	const struct pcpu_state *s = &r->st;
	const struct pcpu_cfg *c = &r->p->cfg;
	long total = (c->initial_empty + s->pages_populated) * s->objs_per_page + c->initial_partial;
	long left = s->nr_empty_pop_pages * s->objs_per_page + s->cur_free;
	long made = (long)(r->ok + r->failed);
	int made_ok = r->end == END_ATTEMPTS ? made == r->p->attempts
		    : r->end == END_MAX_FAILURES ? (long)r->failed == r->p->max_failures && made < r->p->attempts
						 : made <= r->p->attempts;
	if ((long)r->ok != total - left || !made_ok || (long)r->pages != s->pages_populated)
		return err_set(err, "refill: internal accounting error (ok %llu, failed %llu, objects %ld - %ld left)",
			    (unsigned long long)r->ok, (unsigned long long)r->failed, total, left);
	return 0;
}

static void fill_row(struct rf_run *r, struct row *w)
{
	const struct rf_priv *p = r->p;
	static const char *const holds[] = { "token", "fifo", "slice" };
	row_set(w, "hold", "%s", holds[p->hold]);
	row_set(w, "caller_cpu", "%d", r->caller_got);
	row_set(w, "worker_cpu", "%d", r->worker_got);
	row_set(w, "mem_node", "%d", mem_node_of((void *)r));
	row_set(w, "attempts", "%ld", p->attempts);
	row_set(w, "attempts_made", "%llu", (unsigned long long)(r->ok + r->failed));
	row_set(w, "max_failures", "%ld", p->max_failures);
	row_set(w, "burst_end", "%s", end_names[r->end]);
	row_set(w, "allocs_ok", "%llu", (unsigned long long)r->ok);
	row_set(w, "allocs_failed", "%llu", (unsigned long long)r->failed);
	row_set(w, "retries_ok", "%llu", (unsigned long long)r->retries_ok);
	row_set(w, "worker_runs", "%llu", (unsigned long long)r->runs);
	row_set(w, "pages_populated", "%llu", (unsigned long long)r->pages);
	row_set(w, "chunks_created", "%llu", (unsigned long long)r->chunks);
	row_set(w, "reserve_empty_ns", "%llu", (unsigned long long)r->st.empty_ns);
	row_set(w, "burst_ns", "%llu", (unsigned long long)(r->t1 - r->t0));
	row_set(w, "reserve_end_pages", "%ld", r->st.nr_empty_pop_pages);
	row_set(w, "size", "%ld", p->cfg.obj_size);
	row_set(w, "objs_per_page", "%ld", r->st.objs_per_page);
	row_set(w, "initial_empty", "%ld", p->cfg.initial_empty);
	row_set(w, "initial_partial", "%ld", p->cfg.initial_partial);
	row_set(w, "initial_reserve_objs", "%ld", p->cfg.initial_empty * r->st.objs_per_page + p->cfg.initial_partial);
	row_set(w, "chunk_pages", "%ld", p->cfg.chunk_pages);
	row_set(w, "retries", "%ld", p->retries);
	row_set(w, "retry_ns", "%.0f", p->retry_ns);
	row_set(w, "alloc_ns", "%.0f", p->alloc_ns);
	row_set(w, "populate_ns", "%.0f", p->populate_ns);
	row_set(w, "chunk_ns", "%.0f", p->chunk_ns);
}

static int rf_run(struct bench_ctx *c, const struct variant *v, int rep, struct row *w, char *err)
{
	const struct rf_priv *p = c->priv;
	/* the shared allocator state lives on the caller's NUMA node */
	struct rf_run *r = mem_on_node(c->plan.mem_node, sizeof(*r), err);
	pthread_t tw, tc;
	int rc = 0;
	(void)rep;
	if (!r)
		return -1;
	r->p = p;
	r->topo = c->topo;
	r->hooks = c->hooks;
	r->thr = thr_alloc(2);
	r->unbound = v->param == RF_UNBOUND;
	pthread_mutex_init(&r->lock, NULL);
	pthread_mutex_init(&r->token, NULL);
	pthread_barrier_init(&r->start, NULL, 3);
	pcpu_init(&r->st, &p->cfg);
	if (sleep_or_stop(p->rt_period_ns)) {
		free(r->thr);
		mem_free(r, sizeof(*r));
		return err_set(err, "interrupted by signal %d", signals_pending());
	}
	if (pthread_create(&tw, NULL, worker_main, r) || pthread_create(&tc, NULL, caller_main, r))
		abort(); /* out of threads is not a user error */
	pthread_barrier_wait(&r->start);
	r->abort = r->caller_err[0] || r->worker_err[0];
	pthread_barrier_wait(&r->start);
	pthread_join(tc, NULL);
	pthread_join(tw, NULL);
	if (r->caller_err[0] || r->worker_err[0])
		rc = err_set(err, "%s", r->caller_err[0] ? r->caller_err : r->worker_err);
	else if (r->end == END_SIGNAL) /* a burst cut short is not a measurement: no row for it */
		rc = err_set(err, "interrupted by signal %d", signals_pending());
	else if (!(rc = check_books(r, err)))
		fill_row(r, w);
	pthread_barrier_destroy(&r->start);
	pthread_mutex_destroy(&r->token);
	pthread_mutex_destroy(&r->lock);
	free(r->thr);
	mem_free(r, sizeof(*r));
	return rc;
}

static void rf_cleanup(struct bench_ctx *c)
{
	free(c->priv);
	c->priv = NULL;
}

/* Configuration columns: what compare joins rows on across machines and builds. */
static const char *const rf_config[] = { "hold", "attempts", "max_failures", "size", "initial_empty", "initial_partial", "chunk_pages", "retries", "retry_ns", "alloc_ns", "populate_ns", "chunk_ns", NULL };

/* What report draws: each count on its own axis (successes are higher-better), time in ns apart. */
static const struct view_metric rf_metrics[] = {
	{ "allocs_ok", "allocations that succeeded", "allocations", NULL, 1 },
	{ "allocs_failed", "allocations that failed", "allocations", NULL, 0 },
	{ "retries_ok", "allocations that succeeded on a retry", "allocations", NULL, 0 },
	{ "worker_runs", "refill worker runs", "runs", NULL, 0 },
	{ "reserve_empty_ns", "time the reserve was empty", "ns", NULL, 0 },
	{ 0 },
};
static const struct bench_view rf_views[] = {
	{ .kind = VIEW_BARS, .title = "Refill worker", .metrics = rf_metrics },
	{ VIEW_END },
};
static const char *const rf_order[] = { "bound", "unbound", NULL };

static const struct bench refill = {
	.name = "refill",
	.desc = "a caller bursts atomic per-CPU allocations while the reserve's refill worker is bound to its CPU or not (seed 001, percpu)",
	.opts = rf_opts,
	.variant_col = "worker",
	.config = rf_config,
	.summary = rf_summary,
	.flags = 0,
	.prepare = rf_prepare,
	.run = rf_run,
	.cleanup = rf_cleanup,
	.views = rf_views,
	.variant_order = rf_order,
};
BENCH_REGISTER(refill)

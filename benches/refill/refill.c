/* refill: per-CPU reserve starvation with a bound refill worker (seed 001, mm/percpu.c).
 * A caller pinned to one CPU makes a burst of atomic per-CPU allocations without giving the CPU up
 * (the kernel's preemption-disabled section). The allocator serves atomic allocations from
 * populated pages only and queues its balance work when the reserve runs low. `bound`: the worker
 * may only run on the caller's CPU, as schedule_work() on a per-CPU workqueue does; `unbound`: it
 * runs on another CPU, as the fix (an unbound workqueue) allows. The bench places its own two
 * threads. */
#include "benches/refill/refill.h"
#include "harness/memnode.h"
#include "harness/signals.h"
#include "harness/spin.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const end_names[] = { "attempts", "max_failures", "duration", "signal" };

static const struct opt_spec rf_opts[] = {
    {"worker", OPT_CHOICES, "bound,unbound", "LIST",
     "balance-worker modes to compare, the first is the baseline: bound (on the caller's CPU, "
     "schedule_work) or unbound (on another CPU, the fix)",
     "bound,unbound", NULL},
    {"hold", OPT_CHOICE, "token", "HOW",
     "how the caller keeps its CPU for the burst: token (the bound worker must take a per-CPU "
     "token the caller holds; deterministic), fifo (caller SCHED_FIFO; needs CAP_SYS_NICE), slice "
     "(both ordinary threads: the time-slice case)",
     "token,fifo,slice", NULL},
    {"attempts", OPT_COUNT, "131072", "N",
     "allocations in the burst; the burst ends when all were attempted; --duration, only when "
     "given, caps a burst's time; --warmup is busy time on the caller's CPU before each burst",
     NULL, NULL},
    {"max-failures", OPT_UINT, "0", "N",
     "end the burst early after N failed allocations (0: never; the seed's test seems to have "
     "stopped near 4096)",
     NULL, NULL},
    {"retries", OPT_UINT, "4", "N", "retries of a failed allocation before it counts as failed",
     NULL, NULL},
    {"retry-ns", OPT_UINT, "1000", "NS", "busy wait before each retry (the caller keeps its CPU)",
     NULL, NULL},
    {"alloc-ns", OPT_UINT, "2000", "NS",
     "calibrated work after each successful allocation (the memset over every CPU's unit, hooks); "
     "with the default the unbound worker keeps up",
     NULL, NULL},
    {"populate-ns", OPT_UINT, "20000", "NS",
     "calibrated work to populate one page (the worker, outside pcpu_lock)", NULL, NULL},
    {"chunk-ns", OPT_UINT, "0", "NS",
     "extra calibrated work to create a chunk when the newest has no unpopulated page", NULL, NULL},
    {"size", OPT_COUNT, "8", "BYTES",
     "bytes per allocation: a multiple of 4 up to 4096 (8: 512 objects a page)", NULL, NULL},
    {"initial-empty", OPT_UINT, "2", "PAGES",
     "populated empty pages in the reserve at the start of a burst", NULL, NULL},
    {"initial-partial", OPT_UINT, "0", "OBJS",
     "free objects in a partly used page at the start of a burst", NULL, NULL},
    {"chunk-pages", OPT_COUNT, "64", "PAGES", "pages per chunk", NULL, NULL},
    {"caller-cpu", OPT_TEXT, "auto", "CPU",
     "OS CPU number for the caller (auto: the first CPU this process may use)", NULL, NULL},
    {"worker-cpu", OPT_TEXT, "auto", "CPU",
     "OS CPU number for the unbound worker (auto: another core than the caller's, same package "
     "first, else an SMT sibling)",
     NULL, NULL},
    {0},
};

static const char *const rf_summary[] = {"allocs_ok",   "allocs_failed",    "retries_ok",
					 "worker_runs", "reserve_empty_ns", NULL};

/* The worst-case burst length in seconds (failed attempts spin through every retry). */
static double burst_estimate(const struct rf_priv *p, int unbound)
{
	double reserve = (double)(p->cfg.initial_empty * pcpu_objs_per_page(p->cfg.obj_size) +
				  p->cfg.initial_partial);
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
	p->hold = !strcmp(hold, "fifo")    ? HOLD_FIFO
		  : !strcmp(hold, "slice") ? HOLD_SLICE
					   : HOLD_TOKEN;
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
	snprintf(p->caller_req, sizeof(p->caller_req), "%s", opt_str(c->o, "caller-cpu"));
	snprintf(p->worker_req, sizeof(p->worker_req), "%s", opt_str(c->o, "worker-cpu"));
	if (parse_cpu(c->topo, &aff, "caller-cpu", opt_str(c->o, "caller-cpu"), &p->caller_cpu,
		      err) ||
	    parse_cpu(c->topo, &aff, "worker-cpu", opt_str(c->o, "worker-cpu"), &p->worker_cpu,
		      err))
		return -1;
	for (int i = 0; p->caller_cpu < 0 && i < c->topo->npus; i++)
		if (cpu_usable(c->topo, &aff, c->topo->pu[i].os))
			p->caller_cpu = c->topo->pu[i].os;
	usable_list(c->topo, &aff, list, sizeof(list));
	if (p->caller_cpu < 0)
		return err_set(err, "no CPU this process may use was found in the topology");
	if (!want_unbound) {
		if (opt_given(c->o, "worker-cpu"))
			return err_set(
			    err,
			    "--worker-cpu places the unbound worker; accepted only with --worker "
			    "including unbound (the bound worker runs on the caller's CPU)");
		p->worker_cpu = -1;
		return 0;
	}
	if (p->worker_cpu == p->caller_cpu)
		return err_set(err,
			       "--worker-cpu: '%d' is not accepted; accepted: not the caller's "
			       "(%d), of %s",
			       p->worker_cpu, p->caller_cpu, list);
	if (p->worker_cpu < 0)
		p->worker_cpu = pick_worker_cpu(c->topo, &aff, p->caller_cpu);
	if (p->worker_cpu < 0)
		return err_set(err,
			       "--worker unbound needs a CPU other than the caller's, but this "
			       "process may use only CPU %s; accepted here: --worker bound",
			       list);
	return 0;
}

/* For --dry-run: the plan the bench will use, in the harness's format. */
static void fill_plan(struct bench_ctx *c, struct rf_priv *p, int want_bound)
{
	int cpus[3] = { p->caller_cpu, want_bound ? p->caller_cpu : -1, p->worker_cpu }, nw = 0;
	p->roles[ROLE_CALLER] = (struct role_req){ "caller", 1 };
	p->roles[ROLE_WORKER] = (struct role_req){ "worker", want_bound + (p->worker_cpu >= 0) };
	snprintf(c->plan.used, sizeof(c->plan.used), "own: %s%s%s",
		 want_bound ? "worker 0 bound" : "", want_bound && p->worker_cpu >= 0 ? ", " : "",
		 p->worker_cpu >= 0 ? (want_bound ? "worker 1 unbound" : "worker 0 unbound") : "");
	c->plan.roles = p->roles;
	c->plan.nroles = 2;
	c->plan.n = 0;
	for (int k = 0; k < 3; k++) {
		const struct pu *u = cpus[k] >= 0 ? topo_pu(c->topo, cpus[k]) : NULL;
		int role = k ? ROLE_WORKER : ROLE_CALLER;
		if (u)
			c->plan.slot[c->plan.n++] = (struct slot){
			    role, k ? nw++ : 0, u->os, u->pkg, u->core, u->smt, u->node};
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
	if (p->hold == HOLD_FIFO && !c->topo->foreign && !opt_flag(c->o, "dry-run") &&
	    check_fifo(err))
		return -1;
	fill_plan(c, p, want[RF_BOUND]);
	/* the dry run's time estimate: the longest burst (or the cap), the warm-up and the RT pause
	 */
	double longest = 0;
	for (int m = 0; m < 2; m++)
		if (want[m] && burst_estimate(p, m) > longest)
			longest = burst_estimate(p, m);
	if (p->cap_ns && longest > c->duration)
		longest = c->duration;
	p->rt_period_ns = p->hold == HOLD_FIFO ? rt_period_ns() : 0;
	c->run_s = longest + c->warmup + (double)p->rt_period_ns / 1e9;
	if (p->hold == HOLD_FIFO && want[RF_BOUND] && longest > 0.9)
		fprintf(
		    stderr,
		    "c2cbench: warning: a bound burst may last %.2f s; RT throttling "
		    "(sched_rt_runtime_us) can let the worker run after ~0.95 s of SCHED_FIFO\n",
		    longest);
	return 0;
}

/* Bookkeeping must balance: every object handed out came from the initial pages or a populated one.
 */
static int check_books(const struct rf_run *r, char *err)
{
	const struct pcpu_state *s = &r->st;
	const struct pcpu_cfg *c = &r->p->cfg;
	long total =
	    (c->initial_empty + s->pages_populated) * s->objs_per_page + c->initial_partial;
	long left = s->nr_empty_pop_pages * s->objs_per_page + s->cur_free;
	long made = (long)(r->ok + r->failed);
	int made_ok = r->end == END_ATTEMPTS ? made == r->p->attempts
		      : r->end == END_MAX_FAILURES
			  ? (long)r->failed == r->p->max_failures && made < r->p->attempts
			  : made <= r->p->attempts;
	if ((long)r->ok != total - left || !made_ok || (long)r->pages != s->pages_populated)
		return err_set(err,
			       "refill: internal accounting error (ok %llu, failed %llu, objects "
			       "%ld - %ld left)",
			       (unsigned long long)r->ok, (unsigned long long)r->failed, total,
			       left);
	return 0;
}

static void fill_row(struct rf_run *r, struct row *w)
{
	const struct rf_priv *p = r->p;
	static const char *const holds[] = { "token", "fifo", "slice" };
	row_set(w, "hold", "%s", holds[p->hold]);
	row_set(w, "caller_cpu", "%d", r->caller_got);
	row_set(w, "worker_cpu", "%d", r->worker_got);
	row_set(w, "caller_cpu_requested", "%s", p->caller_req);
	row_set(w, "worker_cpu_requested", "%s", p->worker_req);
	row_set(w, "mem_node_actual", "%d", mem_node_of((void *)r));
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
	row_set(w, "initial_reserve_objs", "%ld",
		p->cfg.initial_empty * r->st.objs_per_page + p->cfg.initial_partial);
	row_set(w, "chunk_pages", "%ld", p->cfg.chunk_pages);
	row_set(w, "retries", "%ld", p->retries);
	row_set(w, "retry_ns", "%.0f", p->retry_ns);
	row_set(w, "alloc_ns", "%.0f", p->alloc_ns);
	row_set(w, "populate_ns", "%.0f", p->populate_ns);
	row_set(w, "chunk_ns", "%.0f", p->chunk_ns);
}

/* The settings as achieved (docs/validity.md, rule setting): the caller's work per allocation and
 * the worker's per populated page, each timed on its own CPU after its window. */
static void rf_settings(struct bench_ctx *c, const struct rf_run *r, struct row *w)
{
	const struct rf_priv *p = r->p;
	evidence_setting(&c->ev, "alloc", p->alloc_ns, r->alloc_ns_achieved, "ns");
	evidence_setting(&c->ev, "populate", p->populate_ns, r->populate_ns_achieved, "ns");
	if (r->alloc_ns_achieved >= 0)
		row_set(w, "alloc_ns_achieved", "%.1f", r->alloc_ns_achieved);
	else
		row_na(w, "alloc_ns_achieved",
		       p->alloc_ns > 0 ? "the caller did not run its burst"
				       : "no calibrated work (--alloc-ns 0)");
	if (r->populate_ns_achieved >= 0)
		row_set(w, "populate_ns_achieved", "%.1f", r->populate_ns_achieved);
	else
		row_na(w, "populate_ns_achieved",
		       p->populate_ns > 0 ? "the worker never populated a page"
					  : "no calibrated work (--populate-ns 0)");
}

static int rf_run(struct bench_ctx *c, const struct variant *v, int rep, struct row *w, char *err)
{
	const struct rf_priv *p = c->priv;
	/* the shared allocator state lives on the caller's NUMA node, first touched on the caller's
	 * CPU by a thread pinned there, never by the main thread */
	int touch = -1;
	struct rf_run *r = mem_on_node_by(c->plan.mem_node, sizeof(*r), p->caller_cpu, &touch, err);
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
	gate_init(&r->start, 3);
	pcpu_init(&r->st, &p->cfg);
	mem_own_by(r, sizeof(*r), p->caller_cpu); /* what the setup wrote: the caller's again */
	if (sleep_or_stop(p->rt_period_ns)) {
		free(r->thr);
		mem_free(r, sizeof(*r));
		return err_set(err, "interrupted by signal %d", signals_pending());
	}
	struct steal_snap s0 = { 0 }, s1 = { 0 };
	steal_read(&s0);
	int e = pthread_create(&tw, NULL, worker_main, r),
	    e2 = e ? 0 : pthread_create(&tc, NULL, caller_main, r);
	if (e || e2) { /* a thread limit: one line, no row, no wait for a thread that never came */
		gate_off(&r->start);
		if (!e)
			pthread_join(tw, NULL);
		gate_destroy(&r->start);
		free(r->thr);
		mem_free(r, sizeof(*r));
		steal_free(&s0);
		return thread_start_error(e ? e : e2, e ? "the worker thread" : "the caller thread",
					  err);
	}
	gate_wait(&r->start);
	r->abort = r->caller_err[0] || r->worker_err[0];
	gate_wait(&r->start);
	join_ticking(tc); /* the burst may last: the live line goes on meanwhile */
	pthread_join(tw, NULL);
	steal_read(&s1);
	steal_apply(&s0, &s1, r->thr, 2);
	steal_free(&s0);
	steal_free(&s1);
	bench_evidence(c, r->thr, 2);
	if (r->caller_err[0] || r->worker_err[0])
		rc = err_set(err, "%s", r->caller_err[0] ? r->caller_err : r->worker_err);
	else if (r->end == END_SIGNAL) /* a burst cut short is not a measurement: no row for it */
		rc = err_set(err, "interrupted by signal %d", signals_pending());
	else if (!(rc = check_books(r, err))) {
		fill_row(r, w);
		row_set(w, "mem_node", "%d", c->plan.mem_node); /* what the state was bound to */
		rf_settings(c, r, w);
		if (touch >= 0)
			row_set(w, "first_touch_cpu", "%d", touch);
		else
			row_na(w, "first_touch_cpu",
			       "no thread could be pinned on the caller's CPU: the main thread "
			       "touched the state first");
	}
	gate_destroy(&r->start);
	pthread_mutex_destroy(&r->token);
	pthread_mutex_destroy(&r->lock);
	free(r->thr);
	mem_free(r, sizeof(*r));
	return rc;
}

/* Configuration columns: what compare joins rows on across machines and builds. */
static const char *const rf_config[] = {
    "hold",        "attempts", "max_failures", "size",     "initial_empty", "initial_partial",
    "chunk_pages", "retries",  "retry_ns",     "alloc_ns", "populate_ns",   "chunk_ns",
    NULL};

/* The placement probe: caller against the unbound worker's CPU; a bound worker shares the caller's.
 */
static int rf_probe_pairs(struct bench_ctx *c, const struct variant *v, int *a, int *b, int max)
{
	const struct rf_priv *p = c->priv;
	if (v->param != RF_UNBOUND || max < 1 || p->worker_cpu < 0 ||
	    p->worker_cpu == p->caller_cpu)
		return 0;
	a[0] = p->caller_cpu;
	b[0] = p->worker_cpu;
	return 1;
}
/* What report draws: each count on its own axis (successes are higher-better), time in ns apart. */
static const struct view_metric rf_metrics[] = {
    {"allocs_ok", "allocations that succeeded", "allocations", NULL, 1},
    {"allocs_failed", "allocations that failed", "allocations", NULL, 0},
    {"retries_ok", "allocations that succeeded on a retry", "allocations", NULL, 0},
    {"worker_runs", "refill worker runs", "runs", NULL, 0},
    {"reserve_empty_ns", "time the reserve was empty", "ns", NULL, 0},
    {"hitm_per_kop", "HITM per 1,000 operations", "events per 1,000 operations", NULL,
     0}, /* counters */
    {0},
};
static const struct bench_view rf_views[] = {
	{ .kind = VIEW_BARS, .title = "Refill worker", .metrics = rf_metrics },
	{ .kind = VIEW_END },
};
static const char *const rf_order[] = { "bound", "unbound", NULL };

/* Under --hold token the bound worker cannot run while the caller holds the token: a bound burst's
 * counts are the model's invariants (tests/test_refill.c checks them), not measurements. */
static const char *rf_by_construction(const struct bench_ctx *c, int var, const char *metric)
{
	const struct rf_priv *p = c->priv;
	if (!p || p->hold != HOLD_TOKEN || strcmp(c->var[var].name, "bound"))
		return NULL;
	if (!strcmp(metric, "allocs_ok"))
		return "the initial reserve; its worker cannot run (--hold token)";
	if (!strcmp(metric, "allocs_failed"))
		return "attempts past the reserve, capped by --max-failures (--hold token)";
	if (!strcmp(metric, "retries_ok") || !strcmp(metric, "worker_runs"))
		return "nothing refills the reserve (--hold token)";
	return NULL;
}

extern const struct col_decl refill_columns[]; /* columns.c */
extern const char *const refill_verdict[]; /* columns.c */

static const struct bench refill = {
    .name = "refill",
    .desc = "a caller bursts atomic per-CPU allocations while the reserve's refill worker is bound "
	    "to its CPU or not (seed 001, percpu)",
    .opts = rf_opts,
    .variant_col = "worker",
    .config = rf_config,
    .summary = rf_summary,
    .verdict = refill_verdict,
    .flags = 0,
    .validity.roles = "caller,worker",
    /* the caller must run its burst; the bound worker is expected not to run (that is the result)
     */
    .validity.corun = "caller",
    .validity.probe_pairs = rf_probe_pairs,
    .prepare = rf_prepare,
    .run = rf_run,
    .views = rf_views,
    .variant_order = rf_order,
    .by_construction = rf_by_construction,
    .columns = refill_columns,
};
BENCH_REGISTER(refill)

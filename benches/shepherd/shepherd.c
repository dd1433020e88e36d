/* shepherd: the vmstat_shepherd double-scheduling race (seed 000), before and after the fix.
 * Each variant is the shepherd's check: pending (delayed_work_pending, the bug), busy (work_busy,
 * the fix) and atomic (one IDLE/PENDING/RUNNING word: check and queue in one compare-and-swap). The
 * model lives in shepherd_{jiffies,wq,vmstat,stats,run}.c; this file is the bench glue: options,
 * rows, and the gap histogram CSV written next to the main CSV. */
#include "harness/bench.h"
#include "schema/meta.h"
#include "harness/bench_columns.h"
#include "harness/context.h"
#include "harness/csv.h"
#include "benches/shepherd/jiffies.h"
#include "benches/shepherd/run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct opt_spec sw_opts[] = {
    {"check", OPT_CHOICES, SW_CHECK_NAMES, "LIST",
     "the shepherd's check, one or a comma list; the first is the baseline", SW_CHECK_NAMES, NULL},
    {"cpus", OPT_UINT, NULL, "N",
     "modelled CPUs, bound round-robin over the allowed CPUs (default: one per allowed CPU)", NULL,
     NULL},
    {"hz", OPT_COUNT, "1000", "HZ", "ticks per modelled second (kernel CONFIG_HZ), 100 to 10000",
     NULL, NULL},
    {"tick-us", OPT_COUNT, "250", "US",
     "wall-clock microseconds per tick, 10 to 1000000 (250 with HZ 1000: a modelled second is 250 "
     "ms; 1000 is real time)",
     NULL, NULL},
    {"interval", OPT_COUNT, "1", "SECONDS", "vm.stat_interval in modelled seconds, 1 to 60", NULL,
     NULL},
    {"zones", OPT_COUNT, "3", "N", "zones per CPU, 1 to 8", NULL, NULL},
    {"zone-work-us", OPT_UINT, "50", "US", "CPU work per zone in vmstat_update, up to 100000", NULL,
     NULL},
    {"op-ns", OPT_UINT, "1000", "NS", "private work per workload page operation, up to 1000000",
     NULL, NULL},
    {"threshold", OPT_COUNT, "32", "N", "per-CPU counter fold threshold (stat_threshold), 1 to 125",
     NULL, NULL},
    {"pcp-batch", OPT_COUNT, "63", "N",
     "per-CPU page set batch, 1 to 4096 (high_min 4x, high_max 32x)", NULL, NULL},
    {"no-yield", OPT_FLAG, NULL, NULL, "cond_resched() does not yield (default: sched_yield)", NULL,
     NULL},
    {0},
};

static const char *const sw_summary[] = {"runs_per_interval",     "short_gaps",
					 "queued_while_running",  "zone_lock_acquisitions",
					 "zone_lock_contended",   "zone_lock_wait_total_ns",
					 "zone_lock_wait_max_ns", NULL};

struct sw_priv {
	struct sw_params p;
	char cpu_list[1024];
	struct csv gaps; /* opened at the first row */
	char gaps_path[1100];
	/* the histograms of the attempt being judged (its first counter pass), written by
	 * sw_row_done */
	struct sw_result *pending;
	const struct variant *pending_v;
	int pending_rep;
};

/* A bench option must lie in [lo, hi]; otherwise the one-line error names it and the range. */
static int in_range(const struct opts *o, const char *name, long lo, long hi, long *out, char *err)
{
	*out = opt_long(o, name);
	if (*out < lo || *out > hi)
		return err_set(err, "--%s: '%ld' is not accepted; accepted: %ld to %ld", name, *out,
			       lo, hi);
	return 0;
}

static int count_allowed(const struct topo *t)
{
	int n = 0;
	for (int i = 0; i < t->npus; i++)
		n += t->pu[i].allowed;
	return n;
}

static int sw_params_from(struct bench_ctx *c, struct sw_params *p, char *err)
{
	long hz, tick, iv, zones, work, op, thr, batch, cpus = count_allowed(c->topo);
	if (opt_str(c->o, "cpus") && in_range(c->o, "cpus", 1, (PLAN_MAX - 1) / 2, &cpus, err))
		return -1;
	if (in_range(c->o, "hz", 100, 10000, &hz, err) ||
	    in_range(c->o, "tick-us", 10, 1000000, &tick, err) ||
	    in_range(c->o, "interval", 1, 60, &iv, err) ||
	    in_range(c->o, "zones", 1, SW_ZONES_MAX, &zones, err) ||
	    in_range(c->o, "zone-work-us", 0, 100000, &work, err) ||
	    in_range(c->o, "op-ns", 0, 1000000, &op, err) ||
	    in_range(c->o, "threshold", 1, 125, &thr, err) ||
	    in_range(c->o, "pcp-batch", 1, 4096, &batch, err))
		return -1;
	*p = (struct sw_params){.ncpus = (int)cpus,
				.hz = hz,
				.interval = iv * hz,
				.tick_ns = tick * 1000,
				.nzones = (int)zones,
				.threshold = (int)thr,
				.pcp_batch = (int)batch,
				.zone_work_ns = work * 1000,
				.op_ns = op,
				.no_yield = opt_flag(c->o, "no-yield")};
	return 0;
}

static int sw_prepare(struct bench_ctx *c, char *err)
{
	struct sw_priv *s = xcalloc(1, sizeof(*s));
	char *names[VARIANTS_MAX];
	c->priv = s;
	s->gaps.fd = -1;
	if (sw_params_from(c, &s->p, err) || sw_plan(c->topo, s->p.ncpus, &c->plan, err))
		return -1;
	int n = list_split(opt_str(c->o, "check"), names, VARIANTS_MAX);
	for (int i = 0; i < n; i++) {
		bench_variant(c, names[i], !strcmp(names[i], "pending") ? SW_CHECK_PENDING
					   : !strcmp(names[i], "busy")  ? SW_CHECK_BUSY
									: SW_CHECK_ATOMIC);
		free(names[i]);
	}
	size_t k = 0;
	for (int i = 0; i < c->plan.n && k < sizeof(s->cpu_list); i++)
		if (c->plan.slot[i].role == SW_ROLE_KWORKER)
			k += (size_t)snprintf(s->cpu_list + k, sizeof(s->cpu_list) - k, "%s%d",
					      k ? " " : "", c->plan.slot[i].os);
	return 0;
}

/* results/X.csv -> results/X-gaps.csv: the histogram lives next to the rows it belongs to. */
static int open_gaps(struct bench_ctx *c, struct sw_priv *s, char *err)
{
	const char *out = c->out_path ? c->out_path : "shepherd.csv";
	size_t n = strlen(out);
	int ext = n > 4 && !strcmp(out + n - 4, ".csv");
	snprintf(s->gaps_path, sizeof(s->gaps_path), "%.*s-gaps.csv", (int)(ext ? n - 4 : n), out);
	return csv_open(&s->gaps, s->gaps_path, err);
}

extern const struct col_decl shepherd_gap_columns[]; /* columns.c */

static const char *const kind_name[SW_GAP_KINDS] = { "start_to_start", "end_to_start" };

/* One histogram row per gap kind and bin, for this check, repetition and attempt (with its
 * validity). */
static int write_gaps(struct bench_ctx *c, struct sw_priv *s, const struct row *main_row, char *err)
{
	const struct sw_result *r = s->pending;
	if (s->gaps.fd < 0 && open_gaps(c, s, err))
		return -1;
	for (int k = 0; k < SW_GAP_KINDS; k++)
		for (int b = 0; b < SW_BINS; b++) {
			struct row g = { 0 };
			row_set(&g, "schema_version", "%d", SCHEMA_VERSION);
			row_set(&g, "bench", "%s", c->b->name);
			row_set(&g, "check", "%s", s->pending_v->name);
			row_set(&g, "rep", "%d", s->pending_rep);
			row_set(&g, "attempt", "%s", row_get(main_row, "attempt"));
			row_set(
			    &g, "valid", "%s",
			    row_get(main_row, "valid")); /* a reader drops invalid attempts' gaps */
			row_set(&g, "side_table",
				"gap_histogram"); /* compare and report skip side tables */
			row_set(&g, "kind", "%s", kind_name[k]);
			row_set(&g, "bin", "%d", b);
			row_set(&g, "lo_ticks", "%ld", r->edges[b]);
			if (b + 1 < SW_BINS)
				row_set(&g, "hi_ticks", "%ld", r->edges[b + 1] - 1);
			else
				row_na(&g, "hi_ticks", "last bin is open-ended");
			row_set(&g, "count", "%llu", (unsigned long long)r->hist[k][b]);
			row_set(&g, "below_min_legit", "%d", r->edges[b] < r->min_legit);
			row_set(&g, "min_legit_gap_ticks", "%ld", r->min_legit);
			row_set(&g, "hz", "%ld", s->p.hz);
			row_set(&g, "tick_us", "%ld", s->p.tick_ns / 1000);
			row_set(&g, "host", "%s", c->ctx->host);
			row_set(&g, "seed", "%llu", (unsigned long long)c->seed);
			row_set(&g, "na_reason", "%s", g.na_reason);
			if (!s->gaps.ncols) /* the first row fixes the header */
				bench_side_row_check(c->b, shepherd_gap_columns, "gaps", &g);
			int rc = csv_write(&s->gaps, &g, err);
			if (!rc && s->gaps.rows == 1 && c->columns_path)
				rc = bench_side_columns_write(c->b, shepherd_gap_columns,
							      s->gaps_path, s->gaps.cols,
							      s->gaps.ncols, err);
			row_clear(&g);
			if (rc)
				return -1;
		}
	return 0;
}

/* The row is judged: its attempt's histograms go to the side table with its attempt and validity.
 */
static int sw_row_done(struct bench_ctx *c, struct row *r, char *err)
{
	struct sw_priv *s = c->priv;
	int had = s->pending != NULL, rc = had ? write_gaps(c, s, r, err) : 0;
	free(s->pending);
	s->pending = NULL;
	if (!rc && had) /* else NA with its reason (sw_run_variant) */
		row_set(r, "gaps_file", "%s", s->gaps_path);
	return rc;
}

static void put_u(struct row *r, const char *key, uint64_t v)
{
	row_set(r, key, "%llu", (unsigned long long)v);
}

static void put_model(struct row *r, const struct bench_ctx *c, const struct sw_priv *s)
{
	const struct sw_params *p = &s->p;
	if (opt_str(c->o, "cpus")) /* the number given, as parsed: 04 and 4 join */
		row_set(r, "cpus_requested", "%d", p->ncpus);
	else
		row_set(r, "cpus_requested", "all");
	row_set(r, "cpus", "%d", p->ncpus);
	row_set(r, "cpu_list", "%s", s->cpu_list);
	row_set(r, "shepherd_cpu", "%d", c->plan.slot[c->plan.n - 1].os);
	row_set(r, "hz", "%ld", p->hz);
	row_set(r, "tick_us", "%ld", p->tick_ns / 1000);
	row_set(r, "interval_ticks", "%ld", p->interval);
	row_set(r, "min_legit_gap_ticks", "%ld", sw_min_legit_gap(p->interval, p->hz));
	row_set(r, "zones", "%d", p->nzones);
	row_set(r, "zone_work_us", "%ld", p->zone_work_ns / 1000);
	row_set(r, "op_ns", "%ld", p->op_ns);
	row_set(r, "yield", "%d", !p->no_yield);
	row_set(r, "threshold", "%d", p->threshold);
	row_set(r, "pcp_batch", "%d", p->pcp_batch);
}

static void put_runs(struct row *r, const struct sw_result *x, const struct sw_params *p)
{
	row_set(r, "duration_s", "%.6f", (double)x->window_ticks * (double)p->tick_ns / 1e9);
	put_u(r, "intervals", x->full_intervals);
	put_u(r, "runs", x->runs);
	if (x->full_intervals)
		row_set(r, "runs_per_interval", "%.4f",
			(double)x->runs_in_full / (double)x->full_intervals);
	else
		row_na(r, "runs_per_interval",
		       "no whole interval in the measured window; raise --duration");
	put_u(r, "double_intervals", x->double_intervals);
	put_u(r, "back_to_back_runs", x->back_to_back);
	put_u(r, "gaps", x->gaps[SW_GAP_START]);
	put_u(r, "short_gaps", x->short_gaps[SW_GAP_START]);
	put_u(r, "short_end_gaps", x->short_gaps[SW_GAP_END]);
	const char *key[SW_GAP_KINDS] = { "min_gap_ticks", "min_end_gap_ticks" };
	for (int k = 0; k < SW_GAP_KINDS; k++)
		if (x->min_gap[k] >= 0)
			row_set(r, key[k], "%ld", x->min_gap[k]);
		else
			row_na(r, key[k], "no two runs on one CPU in the measured window");
	row_set(r, "cpus_with_short_gaps", "%d", x->cpus_with_short_gaps);
	if (x->runs) {
		row_set(r, "run_ticks_mean", "%.2f", x->run_ticks_mean);
		row_set(r, "run_ticks_max", "%ld", x->run_ticks_max);
	} else {
		row_na(r, "run_ticks_mean", "no run in the measured window");
		row_na(r, "run_ticks_max", "no run in the measured window");
	}
}

static void put_queues(struct row *r, const struct sw_result *x)
{
	put_u(r, "shepherd_passes", x->shep.passes);
	put_u(r, "shepherd_visits", x->shep.visits);
	put_u(r, "shepherd_skipped_busy", x->shep.skipped_busy);
	put_u(r, "shepherd_skipped_clean", x->shep.skipped_clean);
	put_u(r, "shepherd_queues", x->shep.queues);
	put_u(r, "queued_while_running", x->shep.queued_while_running);
	put_u(r, "queued_while_idle", x->shep.queued_while_idle);
	put_u(r, "shepherd_lost_races", x->shep.lost_races);
	put_u(r, "rearm_failed", x->rearm_failed);
	put_u(r, "decay_calls", x->decays);
}

static void put_locks(struct row *r, const struct sw_result *x)
{
	static const char *const site[SW_NSITES] = { "decay", "free", "refill" };
	char key[64];
	put_u(r, "zone_lock_acquisitions", x->lock_total.acquisitions);
	put_u(r, "zone_lock_contended", x->lock_total.contended);
	put_u(r, "zone_lock_wait_total_ns", x->lock_total.wait_ns);
	put_u(r, "zone_lock_wait_max_ns", x->lock_total.wait_max_ns);
	for (int s = 0; s < SW_NSITES; s++) {
		snprintf(key, sizeof(key), "zone_lock_%s_acquisitions", site[s]);
		put_u(r, key, x->lock_site[s].acquisitions);
		snprintf(key, sizeof(key), "zone_lock_%s_contended", site[s]);
		put_u(r, key, x->lock_site[s].contended);
	}
}

/* What sw_evidence needs: the run's context, the row being filled, the model's settings. */
struct sw_ev {
	struct bench_ctx *c;
	struct row *r;
	const struct sw_params *p;
};

/* The tick as achieved: one tick plus the whole ticks the shepherd woke late, on average, per
 * wake-up. */
static void put_tick(struct sw_ev *e, const struct thr *t, int n)
{
	double req = (double)e->p->tick_ns / 1e3, got = -1;
	for (int i = 0; i < n; i++)
		if (t[i].role == SW_ROLE_SHEPHERD && t[i].stat[SW_ST_WAKES])
			got = req * (1 + (double)t[i].stat[SW_ST_LATE_TICKS] /
					     (double)t[i].stat[SW_ST_WAKES]);
	evidence_setting(&e->c->ev, "tick", req, got, "us");
	if (got > 0)
		row_set(e->r, "tick_us_achieved", "%.2f", got);
	else
		row_na(e->r, "tick_us_achieved",
		       "the shepherd did not wake in the measured window; raise --duration");
}

/* Validity evidence of the model's threads (the workloads must co-run; kworkers and the shepherd
 * sleep) and the settings achieved: the tick, the zone work, the workload's operation. */
static void sw_evidence(void *arg, const struct thr *t, int n)
{
	struct sw_ev *e = arg;
	bench_evidence(e->c, t, n);
	put_tick(e, t, n);
	const struct work_setting zone = {"zone work",
					  "us",
					  "zone_work_us_achieved",
					  "no calibrated work (--zone-work-us 0)",
					  (double)e->p->zone_work_ns / 1e3,
					  1e3};
	const struct work_setting op = {
	    "op", "ns", "op_ns_achieved", "no calibrated work (--op-ns 0)", (double)e->p->op_ns, 1};
	bench_work_achieved(e->c, t, n, 1u << SW_ROLE_KWORKER, &zone, e->r);
	bench_work_achieved(e->c, t, n, 1u << SW_ROLE_WORKLOAD, &op, e->r);
}

/* The placement probe: the shepherd's CPU against each other CPU it visits (workloads run there).
 */
static int sw_probe_pairs(struct bench_ctx *c, const struct variant *v, int *a, int *b, int max)
{
	int s = c->plan.slot[c->plan.n - 1].os, k = 0;
	(void)v;
	for (int i = 0; i < c->plan.n && k < max; i++) {
		int cpu = c->plan.slot[i].os, dup = cpu == s;
		for (int j = 0; j < k; j++)
			dup |= b[j] == cpu;
		if (!dup) {
			a[k] = s;
			b[k++] = cpu;
		}
	}
	return k;
}

static int sw_run_variant(struct bench_ctx *c, const struct variant *v, int rep, struct row *r,
			  char *err)
{
	struct sw_priv *s = c->priv;
	struct sw_params p = s->p;
	struct sw_result *x = xcalloc(1, sizeof(*x));
	p.check = (int)v->param;
	int touch = -1; /* built on the first worker's CPU (modelled CPU 0's kworker) */
	struct sw_model *m = sw_model_new_on(&p, 0, c->plan.n ? c->plan.slot[0].os : -1, &touch);
	struct sw_ev ev = { c, r, &p };
	put_model(
	    r, c,
	    s); /* first: the settings requested, then (sw_evidence) as achieved beside them */
	if (touch >= 0)
		row_set(r, "first_touch_cpu", "%d", touch);
	else
		row_na(r, "first_touch_cpu",
		       "no thread could be pinned on the first worker's CPU: the main thread built "
		       "the model");
	int rc = sw_run_ev(m, c->topo, &c->plan, c->warmup, c->duration, c->hooks, x, sw_evidence,
			   &ev, err);
	if (!rc) {
		int from = r->n;
		size_t kept = strlen(r->na_reason);
		put_runs(r, x, &p);
		put_queues(r, x);
		put_locks(r, x);
		put_u(r, "workload_ops", x->workload_ops);
		/* every column in its place, none measured: the attempt invalid */
		if (x->no_window) {
			static const char why[] =
				"no whole tick common to the workload threads' windows";
			snprintf(c->ev.nothing, sizeof(c->ev.nothing), "%s", why);
			r->na_reason[kept] = 0; /* this reason only, once a column */
			for (int i = from; i < r->n; i++)
				row_na(r, r->key[i], why);
			row_na(r, "workload_ops_per_s", why);
			row_na(r, "gaps_file", why);
		} else {
			row_set(r, "workload_ops_per_s", "%.0f",
				(double)x->workload_ops /
				    ((double)x->window_ticks * (double)p.tick_ns / 1e9));
			/* its place; the path once sw_row_done wrote the histograms */
			row_set(r, "gaps_file", "NA");
		}
		/* a later counter pass measures counters only: the first pass's gaps stay */
		if (!s->pending && !x->no_window) {
			s->pending = x;
			s->pending_v = v;
			s->pending_rep = rep;
			x = NULL;
		}
	}
	sw_model_free(m);
	free(x);
	return rc;
}

static void sw_cleanup(struct bench_ctx *c)
{
	struct sw_priv *s = c->priv;
	char err[ERRLEN];
	if (s && s->gaps.fd >= 0) {
		if (s->gaps.rows)
			fprintf(stderr, "c2cbench: %ld gap histogram row(s) written to %s\n",
				s->gaps.rows, s->gaps_path);
		if (csv_close(&s->gaps, err))
			fprintf(stderr, "c2cbench: error: %s\n", err);
	}
	if (s)
		free(s->pending);
	free(s);
	c->priv = NULL;
}

/* Configuration columns: what compare joins rows on across machines and builds. --cpus by
 * default is every allowed CPU: joined as requested, shown as resolved. */
static const char *const sh_config[] = {"cpus_requested", "hz",        "tick_us",
					"interval_ticks", "zones",     "zone_work_us",
					"op_ns",          "yield",     "threshold",
					"pcp_batch",      NULL};
static const struct bench_resolved sh_resolved[] = {{"cpus_requested", "cpus", NULL}, {0}};

/* What report draws: the key ratio alone, each count alone, lock wait times in ns together. */
static const struct view_metric sh_metrics[] = {
    {"runs_per_interval", "vmstat_update runs per interval", "runs per interval", NULL, 0},
    {"short_gaps", "gaps shorter than the legitimate minimum", "gaps", NULL, 0},
    {"queued_while_running", "queued while running", "queueings", NULL, 0},
    {"zone_lock_acquisitions", "zone lock acquisitions", "acquisitions", NULL, 0},
    {"zone_lock_contended", "contended zone lock acquisitions", "acquisitions", NULL, 0},
    {"zone_lock_wait_total_ns", "total zone lock wait", "ns", "wait", 0},
    {"zone_lock_wait_max_ns", "longest zone lock wait", "ns", "wait", 0},
    {"hitm_per_kop", "HITM per 1,000 operations", "events per 1,000 operations", NULL,
     0}, /* counters */
    {0},
};
static const struct bench_view sh_views[] = {
	{ .kind = VIEW_BARS, .title = "vmstat_shepherd checks", .metrics = sh_metrics },
	{ .kind = VIEW_END },
};
static const char *const sh_order[] = { "pending", "busy", "atomic", NULL };

extern const struct col_decl shepherd_columns[]; /* columns.c */
extern const char *const shepherd_verdict[]; /* columns.c */
extern const struct col_side shepherd_sides[];

/* --duration: 6 s by default, not the harness's 1. At the default --tick-us 250 and --interval 1
 * a modelled interval is 250 ms, so 6 s hold 24 intervals, at least 20 whole ones per CPU: what
 * runs_per_interval and the gap counts need for a verdict (README, "Ticks"). */
static const struct opt_spec sh_duration = {
    "duration", OPT_SECONDS, "6", "SECONDS",
    "measured time per configuration and repetition; 6 s hold 24 intervals of 250 ms at the "
    "default --tick-us and --interval, at least 20 whole ones per CPU",
    NULL, NULL};

/* Its harness options: its own --duration default; no --placement or --mem-node (it places its
 * own threads, as the harness refuses them for a bench that is not BENCH_PLACED). */
static const struct opt_spec *sh_harness_opt(const struct opt_spec *s, const char **why)
{
	(void)why; /* the harness's "it places its own threads" */
	if (!strcmp(s->name, "placement") || !strcmp(s->name, "mem-node"))
		return NULL;
	return strcmp(s->name, "duration") ? s : &sh_duration;
}

static const struct bench shepherd = {
    .harness_opt = sh_harness_opt,
    .name = "shepherd",
    .desc = "vmstat_shepherd double-schedules vmstat_update while it runs (seed 000): pending "
	    "(bug), busy (fix), atomic",
    .opts = sw_opts,
    .variant_col = "check",
    .config = sh_config,
    .resolved = sh_resolved,
    .summary = sw_summary,
    .verdict = shepherd_verdict,
    .flags = BENCH_WINDOW,
    .validity.roles = "kworker,workload,shepherd",
    /* kworkers and the shepherd sleep until due: their time on a CPU is the result */
    .validity.corun = "workload",
    .validity.probe_pairs = sw_probe_pairs,
    .prepare = sw_prepare,
    .run = sw_run_variant,
    .cleanup = sw_cleanup,
    .row_done = sw_row_done,
    .views = sh_views,
    .variant_order = sh_order,
    /* benches/shepherd/README.md, "What in these numbers is the OS, not the CPU" */
    .summary_note.text = "OS, not CPU: runs_per_interval and short_gaps follow sched_yield() "
		    "(the scheduler),\n--tick-us and --zone-work-us more than the CPU; "
		    "zone_lock_acquisitions follows the run\ncount (the OS's too); only the "
		    "wait per contended acquisition holds the CPU's line transfer",
    .columns = shepherd_columns,
    .sides = shepherd_sides,
};
BENCH_REGISTER(shepherd)

/* vmalloc: test_vmalloc's fix_size loop against the drain_vmap_work / vmap_nodes false sharing
 * (seed 003). N workers loop vmalloc+vfree cycles (cycle.c); a drain worker serves drain_vmap_work.
 * Layouts place the work item and the vmap_nodes pointer; the measure is ns per alloc/free cycle,
 * as the seed's runtime. */
#include "harness/bench.h"
#include "benches/vmalloc/vmalloc.h"
#include "layouts/layout.h"
#include "harness/memnode.h"
#include "harness/spin.h"
#include "lib/parse.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Seed 003's own figures (16 test_vmalloc workers, 2-socket Xeon Silver 4208, Linux 7.2), and its
 * setting: 16 workers over the two packages, at its lazy_max_pages() (fls(32 CPUs) x 8192). The
 * rows' seed_setting says whether a run had it, and the note stands only beside those. */
#define SEED_THREADS 16
#define SEED_LAZY_MAX 49152
#define SEED_PACKAGES 2
#define SEED_NOTE                                                                                  \
	"beside: seed 003 (16 workers, 2x Xeon Silver 4208): runtime fix_align -12.61%, fix_size " \
	"-5.78%,\n"                                                                                \
	"        no_block_alloc -6.87%; HITM samples on the line -96.55%, all HITM -13.36%"

static const struct opt_spec vm_opts[] = {
    {"layout", OPT_CHOICES, "shared,aligned,padded,section", "LIST",
     "layouts to compare, the first is the baseline", NULL, layout_names},
    {"threads", OPT_COUNT, "2", "N", "worker threads (test_vmalloc nr_threads), one per placed CPU",
     NULL, NULL},
    {"pages", OPT_COUNT, "1", "N",
     "pages per vmalloc (fix_size: 1); each free adds N + 1 guard page to vmap_lazy_nr", NULL,
     NULL},
    {"work", OPT_UINT, "930", "NS",
     "calibrated private work per cycle (2/3 in the allocation, 1/3 in the free); a model "
     "parameter: with the ~35 ns of modelled steps about 969 ns a cycle, a 3-page vmalloc+vfree's "
     "on 5.2 (README)",
     NULL, NULL},
    {"flush-us", OPT_UINT, "10", "US",
     "a purge's fixed cost: its one flush_tlb_kernel_range(), paid whenever it detaches an area; a "
     "model parameter (README)",
     NULL, NULL},
    {"area-ns", OPT_UINT, "60", "NS",
     "a purge's cost per area it detaches (purge_vmap_node: merge into the free tree); frees keep "
     "calling schedule_work() meanwhile; a model parameter (README)",
     NULL, NULL},
    {"lazy-max", OPT_UINT, "0", "PAGES",
     "lazy_max_pages(); 0: the kernel's fls(online CPUs) x 8192, so a different value per CPU "
     "count",
     NULL, NULL},
    {0},
};

static const char *const vm_summary[] = { "cycle_ns", "cycle_cpu_ns", "over_pct", NULL };
static const char *const vm_config[] = { "threads", "placement_requested", "pages", "lazy_max",
	"work_ns", "flush_us", "area_ns", "mem_node_requested", NULL };
static const struct bench_resolved vm_resolved[] = { BENCH_RESOLVED_PLACEMENT,
	{ "lazy_max", "lazy_max_effective", "pages" }, BENCH_RESOLVED_MEM_NODE, { 0 } };

struct vm_priv {
	struct role_req roles[2];
	long threads, pages, lazy_max, lazy_max_req, online, possible, flush_us, area_ns;
	double work_ns;
	int nr_nodes;
};

/* num_possible_cpus(), which vmap_init_nodes() sizes vmap_nodes by: the CPUs of
 * /sys/devices/system/cpu/possible; the configured count where that cannot be read. */
static long possible_cpus(void)
{
	static int cpus[CPU_NUMBER_MAX + 1];
	char buf[8192], why[128];
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	long n = -1;
	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = 0;
			n = parse_cpulist(buf, cpus, CPU_NUMBER_MAX + 1, why, sizeof(why));
		}
		fclose(f);
	}
	return n > 0 ? n : sysconf(_SC_NPROCESSORS_CONF);
}

/* lazy_max_pages(): fls(num_online_cpus()) * (32 MiB / PAGE_SIZE). */
static long kernel_lazy_max(long online)
{
	int fls = 0;
	while (online >> fls)
		fls++;
	return fls * (32L * 1024 * 1024 / 4096);
}

/* Workers spread over cores (across sockets where there are two); the drain worker on the first
 * worker's CPU, as schedule_work() queues on the caller's per-CPU pool. */
static int vm_place(struct bench_ctx *c, struct vm_priv *p, char *err)
{
	const char *pl = opt_str(c->o, "placement");
	p->roles[ROLE_WORKER] = (struct role_req){ "worker", (int)p->threads };
	p->roles[ROLE_DRAINER] = (struct role_req){ "drainer", 1 };
	if (plan_make(c->topo, strcmp(pl, "auto") ? pl : c->b->auto_placement.name, p->roles, 1,
		      &c->plan, err))
		return -1;
	if (plan_mem_node(c->topo, &c->plan, opt_str(c->o, "mem-node"), err))
		return -1;
	struct slot s = c->plan.slot[0];
	s.role = ROLE_DRAINER;
	s.idx = 0;
	c->plan.slot[c->plan.n++] = s;
	c->plan.nroles = 2;
	return 0;
}

/* Read the options (refusing what cannot run), list the layouts, place the threads. */
static int vm_prepare(struct bench_ctx *c, char *err)
{
	struct vm_priv *p = xcalloc(1, sizeof(*p));
	char *names[VARIANTS_MAX];
	c->priv = p;
	int n = list_split(opt_str(c->o, "layout"), names, VARIANTS_MAX);
	for (int i = 0; i < n; i++) {
		bench_variant(c, names[i], 0);
		free(names[i]);
	}
	p->threads = opt_long(c->o, "threads");
	p->pages = opt_long(c->o, "pages");
	p->work_ns = (double)opt_long(c->o, "work");
	p->flush_us = opt_long(c->o, "flush-us");
	p->area_ns = opt_long(c->o, "area-ns");
	p->online = sysconf(_SC_NPROCESSORS_ONLN);
	p->lazy_max_req = opt_long(c->o, "lazy-max");
	p->lazy_max = p->lazy_max_req ? p->lazy_max_req : kernel_lazy_max(p->online);
	p->possible = possible_cpus();
	/* clamp(num_possible_cpus(), 1, 128) */
	p->nr_nodes = p->possible < 1	  ? 1
		      : p->possible > 128 ? 128
					  : (int)p->possible;
	if (p->pages > 1 << 20)
		return err_set(err, "--pages: %ld is not accepted; accepted: 1 to %d", p->pages,
			       1 << 20);
	if (p->flush_us > 10000000)
		return err_set(err,
			       "--flush-us: %ld is not accepted; accepted: 0 to 10000000 (10 s)",
			       p->flush_us);
	if (p->area_ns > 1000000)
		return err_set(err, "--area-ns: %ld is not accepted; accepted: 0 to 1000000 (1 ms)",
			       p->area_ns);
	return vm_place(c, p, err);
}

/* The run's shared objects, each on blocks of its own, on the requested NUMA node. */
struct vm_objs {
	char *obj; /* the layout's struct (unused by section, whose objects are globals) */
	struct vm_node *nodes; /* what vmap_nodes points at */
	struct vm_lazy *lazy;
	struct vm_pool *pool;
	struct vm_wake *wake;
	struct vm_run *run;
	size_t nodes_size;
};

/* Allocate them (the harness frees the NUMA blocks after the run); -1 with the message when the
 * NUMA allocation fails. */
static int objs_alloc(struct bench_ctx *c, const struct vm_priv *p, struct vm_objs *o, char *err)
{
	o->nodes_size = sizeof(struct vm_node) * (size_t)p->nr_nodes;
	o->obj = bench_mem(c, 4096, err);
	o->nodes = o->obj ? bench_mem(c, o->nodes_size, err) : NULL;
	o->lazy = o->nodes ? bench_mem(c, sizeof(struct vm_lazy), err) : NULL;
	o->pool = o->lazy ? bench_mem(c, sizeof(struct vm_pool), err) : NULL;
	o->wake = o->pool ? bench_mem(c, sizeof(struct vm_wake), err) : NULL;
	o->run = aligned_alloc(C2C_BLOCK, sizeof(struct vm_run));
	if (!o->run)
		abort();
	memset(o->run, 0, sizeof(*o->run));
	return o->wake ? 0 : -1;
}

/* Set the run up for one layout: objects placed, an idle work item, zero lazy pages. */
static void run_init(const struct vm_priv *p, const struct layout *l, struct vm_objs *o)
{
	struct vm_run *r = o->run;
	struct work_struct *w;
	struct vmap_node **meta;
	layout_place(l, o->obj, &w, &meta);
	memset(w, 0, sizeof(*w));
	*meta = (struct vmap_node *)o->nodes; /* vmap_init_nodes(): vmap_nodes = the node array */
	memset(o->nodes, 0, o->nodes_size);
	memset(o->pool, 0, sizeof(*o->pool));
	r->m = (struct vm_model){ w, (struct vm_node *const *)meta, o->lazy, o->pool, p->lazy_max };
	vm_model_init(&r->m);
	r->alloc_ns = p->work_ns * 2 / 3;
	r->free_ns = p->work_ns / 3;
	r->flush_ns = (double)p->flush_us * 1000;
	r->area_ns = (double)p->area_ns;
	r->incr = p->pages + 1;
	r->nr_nodes = p->nr_nodes;
	r->wake = &o->wake->word;
}

/* Where the two objects landed: the distance is measured from the addresses, never assumed. */
static void put_layout(struct row *w, const struct vm_run *r, const struct layout *l, int line)
{
	intptr_t wa = (intptr_t)r->m.work, ma = (intptr_t)r->m.nodes;
	row_set(w, "placed_as", "%s", l->global_work ? "globals" : "struct");
	row_set(w, "distance", "%ld", (long)(ma - wa));
	row_set(w, "work_addr", "0x%lx", (unsigned long)wa);
	row_set(w, "meta_addr", "0x%lx", (unsigned long)ma);
	/* the cache lines perf c2c reports HITM for: the seed's "affected line" is the pointer's */
	row_set(w, "work_line_addr", "0x%lx", (unsigned long)(wa & ~(intptr_t)(line - 1)));
	row_set(w, "meta_line_addr", "0x%lx", (unsigned long)(ma & ~(intptr_t)(line - 1)));
	row_set(w, "same_line", "%d", wa / line == ma / line);
	row_set(w, "same_128b_block", "%d", wa / 128 == ma / 128);
}

/* The free and queue paths' tallies, and the drain worker's. */
static void put_counts(struct row *w, const struct thr_sum *wk, const struct thr_sum *dr)
{
	row_set(w, "cycles", "%llu", (unsigned long long)wk->ops);
	row_set(w, "frees", "%llu", (unsigned long long)wk->stat[ST_FREES]);
	row_set(w, "frees_over_lazy_max", "%llu", (unsigned long long)wk->stat[ST_OVER]);
	row_set(w, "over_pct", "%.3f",
		wk->stat[ST_FREES] ? 100.0 * (double)wk->stat[ST_OVER] / (double)wk->stat[ST_FREES]
				   : 0.0);
	row_set(w, "pending_rmw", "%llu", (unsigned long long)wk->stat[ST_RMW]);
	row_set(w, "pending_already_set", "%llu", (unsigned long long)wk->stat[ST_ALREADY]);
	row_set(w, "queued", "%llu", (unsigned long long)wk->stat[ST_QUEUED]);
	row_set(w, "drains", "%llu", (unsigned long long)dr->ops);
	row_set(w, "crossings", "%llu", (unsigned long long)dr->stat[ST_D_CROSSINGS]);
	row_set(w, "requeued", "%llu", (unsigned long long)dr->stat[ST_D_REQUEUED]);
	if (dr->stat[ST_D_CROSSINGS]) {
		/* a crossing's own drains (the re-queued ones left out), then the re-queues, whose
		 * count depends on whether a free landed during the crossing's purge */
		double x = (double)dr->stat[ST_D_CROSSINGS];
		row_set(w, "drains_per_crossing", "%.3f",
			(double)(dr->ops - dr->stat[ST_D_REQUEUED]) / x);
		row_set(w, "purge_us_per_crossing", "%.1f",
			(double)dr->stat[ST_D_MODEL_NS] / 1e3 / x);
		row_set(w, "requeued_per_crossing", "%.3f", (double)dr->stat[ST_D_REQUEUED] / x);
	} else {
		row_na(w, "drains_per_crossing", "no drain began past lazy_max");
		row_na(w, "purge_us_per_crossing", "no drain began past lazy_max");
		row_na(w, "requeued_per_crossing", "no drain began past lazy_max");
	}
	if (dr->ops) {
		double n = (double)dr->ops;
		row_set(w, "purge_ns_mean", "%.0f", (double)dr->stat[ST_PURGE_NS] / n);
		row_set(w, "pages_per_drain", "%.1f", (double)dr->stat[ST_D_PAGES] / n);
		row_set(w, "areas_per_drain", "%.1f", (double)dr->stat[ST_D_AREAS] / n);
	} else {
		row_na(w, "purge_ns_mean", "no drain in the measured phase");
		row_na(w, "pages_per_drain", "no drain in the measured phase");
		row_na(w, "areas_per_drain", "no drain in the measured phase");
	}
}

/* Who freed past lazy_max: the share made by workers on the drain worker's CPU. A purge takes that
 * CPU, so a small share means the frees that hammer PENDING mostly ran with that worker parked:
 * with two workers, no other worker was reading vmap_nodes meanwhile, and there was nothing to
 * false-share with. */
static void put_over_share(struct row *w, const struct thr *t, int n)
{
	int dcpu = -1;
	uint64_t over = 0, there = 0;
	for (int i = 0; i < n; i++)
		if (t[i].role == ROLE_DRAINER)
			dcpu = t[i].got_cpu;
	for (int i = 0; i < n; i++)
		if (t[i].role == ROLE_WORKER) {
			over += t[i].stat[ST_OVER];
			there += t[i].got_cpu == dcpu ? t[i].stat[ST_OVER] : 0;
		}
	if (over)
		row_set(w, "over_on_drainer_cpu_pct", "%.1f", 100.0 * (double)there / (double)over);
	else
		row_na(w, "over_on_drainer_cpu_pct", "no free past lazy_max");
}

/* Whether the run had seed 003's setting: "yes", else "no: " and what differs, in a few words and
 * no comma (a CSV field a naive split still reads): "no: workers 2 (seed 16); packages 1 (seed 2)".
 */
static void put_seed_setting(struct row *w, const struct vm_priv *p, const struct plan *pl)
{
	char why[256] = "", pk[64] = "";
	int npk = 0;
	size_t k = 0;
	for (int i = 0; i < pl->n; i++) /* distinct packages of the workers */
		if (pl->slot[i].role == ROLE_WORKER && pl->slot[i].pkg >= 0 &&
		    pl->slot[i].pkg < (int)sizeof(pk) && !pk[pl->slot[i].pkg]) {
			pk[pl->slot[i].pkg] = 1;
			npk++;
		}
	if (p->threads != SEED_THREADS)
		k += (size_t)snprintf(why + k, sizeof(why) - k, "%sworkers %ld (seed %d)",
				      k ? "; " : "", p->threads, SEED_THREADS);
	if (p->lazy_max != SEED_LAZY_MAX)
		k += (size_t)snprintf(why + k, sizeof(why) - k, "%slazy_max %ld (seed %d)",
				      k ? "; " : "", p->lazy_max, SEED_LAZY_MAX);
	if (npk != SEED_PACKAGES && k < sizeof(why))
		snprintf(why + k, sizeof(why) - k, "%spackages %d (seed %d)", k ? "; " : "", npk,
			 SEED_PACKAGES);
	if (*why)
		row_set(w, "seed_setting", "no: %s", why);
	else
		row_set(w, "seed_setting", "yes");
}

/* One whole row: configuration, the measure, the tallies, where the objects were. */
static void fill_row(struct bench_ctx *c, const struct vm_priv *p, const struct layout *l,
		     const struct vm_objs *o, const struct thr *t, struct row *w)
{
	const struct thr_sum wk = c->sum[ROLE_WORKER], dr = c->sum[ROLE_DRAINER];
	row_set(w, "threads", "%ld", p->threads);
	row_set(w, "pages", "%ld", p->pages);
	row_set(w, "lazy_max", "%ld", p->lazy_max_req);
	row_set(w, "lazy_max_effective", "%ld", p->lazy_max);
	row_set(w, "work_ns", "%.0f", p->work_ns);
	row_set(w, "flush_us", "%ld", p->flush_us);
	row_set(w, "area_ns", "%ld", p->area_ns);
	row_set(w, "online_cpus", "%ld", p->online);
	row_set(w, "possible_cpus", "%ld", p->possible);
	row_set(w, "nr_nodes", "%d", p->nr_nodes);
	row_set(w, "worker_cpus", "%s", wk.cpus);
	row_set(w, "drainer_cpu", "%s", dr.cpus);
	row_set(w, "duration_s", "%.6f", (double)wk.ns / (double)p->threads / 1e9);
	if (wk.ops) {
		row_set(w, "cycle_ns", "%.3f", (double)wk.ns / (double)wk.ops);
		row_set(w, "cycle_cpu_ns", "%.3f", (double)wk.stat[ST_CPU_NS] / (double)wk.ops);
		row_set(w, "cycles_per_s", "%.0f",
			(double)wk.ops * (double)p->threads / ((double)wk.ns / 1e9));
		row_set(w, "worker_on_cpu_pct", "%.1f",
			100.0 * (double)wk.stat[ST_CPU_NS] / (double)wk.ns);
	} else {
		row_na(w, "cycle_ns", "no cycle completed");
		row_na(w, "cycle_cpu_ns", "no cycle completed");
		row_na(w, "cycles_per_s", "no cycle completed");
		row_na(w, "worker_on_cpu_pct", "no cycle completed");
	}
	put_counts(w, &wk, &dr);
	put_seed_setting(w, p, &c->plan);
	put_over_share(w, t, c->plan.n);
	put_layout(w, o->run, l, c->topo->line_size);
}

/* The settings as achieved (docs/validity.md, rule setting): each worker's work per cycle timed on
 * its CPU before and after its window (the further from the request), and the drain worker's CPU
 * time per purge (its wall time, purge_ns_mean, also holds the time worker 0 ran on that CPU
 * meanwhile: a result, not a setting). */
static void vm_evidence(struct bench_ctx *c, const struct vm_priv *p, const struct thr *t,
			struct row *w)
{
	const struct work_setting work = {
	    "work", "ns", "work_ns_achieved", "no calibrated work (--work 0)", p->work_ns, 1};
	for (int i = 0; i < c->plan.n; i++)
		if (t[i].role == ROLE_DRAINER) {
			double n = (double)t[i].ops,
			       us = n > 0 ? (double)t[i].stat[ST_PURGE_CPU_NS] / 1e3 / n : -1,
			       model = n > 0 ? (double)t[i].stat[ST_D_MODEL_NS] / 1e3 / n : 0;
			evidence_setting(&c->ev, "purge", model, us, "us");
			if (us >= 0) {
				row_set(w, "purge_us_modelled", "%.2f", model);
				row_set(w, "purge_us_achieved", "%.2f", us);
			} else {
				row_na(w, "purge_us_modelled", "no drain in the measured phase");
				row_na(w, "purge_us_achieved", "no drain in the measured phase");
			}
		}
	bench_work_achieved(c, t, c->plan.n, 1u << ROLE_WORKER, &work, w);
}

/* Measure one layout once: fresh objects, the threads, the row. */
static int vm_run_one(struct bench_ctx *c, const struct variant *v, int rep, struct row *w,
		      char *err)
{
	struct vm_priv *p = c->priv;
	struct vm_objs o = { 0 };
	(void)rep;
	if (objs_alloc(c, p, &o, err)) {
		free(o.run);
		return -1;
	}
	const struct layout *l = layout_find(v->name);
	run_init(p, l, &o);
	c->mem_at = o.run->m.work;
	int rc = bench_threads(c, vm_body, o.run, err);
	if (!rc) {
		fill_row(c, p, l, &o, c->thr, w);
		vm_evidence(c, p, c->thr, w);
	}
	free(o.run);
	return rc;
}

/* What report draws: ns per cycle (wall and on-CPU) per layout, the share of frees past lazy_max,
 * and the scaling over worker counts where a configuration ran at several. */
static const struct view_metric vm_ns[] = {
	{ "cycle_ns", "wall clock", "ns per alloc/free cycle", "ns", 0 },
	{ "cycle_cpu_ns", "on CPU", "ns per alloc/free cycle", "ns", 0 },
	{ 0 },
};
static const struct view_metric vm_over[] = {
	{ "over_pct", "frees past lazy_max", "percent of frees", "pct", 0 },
	{ 0 },
};
static const struct bench_view vm_views[] = {
    {.kind = VIEW_BARS, .title = "Layouts", .metrics = vm_ns},
    {.kind = VIEW_BARS, .title = "Frees that called schedule_work()", .metrics = vm_over},
    {.kind = VIEW_LINES,
     .title = "Worker scaling",
     .metrics = vm_ns,
     .x_cols = "threads",
     .x_label = "worker threads"},
    {.kind = VIEW_END},
};

/* Each free adds pages + 1 to vmap_lazy_nr and a purge subtracts only what it snapshotted, so with
 * lazy_max below pages + 1 every free is past lazy_max: over_pct is 100 by construction. */
static const char *vm_by_construction(const struct bench_ctx *c, int var, const char *metric)
{
	const struct vm_priv *p = c->priv;
	(void)var;
	if (p && !strcmp(metric, "over_pct") && p->lazy_max < p->pages + 1)
		return "each free adds --pages + 1 pages, more than --lazy-max";
	return NULL;
}

extern const struct col_decl vmalloc_columns[]; /* columns.c */
extern const char *const vmalloc_verdict[]; /* columns.c */

static const struct bench vmalloc_bench = {
    .name = "vmalloc",
    .desc = "test_vmalloc-style vmalloc/vfree cycles; frees past lazy_max lock-bts drain_vmap_work "
	    "next to vmap_nodes (seed 003)",
    .opts = vm_opts,
    .variant_col = "layout",
    .summary = vm_summary,
    .verdict = vmalloc_verdict,
    .flags = BENCH_PLACED | BENCH_WINDOW,
    .auto_placement.name = "spread",
    .auto_placement.why = "workers on distinct cores, alternating packages, the drain worker on "
			  "the first worker's CPU",
    .validity.roles = "worker,drainer",
    .validity.corun =
	"worker", /* the drainer (purge kworker) sleeps until queued: when it runs is the result */
    .validity.probe = "worker,drainer",
    .prepare = vm_prepare,
    .run = vm_run_one,
    .config = vm_config,
    .resolved = vm_resolved,
    .summary_note.text = SEED_NOTE,
    .summary_note.only_if = "seed_setting",
    .views = vm_views,
    .variant_order = layout_order, /* the registry's: the bug first */
    .by_construction = vm_by_construction,
    .columns = vmalloc_columns,
};
BENCH_REGISTER(vmalloc_bench)

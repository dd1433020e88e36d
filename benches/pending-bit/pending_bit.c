/* pending-bit: the vmalloc drain_vmap_work false sharing (seed 003).
 * Writers model freers calling queue_work_on(): a locked test_and_set_bit of PENDING on every call,
 * even when the bit is already set. Readers model the allocation path: load the read-mostly
 * vmap_nodes pointer and read through it. Layouts decide whether the two share a line. */
#include "harness/atomics.h"
#include "harness/bench.h"
#include "layouts/layout.h"
#include "harness/counters/sde.h"
#include "harness/spin.h"
#include <stdio.h>
#include <sys/prctl.h>
#include <stdlib.h>
#include <string.h>

#define PB_BATCH 512

/* dep := 0, keeping a data dependency on its old value the CPU must honour. */
#if defined(__x86_64__)
#define DEPEND_ZERO(x) __asm__("and $0, %0" : "+r"(x))
#elif defined(__aarch64__)
#define DEPEND_ZERO(x) __asm__("and %0, %0, xzr" : "+r"(x))
#else
#define DEPEND_ZERO(x) do { __asm__("" : "+r"(x)); (x) = 0; } while (0)
#endif
#define PB_NODES 16
enum { ST_RMW, ST_ALREADY, ST_SINK };
enum { ROLE_WRITER, ROLE_READER, ROLE_DRAINER };

/* Read-only during a run, shared by all threads: alone on its block so nothing written shares it.
 */
struct pb_run {
	long *data;                    /* the work item's pending word */
	struct vmap_node **meta;       /* the read-mostly pointer */
	double work_ns; /* requested private work per operation (each thread calibrates its own) */
	uint64_t drain_ns;
	int ttas;                      /* --policy test-then-set */
	int atomics;                   /* --atomics, resolved (enum atomics_flavour) */
} C2C_ALIGNED;

/* queue_work_on(): test_and_set_bit(PENDING) on every call. One batch function per atomics flavour,
 * so each hot loop holds exactly its flavour's instruction (make disasm, tests/test_disasm.c). */
#define PB_RMW_BATCH(fname, OR)                                                                    \
	__attribute__((noinline)) uint64_t fname(struct thr *t, void *arg)                         \
	{                                                                                          \
		const struct pb_run *r = arg;                                                      \
		long *data = r->data;                                                              \
		uint64_t already = 0, w = t->work_iters;                                           \
		for (int i = 0; i < PB_BATCH; i++) {                                               \
			already += (OR(data, WORK_STRUCT_PENDING) & WORK_STRUCT_PENDING) != 0;     \
			spin_iters(w);                                                             \
		}                                                                                  \
		t->stat[ST_RMW] += PB_BATCH;                                                       \
		t->stat[ST_ALREADY] += already;                                                    \
		return PB_BATCH;                                                                   \
	}

/* A caller's mitigation, in the spirit of the kernel's false-sharing document: read first, RMW
 * only when clear. Not legal inside queue_work_on(): since "locking/atomic: Make test_and_*_bit()
 * ordered on failure" (2022) a failed test_and_set_bit() is a full barrier workqueues rely on. */
#define PB_TTAS_BATCH(fname, OR)                                                                   \
	__attribute__((noinline)) uint64_t fname(struct thr *t, void *arg)                         \
	{                                                                                          \
		const struct pb_run *r = arg;                                                      \
		long *data = r->data;                                                              \
		uint64_t already = 0, rmw = 0, w = t->work_iters;                                  \
		for (int i = 0; i < PB_BATCH; i++) {                                               \
			if (__atomic_load_n(data, __ATOMIC_RELAXED) & WORK_STRUCT_PENDING) {       \
				already++;                                                         \
			} else {                                                                   \
				rmw++;                                                             \
				already +=                                                         \
				    (OR(data, WORK_STRUCT_PENDING) & WORK_STRUCT_PENDING) != 0;    \
			}                                                                          \
			spin_iters(w);                                                             \
		}                                                                                  \
		t->stat[ST_RMW] += rmw;                                                            \
		t->stat[ST_ALREADY] += already;                                                    \
		return PB_BATCH;                                                                   \
	}

#define OR_SEQ_CST(p, v) __atomic_fetch_or((p), (v), __ATOMIC_SEQ_CST)
#if defined(__aarch64__)
PB_RMW_BATCH(pb_writer_rmw_lse_batch, atomic_or_lse)
PB_RMW_BATCH(pb_writer_rmw_llsc_batch, atomic_or_llsc)
PB_TTAS_BATCH(pb_writer_ttas_lse_batch, atomic_or_lse)
PB_TTAS_BATCH(pb_writer_ttas_llsc_batch, atomic_or_llsc)
#else
PB_RMW_BATCH(pb_writer_rmw_batch, OR_SEQ_CST) /* x86: lock bts */
PB_TTAS_BATCH(pb_writer_ttas_batch, OR_SEQ_CST)
#endif

/* The writer's batch for the run's policy and atomics flavour. */
static batch_fn pb_writer_fn(const struct pb_run *r)
{
#if defined(__aarch64__)
	if (r->atomics == ATOMICS_LSE)
		return r->ttas ? pb_writer_ttas_lse_batch : pb_writer_rmw_lse_batch;
	return r->ttas ? pb_writer_ttas_llsc_batch : pb_writer_rmw_llsc_batch;
#else
	return r->ttas ? pb_writer_ttas_batch : pb_writer_rmw_batch;
#endif
}

/* The allocation path: a plain load of vmap_nodes, then a read through it. */
__attribute__((noinline)) uint64_t pb_reader_batch(struct thr *t, void *arg)
{
	const struct pb_run *r = arg;
	struct vmap_node *const volatile *meta = r->meta;
	uint64_t w = t->work_iters;
	long sum = 0;
	for (int i = 0; i < PB_BATCH; i++) {
		/* Each pointer load waits for the previous operation, as the next allocation does:
		 * a hardware data dependency (and $0 is not a dependency-breaking idiom). */
		uintptr_t dep = (uintptr_t)sum;
		DEPEND_ZERO(dep);
		const struct vmap_node *nodes =
		    *(struct vmap_node *const volatile *)((uintptr_t)meta + dep);
		sum += nodes[i & (PB_NODES - 1)].nr_busy;
		spin_iters(w);
	}
	t->stat[ST_SINK] += (uint64_t)sum;
	return PB_BATCH;
}

/* The worker running drain_vmap_work: clears PENDING (set_work_pool_and_clear_pending) at absolute
 * deadlines, so the period does not drift by the time each pass takes; one pass per deadline. */
static uint64_t pb_drain_once(const struct pb_run *r, uint64_t *next)
{
	uint64_t now = now_ns();
	if (*next <
	    now) /* late (the writer held the CPU): run now, count from here, no catch-up burst */
		*next = now;
	struct timespec ts = { (time_t)(*next / 1000000000ull), (long)(*next % 1000000000ull) };
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	__atomic_fetch_and(r->data, ~WORK_STRUCT_PENDING, __ATOMIC_SEQ_CST);
	*next += r->drain_ns;
	return 1;
}

/* The drainer's own loop (it sleeps: not a hot loop); timer slack as shepherd sets it. */
static void pb_drainer(struct thr *t, const struct pb_run *r)
{
	uint64_t next = now_ns(), ops = 0;
	prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0,
	      0); /* the default 50 us slack would stretch short periods */
	while (run_phase(t->ctl) == PHASE_WARMUP)
		pb_drain_once(r, &next);
	thr_measure_begin(t);
	while (run_phase(t->ctl) == PHASE_MEASURE)
		ops += pb_drain_once(r, &next);
	thr_measure_end(t);
	t->ops = ops;
}

/* The bench's own tallies as software-defined events (sde:::c2cbench::NAME), measured phase only.
 */
enum { SDE_RMW, SDE_ALREADY, SDE_DRAINS, SDE_READER_OPS, SDE_N };
static struct sde_counter pb_sde[SDE_N] = {
    [SDE_RMW] = {"pending_rmw", "pending-bit: locked test_and_set_bit RMWs by writers", 0, 0},
    [SDE_ALREADY] = {"pending_already_set",
		     "pending-bit: writer RMWs (or tests) that found PENDING already set", 0, 0},
    [SDE_DRAINS] = {"drains", "pending-bit: drainer passes that cleared PENDING", 0, 0},
    [SDE_READER_OPS] = {"reader_ops",
			"pending-bit: reader operations (pointer load + read through it)", 0, 0},
};

/* Published once per thread after its measured phase: a PAPI read around the run sees exactly the
 * CSV's counts. */
static void pb_publish(const struct thr *t)
{
	if (t->role == ROLE_WRITER) {
		sde_add(&pb_sde[SDE_RMW], t->stat[ST_RMW]);
		sde_add(&pb_sde[SDE_ALREADY], t->stat[ST_ALREADY]);
	} else if (t->role == ROLE_READER) {
		sde_add(&pb_sde[SDE_READER_OPS], t->ops);
	} else {
		sde_add(&pb_sde[SDE_DRAINS], t->ops);
	}
}

/* Exported at start-up so every command (events, --help, --events checks) knows the names. */
static void __attribute__((constructor)) pb_sde_export(void)
{
	sde_export(pb_sde, SDE_N);
}

/* Calibrate the work on this thread, where it is pinned; run; check the work after the window. */
static void pb_body(struct thr *t, void *arg)
{
	const struct pb_run *r = arg;
	if (t->role == ROLE_DRAINER) {
		pb_drainer(t, r);
		pb_publish(t);
		return;
	}
	t->work_iters = spin_iters_here(r->work_ns);
	batch_fn fn = t->role == ROLE_READER ? pb_reader_batch : pb_writer_fn(r);
	thr_drive(t, fn, arg);
	t->work_ns_achieved = r->work_ns > 0 ? spin_check_ns(t->work_iters) : 0;
	pb_publish(t);
}

static const struct opt_spec pb_opts[] = {
    {"layout", OPT_CHOICES, "shared,aligned,padded", "LIST",
     "layouts to compare, the first is the baseline", NULL, layout_names},
    {"offset-sweep", OPT_TEXT, NULL, "FROM:TO:STEP",
     "instead of layouts: the pointer FROM..TO bytes after the pending word (multiples of 8, "
     "8..2048)",
     NULL, NULL},
    {"writers", OPT_COUNT, "1", "N", "threads doing queue_work_on() (locked test_and_set_bit)",
     NULL, NULL},
    {"readers", OPT_COUNT, "1", "M",
     "threads loading the read-mostly pointer and reading through it", NULL, NULL},
    {"policy", OPT_CHOICE, "rmw", "POLICY",
     "rmw: RMW on every call (the kernel); test-then-set: RMW only when the bit is clear (needs "
     "--drain-us)",
     "rmw,test-then-set", NULL},
    {"drain-us", OPT_UINT, "0", "US",
     "a drainer on the first writer's CPU clears PENDING every US microseconds (0: none)", NULL,
     NULL},
    {"work", OPT_UINT, "0", "NS", "calibrated private work per operation, in ns", NULL, NULL},
    {"atomics", OPT_CHOICE, "auto", "FLAVOUR",
     "the writers' RMW: aarch64 lse (ldsetal, only where the CPU has LSE) or llsc (ldaxr/stlxr "
     "loop), auto = lse where available; x86 has one flavour, lock",
     ATOMICS_CHOICES, NULL},
    {0},
};

static const char *const pb_summary[] = { "writer_ns_per_op", "reader_ns_per_op",
					  "writer_rmw_per_s", NULL };
static const char *const pb_config[] = {
	"offset",   "policy",  "atomics_requested",  "placement_requested",
	"writers",  "readers", "mem_node_requested", "work_ns",
	"drain_us", NULL
};
static const struct bench_resolved pb_resolved[] = { BENCH_RESOLVED_PLACEMENT,
	{ "atomics_requested", "atomics", NULL }, BENCH_RESOLVED_MEM_NODE, { 0 } };

struct pb_priv {
	struct role_req roles[3];
	int sweep;
	double work_ns;
	uint64_t work_iters;
	int atomics;
};

static int parse_sweep(struct bench_ctx *c, const char *s, char *err)
{
	long v[3] = { 0 };
	char *copy = xstrdup(s), *f = copy;
	int bad = 0;
	for (int n = 0; n < 3;
	     n++) { /* exactly three fields: an empty one (8::64, :8:64:8, 8:64:8:) fails */
		char *colon = strchr(f, ':');
		if ((colon != NULL) != (n < 2)) {
			bad = 1;
			break;
		}
		if (colon)
			*colon = 0;
		bad |= parse_long(f, &v[n]);
		if (colon)
			f = colon + 1;
	}
	free(copy);
	if (bad || v[0] < 8 || v[1] > 2048 || v[0] > v[1] || v[2] < 8 || v[0] % 8 || v[2] % 8)
		return err_set(err,
			       "--offset-sweep: '%s' is not accepted; accepted: FROM:TO:STEP (see "
			       "--help)",
			       s);
	for (long off = v[0]; off <= v[1]; off += v[2]) {
		char name[48];
		if (c->nvar >= VARIANTS_MAX)
			return err_set(err, "--offset-sweep: '%s' gives more than %d offsets", s,
				       VARIANTS_MAX);
		snprintf(name, sizeof(name), "offset-%ld", off);
		bench_variant(c, name, off);
	}
	return 0;
}

static int pb_prepare(struct bench_ctx *c, char *err)
{
	struct pb_priv *p = xcalloc(1, sizeof(*p));
	c->priv = p;
	/* without a drainer PENDING stays set from warm-up on: no RMW while measured */
	if (!strcmp(opt_str(c->o, "policy"), "test-then-set") && opt_long(c->o, "drain-us") == 0)
		return err_set(err, "--policy test-then-set with --drain-us 0 is not accepted: "
			       "nothing clears PENDING after warm-up, so the writer would do no "
			       "RMW while measured (a result by construction); accepted: "
			       "--drain-us US > 0, or --policy rmw");
	if (opt_str(c->o, "offset-sweep")) {
		if (opt_given(c->o, "layout"))
			return err_set(err, "--offset-sweep and --layout exclude each other; "
					    "accepted: one of them");
		p->sweep = 1;
		if (parse_sweep(c, opt_str(c->o, "offset-sweep"), err))
			return -1;
	} else {
		char *names[VARIANTS_MAX];
		int n = list_split(opt_str(c->o, "layout"), names, VARIANTS_MAX);
		for (int i = 0; i < n; i++) {
			bench_variant(c, names[i], 0);
			free(names[i]);
		}
	}
	if (atomics_resolve(opt_str(c->o, "atomics"), &p->atomics, err))
		return -1;
	p->roles[ROLE_WRITER] = (struct role_req){ "writer", (int)opt_long(c->o, "writers") };
	p->roles[ROLE_READER] = (struct role_req){ "reader", (int)opt_long(c->o, "readers") };
	p->roles[ROLE_DRAINER] = (struct role_req){ "drainer", opt_long(c->o, "drain-us") > 0 };
	if (bench_plan(c, p->roles, 2, err))
		return -1;
	if (p->roles[ROLE_DRAINER].count &&
	    c->plan.n >= PLAN_MAX) /* the drainer needs a slot of its own */
		return err_set(err,
			       "%d writers and readers plus the drainer (--drain-us) make %d "
			       "threads; accepted: at most %d",
			       c->plan.n, c->plan.n + 1, PLAN_MAX);
	if (p->roles[ROLE_DRAINER].count) { /* the bound kworker runs on the queueing CPU */
		struct slot s = c->plan.slot[0];
		s.role = ROLE_DRAINER;
		s.idx = 0;
		c->plan.slot[c->plan.n++] = s;
	}
	c->plan.nroles = 3;
	p->work_ns = (double)opt_long(c->o, "work");
	return 0;
}

/* Where the two fields sit for this variant: a layout's (in obj, or its globals), or a sweep offset
 * from +0. */
static void variant_place(const struct pb_priv *p, const struct variant *v, char *obj, long **data,
			  struct vmap_node ***meta)
{
	if (p->sweep) {
		*data = (long *)obj;
		*meta = (struct vmap_node **)(obj + v->param);
	} else {
		struct work_struct *w;
		layout_place(layout_find(v->name), obj, &w, meta);
		*data = &w->data;
	}
}

static void put_role(struct row *r, const char *role, const struct thr_sum *s, int nthreads)
{
	char key[64];
	snprintf(key, sizeof(key), "%s_cpus", role);
	row_set(r, key, "%s", s->cpus);
	snprintf(key, sizeof(key), "%s_ops", role);
	row_set(r, key, "%llu", (unsigned long long)s->ops);
	snprintf(key, sizeof(key), "%s_ops_per_s", role);
	if (s->ops)
		row_set(r, key, "%.0f", (double)s->ops * nthreads / ((double)s->ns / 1e9));
	else
		row_na(r, key, "no operations completed");
	snprintf(key, sizeof(key), "%s_ns_per_op", role);
	if (s->ops)
		row_set(r, key, "%.3f", (double)s->ns / (double)s->ops);
	else
		row_na(r, key, "no operations completed");
}

/* The settings as achieved: the drain period (window / drains) and the work's ns/op on each thread.
 */
static void pb_evidence(struct bench_ctx *c, const struct thr *t, struct row *r)
{
	const struct pb_priv *p = c->priv;
	const struct work_setting work = {
	    "work", "ns/op", "work_ns_achieved", "no calibrated work (--work 0)", p->work_ns, 1};
	double req_us = (double)opt_long(c->o, "drain-us");
	for (int i = 0; i < c->plan.n; i++)
		if (t[i].role == ROLE_DRAINER) {
			double win_us = (double)(t[i].t1 - t[i].t0) / 1e3,
			       period = t[i].ops ? win_us / (double)t[i].ops : -1;
			/* No drain in a window longer than the period: the period was not kept, and
			 * was at least the window (a lower bound, so the setting rule judges it).
			 * In a shorter window no drain is what was asked. */
			evidence_setting(&c->ev, "drain period", req_us,
					 period < 0 && win_us > req_us ? win_us : period, "us");
			if (period > 0)
				row_set(r, "drain_us_achieved", "%.2f", period);
			else
				row_na(r, "drain_us_achieved", "no drain in the window");
		}
	if (!p->roles[ROLE_DRAINER].count)
		row_na(r, "drain_us_achieved", "no drainer (--drain-us 0)");
	bench_work_achieved(c, t, c->plan.n, 1u << ROLE_WRITER | 1u << ROLE_READER, &work, r);
}

static int pb_run(struct bench_ctx *c, const struct variant *v, int rep, struct row *r, char *err)
{
	struct pb_priv *p = c->priv;
	(void)rep;
	char *obj = bench_mem(c, 4096, err);
	size_t nsize = sizeof(struct vmap_node) * PB_NODES;
	struct vmap_node *nodes = obj ? bench_mem(c, nsize, err) : NULL;
	if (!nodes)
		return -1;
	for (int i = 0; i < PB_NODES; i++)
		nodes[i].nr_busy = i;
	struct pb_run *run = aligned_alloc(C2C_BLOCK, sizeof(*run));
	if (!run)
		out_of_memory(0);
	memset(run, 0, sizeof(*run));
	variant_place(p, v, obj, &run->data, &run->meta);
	c->mem_at = run->data;
	*run->meta = nodes;
	run->work_ns = p->work_ns;
	run->drain_ns = (uint64_t)opt_long(c->o, "drain-us") * 1000;
	run->ttas = !strcmp(opt_str(c->o, "policy"), "test-then-set");
	run->atomics = p->atomics;

	int rc = bench_threads(c, pb_body, run, err);
	if (!rc) {
		const struct thr_sum *w = &c->sum[ROLE_WRITER], *rd = &c->sum[ROLE_READER];
		int line = c->topo->line_size;
		uintptr_t wa = (uintptr_t)run->data, ma = (uintptr_t)run->meta;
		row_set(r, "offset", "%ld", (long)((intptr_t)ma - (intptr_t)wa));
		row_set(r, "policy", "%s", opt_str(c->o, "policy"));
		row_set(r, "atomics", "%s", atomics_name(p->atomics));
		row_set(r, "atomics_requested", "%s", opt_str(c->o, "atomics"));
		row_set(r, "writers", "%d", p->roles[ROLE_WRITER].count);
		row_set(r, "readers", "%d", p->roles[ROLE_READER].count);
		row_set(r, "duration_s", "%.6f", (double)w->ns / p->roles[ROLE_WRITER].count / 1e9);
		row_set(r, "work_ns", "%.0f", p->work_ns);
		row_set(r, "drain_us", "%ld", opt_long(c->o, "drain-us"));
		put_role(r, "writer", w, p->roles[ROLE_WRITER].count);
		row_set(r, "writer_rmw", "%llu", (unsigned long long)w->stat[ST_RMW]);
		row_set(r, "writer_already_set", "%llu", (unsigned long long)w->stat[ST_ALREADY]);
		/* per second of a writer's window: all writers' RMWs, each a line write */
		if (w->ns)
			row_set(r, "writer_rmw_per_s", "%.0f",
				(double)w->stat[ST_RMW] /
				    ((double)w->ns / p->roles[ROLE_WRITER].count / 1e9));
		else
			row_na(r, "writer_rmw_per_s", "no measured window");
		put_role(r, "reader", rd, p->roles[ROLE_READER].count);
		if (p->roles[ROLE_DRAINER].count)
			row_set(r, "drains", "%llu", (unsigned long long)c->sum[ROLE_DRAINER].ops);
		else
			row_na(r, "drains", "no drainer (--drain-us 0)");
		row_set(r, "work_addr", "0x%lx", (unsigned long)wa);
		row_set(r, "meta_addr", "0x%lx", (unsigned long)ma);
		row_set(r, "work_line", "%lu", (unsigned long)(wa / (uintptr_t)line));
		row_set(r, "meta_line", "%lu", (unsigned long)(ma / (uintptr_t)line));
		row_set(r, "same_line", "%d", wa / (uintptr_t)line == ma / (uintptr_t)line);
		row_set(r, "same_128b_block", "%d", wa / 128 == ma / 128);
		pb_evidence(c, c->thr, r);
	}
	free(run);
	return rc;
}

/* What report draws: ns per operation of both roles on one axis, the offset sweep with the line and
 * the adjacent-line pair marked, and thread scaling where a configuration ran at several counts. */
static const struct view_metric pb_ns[] = {
    {"writer_ns_per_op", "writer", "ns per operation", "ns", 0},
    {"reader_ns_per_op", "reader", "ns per operation", "ns", 0},
    {"hitm_per_kop", "HITM per 1,000 operations", "events per 1,000 operations", NULL,
     0}, /* counters */
    {0},
};
static const double pb_marks[] = { 64, 128, 0 };
static const char *const pb_mark_labels[] = {"64 B: next cache line", "128 B: adjacent-line pair",
					     NULL};
static const struct bench_view pb_views[] = {
    {.kind = VIEW_LINES,
     .title = "Offset sweep",
     .variant_prefix = "offset-",
     .metrics = pb_ns,
     .x_cols = "offset",
     .x_label = "distance of the read-mostly pointer from the pending word (bytes)",
     .x_is_variant = 1,
     .marks = pb_marks,
     .mark_labels = pb_mark_labels},
    {.kind = VIEW_BARS,
     .title = "Layouts",
     .metrics = pb_ns,
     .implied_cols = "offset",
     .with_baseline = 1},
    {.kind = VIEW_LINES,
     .title = "Thread scaling",
     .metrics = pb_ns,
     .x_cols = "writers,readers",
     .x_label = "threads (writers+readers)",
     .implied_cols = "offset"},
    {.kind = VIEW_END},
};

extern const struct col_decl pending_bit_columns[]; /* columns.c */
extern const char *const pending_bit_verdict[]; /* columns.c */

static const struct bench pending_bit = {
    .name = "pending-bit",
    .desc = "writers lock-bts a work-pending bit next to a read-mostly pointer that readers load "
	    "(seed 003, vmalloc)",
    .opts = pb_opts,
    .variant_col = "layout",
    .summary = pb_summary,
    .verdict = pending_bit_verdict,
    .flags = BENCH_PLACED | BENCH_WINDOW,
    .validity.roles = "writer,reader,drainer",
    .validity.corun =
	"writer,reader", /* the drainer sleeps between drains: its rule is its achieved period */
    .validity.probe = "writer,reader",
    .prepare = pb_prepare,
    .run = pb_run,
    .config = pb_config,
    .resolved = pb_resolved,
    .views = pb_views,
    .variant_order = layout_order, /* the registry's: the bug first */
    .columns = pending_bit_columns,
};
BENCH_REGISTER(pending_bit)

/* pingpong: the physical baseline. One-way cache-line transfer latency between two PUs: two threads
 * bound to the pair hand a value back and forth; min and median over timed samples, in ns.
 * Modes: load-store (two lines, each stored by one side and loaded by the other: the usual way)
 * and cas (one line, every access a locked compare-and-swap: a write handoff).
 * Pairs are classified from the hwloc tree (pairs.h). */
#include "harness/bench.h"
#include "harness/memnode.h"
#include "benches/pingpong/pairs.h"
#include "harness/stats.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PP_STOP UINT64_MAX /* ping value that tells the responder to return */
#define PP_GUESS_NS 150.0  /* one-way latency assumed by the time estimate */

enum { MODE_LOAD_STORE, MODE_CAS, NMODES };
static const char *const mode_names[NMODES] = { "load-store", "cas" };

static const struct opt_spec pp_opts[] = {
	{ "pairs", OPT_TEXT, "all", "SPEC", "pairs among the PUs of --placement (auto: every allowed PU, or cpus:LIST): all, vs:CPU (each PU against CPU), sample:N (N random pairs, --seed), classes (one pair per topology class). --duration/--warmup do not apply: see --samples, --preheat-ms", NULL, NULL },
	{ "mode", OPT_CHOICES, "load-store,cas", "LIST", "handoffs to measure", "load-store,cas", NULL },
	{ "samples", OPT_COUNT, "1000", "N", "timed samples per pair, mode and repetition (min and median are over these)", NULL, NULL },
	{ "round-trips", OPT_COUNT, "100", "K", "round trips per sample (a sample is its time / 2K)", NULL, NULL },
	{ "preheat-ms", OPT_UINT, "20", "MS", "untimed handoffs before the samples, to bring both cores to speed", NULL, NULL },
	{ 0 },
};

static const char *const pp_summary[] = { "min_ns", "median_ns", NULL };

struct pp_priv {
	struct pu_pair *pair;
	int npairs;
	int *set;
};

/* Shared by the two threads of one measurement; read-only once they start. */
struct pp_run {
	const struct topo *topo;
	uint64_t *ping, *pong; /* on one page, 128 bytes apart (cas uses ping only) */
	int mode;
	long samples, round_trips;
	uint64_t preheat_ns;
	double *ns; /* samples, written by the initiator only */
} C2C_ALIGNED;

/* load-store: two lines, each written by one side only: store the next value on ping, wait with
 * plain loads until pong echoes it. Each one-way handoff moves one modified line to its reader. */
__attribute__((noinline)) uint64_t pp_ls_round_trips(uint64_t *ping, uint64_t *pong, uint64_t v, long k)
{
	for (long i = 0; i < k; i++) {
		__atomic_store_n(ping, ++v, __ATOMIC_RELEASE);
		while (__atomic_load_n(pong, __ATOMIC_ACQUIRE) != v)
			;
	}
	return v;
}

/* cas: one line, every access a locked compare-and-swap; take the turn with v -> v+1 (v even),
 * the responder answers v+1 -> v+2. */
__attribute__((noinline)) uint64_t pp_cas_round_trips(uint64_t *line, uint64_t v, long k)
{
	for (long i = 0; i < k; i++, v += 2) {
		uint64_t exp = v;
		while (!__atomic_compare_exchange_n(line, &exp, v + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			exp = v;
	}
	return v;
}

/* The other side: echo each value (load-store) or answer each odd value (cas) until told to stop. */
static void responder(const struct pp_run *r)
{
	uint64_t x;
	if (r->mode == MODE_CAS) {
		for (uint64_t want = 1;; want += 2)
			for (x = want; !__atomic_compare_exchange_n(r->ping, &x, want + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE); x = want)
				if (x == PP_STOP)
					return;
	}
	for (uint64_t want = 1;; want++) {
		while ((x = __atomic_load_n(r->ping, __ATOMIC_ACQUIRE)) != want)
			if (x == PP_STOP)
				return;
		__atomic_store_n(r->pong, want, __ATOMIC_RELEASE);
	}
}

/* Round trips from v; returns the value after them (2 handoffs per round trip in both modes). */
static uint64_t round_trips(const struct pp_run *r, uint64_t v, long k)
{
	return r->mode == MODE_CAS ? pp_cas_round_trips(r->ping, v, k) : 2 * pp_ls_round_trips(r->ping, r->pong, v / 2, k);
}

/* Preheat until the time is up, then the timed samples; the stop value releases the responder.
 * In cas mode the last CAS leaves an odd value: wait for the answer before stopping. */
static void initiator(struct thr *t, const struct pp_run *r)
{
	uint64_t v = 0, t0 = now_ns();
	while (now_ns() - t0 < r->preheat_ns)
		v = round_trips(r, v, 64);
	t0 = now_ns();
	for (long s = 0; s < r->samples; s++) {
		v = round_trips(r, v, r->round_trips);
		uint64_t t1 = now_ns();
		r->ns[s] = (double)(t1 - t0) / (2.0 * (double)r->round_trips);
		t0 = t1;
	}
	t->ops = v; /* handoffs, preheat included: what a HITM count would be divided by */
	__atomic_store_n(r->ping, PP_STOP, __ATOMIC_RELEASE);
}

static void *pp_thread(void *p)
{
	struct thr *t = p;
	const struct pp_run *r = t->bench;
	const struct thr_hooks *h = t->ctl->hooks;
	int ok = !bind_self(r->topo, t->want_cpu, &t->got_cpu, t->bind_err);
	if (ok && h && h->thread_init && h->thread_init(t, h->arg)) {
		snprintf(t->bind_err, sizeof(t->bind_err), "counter setup failed on CPU %d", t->want_cpu);
		ok = 0;
	}
	if (!ok)
		__atomic_store_n(&t->ctl->phase, PHASE_STOP, __ATOMIC_RELEASE);
	pthread_barrier_wait(&t->ctl->start);
	if (run_phase(t->ctl) != PHASE_STOP) {
		thr_measure_begin(t);
		if (t->idx == 0)
			initiator(t, r);
		else
			responder(r);
		thr_measure_end(t);
	}
	if (ok && h && h->thread_fini)
		h->thread_fini(t, h->arg);
	return NULL;
}

/* Two threads on the pair; the samples land in r->ns, the handoff count in *handoffs. */
static int measure(struct bench_ctx *c, struct pp_run *r, const struct pu_pair *pp, uint64_t *handoffs, char *err)
{
	struct thr *t = thr_alloc(2);
	struct runctl *ctl = aligned_alloc(C2C_BLOCK, sizeof(*ctl));
	int rc = 0, started = 0;
	if (!ctl)
		abort();
	memset(ctl, 0, sizeof(*ctl));
	ctl->topo = c->topo;
	ctl->hooks = c->hooks;
	ctl->phase = PHASE_MEASURE;
	pthread_barrier_init(&ctl->start, NULL, 2);
	for (int i = 0; i < 2; i++) {
		t[i].idx = i;
		t[i].want_cpu = i ? pp->b : pp->a;
		t[i].got_cpu = t[i].got_cpu_end = -1;
		t[i].ctl = ctl;
		t[i].bench = r;
	}
	for (int i = 0; i < 2 && !rc; i++)
		if (pthread_create(&t[i].tid, NULL, pp_thread, &t[i]))
			rc = err_set(err, "cannot create a thread for CPU %d", t[i].want_cpu);
		else
			started++;
	if (started == 1) { /* the barrier can never fill */
		pthread_cancel(t[0].tid);
		pthread_join(t[0].tid, NULL);
		started = 0;
	}
	for (int i = 0; i < started; i++)
		pthread_join(t[i].tid, NULL);
	for (int i = 0; i < started && !rc; i++)
		if (t[i].bind_err[0])
			rc = err_set(err, "%s", t[i].bind_err);
		else if (t[i].got_cpu_end != t[i].want_cpu)
			rc = err_set(err, "thread bound to CPU %d ended on CPU %d", t[i].want_cpu, t[i].got_cpu_end);
	*handoffs = t[0].ops;
	pthread_barrier_destroy(&ctl->start);
	free(ctl);
	free(t);
	return rc;
}

/* The CPU set from --placement, then the pairs from --pairs; variants are pair x mode, ordered
 * mode by mode and class by class so the summary lines come out nearest first. */
static int pp_prepare(struct bench_ctx *c, char *err)
{
	struct pp_priv *p = xcalloc(1, sizeof(*p));
	char *modes[NMODES];
	c->priv = p;
	if (opt_given(c->o, "duration") || opt_given(c->o, "warmup"))
		return err_set(err, "pingpong takes --samples, --round-trips and --preheat-ms, not --duration or --warmup");
	int n = pairs_pu_set(c->topo, opt_str(c->o, "placement"), &p->set, err);
	if (n < 0)
		return -1;
	p->npairs = pairs_select(c->topo, p->set, n, opt_str(c->o, "pairs"), c->seed, &p->pair, err);
	if (p->npairs < 0)
		return -1;
	int nm = list_split(opt_str(c->o, "mode"), modes, NMODES);
	if ((long)p->npairs * nm > CONFIGS_MAX)
		return err_set(err, "--pairs %s gives %d pairs x %d modes, more than %d; accepted: a smaller set (vs:CPU, sample:N, classes or --placement cpus:LIST)",
			    opt_str(c->o, "pairs"), p->npairs, nm, CONFIGS_MAX);
	for (int m = 0; m < nm; m++) {
		int mode = strcmp(modes[m], "cas") ? MODE_LOAD_STORE : MODE_CAS;
		for (int cls = 0; cls < PC_COUNT; cls++)
			for (int i = 0; i < p->npairs; i++)
				if ((int)p->pair[i].cls == cls) {
					char name[48];
					snprintf(name, sizeof(name), "%d-%d/%s", p->pair[i].a, p->pair[i].b, mode_names[mode]);
					bench_variant(c, name, (long)i * NMODES + mode);
				}
		free(modes[m]);
	}
	double rt = (double)opt_long(c->o, "samples") * (double)opt_long(c->o, "round-trips") * 2 * PP_GUESS_NS * 1e-9;
	c->run_s = (double)opt_long(c->o, "preheat-ms") / 1e3 + rt + 1e-3;
	if (!opt_flag(c->o, "quiet"))
		fprintf(stderr, "pingpong: %d pair(s) of %d PU(s) (--pairs %s) x %d mode(s) x %d repetition(s): about %.0f s (at %.0f ns per handoff)\n",
			p->npairs, n, opt_str(c->o, "pairs"), nm, c->reps, c->run_s * c->nvar * c->reps, PP_GUESS_NS);
	if (opt_flag(c->o, "dry-run")) {
		printf("%-6s %-6s %s\n", "cpu_a", "cpu_b", "class");
		for (int i = 0; i < p->npairs; i++)
			printf("%-6d %-6d %s\n", p->pair[i].a, p->pair[i].b, pair_class_name(p->pair[i].cls));
	}
	return 0;
}

/* The calibration columns: a known answer where there is one, counters when the build has them. */
static void calibration(struct row *r, int mode)
{
	if (mode == MODE_LOAD_STORE)
		row_set(r, "expected_transfers_per_handoff", "1");
	else
		row_na(r, "expected_transfers_per_handoff", "spinning CAS moves the line a variable number of times per handoff");
}

/* The measured side of the calibration: HITM (or stand-in) per handoff against the expected transfers.
 * Only the initiator counts handoffs, so the counters' per-1,000-ops figure is per 1,000 handoffs. */
static void pp_finish_row(struct bench_ctx *c, struct row *r)
{
	int ok, ok_exp;
	(void)c;
	double kop = row_num(r, "hitm_per_kop", &ok), expect = row_num(r, "expected_transfers_per_handoff", &ok_exp);
	const char *status = row_get(r, "counters_status");
	char why[200];
	snprintf(why, sizeof(why), "HITM not counted (%s)", status ? status : "no counters");
	if (!ok) {
		row_na(r, "hitm_per_handoff", why);
		row_na(r, "hitm_ratio", why);
		return;
	}
	row_set(r, "hitm_per_handoff", "%.4f", kop / 1000.0);
	if (ok_exp && expect > 0)
		row_set(r, "hitm_ratio", "%.4f", kop / 1000.0 / expect);
	else
		row_na(r, "hitm_ratio", "no known answer for this mode");
}

static int pp_run(struct bench_ctx *c, const struct variant *v, int rep, struct row *r, char *err)
{
	struct pp_priv *p = c->priv;
	const struct pu_pair *pp = &p->pair[v->param / NMODES];
	int mode = (int)(v->param % NMODES), node = topo_pu(c->topo, pp->a)->node;
	struct pp_run *run = aligned_alloc(C2C_BLOCK, sizeof(*run));
	uint64_t handoffs = 0;
	(void)rep;
	if (!run)
		abort();
	memset(run, 0, sizeof(*run));
	run->topo = c->topo;
	run->mode = mode;
	run->samples = opt_long(c->o, "samples");
	run->round_trips = opt_long(c->o, "round-trips");
	run->preheat_ns = (uint64_t)opt_long(c->o, "preheat-ms") * 1000000ull;
	run->ns = xcalloc((size_t)run->samples, sizeof(double));
	run->ping = mem_on_node(node, 4096, err);
	run->pong = run->ping ? run->ping + C2C_BLOCK / sizeof(uint64_t) : NULL;
	int rc = run->ping ? measure(c, run, pp, &handoffs, err) : -1;
	if (!rc) {
		struct stats s = stats_of(run->ns, (size_t)run->samples);
		row_set(r, "cpu_a", "%d", pp->a);
		row_set(r, "cpu_b", "%d", pp->b);
		row_set(r, "class", "%s", pair_class_name(pp->cls));
		row_set(r, "mode", "%s", mode_names[mode]);
		row_set(r, "samples", "%ld", run->samples);
		row_set(r, "round_trips", "%ld", run->round_trips);
		row_set(r, "preheat_ms", "%ld", opt_long(c->o, "preheat-ms"));
		row_set(r, "min_ns", "%.2f", s.min);
		row_set(r, "median_ns", "%.2f", s.median);
		row_set(r, "sample_cv", "%.4f", s.cv);
		row_set(r, "handoffs", "%llu", (unsigned long long)handoffs);
		row_set(r, "mem_node", "%d", mem_node_of(run->ping));
		calibration(r, mode);
	}
	if (run->ping)
		mem_free(run->ping, 4096);
	free(run->ns);
	free(run);
	return rc;
}

static void pp_cleanup(struct bench_ctx *c)
{
	struct pp_priv *p = c->priv;
	if (p) {
		free(p->pair);
		free(p->set);
	}
	free(p);
	c->priv = NULL;
}

/* Configuration columns: what compare joins rows on across machines and builds. */
static const char *const pp_config[] = { "cpu_a", "cpu_b", "class", "mode", "samples", "round_trips", "preheat_ms", NULL };

/* What report draws: the latency matrix per mode as a heat map, and a table per pair class. */
static const struct view_metric pp_metrics[] = {
	{ "min_ns", "minimum one-way latency", "ns", "ns", 0 },
	{ "median_ns", "median one-way latency", "ns", "ns", 0 },
	{ 0 },
};
static const char *const pp_classes[] = { "smt", "same-llc", "same-package", "cross-package", NULL }; /* pair_class_name order */
static const struct bench_view pp_views[] = {
	{ .kind = VIEW_MATRIX, .title = "Core-to-core latency", .metrics = pp_metrics, .row_col = "cpu_a", .col_col = "cpu_b",
	  .facet_col = "mode", .class_col = "class", .classes = pp_classes },
	{ VIEW_END },
};

static const struct bench pingpong = {
	.name = "pingpong",
	.finish_row = pp_finish_row,
	.desc = "one-way cache-line transfer latency between pairs of PUs (load-store and CAS handoffs), classified smt / same-llc / same-package / cross-package",
	.opts = pp_opts,
	.variant_col = "config",
	.config = pp_config,
	.summary = pp_summary,
	.summary_by = "mode,class",
	.flags = BENCH_PU_SET | BENCH_UNTIMED,
	.prepare = pp_prepare,
	.run = pp_run,
	.cleanup = pp_cleanup,
	.views = pp_views,
};
BENCH_REGISTER(pingpong)

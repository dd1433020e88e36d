/* pingpong: the physical baseline. One-way cache-line transfer latency between two PUs: two threads
 * bound to the pair hand a value back and forth; min and median over timed samples, in ns.
 * Modes: load-store (two lines, each stored by one side and loaded by the other: the usual way)
 * and cas (one line, every access a locked compare-and-swap: a write handoff).
 * Pairs are classified from the hwloc tree (pairs.h); --concurrent measures disjoint pairs at once
 * in rounds (schedule.h) and checks the effect on a sample of pairs (check.h, concurrent.c). */
#include "benches/pingpong/pingpong.h"
#include "benches/pingpong/matrix.h"
#include "stats/stats.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct opt_spec pp_opts[] = {
    {"pairs", OPT_TEXT, "auto", "SPEC",
     "pairs among the PUs of --placement (auto: every allowed PU, or cpus:LIST): auto (all on up "
     "to 64 PUs, else classes plus vs:FIRST), all, vs:CPU (each PU against CPU), sample:N (N "
     "random pairs, --seed), classes (one pair per topology class, and per pair of CPU kinds on a "
     "hybrid part). --duration/--warmup do not apply: see --samples, --preheat-ms",
     NULL, NULL},
    {"mode", OPT_CHOICES, "load-store,cas", "LIST", "handoffs to measure", "load-store,cas", NULL},
    {"samples", OPT_COUNT, "1000", "N",
     "timed samples per pair, mode, line and repetition (min and median are over these)", NULL,
     NULL},
    {"round-trips", OPT_COUNT, "100", "K", "round trips per sample (a sample is its time / 2K)",
     NULL, NULL},
    {"preheat-ms", OPT_UINT, "20", "MS",
     "untimed handoffs before the samples of each line, to bring both cores to speed", NULL, NULL},
    {"concurrent", OPT_TEXT, "1", "auto|N",
     "pairs measured at once, in rounds of the circle method: 1 (one pair at a time), N (on "
     "disjoint cores), or auto (distinct PUs / 2: SMT siblings may each run a pair; while the "
     "accuracy check fails, disjoint cores, then halved)",
     NULL, NULL},
    {"check-pairs", OPT_COUNT, CHECK_PAIRS_DEFAULT, "K",
     "accuracy check (--concurrent other than 1): pairs per topology class measured alone and in "
     "their round",
     NULL, NULL},
    {"check-tolerance", OPT_OFF, "5", "PERCENT",
     "a class whose median concurrent/alone ratio is off 1 by more is flagged (auto then moves "
     "pairs off each other's cores, then halves the pairs at once)",
     NULL, NULL},
    {"lines", OPT_COUNT, "1", "K",
     "lines per pair (up to 4096), 256 bytes apart on fresh pages of its own, measured in turn; "
     "the spread of their medians is a proxy for the line's home in the mesh. Where they live: "
     "--home",
     NULL, NULL},
    {"home", OPT_TEXT, NULL, "first|writer|reader|node:N",
     "the node each pair's lines live on (their home): first (when not given: first touch from "
     "the pair's first PU, the writer, not bound), writer (bound to cpu_a's node), reader "
     "(cpu_b's node, first touched by cpu_b) or node:N; the rows' home says where it was",
     NULL, NULL},
    {"resume", OPT_TEXT, NULL, "CSV",
     "continue the interrupted run that wrote CSV (the same settings and seed): its rows stay "
     "there, this run measures only the pairs, modes and repetitions it lacks (into its own "
     "--out); --matrix holds both",
     NULL, NULL},
    {"matrix", OPT_TEXT, NULL, "FILE",
     "also write the first --mode's matrix (median over repetitions of min_ns) as a square comma "
     "table in OS CPU order, no header, empty where not measured: core-to-core-latency's --csv "
     "form",
     NULL, NULL},
    {0},
};

static const char *const pp_summary[] = { "min_ns", "median_ns", NULL };

static int pp_reorder(struct bench_ctx *c, int rep, int *order, char *err);

/* HITM per handoff from hitm_per_kop, which divides by both roles' operations (each answers every
 * handoff of the other: initiator_counted_ops + responder_counted_ops): scaled back to the
 * initiator's. */
static int per_handoff(struct row *r, double *out)
{
	int ok, ok_i, ok_r;
	double kop = row_num(r, "hitm_per_kop", &ok),
	       ni = row_num(r, "initiator_counted_ops", &ok_i),
	       nr = row_num(r, "responder_counted_ops", &ok_r);
	if (!ok || !ok_i || !ok_r || ni <= 0)
		return 0;
	*out = kop / 1000.0 * (ni + nr) / ni;
	return 1;
}

/* The measured side of the calibration: HITM (or stand-in) per handoff against the expected
 * transfers. */
static void pp_finish_row(struct bench_ctx *c, struct row *r)
{
	int ok_exp;
	double h;
	pp_mark_uncounted(c->priv, r);
	double expect = row_num(r, "expected_transfers_per_handoff", &ok_exp);
	const char *status = row_get(r, "counters_status");
	char why[200];
	snprintf(why, sizeof(why), "HITM not counted (%s)", status ? status : "no counters");
	if (!per_handoff(r, &h)) {
		row_na(r, "hitm_per_handoff", why);
		row_na(r, "hitm_ratio", why);
		return;
	}
	row_set(r, "hitm_per_handoff", "%.4f", h);
	if (ok_exp && expect > 0)
		row_set(r, "hitm_ratio", "%.4f", h / expect);
	else
		row_na(r, "hitm_ratio", "no known answer for this mode");
}

/* One row: the accuracy check before the first, then the pair's figures from its round. */
static int pp_run(struct bench_ctx *c, const struct variant *v, int rep, struct row *r, char *err)
{
	struct pp_priv *p = c->priv;
	int k = (int)(v->param / NMODES), mode = (int)(v->param % NMODES);
	if (!p->checked && pp_check_run(c, p, err))
		return -1;
	p->checked = 1;
	const struct pp_meas *m = pp_measure_pair(c, p, k, mode, rep, err);
	if (!m)
		return -1;
	bench_evidence_copy(c, &m->ev[0]);
	bench_evidence_copy(c, &m->ev[1]);
	pp_fill_row(c, p, k, mode, m, r);
	if (p->matrix_val && mode == p->modes[0])
		p->matrix_val[(size_t)k * (size_t)c->reps + (size_t)rep] = (float)m->min;
	return 0;
}

/* The median over the repetitions so far of each pair's min_ns, then the square table: the first
 * time linked into place (an existing FILE is kept), later snapshots replace it. */
static void write_matrix(struct bench_ctx *c, struct pp_priv *p, int final)
{
	double *val = xcalloc((size_t)p->npairs, sizeof(double)),
	       *v = xcalloc((size_t)c->reps, sizeof(double));
	int any = 0;
	char err[ERRLEN];
	for (int k = 0; k < p->npairs; k++) {
		size_t n = 0;
		for (int rep = 0; rep < c->reps; rep++)
			if (!isnan(p->matrix_val[(size_t)k * (size_t)c->reps + (size_t)rep]))
				v[n++] = p->matrix_val[(size_t)k * (size_t)c->reps + (size_t)rep];
		val[k] = n ? stats_of(v, n).median : NAN;
		any |= n > 0;
	}
	const char *path = opt_str(c->o, "matrix");
	struct stat st;
	/* replace only our own snapshot: a FILE that is no longer it (a user's) is never written
	 * over */
	int ours = p->matrix_written && !stat(path, &st) && st.st_dev == p->matrix_dev &&
		   st.st_ino == p->matrix_ino;
	if (any && !p->matrix_failed &&
	    matrix_write(path, p->set, p->nset, p->pair, val, p->npairs, ours, err)) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		c->cleanup_failed = 1;
		p->matrix_failed = 1;
	} else if (any && !p->matrix_failed) {
		p->matrix_written = !stat(path, &st);
		p->matrix_dev = st.st_dev, p->matrix_ino = st.st_ino;
		if (final && !opt_flag(c->o, "quiet"))
			fprintf(stderr, "c2cbench: %s matrix (%d x %d, min_ns) written to %s\n",
				pp_mode_names[p->modes[0]], p->nset, p->nset, path);
	}
	free(v);
	free(val);
}

/* Unit u = round * NMODES + mode: the rows a round gives in one mode. */
static int unit_of(const struct pp_priv *p, long param)
{
	return p->sched.round[param / NMODES] * NMODES + (int)(param % NMODES);
}

/* Before each repetition: the accuracy check (before the first row: it may change the rounds),
 * the matrix so far (after each repetition), then the shuffled rows regrouped round by round, the
 * rounds in the order their first row came in the shuffle, the rows of a round in shuffled order:
 * each round is measured by its first row and is whole on disk when its last row is written. */
static int pp_reorder(struct bench_ctx *c, int rep, int *order, char *err)
{
	struct pp_priv *p = c->priv;
	if (!p->checked && pp_check_run(c, p, err))
		return -1;
	p->checked = 1;
	p->meas_round = -1;
	if (rep > 0 && p->matrix_val)
		write_matrix(c, p, 0);
	size_t nu = (size_t)p->sched.nrounds * NMODES;
	int *rank = xcalloc(nu, sizeof(int)), *start = xcalloc(nu + 1, sizeof(int)),
	    *tmp = xcalloc((size_t)c->nvar, sizeof(int));
	int next = 0;
	for (size_t u = 0; u < nu; u++)
		rank[u] = -1;
	for (int i = 0; i < c->nvar; i++) {
		int u = unit_of(p, c->var[order[i]].param);
		if (rank[u] < 0)
			rank[u] = next++;
		start[rank[u] + 1]++;
	}
	for (int q = 0; q < next; q++)
		start[q + 1] += start[q];
	for (int i = 0; i < c->nvar; i++)
		tmp[start[rank[unit_of(p, c->var[order[i]].param)]]++] = order[i];
	int n = 0; /* --resume: without the rows the CSV resumed has */
	for (int i = 0; i < c->nvar; i++)
		if (!pp_done(p->done, c->var[tmp[i]].param * c->reps + rep))
			order[n++] = tmp[i];
	free(rank);
	free(start);
	free(tmp);
	return n;
}

/* After the summary: the accuracy verdict again, so a run with a class outside is not read as
 * clean. */
static void print_verdict(const struct bench_ctx *c, const struct pp_priv *p)
{
	if (!p->checked || pp_alone_only(p) || opt_flag(c->o, "quiet"))
		return;
	for (int m = 0; m < p->nmodes; m++) {
		int mode = p->modes[m];
		for (int cl = 0; cl < PC_COUNT; cl++)
			if (p->cls[mode][cl].outside)
				printf("pingpong: accuracy check: %s %s ratio concurrent/alone "
				       "%.3f is outside %.0f%% at %d pair(s) at once (rows: "
				       "check_status=outside)\n",
				       pp_mode_names[mode], pair_class_name((enum pair_class)cl),
				       p->cls[mode][cl].ratio, p->tol * 100, p->cap);
		if (!p->outside[mode])
			printf("pingpong: accuracy check: %s: every class within %.0f%% at up to "
			       "%d pair(s) at once\n",
			       pp_mode_names[mode], p->tol * 100, p->cap);
	}
}

/* After the last row: the verdict and the matrix file, then everything prepare and the rounds held.
 */
static void pp_cleanup(struct bench_ctx *c)
{
	struct pp_priv *p = c->priv;
	if (p) {
		print_verdict(c, p);
		if (p->matrix_val)
			write_matrix(c, p, 1);
		pp_state_free(p);
		free(p->pair);
		free(p->set);
		free(p->sample);
		free(p->matrix_val);
		free(p->done);
		schedule_free(&p->sched);
	}
	free(p);
	c->priv = NULL;
}

/* Configuration columns: what compare joins rows on across machines and builds. */
static const char *const pp_config[] = {"cpu_a",      "cpu_b",        "class", "mode",
					"samples",    "round_trips",  "lines", "preheat_ms",
					"mem_node_requested", NULL};

/* Between machines, the pairs of a class are on other CPUs: compare joins a pair per class. */
static const char *const pp_loose[] = { "cpu_a", "cpu_b", NULL };

/* What report draws: the latency matrix per mode as a heat map, and a table per pair class. */
static const struct view_metric pp_metrics[] = {
	{ "min_ns", "minimum one-way latency", "ns", "ns", 0 },
	{ "median_ns", "median one-way latency", "ns", "ns", 0 },
	{ 0 },
};
/* pair_class_name order; unknown-package is left out: it is neither side of a package, and the
 * report shows a class not declared only where rows have it */
static const char *const pp_classes[] = {"smt", "same-llc", "same-package", "cross-package",
					 NULL};
static const struct bench_view pp_views[] = {
    {.kind = VIEW_MATRIX,
     .title = "Core-to-core latency",
     .metrics = pp_metrics,
     .row_col = "cpu_a",
     .col_col = "cpu_b",
     .facet_col = "mode",
     .class_col = "class",
     .classes = pp_classes,
     .is_baseline = 1},
    {.kind = VIEW_END},
};

/* The placement probe times the pair itself, before and after: a move between shows as a change. */
static int pp_probe_pairs(struct bench_ctx *c, const struct variant *v, int *a, int *b, int max)
{
	const struct pp_priv *p = c->priv;
	int k = (int)(v->param / NMODES), r = p->sched.round[k], at = -1;
	const struct pu_pair *pp = &p->pair[k];
	for (int i = 0; i < p->sched.size[r] && p->meas_round == r; i++)
		at = p->sched.member[p->sched.first[r] + i] == k ? i : at;
	/* a row its round already measured (at != the counted member): nothing to time around it */
	if (max < 1 || (p->sched.size[r] > 1 && p->meas_round == r &&
			p->meas_mode == v->param % NMODES && at != p->meas_hooked))
		return 0;
	a[0] = pp->a;
	b[0] = pp->b;
	return 1;
}

/* pingpong pairs the PUs up itself: its --placement is the set of PUs it pairs. */
static const struct opt_spec pu_set_placement = {
    "placement", OPT_TEXT, "auto", "auto|cpus:LIST",
    "the PUs the bench places its own threads on: auto (every allowed PU) or cpus:LIST", NULL,
    NULL};

/* It reads --mem-node itself, as --home's older spelling; unset by default. */
static const struct opt_spec own_mem_node = {
    "mem-node", OPT_TEXT, NULL, "a|b|N",
    "--home's older spelling: a (--home first), b (--home reader) or N (--home node:N)", NULL,
    NULL};

/* Its harness options: its own --placement and --mem-node, and no --duration or --warmup. */
static const struct opt_spec *pp_harness_opt(const struct opt_spec *s, const char **why)
{
	if (!strcmp(s->name, "placement"))
		return &pu_set_placement;
	if (!strcmp(s->name, "mem-node"))
		return &own_mem_node;
	if (!strcmp(s->name, "duration") || !strcmp(s->name, "warmup")) {
		*why = "it counts samples, not seconds";
		return NULL;
	}
	return s;
}
extern const struct col_decl pingpong_columns[]; /* columns.c */
extern const char *const pingpong_verdict[]; /* columns.c */

static const struct bench pingpong = {
    .name = "pingpong",
    .finish_row = pp_finish_row,
    .desc = "one-way cache-line transfer latency between pairs of PUs (load-store and CAS "
	    "handoffs), classified smt / same-llc / same-package / cross-package (unknown-package: "
	    "a PU outside any package); --home first|writer|reader|node:N places each pair's lines "
	    "(default first: first touch from the pair's first PU)",
    .opts = pp_opts,
    .variant_col = "config",
    .config = pp_config,
    .match.by = "class",
    .match.loose = pp_loose,
    .summary = pp_summary,
    .verdict = pingpong_verdict,
    .summary_by = "mode,class,home?",
    /* What may split a class in two: the pair's package (-1 across packages). A dual EPYC
     * 7R13's same-package pairs are 108 ns in the package that held the line, 200 ns in the
     * other. */
    .split.cols = "pkg_a,pkg_b",
    .split.name = "package",
    .harness_opt = pp_harness_opt,
    .validity.roles = "initiator,responder",
    .validity.corun = "initiator,responder",
    .validity.probe_pairs = pp_probe_pairs,
    .prepare = pp_prepare,
    .reorder = pp_reorder,
    .run = pp_run,
    .cleanup = pp_cleanup,
    .views = pp_views,
    .columns = pingpong_columns,
};
BENCH_REGISTER(pingpong)

/* pingpong in rounds: measuring a pair means measuring its round (cached for the other pairs of the
 * round in the same repetition), the accuracy check before the first row, and the row's columns. */
#include "benches/pingpong/pingpong.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pp_alone_only(const struct pp_priv *p)
{
	return !p->conc_auto && p->conc_n == 1;
}

/* The results of one round (rows of a round are written one after the other: only the round being
 * written is held) and the sample slots. */
int pp_state_alloc(struct pp_priv *p)
{
	p->meas_room = 1;
	for (int r = 0; r < p->sched.nrounds; r++)
		p->meas_room = p->sched.size[r] > p->meas_room ? p->sched.size[r] : p->meas_room;
	p->meas = xcalloc((size_t)p->meas_room, sizeof(*p->meas));
	p->meas_round = p->meas_mode = p->meas_rep = p->meas_hooked = -1;
	p->sample_slot = xcalloc((size_t)p->npairs, sizeof(int));
	for (int k = 0; k < p->npairs; k++)
		p->sample_slot[k] = -1;
	for (int j = 0; j < p->nsample; j++)
		p->sample_slot[p->sample[j]] = j;
	p->chk_alone = xcalloc((size_t)p->nsample * NMODES + 1, sizeof(double));
	p->chk_conc = xcalloc((size_t)p->nsample * NMODES + 1, sizeof(double));
	return 0;
}

void pp_state_free(struct pp_priv *p)
{
	free(p->meas);
	free(p->sample_slot);
	free(p->chk_alone);
	free(p->chk_conc);
}

/* Measure round r in mode; hooks (counters) go to the threads of member `hooked` only. Results land
 * in out[0 .. size) in member order. */
static int measure_round(struct bench_ctx *c, struct pp_priv *p, int r, int mode, int hooked,
			 struct pp_meas *out, char *err)
{
	int n = p->sched.size[r];
	const struct pu_pair **pp = xcalloc((size_t)n, sizeof(*pp));
	for (int i = 0; i < n; i++)
		pp[i] = &p->pair[p->sched.member[p->sched.first[r] + i]];
	struct pp_setup su = p->su;
	su.mode = mode;
	su.hooks = c->hooks;
	su.hooked = hooked;
	int rc = pp_measure_round(&su, pp, n, out, err);
	free(pp);
	return rc;
}

const struct pp_meas *pp_measure_pair(struct bench_ctx *c, struct pp_priv *p, int k, int mode,
				      int rep, char *err)
{
	int r = p->sched.round[k], n = p->sched.size[r], at = 0;
	for (int i = 0; i < n; i++)
		at = p->sched.member[p->sched.first[r] + i] == k ? i : at;
	if (n > 1 && p->meas_round == r && p->meas_mode == mode && p->meas_rep == rep &&
	    at != p->meas_hooked) {
		p->last_counted =
		    0; /* measured with its round; counters are NA (pp_mark_uncounted) */
		return &p->meas[at];
	}
	p->meas_round = -1;
	if (measure_round(c, p, r, mode, at, p->meas, err))
		return NULL;
	p->meas_round = r, p->meas_mode = mode, p->meas_rep = rep, p->meas_hooked = at;
	p->last_counted = 1;
	return &p->meas[at];
}

/* One sample pair alone and in its round: the two medians. */
static int check_pair(struct bench_ctx *c, struct pp_priv *p, int j, int mode, char *err)
{
	int k = p->sample[j], r = p->sched.round[k], n = p->sched.size[r], at = 0;
	const struct pu_pair *one = &p->pair[k];
	struct pp_meas alone, *out = xcalloc((size_t)n, sizeof(*out));
	struct pp_setup su = p->su;
	su.mode = mode;
	int rc = pp_measure_round(&su, &one, 1, &alone, err);
	for (int i = 0; i < n; i++)
		at = p->sched.member[p->sched.first[r] + i] == k ? i : at;
	if (!rc)
		rc = measure_round(c, p, r, mode, -1, out, err);
	if (!rc) {
		p->chk_alone[(size_t)j * NMODES + (size_t)mode] = alone.median;
		p->chk_conc[(size_t)j * NMODES + (size_t)mode] = out[at].median;
	}
	free(out);
	return rc;
}

/* Most pairs any round of s measures at once: what the check ran at, and what auto halves. */
static int max_round(const struct schedule *s)
{
	int m = 0;
	for (int r = 0; r < s->nrounds; r++)
		m = s->size[r] > m ? s->size[r] : m;
	return m;
}

/* Per class, mode by mode: pairs, ratio, spread and the verdict, on stderr. */
static void print_check(const struct bench_ctx *c, const struct pp_priv *p, int mode, int at_once)
{
	if (opt_flag(c->o, "quiet"))
		return;
	fprintf(stderr,
		"pingpong: accuracy check, %s, up to %d pair(s) at once vs alone (median ns; "
		"tolerance %.0f%%)%s:\n",
		pp_mode_names[mode], at_once, p->tol * 100,
		at_once == 1 ? "; one pair at once: both are alone, the ratio is run-to-run noise"
			     : "");
	for (int cl = 0; cl < PC_COUNT; cl++) {
		const struct check_class *x = &p->cls[mode][cl];
		if (x->n)
			fprintf(stderr, "  %-14s %d pair(s)  ratio %.3f  spread %.3f-%.3f  %s\n",
				pair_class_name((enum pair_class)cl), x->n, x->ratio, x->lo, x->hi,
				x->outside ? "OUTSIDE tolerance" : "ok");
	}
}

/* The sample for every mode at the current cap; returns the classes outside the tolerance. */
static int check_once(struct bench_ctx *c, struct pp_priv *p, char *err)
{
	enum pair_class *cls = xcalloc((size_t)p->nsample + 1, sizeof(*cls));
	double *al = xcalloc((size_t)p->nsample + 1, sizeof(double)),
	       *co = xcalloc((size_t)p->nsample + 1, sizeof(double));
	int bad = 0, rc = 0;
	for (int m = 0; m < p->nmodes && !rc; m++) {
		int mode = p->modes[m];
		for (int j = 0; j < p->nsample && !rc; j++)
			rc = check_pair(c, p, j, mode, err);
		for (int j = 0; j < p->nsample && !rc; j++) {
			cls[j] = p->pair[p->sample[j]].cls;
			al[j] = p->chk_alone[(size_t)j * NMODES + (size_t)mode];
			co[j] = p->chk_conc[(size_t)j * NMODES + (size_t)mode];
		}
		if (!rc) {
			p->outside[mode] =
			    check_classes(cls, al, co, p->nsample, p->tol, p->cls[mode]);
			bad += p->outside[mode];
			print_check(c, p, mode, max_round(&p->sched));
		}
	}
	free(cls);
	free(al);
	free(co);
	return rc ? -1 : bad;
}

int pp_check_run(struct bench_ctx *c, struct pp_priv *p, char *err)
{
	if (pp_alone_only(p))
		return 0;
	for (;;) {
		int bad = check_once(c, p, err), most = max_round(&p->sched);
		if (bad < 0)
			return -1;
		if (!bad || !p->conc_auto || most <= 1)
			return 0;
		int was_by_pu = p->by_pu, cores = schedule_auto_cap(c->topo, p->set, p->nset, 0);
		/* first off each other's SMT siblings (at most distinct cores / 2), then halved */
		p->cap = p->by_pu && cores < most ? cores : most / 2 > 1 ? most / 2 : 1;
		p->by_pu = 0;
		p->fallbacks++;
		schedule_free(&p->sched);
		if (schedule_build(c->topo, p->set, p->nset, p->pair, p->npairs, p->cap, 0,
				   &p->sched, err))
			return -1;
		p->meas_round = -1;
		if (!opt_flag(c->o, "quiet"))
			fprintf(stderr,
				"pingpong: --concurrent auto falls back to %d pair(s) at once%s "
				"(%d rounds)\n",
				p->cap, was_by_pu ? ", no two pairs on one core" : "",
				p->sched.nrounds);
	}
}

/* The two PUs' places, so the report can order a matrix by package, core and SMT sibling. */
static void place_cols(const struct bench_ctx *c, struct row *r, const char *side, int cpu)
{
	const struct pu *u = topo_pu(c->topo, cpu);
	char key[16];
	snprintf(key, sizeof(key), "pkg_%s", side);
	row_set(r, key, "%d", u ? u->pkg : -1);
	snprintf(key, sizeof(key), "core_%s", side);
	row_set(r, key, "%d", u ? u->core : -1);
	snprintf(key, sizeof(key), "smt_%s", side);
	row_set(r, key, "%d", u ? u->smt : -1);
	snprintf(key, sizeof(key), "node_%s", side);
	row_set(r, key, "%d", u ? u->node : -1);
	snprintf(key, sizeof(key), "kind_%s", side);
	if (u && u->kind >= 0)
		row_set(r, key, "%s", topo_kind_name(c->topo, u));
	else
		row_na(r, key, "the topology has one CPU kind");
}

/* home: the node found (mem_node_actual), as the pair's: the writer's (cpu_a), the reader's
 * (cpu_b), both, other. */
static void home_col(const struct bench_ctx *c, struct row *r, const struct pu_pair *pp,
		     int node)
{
	const struct pu *a = topo_pu(c->topo, pp->a), *b = topo_pu(c->topo, pp->b);
	if (node < 0)
		row_na(r, "home", "the page's node was not found (get_mempolicy)");
	else if (!a || !b || a->node < 0 || b->node < 0)
		row_na(r, "home", "a CPU of the pair has no NUMA node in the topology");
	else
		row_set(r, "home", "%s",
			node == a->node && node == b->node ? "both"
			: node == a->node		   ? "writer"
			: node == b->node		   ? "reader"
							   : "other");
}

/* The accuracy-check columns: the pair's own sample (if it is one) and its class's verdict. */
static void check_cols(const struct pp_priv *p, int k, int mode, struct row *r)
{
	const char *why =
	    pp_alone_only(p) ? "--concurrent 1: every pair measured alone, nothing to check" : NULL;
	int j = p->sample_slot[k];
	const struct check_class *x = &p->cls[mode][p->pair[k].cls < PC_COUNT ? p->pair[k].cls : 0];
	if (why) {
		const char *keys[] = {"check_alone_median_ns",
				      "check_concurrent_median_ns",
				      "check_pair_ratio",
				      "check_class_pairs",
				      "check_class_ratio",
				      "check_class_ratio_lo",
				      "check_class_ratio_hi",
				      "check_status",
				      NULL};
		for (int i = 0; keys[i]; i++)
			row_na(r, keys[i], why);
		return;
	}
	if (j >= 0) {
		double al = p->chk_alone[(size_t)j * NMODES + (size_t)mode],
		       co = p->chk_conc[(size_t)j * NMODES + (size_t)mode];
		row_set(r, "check_alone_median_ns", "%.2f", al);
		row_set(r, "check_concurrent_median_ns", "%.2f", co);
		row_set(r, "check_pair_ratio", "%.4f", al > 0 ? co / al : NAN);
	} else {
		row_na(r, "check_alone_median_ns", "not in the accuracy sample");
		row_na(r, "check_concurrent_median_ns", "not in the accuracy sample");
		row_na(r, "check_pair_ratio", "not in the accuracy sample");
	}
	row_set(r, "check_class_pairs", "%d", x->n);
	if (!x->n) { /* cannot happen: every class with pairs has a sample pair */
		row_na(r, "check_class_ratio", "no sample pair in this class");
		row_na(r, "check_class_ratio_lo", "no sample pair in this class");
		row_na(r, "check_class_ratio_hi", "no sample pair in this class");
		row_na(r, "check_status", "no sample pair in this class");
		return;
	}
	row_set(r, "check_class_ratio", "%.4f", x->ratio);
	row_set(r, "check_class_ratio_lo", "%.4f", x->lo);
	row_set(r, "check_class_ratio_hi", "%.4f", x->hi);
	row_set(r, "check_status", "%s", x->outside ? "outside" : "ok");
}

/* The calibration columns: a known answer where there is one, counters when the build has them. */
static void calibration(struct row *r, int mode)
{
	if (mode == MODE_LOAD_STORE)
		row_set(r, "expected_transfers_per_handoff", "1");
	else
		row_na(r, "expected_transfers_per_handoff",
		       "spinning CAS moves the line a variable number of times per handoff");
}

/* The row from the pair's figures: configuration, result, round, places and the check's verdict. */
void pp_fill_row(const struct bench_ctx *c, const struct pp_priv *p, int k, int mode,
		 const struct pp_meas *m, struct row *r)
{
	const struct pu_pair *pp = &p->pair[k];
	int rd = p->sched.round[k];
	row_set(r, "cpu_a", "%d", pp->a);
	row_set(r, "cpu_b", "%d", pp->b);
	row_set(r, "class", "%s", pair_class_name(pp->cls));
	row_set(r, "placement_requested", "%s", opt_str(c->o, "placement"));
	row_set(r, "pairs_requested", "%s", opt_str(c->o, "pairs"));
	row_set(r, "mode", "%s", pp_mode_names[mode]);
	row_set(r, "samples", "%ld", p->su.samples);
	row_set(r, "round_trips", "%ld", p->su.round_trips);
	row_set(r, "preheat_ms", "%ld", opt_long(c->o, "preheat-ms"));
	row_set(r, "min_ns", "%.2f", m->min);
	row_set(r, "median_ns", "%.2f", m->median);
	row_set(r, "sample_cv", "%.4f", m->cv);
	row_set(r, "handoffs", "%llu", (unsigned long long)m->handoffs);
	row_set(r, "mem_node_requested", "%s", p->mem_req);
	if (m->plan_node >= 0)
		row_set(r, "mem_node", "%d", m->plan_node);
	else
		row_na(r, "mem_node", "--home first binds no node: cpu_a's first touch places the "
				      "page (mem_node_actual)");
	row_set(r, "mem_node_actual", "%d", m->mem_node);
	home_col(c, r, pp, m->mem_node);
	row_set(r, "line_addr", "0x%llx", (unsigned long long)m->line_addr);
	if (m->touch_cpu >= 0)
		row_set(r, "first_touch_cpu", "%d", m->touch_cpu);
	else
		row_na(r, "first_touch_cpu", "sched_getcpu failed in the touching thread");
	row_set(r, "lines", "%d", p->su.lines);
	row_set(r, "line_median_lo_ns", "%.2f", m->line_med_lo);
	row_set(r, "line_median_hi_ns", "%.2f", m->line_med_hi);
	row_set(r, "concurrent_req", "%s", p->conc_req);
	row_set(r, "concurrent_cap", "%d", p->cap);
	row_set(r, "concurrent_fallbacks", "%d", p->fallbacks);
	row_set(r, "round", "%d", rd);
	row_set(r, "rounds", "%d", p->sched.nrounds);
	row_set(r, "concurrent", "%d", p->sched.size[rd]);
	row_set(r, "round_disjoint", "%s", p->sched.by_pu ? "pus" : "cores");
	if (m->round_overlap >= 0)
		row_set(r, "round_overlap", "%.4f", m->round_overlap);
	else
		row_na(r, "round_overlap",
		       p->sched.size[rd] > 1 ? "a thread took no window" : "measured alone");
	place_cols(c, r, "a", pp->a);
	place_cols(c, r, "b", pp->b);
	check_cols(p, k, mode, r);
	row_set(r, "counted", "%s", p->sched.size[rd] == 1 || p->last_counted ? "yes" : "no");
	calibration(r, mode);
}

void pp_mark_uncounted(const struct pp_priv *p, struct row *r)
{
	const char *counted = row_get(r, "counted");
	if (!counted || strcmp(counted, "no"))
		return;
	int last = -1; /* the counters' columns come after the last one pp_fill_row set */
	(void)p;
	for (int i = 0; i < r->n; i++)
		last = !strcmp(r->key[i], PP_LAST_COL) ? i : last;
	for (int i = last + 1; last >= 0 && i < r->n; i++)
		if (strncmp(r->key[i], "counters_", 9) && strcmp(r->val[i], "NA")) {
			char *key = xstrdup(r->key[i]);
			row_na(r, key,
			       "measured in the round of another pair (counters follow that pair's "
			       "threads only)");
			free(key);
		}
}

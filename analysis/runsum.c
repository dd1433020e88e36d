#include "harness/summary.h"
#include "harness/bench_columns.h"
#include "harness/summary_parts.h"
#include "harness/summary_int.h"
#include "stats/twosample.h"
#include "schema/desc.h"
#include "schema/probeclass.h"
#include "harness/counters/counters.h"
#include "stats/stats.h"
#include "harness/repsauto.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int group_add(struct sum_lines *g, const char *label, int var)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->label = realloc(g->label, (size_t)g->cap * sizeof(*g->label));
		g->first_var = realloc(g->first_var, (size_t)g->cap * sizeof(*g->first_var));
		if (!g->label || !g->first_var)
			out_of_memory(0);
	}
	g->label[g->n] = xstrdup(label);
	g->first_var[g->n] = var;
	return g->n++;
}

/* The group of a written row: its variant, or its summary_by values joined by '/'. */
static int group_of(const struct bench_ctx *c, struct sum_lines *g, const struct row *r, int var)
{
	char label[160] = "", *cols[8];
	size_t k = 0;
	if (!c->b->summary_by)
		return var;
	int n = list_split(c->b->summary_by, cols, 8);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(cols[i]);
		if (l && cols[i][l - 1] == '?') /* optional: shown only where it varies */
			cols[i][l - 1] = 0;
		const char *v = row_get(r, cols[i]);
		if (k < sizeof(label))
			k += (size_t)snprintf(label + k, sizeof(label) - k, "%s%s", i ? "/" : "",
					      v ? v : "NA");
		free(cols[i]);
	}
	for (int i = 0; i < g->n; i++)
		if (!strcmp(g->label[i], label)) {
			if (var < g->first_var[i])
				g->first_var[i] = var;
			return i;
		}
	return group_add(g, label, var);
}

static void keep(const struct bench_ctx *c, struct sum_lines *g, struct kept *k,
		 const struct row *r, int var, int rep, int valid)
{
	int ok;
	k->ok = 0;
	k->var = var;
	k->rep = rep;
	k->valid = valid;
	k->group = group_of(c, g, r, var);
	const char *pb = row_get(r, "probe_before_ns"), *pa = row_get(r, "probe_after_ns");
	double b = pb && strcmp(pb, "NA") ? atof(pb) : -1,
	       a = pa && strcmp(pa, "NA") ? atof(pa) : -1;
	k->probe = probe_latency(b > 0 ? b : -1, a > 0 ? a : -1);
	for (int m = 0; m < nmetrics(c->b); m++) {
		k->v[m] = row_num(r, c->b->summary[m], &ok);
		k->ok |= (unsigned char)((ok != 0) << m);
	}
}

static int by_group_rep(const void *x, const void *y)
{
	const struct kept *a = x, *b = y;
	return a->group != b->group ? (a->group > b->group) - (a->group < b->group)
				    : (a->rep > b->rep) - (a->rep < b->rep);
}

static int by_var_rep(const void *x, const void *y)
{
	const struct kept *a = x, *b = y;
	return a->var != b->var ? (a->var > b->var) - (a->var < b->var)
				: (a->rep > b->rep) - (a->rep < b->rep);
}

/* Grouped summaries hide single configurations: list those whose own CV is above the threshold. */
static void flag_configs(FILE *f, const struct bench_ctx *c, struct kept_rows *kr, double thr)
{
	int nk = kr->n;
	int nm = nmetrics(c->b), bad = 0, nconf = 0, worst[3] = { -1, -1, -1 };
	double wcv[3] = {0},
	       *v = xcalloc((size_t)c->reps * (size_t)c->attempts + 1, sizeof(double));
	sort_n(kr->at, (size_t)nk, kr->size, by_var_rep);
	for (int i = 0; i < nk;) {
		int j = i;
		double cv = 0;
		while (j < nk && kr_at(kr, j)->var == kr_at(kr, i)->var)
			j++;
		for (int m = 0; m < nm; m++) {
			int n = 0;
			for (int k = i; k < j; k++)
				if (ok_at(kr_at(kr, k), m))
					v[n++] = kr_at(kr, k)->v[m];
			struct stats s = stats_of(v, (size_t)n);
			if (s.n > 1 && s.cv > cv)
				cv = s.cv;
		}
		nconf++;
		if (cv > thr) {
			bad++;
			for (int w = 0; w < 3; w++)
				if (worst[w] < 0 || cv > wcv[w]) {
					memmove(worst + w + 1, worst + w,
						(size_t)(2 - w) * sizeof(int));
					memmove(wcv + w + 1, wcv + w,
						(size_t)(2 - w) * sizeof(double));
					worst[w] = kr_at(kr, i)->var;
					wcv[w] = cv;
					break;
				}
		}
		i = j;
	}
	free(v);
	fprintf(f, "%s with CV above %g%%: %d of %d", c->b->variant_col, 100 * thr, bad, nconf);
	for (int w = 0; w < 3 && worst[w] >= 0; w++)
		fprintf(f, "%s %s %.1f%%", w ? "," : " (worst:", c->var[worst[w]].name,
			100 * wcv[w]);
	fprintf(f, "%s\n", bad ? ")" : "");
}

/* A line's repetitions that ran on placements whose probe latencies cluster apart
 * (schema/probeclass.h): said under the table, since its medians pool them. */
static void print_probe_classes(FILE *f, const struct kept_rows *kr, const int *start,
				const int *order,
				const struct sum_lines *g)
{
	for (int oi = 0; oi < g->n; oi++) {
		int gi = order[oi], n = start[gi + 1] - start[gi];
		double *lat = xcalloc((size_t)n + 1, sizeof(double));
		int *cls = xcalloc((size_t)n + 1, sizeof(int));
		for (int i = 0; i < n; i++)
			lat[i] = kr_at(kr, start[gi] + i)->probe;
		int ncls = probe_classes(lat, n, cls);
		if (ncls > 1) {
			char cl[512], line[800];
			probe_classes_text(lat, cls, n, ncls, cl, sizeof(cl));
			snprintf(
			    line, sizeof(line),
			    "probe classes: %s ran on %d placements whose probe latencies cluster "
			    "apart (more than %gx): %s; its medians pool them (docs/validity.md; "
			    "--probe-class same keeps the first's)",
			    g->label[gi], ncls, PROBE_CLASS_GAP, cl);
			summary_wrap(f, line);
		}
		free(lat);
		free(cls);
	}
}

/* Groups in the bench's variant order (by their first variant; few groups: insertion sort). */
static void group_order(const struct sum_lines *g, int *order)
{
	for (int i = 0; i < g->n; i++)
		for (int j = i; j >= 0; j--) {
			if (j && g->first_var[order[j - 1]] > g->first_var[i]) {
				order[j] = order[j - 1];
				continue;
			}
			order[j] = i;
			break;
		}
}

/* Per line: valid repetitions of the requested (or, under --reps auto, of those run). */
struct tally {
	int *valid, *reps, *attempts, *invalid,
	    *group; /* per variant (group: its summary line, -1 none yet) */
	enum reps_stop *stop;
	double *width;
	int *rounds;
	/* the bench's summary_note_if column over the valid rows: "yes" while every one says yes,
	 * else the first other value; "" before a valid row; unset (NULL) when absent from one */
	char note_val[256];
	int note_absent;
	long *vattr; /* per variant: the bench's split_attr of its rows (NULL: it has none) */
};

static void group_counts(const struct bench_ctx *c, const struct tally *t, int gi, int *valid,
			 int *reps)
{
	*valid = *reps = 0;
	for (int v = 0; v < c->nvar; v++)
		if (t->group[v] == gi) {
			*valid += t->valid[v];
			*reps += t->reps[v];
		}
}

/* The header: repetitions requested (or --reps auto's rule), attempts invalid, what the statistics
 * use; the rule and the hint on invalid attempts get lines of their own, so each line fits in 100
 * columns. */
static void print_header(FILE *f, const struct bench_ctx *c, const struct tally *t,
			 const char *base)
{
	int att = 0, inv = 0;
	for (int v = 0; v < c->nvar; v++) {
		att += t->attempts[v];
		inv += t->invalid[v];
	}
	if (c->reps_auto)
		fprintf(f, "\n%s: --reps auto", c->b->name);
	else
		fprintf(f, "\n%s: %d repetition(s) requested", c->b->name, c->reps);
	fprintf(f, "; %d of %d attempt(s) invalid\n", inv, att);
	if (c->reps_auto)
		fprintf(f,
			"  until the 95%% CI of each median of %s is within %g%%, %d..%d "
			"repetitions, %g s\n",
			c->b->summary[0], 100 * c->autocfg->ci_width, REPS_AUTO_MIN,
			c->autocfg->max_reps, c->autocfg->max_s);
	if (inv)
		fprintf(f,
			"  (docs/validity.md; each repetition is tried up to --max-attempts %d; "
			"reasons in invalid_reason)\n",
			c->attempts);
	fprintf(f, "median [min..max] (CV) over %s repetitions, and ratio of medians to '%s'\n",
		opt_flag(c->o, "keep-invalid")
		    ? "all attempts, invalid ones included (--keep-invalid),"
		    : "valid",
		base);
}

/* With summary_by: per line, the parts its variants' values split into (summary_split.c), or
 * NULL; a line that splits is marked " ~" (its median is of both parts). */
static char **splits(const struct bench_ctx *c, const struct kept_rows *kr, const int *start,
		     struct sum_lines *g, const struct tally *t)
{
	char **out = xcalloc((size_t)g->n + 1, sizeof(char *));
	const struct col_decl *d = nmetrics(c->b) ? bench_column(c->b, c->b->summary[0]) : NULL;
	for (int gi = 0; gi < g->n; gi++) {
		int n = 0, m = start[gi + 1] - start[gi];
		int *var = xcalloc((size_t)m + 1, sizeof(int));
		double *val = xcalloc((size_t)m + 1, sizeof(double));
		char text[600];
		for (int i = start[gi]; i < start[gi + 1]; i++)
			if (kr_at(kr, i)->valid && ok_at(kr_at(kr, i), 0)) {
				var[n] = kr_at(kr, i)->var;
				val[n++] = kr_at(kr, i)->v[0];
			}
		if (summary_split_group(var, val, n, t->vattr, c->b->split.name,
					d ? d->unit : NULL, text, sizeof(text))) {
			out[gi] = xstrdup(text);
			char *l = xcalloc(strlen(g->label[gi]) + 3, 1);
			sprintf(l, "%s ~", g->label[gi]);
			free(g->label[gi]);
			g->label[gi] = l;
		}
		free(var);
		free(val);
	}
	return out;
}

static void print_splits(FILE *f, const struct bench_ctx *c, const struct sum_lines *g,
			 const int *order, char **split)
{
	int any = 0;
	for (int oi = 0; split && oi < g->n; oi++) {
		char line[900];
		if (!split[order[oi]])
			continue;
		const char *l = g->label[order[oi]]; /* "cas/same-package ~" */
		if (!any++) {
			snprintf(line, sizeof(line),
				 "~ its configurations (%s, each its median over the "
				 "repetitions) form separate groups, with no value between them "
				 "(docs/report.md#classes-that-split): the line's median is of "
				 "them all, a value none may have",
				 c->b->variant_col);
			summary_wrap(f, line);
		}
		snprintf(line, sizeof(line), "  %.*s %s: %s", (int)strlen(l) - 2, l,
			 c->b->summary[0], split[order[oi]]);
		summary_wrap(f, line);
	}
	for (int i = 0; split && i < g->n; i++)
		free(split[i]);
	free(split);
}

static void print_summary(FILE *f, const struct bench_ctx *c, struct kept_rows *kr,
			  const struct sum_lines *all, const struct tally *t)
{
	int nk = kr->n;
	char col[160];
	struct sum_lines shown = *all, *g = &shown;
	if (!nmetrics(c->b) || !all->n)
		return;
	if (c->b->summary_by) /* an optional column only where it varies */
		summary_by_shown(c->b->summary_by, all, &shown, col, sizeof(col));
	else
		snprintf(col, sizeof(col), "%s", c->b->variant_col);
	int nm = nmetrics(c->b), width = (int)strlen(col), flagged = 0;
	double thr = opt_double(c->o, "cv-warn") / 100;
	sort_n(kr->at, (size_t)nk, kr->size, by_group_rep);
	int *order = xcalloc((size_t)g->n, sizeof(int)),
	    *start = xcalloc((size_t)g->n + 1, sizeof(int));
	group_order(g, order);
	for (int i = 0, gi = 0; gi <= g->n; gi++) { /* start[gi]: first kept row of group gi */
		while (i < nk && kr_at(kr, i)->group < gi)
			i++;
		start[gi] = i;
	}
	char **split = c->b->summary_by ? splits(c, kr, start, g, t) : NULL;
	for (int i = 0; i < g->n; i++)
		if ((int)strlen(g->label[i]) > width)
			width = (int)strlen(g->label[i]);
	print_header(f, c, t, g->label[order[0]]);
	char (*cnt)[32] = xcalloc((size_t)g->n, sizeof(*cnt));
	int run = 0; /* the most rows of one group in one repetition: what a median is taken of */
	for (int i = 0, j; i < nk; i = j) {
		for (j = i; j < nk && kr_at(kr, j)->group == kr_at(kr, i)->group &&
			    kr_at(kr, j)->rep == kr_at(kr, i)->rep;
		     j++)
			;
		run = j - i > run ? j - i : run;
	}
	double *per_rep = xcalloc((size_t)c->reps * (size_t)c->attempts + 1, sizeof(double)),
	       *tmp = xcalloc((size_t)run + 1, sizeof(double));
	int few = 0; /* lines whose medians stand on fewer repetitions than the U test needs */
	for (int oi = 0; oi < g->n; oi++) {
		int nv, nr, gi = order[oi];
		size_t n =
		    group_stats(kr, start[gi], start[gi + 1] - start[gi], 0, per_rep, tmp).n;
		group_counts(c, t, gi, &nv, &nr);
		int small = n > 0 && n < (size_t)ts_min_reps();
		few += small;
		snprintf(cnt[oi], sizeof(cnt[oi]), "%d of %d%s", nv, nr, small ? " *" : "");
	}
	if (c->b->summary_by)
		fprintf(
		    f,
		    "(a line per %s; within a repetition its rows are reduced to their median)\n",
		    col);
	struct column cols[SUMMARY_MAX];
	for (int k = 0; k < nm; k++) {
		cols[k].cell = xcalloc((size_t)g->n, sizeof(*cols[k].cell));
		cols[k].ratio = xcalloc((size_t)g->n, sizeof(*cols[k].ratio));
		flagged += fill_column(c, kr, start, order, g->n, k, thr, per_rep, tmp,
				       c->b->summary[k], &cols[k]);
	}
	print_blocks(f, c, g, order, cols, nm, width, col, cnt);
	free(cnt);
	if (flagged)
		fprintf(f, "! CV above %g%% (--cv-warn): treat that median with care\n", 100 * thr);
	if (few)
		fprintf(f, "* fewer than %d valid repetitions: too few for the U test to reach "
			   "p < 0.05, no verdict\n", ts_min_reps());
	print_splits(f, c, g, order, split);
	if (!c->b->summary_by)
		print_probe_classes(f, kr, start, order, g);
	print_fixed(f, c, g, order, cols, width);
	if (!c->b->summary_by && g->n > 1 && nk)
	{
		char why[320];
		print_changes(f, c, kr, start, order, g, width,
			      desc_note_instead(c->b->summary_note.only_if,
						t->note_absent || !*t->note_val ? NULL
										: t->note_val,
						why, sizeof(why)));
	}
	if (c->b->summary_by && nk)
		flag_configs(f, c, kr, thr);
	for (int k = 0; k < nm; k++) {
		free(cols[k].cell);
		free(cols[k].ratio);
	}
	free(per_rep);
	free(tmp);
	free(order);
	free(start);
	if (c->b->summary_by)
		summary_by_free(&shown);
}

struct summary {
	const struct bench_ctx *c;
	struct kept_rows kr;
	struct sum_lines g;
	struct hitm_seen hs;
	struct tally t;
	double *prim; /* per variant, reps values: the primary metric of its valid repetitions */
	int *nprim;
};

struct summary *summary_new(const struct bench_ctx *c)
{
	struct summary *s = xcalloc(1, sizeof(*s));
	size_t n = (size_t)c->reps * (size_t)c->nvar * (size_t)c->attempts + 1,
	       nv = (size_t)c->nvar + 1;
	s->c = c;
	/* a multiple of 8 (struct kept holds doubles): the next record's doubles stay aligned */
	s->kr.size = sizeof(struct kept) + (size_t)nmetrics(c->b) * sizeof(double);
	s->kr.at = xcalloc(n, s->kr.size);
	s->hs.var = xcalloc(n, sizeof(int));
	s->hs.val = xcalloc(n, sizeof(double));
	s->hs.ok = xcalloc(n, 1);
	s->t.valid = xcalloc(nv, sizeof(int));
	s->t.reps = xcalloc(nv, sizeof(int));
	s->t.attempts = xcalloc(nv, sizeof(int));
	s->t.invalid = xcalloc(nv, sizeof(int));
	s->t.group = xcalloc(nv, sizeof(int));
	s->t.rounds = xcalloc(nv, sizeof(int));
	s->t.stop = xcalloc(nv, sizeof(enum reps_stop));
	s->t.width = xcalloc(nv, sizeof(double));
	if (c->reps_auto) /* only --reps auto asks for them (summary_primary) */
		s->prim = xcalloc(nv * ((size_t)c->reps + 1), sizeof(double));
	s->nprim = xcalloc(nv, sizeof(int));
	if (c->b->split.cols && c->b->summary_by) {
		s->t.vattr = xcalloc(nv, sizeof(long));
		for (int v = 0; v < c->nvar; v++)
			s->t.vattr[v] = -1;
	}
	for (int v = 0; v < c->nvar; v++)
		s->t.group[v] = c->b->summary_by ? -1 : v;
	if (!c->b->summary_by)
		for (int v = 0; v < c->nvar; v++)
			group_add(&s->g, c->var[v].name, v);
	return s;
}

void summary_add(struct summary *s, const struct row *r, int var, int rep, int attempt, int valid,
		 int final)
{
	const struct bench_ctx *c = s->c;
	s->t.attempts[var]++;
	s->t.invalid[var] += !valid;
	s->t.valid[var] += valid;
	s->t.reps[var] += final;
	if (s->prim && valid && c->b->summary && c->b->summary[0] && s->nprim[var] < c->reps) {
		int ok;
		double v = row_num(r, c->b->summary[0], &ok);
		if (ok)
			s->prim[(size_t)var * ((size_t)c->reps + 1) + (size_t)s->nprim[var]++] = v;
	}
	if (valid && c->b->summary_note.only_if) {
		const char *v = row_get(r, c->b->summary_note.only_if);
		if (!v)
			s->t.note_absent = 1;
		else if (!*s->t.note_val || !strcmp(s->t.note_val, "yes"))
			snprintf(s->t.note_val, sizeof(s->t.note_val), "%s", v);
	}
	if (s->t.vattr && valid)
		s->t.vattr[var] = bench_split_attr(c->b, r);
	if (s->t.group[var] < 0) /* a line per group even when none of its rows is valid */
		s->t.group[var] = group_of(c, &s->g, r, var);
	if (!valid && !opt_flag(c->o, "keep-invalid"))
		return;
	/* one valid row per repetition; with --keep-invalid each attempt is a value of its own */
	keep(c, &s->g, kr_at(&s->kr, s->kr.n++), r, var,
	     opt_flag(c->o, "keep-invalid") ? rep * c->attempts + attempt - 1 : rep, valid);
	hitm_seen_add(&s->hs, r, var);
}

int summary_primary(const struct summary *s, int var, double *out, int max)
{
	int n = s->nprim[var] < max ? s->nprim[var] : max;
	memcpy(out, s->prim + (size_t)var * ((size_t)s->c->reps + 1), (size_t)n * sizeof(double));
	return n;
}

void summary_stopped(struct summary *s, int var, enum reps_stop why, double width, int rounds)
{
	s->t.stop[var] = why;
	s->t.width[var] = width;
	s->t.rounds[var] = rounds;
}

void summary_print(struct summary *s, FILE *f)
{
	print_summary(f, s->c, &s->kr, &s->g, &s->t);
	if (s->c->reps_auto)
		print_auto(f, s->c, s->t.stop, s->t.width, s->t.rounds);
	counters_summary(f, s->hs.src, s->hs.why, s->c, s->hs.var, s->hs.val, s->hs.ok, s->hs.n);
	counters_seen_print(f, &s->hs.cs);
}

void summary_free(struct summary *s)
{
	for (int i = 0; i < s->g.n; i++)
		free(s->g.label[i]);
	free(s->g.label);
	free(s->g.first_var);
	free(s->kr.at);
	hitm_seen_free(&s->hs);
	free(s->t.valid);
	free(s->t.reps);
	free(s->t.attempts);
	free(s->t.invalid);
	free(s->t.group);
	free(s->t.rounds);
	free(s->t.stop);
	free(s->t.width);
	free(s->t.vattr);
	free(s->prim);
	free(s->nprim);
	free(s);
}

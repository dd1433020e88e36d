/* The run summary: the analysis of a result set's files, the same for the run that has just written
 * them and for `c2cbench summary FILE` (analysis/runsum.h). */
#include "analysis/runsum.h"
#include "analysis/resultset.h"
#include "analysis/runsum_parts.h"
#include "analysis/runsum_int.h"
#include "lib/csvstream.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include "stats/twosample.h"
#include "schema/desc.h"
#include "schema/meta.h"
#include "schema/probeclass.h"
#include "stats/stats.h"
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
static int group_of(const struct rs_ctx *c, struct sum_lines *g, const struct table *r, int var)
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
		const char *v = rs_get(r, cols[i]);
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

static void keep(const struct rs_ctx *c, struct sum_lines *g, struct kept *k,
		 const struct table *r, int var, int rep, int valid)
{
	int ok;
	k->ok = 0;
	k->var = var;
	k->rep = rep;
	k->valid = valid;
	k->group = group_of(c, g, r, var);
	const char *pb = rs_get(r, "probe_before_ns"), *pa = rs_get(r, "probe_after_ns");
	double b = pb && strcmp(pb, "NA") ? atof(pb) : -1,
	       a = pa && strcmp(pa, "NA") ? atof(pa) : -1;
	k->probe = probe_latency(b > 0 ? b : -1, a > 0 ? a : -1);
	for (int m = 0; m < nmetrics(c->b); m++) {
		k->v[m] = rs_num(r, c->b->summary[m], &ok);
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
static void flag_configs(FILE *f, const struct rs_ctx *c, struct kept_rows *kr, double thr)
{
	int nk = kr->n;
	int nm = nmetrics(c->b), bad = 0, nconf = 0, worst[3] = { -1, -1, -1 };
	double wcv[3] = {0};
	sort_n(kr->at, (size_t)nk, kr->size, by_var_rep);
	int most = 0; /* a variant's values are at most its rows kept, whatever the .meta says */
	for (int i = 0, j; i < nk; i = j) {
		for (j = i; j < nk && kr_at(kr, j)->var == kr_at(kr, i)->var; j++)
			;
		most = j - i > most ? j - i : most;
	}
	double *v = xcalloc((size_t)most + 1, sizeof(double));
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
	/* the bench's summary_note_if column over the valid rows: "yes" while every one says yes,
	 * else the first other value; "" before a valid row; unset (NULL) when absent from one */
	char note_val[256];
	int note_absent;
	long *vattr; /* per variant: the bench's split_attr of its rows (NULL: it has none) */
};

static void group_counts(const struct rs_ctx *c, const struct tally *t, int gi, int *valid,
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
static void print_header(FILE *f, const struct rs_ctx *c, const struct tally *t,
			 const char *base)
{
	int att = 0, inv = 0;
	for (int v = 0; v < c->nvar; v++) {
		att += t->attempts[v];
		inv += t->invalid[v];
	}
	int known = c->rf && c->rf->known; /* an older .meta: the settings come from the rows */
	if (c->reps_auto)
		fprintf(f, "\n%s: --reps auto", c->b->name);
	else
		fprintf(f, known ? "\n%s: %d repetition(s) requested"
				 : "\n%s: up to %d repetition(s) in its rows",
			c->b->name, c->reps);
	fprintf(f, "; %d of %d attempt(s) invalid\n", inv, att);
	if (!known)
		fprintf(f, "  (its .meta does not record the run's settings: they are read from "
			   "its rows)\n");
	if (c->reps_auto)
		fprintf(f,
			"  until the 95%% CI of each median of %s is within %g%%, %d..%d "
			"repetitions, %g s\n",
			c->b->summary[0], 100 * c->autocfg->ci_width, REPS_AUTO_MIN,
			c->autocfg->max_reps, c->autocfg->max_s);
	if (inv) /* the attempts allowed, or for an older set those its rows show */
		fprintf(f, "  (docs/validity.md; %s %d%s; reasons in invalid_reason)\n",
			known ? "each repetition is tried up to --max-attempts"
			      : "its rows show up to",
			c->attempts, known ? "" : " attempt(s) a repetition");
	fprintf(f, "median [min..max] (CV) over %s repetitions, and ratio of medians to '%s'\n",
		c->keep_invalid
		    ? "all attempts, invalid ones included (--keep-invalid),"
		    : "valid",
		base);
}

/* With summary_by: per line, the parts its variants' values split into (runsum_split.c), or
 * NULL; a line that splits is marked " ~" (its median is of both parts). */
static char **splits(const struct rs_ctx *c, const struct kept_rows *kr, const int *start,
		     struct sum_lines *g, const struct tally *t)
{
	char **out = xcalloc((size_t)g->n + 1, sizeof(char *));
	const char *unit0 = nmetrics(c->b) ? c->b->decl_unit[0] : NULL;
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
					unit0, text, sizeof(text))) {
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

static void print_splits(FILE *f, const struct rs_ctx *c, const struct sum_lines *g,
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
				 "(docs/report.md#classes-that-split): the line gets no median, "
				 "which would be of them all, a value none may have",
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

static void print_summary(FILE *f, const struct rs_ctx *c, struct kept_rows *kr,
			  const struct sum_lines *all, const struct tally *t)
{
	int nk = kr->n;
	char col[160];
	struct sum_lines shown = *all, *g = &shown;
	if (!nmetrics(c->b)) {
		char line[400];
		snprintf(line, sizeof(line),
			 "%s: no summary: the bench names no summary metric this build can read "
			 "(no FILE.bench or FILE.columns declares one); compare --metric COL "
			 "compares a column",
			 c->b->name);
		fputc('\n', f);
		text_lines_from(f, 0, SUMMARY_COLS, 2, line);
		return;
	}
	if (!all->n)
		return;
	if (c->b->summary_by) /* an optional column only where it varies */
		summary_by_shown(c->b->summary_by, all, &shown, col, sizeof(col));
	else
		snprintf(col, sizeof(col), "%s", c->b->variant_col);
	int nm = nmetrics(c->b), width = (int)strlen(col), flagged = 0;
	double thr = c->cv_warn / 100;
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
	/* a line's repetitions are at most its rows: the files', whatever the .meta says */
	double *per_rep = xcalloc((size_t)most_rows(start, g->n) + 1, sizeof(double)),
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
	/* a line whose configurations split: its pooled median is a value none of them may have,
	 * so none is printed (its parts are, under the table), nor a ratio to or from it */
	for (int oi = 0; split && oi < g->n; oi++)
		for (int k = 0; split[order[oi]] && k < nm; k++) {
			snprintf(cols[k].cell[oi], sizeof(cols[k].cell[oi]), "split (~)");
			snprintf(cols[k].ratio[oi], sizeof(cols[k].ratio[oi]), "NA");
		}
	for (int oi = 1; split && split[order[0]] && oi < g->n; oi++)
		for (int k = 0; k < nm; k++)
			snprintf(cols[k].ratio[oi], sizeof(cols[k].ratio[oi]), "NA");
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
	const struct rs_ctx *c;
	struct kept_rows kr;
	struct sum_lines g;
	struct hitm_seen hs;
	struct tally t;
	int cap; /* kept records and HITM values room */
};

static const char *get_col(const void *row, const char *col)
{
	return rs_get(row, col);
}

static struct summary *summary_new(const struct rs_ctx *c)
{
	struct summary *s = xcalloc(1, sizeof(*s));
	size_t nv = (size_t)c->nvar + 1;
	s->c = c;
	/* a multiple of 8 (struct kept holds doubles): the next record's doubles stay aligned */
	s->kr.size = sizeof(struct kept) + (size_t)nmetrics(c->b) * sizeof(double);
	/* room for every attempt the run could write, zeroed on demand (calloc): a 768-PU matrix's
	 * records are never copied to grow; past 2^24 (a .meta's word) they grow as they come */
	size_t room = (size_t)c->reps * (size_t)c->nvar * (size_t)c->attempts + 1;
	s->cap = room < (1u << 24) ? (int)room : 1 << 24;
	s->kr.at = xcalloc((size_t)s->cap, s->kr.size);
	s->hs.var = xcalloc((size_t)s->cap, sizeof(int));
	s->hs.val = xcalloc((size_t)s->cap, sizeof(double));
	s->hs.ok = xcalloc((size_t)s->cap, 1);
	s->t.valid = xcalloc(nv, sizeof(int));
	s->t.reps = xcalloc(nv, sizeof(int));
	s->t.attempts = xcalloc(nv, sizeof(int));
	s->t.invalid = xcalloc(nv, sizeof(int));
	s->t.group = xcalloc(nv, sizeof(int));
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

static void *grow(void *p, size_t n, size_t size)
{
	p = realloc(p, n * size);
	if (!p)
		out_of_memory(n * size);
	return p;
}

static void summary_add(struct summary *s, const struct table *r, int var, int rep, int attempt,
			int valid, int final)
{
	const struct rs_ctx *c = s->c;
	s->t.attempts[var]++;
	s->t.invalid[var] += !valid;
	s->t.valid[var] += valid;
	s->t.reps[var] += final;
	if (valid && c->b->summary_note.only_if) {
		const char *v = rs_get(r, c->b->summary_note.only_if);
		if (!v)
			s->t.note_absent = 1;
		else if (!*s->t.note_val || !strcmp(s->t.note_val, "yes"))
			snprintf(s->t.note_val, sizeof(s->t.note_val), "%s", v);
	}
	if (s->t.vattr && valid)
		s->t.vattr[var] = desc_split_attr(c->b->split.cols, get_col, r);
	if (s->t.group[var] < 0) /* a line per group even when none of its rows is valid */
		s->t.group[var] = group_of(c, &s->g, r, var);
	if (!valid && !c->keep_invalid)
		return;
	if (s->kr.n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->kr.at = grow(s->kr.at, (size_t)s->cap, s->kr.size);
		s->hs.var = grow(s->hs.var, (size_t)s->cap, sizeof(int));
		s->hs.val = grow(s->hs.val, (size_t)s->cap, sizeof(double));
		s->hs.ok = grow(s->hs.ok, (size_t)s->cap, 1);
	}
	/* one valid row per repetition; with --keep-invalid each attempt is a value of its own */
	keep(c, &s->g, kr_at(&s->kr, s->kr.n++), r, var,
	     c->keep_invalid ? rep * c->attempts + attempt - 1 : rep, valid);
	hitm_seen_add(&s->hs, r, var);
}

static void summary_print(struct summary *s, FILE *f)
{
	print_summary(f, s->c, &s->kr, &s->g, &s->t);
	if (s->c->reps_auto && s->c->rf->stop)
		print_auto(f, s->c);
	counters_summary(f, s->hs.src, s->hs.why, s->c, s->hs.var, s->hs.val, s->hs.ok, s->hs.n);
	counters_seen_print(f, &s->hs.cs);
}

static void summary_free(struct summary *s)
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
	free(s->t.vattr);
	free(s);
}

/* One result set read for its summary. */
struct rs_state {
	struct groups g;
	struct run_facts rf;
	struct rs_bench b;
	struct rs_ctx c;
	struct rs_auto autocfg;
	struct summary *s;
	int bench; /* the grouping engine's bench, -1 before the first row */
	char *csv;
};

/* The bench's facts from the grouping engine (its FILE.bench and FILE.columns, as compare reads
 * them) and the run's from its .meta. */
static void bench_of(struct rs_state *st, const struct grp_bench *gb)
{
	struct rs_bench *b = &st->b;
	const struct bench_desc *d = gb->b;
	b->name = gb->name;
	b->variant_col = gb->key_col[0];
	b->summary_by = d ? d->summary_by : NULL;
	b->summary_note.text = d ? d->summary_note : NULL;
	b->summary_note.only_if = d ? d->summary_note_if : NULL;
	b->split.cols = d ? d->split_cols : NULL;
	b->split.name = d ? d->split_name : NULL;
	int k = 0;
	for (int m = 0; d && d->summary && d->summary[m] && k < SUMMARY_MAX; m++)
		for (int i = 0; i < gb->nmet; i++)
			if (!strcmp(gb->metric[i], d->summary[m])) {
				b->summary[k] = gb->metric[i];
				b->dir[k] = gb->direction[i];
				b->unit[k] = gb->unit[i];
				b->decl_unit[k] = gb->decl_unit ? gb->decl_unit[i] : NULL;
				b->in_verdict[k] = gb->in_verdict[i];
				b->predict[k++] = gb->predict[i];
			}
}

/* Settings an older set did not record: from its rows (stream) and the defaults of its time. */
static int facts_from_rows(struct rs_state *st, char *err)
{
	struct csvs cs;
	if (csvs_open(&cs, st->csv, err))
		return -1;
	int rc = csvs_next(&cs, err), vc = -1, rc_rep = -1, rc_att = -1;
	for (int i = 0; rc > 0 && i < cs.nf; i++) {
		const char *h = csvs_field(&cs, i);
		vc = !strcmp(h, st->b.variant_col) ? i : vc;
		rc_rep = !strcmp(h, "rep") ? i : rc_rep;
		rc_att = !strcmp(h, "attempt") ? i : rc_att;
	}
	st->rf.reps = st->rf.attempts = 1;
	st->rf.cv_warn = 5;
	while (rc > 0 && (rc = csvs_next(&cs, err)) > 0) {
		if (vc >= 0 && run_facts_var(&st->rf, csvs_field(&cs, vc)) < 0)
			run_facts_add_var(&st->rf, csvs_field(&cs, vc));
		int rep = rc_rep >= 0 ? atoi(csvs_field(&cs, rc_rep)) : 0,
		    att = rc_att >= 0 ? atoi(csvs_field(&cs, rc_att)) : 1;
		st->rf.reps = rep + 1 > st->rf.reps ? rep + 1 : st->rf.reps;
		st->rf.attempts = att > st->rf.attempts ? att : st->rf.attempts;
	}
	csvs_close(&cs);
	if (rc < 0)
		return -1;
	/* the bench's declared order first (its baseline), then the rest as the rows name them */
	const struct bench_desc *d = st->g.bench[st->bench].b;
	char **was = st->rf.var;
	int n = st->rf.nvar, k = 0;
	char **now = xcalloc((size_t)n + 1, sizeof(char *));
	for (int i = 0; d && d->variant_order && d->variant_order[i]; i++)
		for (int v = 0; v < n; v++)
			if (was[v] && !strcmp(was[v], d->variant_order[i])) {
				now[k++] = was[v];
				was[v] = NULL;
			}
	for (int v = 0; v < n; v++)
		if (was[v])
			now[k++] = was[v];
	memcpy(was, now, (size_t)n * sizeof(char *));
	free(now);
	run_facts_reindex(&st->rf);
	return 0;
}

static int start(struct rs_state *st, const struct grp_row *r, char *err)
{
	st->bench = r->bench;
	bench_of(st, &st->g.bench[st->bench]);
	const char *sv = rs_get(r->one, "schema_version");
	snprintf(st->b.absent_why, sizeof(st->b.absent_why), "not recorded%s%.16s",
		 sv ? ", schema " : "", sv ? sv : "");
	for (int k = 0; k < nmetrics(&st->b); k++) /* the header is the file's: one row tells */
		st->b.absent[k] = !rs_get(r->one, st->b.summary[k]);
	if (!st->rf.known && facts_from_rows(st, err))
		return -1;
	struct rs_ctx *c = &st->c;
	c->b = &st->b;
	c->nvar = st->rf.nvar;
	c->var = xcalloc((size_t)c->nvar + 1, sizeof(*c->var));
	for (int v = 0; v < c->nvar; v++)
		c->var[v].name = st->rf.var[v];
	c->reps = st->rf.reps;
	c->attempts = st->rf.attempts;
	c->reps_auto = st->rf.reps_auto;
	c->keep_invalid = st->rf.keep_invalid;
	c->cv_warn = st->rf.cv_warn;
	st->autocfg = (struct rs_auto){ st->rf.ci_width, st->rf.max_reps, st->rf.max_s };
	c->autocfg = &st->autocfg;
	c->rf = &st->rf;
	st->s = summary_new(c);
	return 0;
}

/* Each row the engine files, valid or not: kept as the summary needs it. */
static int on_row(void *arg, const struct grp_row *r, char *err)
{
	struct rs_state *st = arg;
	if (st->bench < 0 && start(st, r, err))
		return -1;
	if (r->bench != st->bench)
		return err_set(err,
			       "%s: rows of benches %s and %s; accepted: a run's CSV, one bench",
			       st->csv, st->b.name, st->g.bench[r->bench].name);
	const char *name = rs_get(r->one, st->b.variant_col), *rp = rs_get(r->one, "rep"),
		   *at = rs_get(r->one, "attempt");
	int var = name ? run_facts_var(&st->rf, name) : -1;
	if (var < 0)
		return err_set(err,
			       "%s:%ld: %s '%.40s' is not a variant its .meta lists; accepted: the "
			       "run's own rows",
			       st->csv, r->one->line[0], st->b.variant_col, name ? name : "(none)");
	int rep = rp ? atoi(rp) : 0, attempt = at ? atoi(at) : 1;
	summary_add(st->s, r->one, var, rep < 0 ? 0 : rep, attempt < 1 ? 1 : attempt, r->valid,
		    r->valid || attempt >= st->c.attempts);
	return 0;
}

int runsum_print(FILE *f, const char *csv, char *err)
{
	struct rs_state st;
	char meta[4200];
	memset(&st, 0, sizeof(st));
	rs_cols_forget();
	st.bench = -1;
	st.csv = xstrdup(csv);
	context_meta_path(csv, meta, sizeof(meta));
	int rc = run_facts_read(&st.rf, meta, err);
	if (!rc)
		rc = groups_init(&st.g, NULL, err);
	if (!rc) {
		st.g.row = on_row;
		st.g.row_arg = &st;
		st.g.rows_only = 1;
		rc = groups_add(&st.g, csv, 0, err);
		if (!rc)
			rc = groups_finish(&st.g, err);
		if (!rc && st.s)
			summary_print(st.s, f);
		groups_free(&st.g);
	}
	if (st.s)
		summary_free(st.s);
	free(st.c.var);
	run_facts_free(&st.rf);
	free(st.csv);
	rs_cols_forget();
	fflush(f);
	return rc ? -1 : ferror(f) ? err_set(err, "cannot write the summary") : 0;
}

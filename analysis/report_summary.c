/* The report's first section: per bench and pair of machines, one line per configuration both
 * measured, with the ratio of medians, its bootstrap 95% interval and the U-test (rpt_ratio), and
 * each machine's resolved placement. A change is named only when it is significant. */
#include "analysis/report_int.h"
#include "analysis/compare.h"
#include "stats/twosample.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

#define SUM_ROWS 12 /* lines per bench and pair; the rest are in the details */

/* The placement a sample's rows resolved to ("cross-llc"), from its resolved settings. */
static void placement_of(const struct sample *s, char *out, size_t cap)
{
	const char *r = s->resolved ? strstr(s->resolved, "placement=") : NULL;
	if (!r) {
		out[0] = 0;
		return;
	}
	r += strlen("placement=");
	rpt_fmt(out, cap, "%.*s", (int)strcspn(r, " "), r);
}

/* Add a placement to a machine's list of them ("same-socket, cross-llc"), once. */
static void note_placement(char *list, size_t cap, const struct sample *s)
{
	char pl[128];
	placement_of(s, pl, sizeof(pl));
	if (!*pl)
		return;
	for (const char *c = list; (c = strstr(c, pl)); c++)
		if ((c == list || c[-2] == ',') && (c[strlen(pl)] == 0 || c[strlen(pl)] == ','))
			return;
	size_t n = strlen(list);
	rpt_fmt(list + n, cap - n, "%s%s", n ? ", " : "", pl);
}

struct pairsum {
	struct rep *p;
	int a, b, rows, changed, open, dry; /* dry: count and collect, write nothing */
	const char *bench;
	char pl[2][512];
	double
	    *seen; /* per line: a fingerprint of both sides' values (the same rows in two views) */
	int nseen;
	struct ts_stat *st; /* per line, in order: computed in the dry pass, decided on the table */
	int nst, line;
	const char *method; /* the table's adjustment (ts_adjust) */
	int ntest;
	int eb; /* the grouping engine's bench, -1 none: its verdict metrics */
};

/* The table's tests adjusted together (rpt_decide), and the count of significant ones: the lead
 * line's "N of M differ". */
static void decide_table(struct pairsum *ps)
{
	ps->method = rpt_decide(ps->st, ps->nst, &ps->ntest);
	ps->changed = 0;
	for (int i = 0; i < ps->nst; i++)
		ps->changed += ps->st[i].significant;
}

/* A fingerprint of a list of values: its count, sum and sum of squares. */
static void vec_fp(const struct vec *v, double *out)
{
	out[0] = (double)v->n, out[1] = 0, out[2] = 0;
	for (size_t i = 0; i < v->n; i++)
		out[1] += v->v[i], out[2] += v->v[i] * v->v[i];
}

/* Have these two sides been summarised already (the same repetitions drawn by another view)? */
static int seen_before(struct pairsum *ps, const struct vec *a, const struct vec *b)
{
	double fp[6];
	vec_fp(a, fp);
	vec_fp(b, fp + 3);
	for (int i = 0; i < ps->nseen; i++)
		if (!memcmp(ps->seen + 6 * i, fp, sizeof(fp)))
			return 1;
	ps->seen = realloc(ps->seen, (size_t)(ps->nseen + 1) * sizeof(fp));
	if (!ps->seen)
		die(1, "out of memory");
	memcpy(ps->seen + 6 * ps->nseen++, fp, sizeof(fp));
	return 0;
}

static void sum_head(struct pairsum *ps)
{
	static const char *const hdr[] = {"configuration", "metric",	 "A median", "B median",
					  "B/A [95% CI]",  "p (U-test)", "verdict"};
	if (ps->open)
		return;
	doc_table(&ps->p->doc, 7, hdr);
	ps->open = 1;
}

/* One line: B against A on metric mt over the values a and b. */
static void sum_line(struct pairsum *ps, const char *what, const struct view_metric *mt,
		     const struct vec *a, const struct vec *b)
{
	struct rratio o;
	char ratio[128];
	if (seen_before(ps, a, b))
		return;
	if (ps->dry) { /* every line's test first: the verdicts use the table's adjusted p */
		ps->st = realloc(ps->st, (size_t)(ps->nst + 1) * sizeof(*ps->st));
		if (!ps->st)
			die(1, "out of memory");
		struct ts_stat *st = &ps->st[ps->nst++];
		ts_compute(a->v, a->n, b->v, b->n, st);
		if (ps->eb >= 0) { /* a metric outside the bench's verdict: descriptive */
			const struct grp_bench *gb = &ps->p->g.bench[ps->eb];
			st->descriptive = 1;
			for (int m = 0; m < gb->nmet; m++)
				if (!strcmp(gb->metric[m], mt->col))
					st->descriptive = !gb->in_verdict[m];
		}
		ps->rows++;
		return;
	}
	rpt_ratio_of(mt, &ps->st[ps->line], ps->method, &o);
	ps->changed += o.significant;
	ps->line++;
	if (ps->rows++ >= SUM_ROWS)
		return;
	sum_head(ps);
	rpt_fmt(ratio, sizeof(ratio), "%s %s", o.ratio, o.ci);
	char met[256];
	rpt_fmt(met, sizeof(met), "%s (%s)", mt->label, mt->unit);
	const char *row[] = {what, met, o.med_a, o.med_b, ratio, o.p, o.verdict};
	doc_row(&ps->p->doc, row);
}

/* Is view metric k of v one the summary judges: a verdict metric of the bench, or the view's first
 * when it has none? */
static int judged(const struct pairsum *ps, const struct bench_view *v, int k)
{
	const struct grp_bench *gb = ps->eb >= 0 ? &ps->p->g.bench[ps->eb] : NULL;
	int any = 0, mine = 0;
	for (int j = 0; gb && v->metrics[j].col; j++)
		for (int m = 0; m < gb->nmet; m++)
			if (!strcmp(gb->metric[m], v->metrics[j].col) && gb->in_verdict[m]) {
				any = 1;
				mine |= j == k;
			}
	return any ? mine : k == 0;
}

/* Matrix views: per configuration, facet and class, the repetitions of all its pairs pooled, for
 * each judged metric. */
static void sum_matrix(struct pairsum *ps, const struct bench_view *v, long i0, long i1)
{
	struct rep *p = ps->p;
	char what[1024];
	for (long i = i0; i < i1; i++) {
		const struct sample *s = &p->s[i];
		int first = 1;
		for (long j = i0; j < i && first; j++) /* each (configuration, facet, class) once */
			first = strcmp(p->s[j].gkey, s->gkey) || strcmp(p->s[j].facet, s->facet) ||
				strcmp(p->s[j].cls, s->cls);
		if (!first)
			continue;
		for (int k = 0; v->metrics[k].col && k < RPT_METRICS; k++) {
			if (!judged(ps, v, k))
				continue;
			struct vec side[2] = {{0}};
			for (long j = i0; j < i1; j++) {
				const struct sample *t = &p->s[j];
				int w = t->m == ps->a ? 0 : t->m == ps->b ? 1 : -1;
				if (w < 0 || strcmp(t->gkey, s->gkey) ||
				    strcmp(t->facet, s->facet) || strcmp(t->cls, s->cls))
					continue;
				for (size_t q = 0; q < t->val[k].n; q++)
					vec_push(&side[w], t->val[k].v[q]);
			}
			if (side[0].n && side[1].n) {
				char note[1200]; /* a class median in an empty gap is never alone */
				rpt_split_note(p, v, ps->a, ps->b, s, i0, i1, note, sizeof(note));
				rpt_fmt(what, sizeof(what), "%s: %s %s, %s %s%s",
					v->title ? v->title : "matrix", v->facet_col, s->facet,
					v->class_col, s->cls, note);
				sum_line(ps, what, &v->metrics[k], &side[0], &side[1]);
			}
			free(side[0].v);
			free(side[1].v);
		}
	}
}

/* The lines of one bench for machines a and b (none written when ps->dry). */
static void sum_pass(struct pairsum *ps, int bi)
{
	const struct rbench *rb = &ps->p->bench[bi];
	for (int vi = 0; rb->views[vi].kind; vi++) {
		long i0, i1;
		if (!rpt_view_range(ps->p, bi, vi, &i0, &i1))
			continue;
		if (rb->views[vi].kind == VIEW_MATRIX)
			sum_matrix(ps, &rb->views[vi], i0, i1);
		else /* bars and lines: compare's lines (cmp_table) */
			for (long i = i0; i < i1; i++) {
				const struct sample *x = &ps->p->s[i];
				if (x->m == ps->a || x->m == ps->b)
					note_placement(ps->pl[x->m == ps->b], sizeof(ps->pl[0]), x);
			}
	}
}

/* Does machine m have a valid sample of class cls in rows i0..i1? */
static int has_class(const struct rep *p, long i0, long i1, int m, const char *cls)
{
	for (long j = i0; j < i1; j++)
		if (p->s[j].m == m && p->s[j].val[0].n && !strcmp(p->s[j].cls, cls))
			return 1;
	return 0;
}

/* Matrix views (pingpong): the classes only one of the two machines measured, in one line, after
 * the line lead when there is one. Return whether there were any. */
static int class_only(struct rep *p, int bi, int a, int b, const char *lead)
{
	const struct rbench *rb = &p->bench[bi];
	char list[1024] = "";
	for (int vi = 0; rb->views[vi].kind; vi++) {
		long i0, i1;
		if (rb->views[vi].kind != VIEW_MATRIX || !rpt_view_range(p, bi, vi, &i0, &i1))
			continue;
		for (long i = i0; i < i1; i++) {
			const struct sample *s = &p->s[i];
			int k = s->m == a ? 0 : s->m == b ? 1 : -1;
			if (k < 0 || !s->val[0].n || has_class(p, i0, i1, k ? a : b, s->cls))
				continue;
			char item[300];
			rpt_fmt(item, sizeof(item), "%s (%s only)", s->cls, p->mach[s->m].label);
			if (!strstr(list, item)) {
				size_t n = strlen(list);
				rpt_fmt(list + n, sizeof(list) - n, "%s%s", n ? ", " : "", item);
			}
		}
	}
	if (*list)
		doc_p(&p->doc, "%s%sClasses measured on one machine only, not compared: %s.",
		      lead ? lead : "", lead ? " " : "", list);
	return *list != 0;
}


/* The engine's bench of report's bench bi, -1 when none. */
static int engine_bench(const struct rep *p, int bi)
{
	for (int k = 0; k < p->g.nbench; k++)
		if (!strcmp(p->g.bench[k].name, p->bench[bi].name))
			return k;
	return -1;
}

/* compare's lines of one bench, as a table: the same join, family and words. */
struct ctab {
	struct rep *p;
	int bench, rows, open;
};

static int ctab_line(struct ctab *t, const struct cmp *c, const struct cmp_line *l)
{
	static const char *const hdr[] = {"configuration", "metric", "A median", "B median",
					  "B/A [95% CI]",  "p (U-test)", "verdict"};
	if (c->g.group[l->group].bench != t->bench || !l->a || !l->b)
		return 0;
	if (t->rows++ >= SUM_ROWS)
		return 0;
	if (!t->open++)
		doc_table(&t->p->doc, 7, hdr);
	const struct grp_bench *bn = &c->g.bench[t->bench];
	char lab[512], ma[64], mb[64], r[128], pv[96];
	const char *unit = bn->unit[l->metric];
	groups_label(&c->g, l->group, lab, sizeof(lab));
	rpt_num(l->s.ma, unit, ma, sizeof(ma));
	rpt_num(l->s.mb, unit, mb, sizeof(mb));
	if (!l->s.na)
		rpt_fmt(ma, sizeof(ma), "NA");
	if (!l->s.nb)
		rpt_fmt(mb, sizeof(mb), "NA");
	if (l->s.has_ci)
		rpt_fmt(r, sizeof(r), "%.2f [%.2f, %.2f]", l->s.ratio, l->s.lo, l->s.hi);
	else
		rpt_fmt(r, sizeof(r), l->s.has_ratio ? "%.2f" : "NA", l->s.ratio);
	if (ts_is_test(&l->s))
		rpt_fmt(pv, sizeof(pv), "%.3g (%s %.3g)", l->s.p, l->s.method, l->s.p_adj);
	else
		rpt_fmt(pv, sizeof(pv), l->s.has_p ? "%.3g" : "NA", l->s.p);
	const char *row[] = {lab, bn->metric[l->metric], ma, mb, r, pv,
			     strncmp(l->verdict, "B ", 2) ? l->verdict : l->verdict + 2};
	doc_row(&t->p->doc, row);
	return 0;
}

/* One bench, machines a and b: where each ran, compare's lines for its bar and line views, then
 * its matrix views' classes. Return 0 when they have no configuration in common. */
static int sum_pair(struct rep *p, int bi, int a, int b, const struct rpt_plines *pl)
{
	const struct rbench *rb = &p->bench[bi];
	int eb = engine_bench(p, bi), matrix = 0, n = 0;
	struct pairsum ps = {.p = p, .a = a, .b = b, .bench = rb->name, .dry = 1, .eb = eb};
	for (int vi = 0; rb->views[vi].kind; vi++)
		matrix |= rb->views[vi].kind == VIEW_MATRIX;
	struct cmp c;
	struct ctab t = {.p = p, .bench = eb};
	cmp_pair(&c, &p->g, a, b);
	sum_pass(&ps, bi);
	if (!matrix && eb >= 0) { /* compare's lines: the configurations both measured */
		for (int gi = 0; gi < c.g.ngroup; gi++)
			n += c.g.group[gi].bench == eb && groups_cell(&c.g, gi, a) &&
			     groups_cell(&c.g, gi, b);
	}
	if (!ps.rows && !n) {
		char lead[512];
		rpt_fmt(lead, sizeof(lead),
			"%s, A = %s, B = %s: no configuration measured on both.", rb->name,
			p->mach[a].label, p->mach[b].label);
		free(ps.seen);
		cmp_pair_free(&c);
		return class_only(p, bi, a, b, lead);
	}
	decide_table(&ps);
	for (int vi = 0; rb->views[vi].kind; vi++) /* pingpong: each pair is its own placement */
		for (int k = 0; k < 2 && rb->views[vi].kind == VIEW_MATRIX; k++)
			if (!*ps.pl[k])
				rpt_fmt(ps.pl[k], sizeof(ps.pl[k]), "per pair, by %s",
					rb->views[vi].class_col);
	doc_p(&p->doc, "%s, A = %s (placement %s), B = %s (placement %s):", rb->name,
	      p->mach[a].label, *ps.pl[0] ? ps.pl[0] : "not recorded", p->mach[b].label,
	      *ps.pl[1] ? ps.pl[1] : "not recorded");
	if (*ps.pl[0] && *ps.pl[1] && strcmp(ps.pl[0], ps.pl[1]))
		doc_p(&p->doc,
		      "The machines resolved the placement differently (A %s, B %s): each change "
		      "below includes that difference, not only the machine's.",
		      ps.pl[0], ps.pl[1]);
	class_only(p, bi, a, b, NULL);
	if (n) {
		for (int i = 0; i < pl->n; i++)
			ctab_line(&t, &c, &pl->l[i]);
		if (t.open)
			doc_table_end(&p->doc);
		if (t.rows > SUM_ROWS)
			doc_p(&p->doc, "... and %d more line(s): c2cbench compare on the two "
				       "machines' sets gives every one.", t.rows - SUM_ROWS);
	}
	cmp_pair_free(&c);
	if (!ps.rows) {
		free(ps.seen);
		free(ps.st);
		return 1;
	}
	int rows = ps.rows;
	if (ps.ntest > 1)
		doc_p(&p->doc, "This table's classes pool every pair of a class: its %d tests are "
			       "their own family (%s; the p column shows both).",
		      ps.ntest, ps.method);
	ps.rows = ps.changed = ps.dry = ps.nseen = ps.line = 0;
	sum_pass(&ps, bi);
	free(ps.seen);
	free(ps.st);
	if (ps.open)
		doc_table_end(&p->doc);
	if (rows > SUM_ROWS)
		doc_p(&p->doc, "... and %d more configuration(s): see %s below.", rows - SUM_ROWS,
		      rb->name);
	return 1;
}


void rpt_summary(struct rep *p)
{
	doc_h(&p->doc, 2, "Summary");
	int sets = rpt_sets_first(p);
	if (p->nm < 2) {
		doc_p(&p->doc, "One machine (%s)%s: nothing to compare; its results follow.",
		      p->nm ? p->mach[0].label : "none",
		      p->nm && !p->mach[0].valid ? ", which measured nothing" : "");
		rpt_probe_summary(p);
		return;
	}
	doc_p(&p->doc,
	      "A line per bench and pair of machines, from the same lines, families and words as "
	      "compare: how many tests of the bench's verdict metrics changed, which way, and the "
	      "largest change with its interval; \"no change beyond +-%g%%\" only where every "
	      "interval shows it; otherwise inconclusive, with the reason (docs/validity.md, \"The "
	      "verdict\")%s.",
	      100 * TS_MARGIN, sets ? "; the sets named above first" : "");
	rpt_preset_diffs(p); /* a preset's entry run differently: said before the lines */
	struct rpt_plines *lines = xcalloc((size_t)p->nm * (size_t)p->nm + 1, sizeof(*lines));
	for (int a = 0; a < p->nm; a++)
		for (int b = a + 1; b < p->nm; b++) {
			struct cmp c;
			struct rpt_plines *pl = &lines[a * p->nm + b];
			cmp_pair(&c, &p->g, a, b);
			rpt_pair_lines(&c, pl);
			for (int gi = 0; gi < c.g.nbench; gi++)
				rpt_bench_line(p, &c, gi, a, b, pl);
			cmp_pair_free(&c);
			for (int bi = 0; bi < p->nb; bi++) /* the baseline, machines of any shape */
				rpt_baseline_pair(p, bi, a, b);
		}
	doc_h(&p->doc, 3, "Details");
	rpt_probe_summary(p);
	doc_p(&p->doc,
	      "Per bench and pair of machines, each configuration both measured: the medians of "
	      "each view's metrics, B's over A's with its bootstrap 95%% interval, and the "
	      "Mann-Whitney U-test, adjusted over the family of the view's table.");
	int any = 0;
	for (int bi = 0; bi < p->nb; bi++)
		for (int a = 0; a < p->nm; a++)
			for (int b = a + 1; b < p->nm; b++)
				any |= sum_pair(p, bi, a, b, &lines[a * p->nm + b]);
	if (!any)
		doc_p(&p->doc, "No configuration was measured on two machines: nothing to compare; "
			       "each machine's results follow.");
	for (int i = 0; i < p->nm * p->nm; i++)
		free(lines[i].l);
	free(lines);
}

/* The report's first section: per bench and pair of machines, one line per configuration both
 * measured, with the ratio of medians, its bootstrap 95% interval and the U-test (rpt_ratio), and
 * each machine's resolved placement. A change is named only when it is significant. */
#include "analysis/report_int.h"
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
		ts_compute(a->v, a->n, b->v, b->n, &ps->st[ps->nst++]);
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

/* Bar and line views: every (configuration, variant, x) both machines measured. */
static void sum_view(struct pairsum *ps, const struct bench_view *v, long i0, long i1)
{
	struct rep *p = ps->p;
	char *varying = rpt_varying(p, i0, i1), only[2048], what[2600];
	for (long i = i0; i < i1; i++) {
		const struct sample *sa = &p->s[i], *sb = NULL;
		if (sa->m != ps->a || !sa->val[0].n)
			continue;
		for (long j = i0; j < i1 && !sb; j++) {
			const struct sample *t = &p->s[j];
			if (t->m == ps->b && t->val[0].n && !strcmp(t->gkey, sa->gkey) &&
			    !strcmp(t->variant, sa->variant) && t->x == sa->x)
				sb = t;
		}
		if (!sb)
			continue;
		note_placement(ps->pl[0], sizeof(ps->pl[0]), sa);
		note_placement(ps->pl[1], sizeof(ps->pl[1]), sb);
		rpt_gkey_only(sa->gkey, varying, only, sizeof(only));
		rpt_fmt(what, sizeof(what), "%s%s%s%s%s%s%s", v->title ? v->title : "results",
			*only ? ": " : "", only, *sa->variant ? ", " : "", sa->variant,
			v->kind == VIEW_LINES && sa->xlabel ? ", " : "",
			v->kind == VIEW_LINES && sa->xlabel ? sa->xlabel : "");
		sum_line(ps, what, &v->metrics[0], &sa->val[0], &sb->val[0]);
	}
	free(varying);
}

/* Matrix views: per configuration, facet and class, the repetitions of all its pairs pooled. */
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
		struct vec side[2] = {{0}};
		for (long j = i0; j < i1; j++) {
			const struct sample *t = &p->s[j];
			int k = t->m == ps->a ? 0 : t->m == ps->b ? 1 : -1;
			if (k < 0 || strcmp(t->gkey, s->gkey) || strcmp(t->facet, s->facet) ||
			    strcmp(t->cls, s->cls))
				continue;
			for (size_t q = 0; q < t->val[0].n; q++)
				vec_push(&side[k], t->val[0].v[q]);
		}
		if (side[0].n && side[1].n) {
			char note[1200]; /* a class median in an empty gap is never shown alone */
			rpt_split_note(p, v, ps->a, ps->b, s, i0, i1, note, sizeof(note));
			rpt_fmt(what, sizeof(what), "%s: %s %s, %s %s%s",
				v->title ? v->title : "matrix", v->facet_col, s->facet,
				v->class_col, s->cls, note);
			sum_line(ps, what, &v->metrics[0], &side[0], &side[1]);
		}
		free(side[0].v);
		free(side[1].v);
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
		else
			sum_view(ps, &rb->views[vi], i0, i1);
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

/* One bench, machines a and b: who A and B are, where each ran, what changed, then the lines.
 * Return 0 when they have no configuration in common. */
static int sum_pair(struct rep *p, int bi, int a, int b)
{
	const struct rbench *rb = &p->bench[bi];
	struct pairsum ps = {.p = p, .a = a, .b = b, .bench = rb->name, .dry = 1};
	sum_pass(&ps, bi);
	if (!ps.rows) {
		char lead[512];
		rpt_fmt(lead, sizeof(lead),
			"%s, A = %s, B = %s: no configuration measured on both.", rb->name,
			p->mach[a].label, p->mach[b].label);
		free(ps.seen);
		return class_only(p, bi, a, b, lead);
	}
	decide_table(&ps);
	for (int vi = 0; rb->views[vi].kind; vi++) /* pingpong: each pair is its own placement */
		for (int k = 0; k < 2 && rb->views[vi].kind == VIEW_MATRIX; k++)
			if (!*ps.pl[k])
				rpt_fmt(ps.pl[k], sizeof(ps.pl[k]), "per pair, by %s",
					rb->views[vi].class_col);
	if (ps.changed)
		doc_p(&p->doc,
		      "%s, A = %s (placement %s), B = %s (placement %s): %d of %d configuration(s) "
		      "measured on both "
		      "differ significantly.",
		      rb->name, p->mach[a].label, *ps.pl[0] ? ps.pl[0] : "not recorded",
		      p->mach[b].label, *ps.pl[1] ? ps.pl[1] : "not recorded", ps.changed, ps.rows);
	else
		doc_p(&p->doc,
		      "%s, A = %s (placement %s), B = %s (placement %s): no significant change in "
		      "the %d configuration(s) "
		      "measured on both.",
		      rb->name, p->mach[a].label, *ps.pl[0] ? ps.pl[0] : "not recorded",
		      p->mach[b].label, *ps.pl[1] ? ps.pl[1] : "not recorded", ps.rows);
	if (*ps.pl[0] && *ps.pl[1] && strcmp(ps.pl[0], ps.pl[1]))
		doc_p(&p->doc,
		      "The machines resolved the placement differently (A %s, B %s): each change "
		      "below includes that difference, not only the machine's.",
		      ps.pl[0], ps.pl[1]);
	class_only(p, bi, a, b, NULL);
	int n = ps.rows;
	if (ps.ntest > 1)
		doc_p(&p->doc, "This table holds %d tests: each verdict uses its p adjusted over them "
			       "(%s; the p column shows both), as compare does.",
		      ps.ntest, ps.method);
	ps.rows = ps.changed = ps.dry = ps.nseen = ps.line = 0;
	sum_pass(&ps, bi);
	free(ps.seen);
	free(ps.st);
	if (ps.open)
		doc_table_end(&p->doc);
	if (n > SUM_ROWS)
		doc_p(&p->doc, "... and %d more configuration(s): see %s below.", n - SUM_ROWS,
		      rb->name);
	return 1;
}

void rpt_summary(struct rep *p)
{
	doc_h(&p->doc, 2, "Summary");
	rpt_probe_summary(p);
	if (p->nm < 2) {
		doc_p(&p->doc, "One machine (%s): nothing to compare; its results follow.",
		      p->nm ? p->mach[0].label : "none");
		return;
	}
	doc_p(&p->doc,
	      "Per bench and pair of machines, each configuration both measured: the medians of "
	      "the view's first metric, B's "
	      "over A's with its bootstrap 95%% interval, and the Mann-Whitney U-test. A change is "
	      "named only when the interval excludes 1 and p < 0.05, p adjusted over the lines of "
	      "its table (Holm; Benjamini-Hochberg over 20 lines) as compare does; otherwise \"no "
	      "significant change\". The details follow.");
	rpt_preset_diffs(p); /* a preset's entry run differently: said before the lines */
	int any = 0;
	for (int bi = 0; bi < p->nb; bi++)
		for (int a = 0; a < p->nm; a++)
			for (int b = a + 1; b < p->nm; b++) {
				any |= sum_pair(p, bi, a, b);
				any |= rpt_baseline_pair(p, bi, a, b); /* machines of any shape */
			}
	if (!any)
		doc_p(&p->doc, "No configuration was measured on two machines: nothing to compare; "
			       "each machine's results follow.");
}

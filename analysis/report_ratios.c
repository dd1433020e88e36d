/* The report's ratio tables (the detail tables of each bar, line and matrix view): every line's
 * two-sample test first (stats/twosample.h), then their p values adjusted together as the
 * summary and compare adjust theirs (Holm; Benjamini-Hochberg over 20 tests), the count of tests
 * said above the table, and each verdict decided on its adjusted p. */
#include "analysis/report_int.h"
#include "stats/twosample.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

void rpt_ratio_of(const struct view_metric *mt, const struct ts_stat *st, const char *method,
		  struct rratio *o)
{
	struct ts_stat s = *st;
	rpt_num(s.ma, mt->unit, o->med_a, sizeof(o->med_a));
	rpt_num(s.mb, mt->unit, o->med_b, sizeof(o->med_b));
	rpt_fmt(o->ratio, sizeof(o->ratio), s.has_ratio ? "%.2f" : "NA", s.ratio);
	rpt_fmt(o->ci, sizeof(o->ci), s.has_ci ? "[%.2f, %.2f]" : "NA", s.lo, s.hi);
	if (method && s.has_p && ts_is_test(&s))
		rpt_fmt(o->p, sizeof(o->p), "%.3g (%s %.3g)", s.p, method, s.p_adj);
	else
		rpt_fmt(o->p, sizeof(o->p), s.has_p ? "%.3g" : "NA", s.p);
	o->significant = s.significant;
	ts_verdict(&s, mt->higher_better ? 1 : -1, ts_is_time(mt->col, mt->unit), NULL, o->verdict,
		   sizeof(o->verdict));
}

/* Is metric col in the verdict family of the bench that has it (resultset.h in_verdict)? A column
 * no bench of the inputs lists: yes. */
static int in_verdict(const struct rep *p, const char *col)
{
	for (int b = 0; b < p->g.nbench; b++)
		for (int m = 0; m < p->g.bench[b].nmet; m++)
			if (!strcmp(p->g.bench[b].metric[m], col))
				return p->g.bench[b].in_verdict[m];
	return 1;
}

void rtab_add(struct rtab *t, const char *what, const struct view_metric *mt, int m,
	      const struct vec *a, const struct vec *b)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->line = realloc(t->line, (size_t)t->cap * sizeof(*t->line));
		t->st = realloc(t->st, (size_t)t->cap * sizeof(*t->st));
		if (!t->line || !t->st)
			die(1, "out of memory");
	}
	struct rtab_line *l = &t->line[t->n];
	l->what = xstrdup(what);
	l->mt = mt;
	l->m = m;
	ts_compute(a->v, a->n, b->v, b->n, &t->st[t->n]);
	t->st[t->n++].descriptive = !in_verdict(t->p, mt->col);
}

const char *rpt_decide(struct ts_stat *st, int n, int *ntest)
{
	const char *method = ts_family(st, n, ntest);
	return *ntest > 1 ? method : NULL;
}

void rtab_write(struct rtab *t, const char *first_col)
{
	struct rep *p = t->p;
	const char *hdr[] = {first_col,	 "metric", "baseline machine", "median",     "machine",
			     "median",	 "ratio",  "95% CI",	       "p (U-test)", "verdict"};
	const char *method = rpt_decide(t->st, t->n, &t->ntest);
	if (method)
		doc_p(&p->doc,
		      "This table holds %d tests of verdict metrics: each verdict uses its p "
		      "adjusted over them (%s; the p column shows both); a descriptive metric's "
		      "line has an interval and no test.",
		      t->ntest, method);
	else
		doc_p(&p->doc, "This table holds %d test%s: %s.", t->ntest,
		      t->ntest == 1 ? "" : "s",
		      t->ntest ? "its p is not adjusted" : "no line has the repetitions for one");
	doc_table(&p->doc, 10, hdr);
	for (int i = 0; i < t->n; i++) {
		const struct rtab_line *l = &t->line[i];
		struct rratio o;
		rpt_ratio_of(l->mt, &t->st[i], method, &o);
		const char *row[] = {l->what,	   l->mt->label, p->mach[0].label, o.med_a,
				     p->mach[l->m].label, o.med_b,	 o.ratio,	   o.ci,
				     o.p,		   o.verdict};
		doc_row(&p->doc, row);
	}
	doc_table_end(&p->doc);
	for (int i = 0; i < t->n; i++)
		free(t->line[i].what);
	free(t->line);
	free(t->st);
	memset(t, 0, sizeof(*t));
}

/* A bar or line view's tables of one chart group (report_views.c lays it out): every machine's
 * medians, a row per probe class where a sample's repetitions fall in two or more, and the ratios
 * to the first machine, adjusted over the table (report_ratios.c). */
#include "analysis/report_int.h"
#include "schema/probeclass.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

/* "median (min..max)" of a list of values, or NA. */
static void stat_text(const struct vec *v, const char *unit, char *out, size_t cap)
{
	struct rstat st = rpt_stat(v);
	char m[48], lo[48], hi[48];
	rpt_num(st.med, unit, m, sizeof(m));
	rpt_num(st.lo, unit, lo, sizeof(lo));
	rpt_num(st.hi, unit, hi, sizeof(hi));
	if (st.n)
		rpt_fmt(out, cap, "%s (%s..%s)", m, lo, hi);
	else
		rpt_fmt(out, cap, "NA");
}

/* Does any sample of the grid have valid repetitions in two or more probe classes? */
static int grid_split(const struct rgrid *g)
{
	int any = 0;
	for (int i = 0; i < g->nslot * g->nm * g->nser && !any; i++)
		if (g->cell[i]) {
			struct rclasses c;
			rpt_classes(g->cell[i], &c);
			any = c.n >= 2;
			rpt_classes_free(&c);
		}
	return any;
}

/* One sample's rows of the table: one, or with classes one per probe class (then the rows without
 * a probe latency), each with its own medians. row[0..c) is filled by the caller. */
static void sample_rows(struct rep *p, const struct rgrid *g, const struct sample *s, int split,
			int res, const char **row, int c)
{
	struct rclasses cl;
	char cell[RPT_METRICS][80], n[64], cls[80], (*lab)[64];
	rpt_classes(s, &cl);
	struct vec *part = xcalloc((size_t)(cl.n + 1) * RPT_METRICS, sizeof(struct vec));
	lab = xcalloc((size_t)cl.n + 1, sizeof(*lab));
	int np = 1;
	for (int q = 0; q < g->nmet; q++) {
		int k = rpt_class_parts(s, q, &cl, part + (size_t)q * (size_t)(cl.n + 1), lab);
		np = k > np ? k : np;
	}
	if (cl.n >= 2 && cl.unmeasured)
		np = cl.n + 1;
	for (int i = 0; i < np; i++) {
		int k = c;
		if (split) {
			if (cl.n < 1)
				rpt_fmt(cls, sizeof(cls), "not measured");
			else if (i < cl.n)
				rpt_fmt(cls, sizeof(cls), "%.0f-%.0f ns%s", cl.lo[i], cl.hi[i],
					cl.n < 2 && cl.unmeasured ? ", some not measured" : "");
			else
				rpt_fmt(cls, sizeof(cls), "not measured");
			row[k++] = cls;
		}
		for (int q = 0; q < g->nmet; q++) {
			stat_text(&part[(size_t)q * (size_t)(cl.n + 1) + (size_t)i],
				  g->v->metrics[q].unit, cell[q], sizeof(cell[q]));
			row[k++] = cell[q];
		}
		if (res)
			row[k++] = s->resolved ? s->resolved : "";
		if (cl.n >= 2)
			rpt_fmt(n, sizeof(n), "%ld of %ld", i < cl.n ? cl.count[i] : cl.unmeasured,
				s->rows);
		else
			rpt_fmt(n, sizeof(n), "%ld of %ld", s->valid, s->rows);
		row[k++] = n;
		doc_row(&p->doc, row);
	}
	for (int i = 0; i < (cl.n + 1) * RPT_METRICS; i++)
		free(part[i].v);
	free(part);
	free(lab);
	rpt_classes_free(&cl);
}

/* The table of one chart group: a row per machine, slot and series (and probe class, where a
 * sample's repetitions fall in two or more), every metric. */
void rpt_group_table(struct rep *p, const struct rgrid *g)
{
	const char *hdr[RPT_METRICS + 6];
	char head[RPT_METRICS][160], x[96];
	int nc = 0, split = grid_split(g);
	hdr[nc++] = "machine";
	hdr[nc++] = g->lines   ? g->v->x_label ? g->v->x_label : "x"
		    : g->rb->b ? g->rb->b->variant_col
			       : "variant";
	if (g->lines && g->nser > 1)
		hdr[nc++] = g->rb->b ? g->rb->b->variant_col : "variant";
	if (split)
		hdr[nc++] = "probe class";
	for (int k = 0; k < g->nmet; k++) {
		rpt_fmt(head[k], sizeof(head[k]), "%s (%s)", g->v->metrics[k].label,
			g->v->metrics[k].unit);
		hdr[nc++] = head[k];
	}
	int res = 0; /* a column of what each machine resolved its settings to, when the bench has
			such settings */
	for (int k = 0; k < g->nslot; k++)
		for (int j = 0; j < g->nser; j++)
			for (int m = 0; m < g->nm; m++) {
				const struct sample *s = *rpt_cell_at(g, k, m, j);
				res |= s && s->resolved;
			}
	if (res)
		hdr[nc++] = "resolved";
	hdr[nc++] = "valid of rows";
	doc_p(&p->doc, "Each value: the median over valid repetitions (the lowest..the highest).");
	if (split)
		doc_p(&p->doc,
		      "Probe class: where a machine's valid repetitions of a line ran on "
		      "placements whose probe latencies (the first probed pair's) cluster more "
		      "than %gx apart (docs/validity.md), each class has its own row and its own "
		      "ratios below, never one median over both; the charts pool them.",
		      PROBE_CLASS_GAP);
	doc_table(&p->doc, nc, hdr);
	for (int k = 0; k < g->nslot; k++)
		for (int j = 0; j < g->nser; j++)
			for (int m = 0; m < g->nm; m++) {
				const struct sample *s = *rpt_cell_at(g, k, m, j);
				const char *row[RPT_METRICS + 6];
				int c = 0;
				if (!s)
					continue;
				row[c++] = p->mach[m].label;
				rpt_fmt(x, sizeof(x), "%s", g->slot_name[k]);
				row[c++] = x;
				if (g->lines && g->nser > 1)
					row[c++] = g->ser_name[j];
				sample_rows(p, g, s, split, res, row, c);
			}
	doc_table_end(&p->doc);
}

/* The lines of one slot, series, metric and machine m against machine 0: one, or where either
 * side's repetitions fall in two or more probe classes, one per pair of their classes, named. */
static void ratio_lines(struct rtab *t, const struct rgrid *g, int k, int j, int q, int m)
{
	const struct sample *s[2] = {*rpt_cell_at(g, k, 0, j), *rpt_cell_at(g, k, m, j)};
	struct rclasses cl[2];
	struct vec *part[2];
	char(*lab[2])[64], x[400];
	int np[2];
	for (int i = 0; i < 2; i++) {
		rpt_classes(s[i], &cl[i]);
		part[i] = xcalloc((size_t)cl[i].n + 1, sizeof(struct vec));
		lab[i] = xcalloc((size_t)cl[i].n + 1, sizeof(*lab[i]));
		np[i] = rpt_class_parts(s[i], q, &cl[i], part[i], lab[i]);
	}
	for (int a = 0; a < np[0]; a++)
		for (int b = 0; b < np[1]; b++) {
			if (!part[0][a].n || !part[1][b].n)
				continue;
			rpt_fmt(x, sizeof(x), "%s%s%s%s%s%s%s%s%s%s%s", g->slot_name[k],
				g->lines && g->ser_name[j][0] ? ", " : "",
				g->lines ? g->ser_name[j] : "", *lab[0][a] ? "; " : "",
				*lab[0][a] ? t->p->mach[0].label : "", *lab[0][a] ? " " : "",
				lab[0][a], *lab[1][b] ? "; " : "",
				*lab[1][b] ? t->p->mach[m].label : "", *lab[1][b] ? " " : "",
				lab[1][b]);
			rtab_add(t, x, &g->v->metrics[q], m, &part[0][a], &part[1][b]);
		}
	for (int i = 0; i < 2; i++) {
		for (int c = 0; c <= cl[i].n; c++)
			free(part[i][c].v);
		free(part[i]);
		free(lab[i]);
		rpt_classes_free(&cl[i]);
	}
}

/* Ratios of every machine to the first, per slot, series and metric (and probe class), with the
 * bootstrap CI, the U test adjusted over the table, and the verdict. */
void rpt_group_ratios(struct rep *p, const struct rgrid *g)
{
	struct rtab t = {.p = p};
	for (int k = 0; k < g->nslot; k++)
		for (int j = 0; j < g->nser; j++)
			for (int q = 0; q < g->nmet; q++)
				for (int m = 1; m < g->nm; m++) {
					const struct sample *a = *rpt_cell_at(g, k, 0, j),
							    *b = *rpt_cell_at(g, k, m, j);
					if (a && b && a->val[q].n && b->val[q].n)
						ratio_lines(&t, g, k, j, q, m);
				}
	if (!t.n) {
		doc_p(&p->doc,
		      "No ratio: %s and another machine did not both measure this configuration.",
		      p->mach[0].label);
		return;
	}
	doc_p(&p->doc,
	      "Ratios to %s (the first machine in the inputs): median of the machine over median "
	      "of %s, with a bootstrap 95%% interval; where a side's repetitions fall in two or "
	      "more probe classes, a line per class, named in the first column.",
	      p->mach[0].label, p->mach[0].label);
	rtab_write(&t, g->lines	  ? g->v->x_label ? g->v->x_label : "x"
		       : g->rb->b ? g->rb->b->variant_col
				  : "variant");
}

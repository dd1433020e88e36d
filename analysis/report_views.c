/* The bar and line views, written once for every bench: per chart group (one configuration) a
 * table of every machine, one chart per axis with all machines on it, and the ratios between
 * machines. Matrix views go to report_matrix.c. */
#include "analysis/report_int.h"
#include "harness/compare_stats.h"
#include "harness/probeclass.h"
#include "harness/twosample.h"
#include "harness/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One chart group laid out: slots on the x-axis (variants for bars, x values for lines), and for
 * lines a series per variant; cell[slot][machine][series] is a sample or NULL. */
struct grid {
	const struct bench_view *v;
	const struct rbench *rb;
	int nslot, nser, nm, nmet, lines;
	const char **slot_name; /* variant, or x label */
	double *slot_x;
	const char **ser_name;  /* lines: the variant ("" when the variant names the x) */
	struct sample **cell;
};

static struct sample **cell_at(const struct grid *g, int slot, int m, int ser)
{
	return &g->cell[((size_t)slot * (size_t)g->nm + (size_t)m) * (size_t)g->nser + (size_t)ser];
}

/* Index of name in list (adding it when new). */
static int index_of(const char **list, int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(list[i], name))
			return i;
	list[*n] = name;
	return (*n)++;
}

/* Lay out samples [g0, g1) (sorted: variant, then x, then machine). */
static void grid_make(struct rep *p, long g0, long g1, struct grid *g)
{
	const struct sample *s0 = &p->s[g0];
	size_t n = (size_t)(g1 - g0);
	memset(g, 0, sizeof(*g));
	g->rb = &p->bench[s0->bench];
	g->v = &g->rb->views[s0->view];
	g->lines = g->v->kind == VIEW_LINES;
	g->nm = p->nm;
	g->nmet = rpt_nmet(g->v);
	g->slot_name = xcalloc(n, sizeof(char *));
	g->slot_x = xcalloc(n, sizeof(double));
	g->ser_name = xcalloc(n, sizeof(char *));
	int *slot = xcalloc(n, sizeof(int)), *ser = xcalloc(n, sizeof(int));
	for (long i = g0; i < g1; i++) {
		const struct sample *s = &p->s[i];
		if (!g->lines) {
			slot[i - g0] = index_of(g->slot_name, &g->nslot, s->variant);
			continue;
		}
		ser[i - g0] = index_of(g->ser_name, &g->nser, s->variant);
		int k = 0;
		while (k < g->nslot && g->slot_x[k] < s->x)
			k++;
		if (k == g->nslot || g->slot_x[k] != s->x) { /* keep the x values sorted */
			memmove(g->slot_x + k + 1, g->slot_x + k,
				(size_t)(g->nslot - k) * sizeof(double));
			memmove(g->slot_name + k + 1, g->slot_name + k,
				(size_t)(g->nslot - k) * sizeof(char *));
			g->slot_x[k] = s->x;
			g->slot_name[k] = s->xlabel;
			g->nslot++;
		}
	}
	if (!g->lines)
		g->nser = 1;
	g->cell =
	    xcalloc((size_t)g->nslot * (size_t)g->nm * (size_t)g->nser, sizeof(struct sample *));
	for (long i = g0; i < g1; i++) {
		struct sample *s = &p->s[i];
		int k = slot[i - g0];
		if (g->lines)
			for (k = 0; g->slot_x[k] != s->x; k++)
				;
		*cell_at(g, k, s->m, ser[i - g0]) = s;
	}
	free(slot);
	free(ser);
}

static void grid_free(struct grid *g)
{
	free(g->slot_name);
	free(g->slot_x);
	free(g->ser_name);
	free(g->cell);
}

/* Distinct x values with a measured value: a line view needs two to draw a line. */
static int measured_slots(const struct grid *g)
{
	int n = 0;
	for (int k = 0; k < g->nslot; k++) {
		int any = 0;
		for (int m = 0; m < g->nm; m++)
			for (int j = 0; j < g->nser; j++) {
				struct sample *s = *cell_at(g, k, m, j);
				any |= s && s->val[0].n > 0;
			}
		n += any;
	}
	return n;
}

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
static int grid_split(const struct grid *g)
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
static void sample_rows(struct rep *p, const struct grid *g, const struct sample *s, int split,
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
static void group_table(struct rep *p, const struct grid *g)
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
			for (int m = 0; m < g->nm; m++)
				res |= *cell_at(g, k, m, j) && (*cell_at(g, k, m, j))->resolved;
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
				const struct sample *s = *cell_at(g, k, m, j);
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

/* Legend text of a series: machine, then the variant (lines), then the metric. */
static void series_name(const struct rep *p, const struct grid *g, int m, int j, int k, int nk,
			char *out, size_t cap)
{
	rpt_fmt(out, cap, "%s%s%s%s%s", p->mach[m].label, g->lines && g->ser_name[j][0] ? ", " : "",
		g->lines ? g->ser_name[j] : "", nk > 1 ? ": " : "",
		nk > 1 ? g->v->metrics[k].label : "");
}

/* The 95% bootstrap interval of a list's median: boot_ratio_ci against a constant side of 1s,
 * whose resampled median is always 1. Fewer than 2 values: no interval, both ends the median. */
static void median_ci(const struct vec *v, double med, double *lo, double *hi)
{
	static const double one[2] = { 1, 1 };
	if (v->n < 2 || boot_ratio_ci(one, 2, v->v, v->n, lo, hi))
		*lo = *hi = med;
}

/* One chart: the metrics in mk[0..nk) (one axis, one unit) for every machine. Nothing to draw (no
 * value, or every value 0): no chart, and why says so. */
static void group_chart(struct rep *p, const struct grid *g, const int *mk, int nk,
			const char *title, const char *base, int ci, char *why, size_t whycap)
{
	char dat[200], png[200], name[400], ttl[1024], ylabel[256];
	int nseries = g->nm * g->nser * nk, plotted = 0;
	double lo = 0, hi = 0, top = 0;
	int have = 0, nonzero = 0, valid = 0;
	rpt_fmt(dat, sizeof(dat), "%s-%d.dat", base, ci);
	rpt_fmt(png, sizeof(png), "%s-%d.png", base, ci);
	/* nothing measured (counters NA), or all 0 */
	for (int i = 0; i < g->nslot * g->nm * g->nser; i++)
		for (int q = 0; q < nk; q++) {
			struct rstat st = g->cell[i] ? rpt_stat(&g->cell[i]->val[mk[q]])
						     : (struct rstat){ 0 };
			have |= st.n > 0;
			valid |= g->cell[i] && g->cell[i]->valid > 0;
			nonzero |= st.n && (st.lo != 0 || st.hi != 0);
			double clo = 0, chi = 0; /* the axis shows medians and intervals: its unit
						    fits them */
			if (st.n)
				median_ci(&g->cell[i]->val[mk[q]], st.med, &clo, &chi);
			top = fabs(clo) > top ? fabs(clo) : top;
			top = fabs(chi) > top ? fabs(chi) : top;
		}
	if (!have || !nonzero) {
		char names[512] = "";
		for (int q = 0; q < nk; q++)
			rpt_fmt(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				q ? ", " : "", g->v->metrics[mk[q]].label);
		rpt_fmt(why, whycap, "%s: no chart: %s", names,
			!valid	? "no valid repetition (every row is under \"Rows not used\")"
			: !have ? "not measured (NA) in every valid row; the reasons are under "
				  "\"Values not measured\""
				: "every value is 0 (nothing to draw)");
		return;
	}
	double div = 1;
	rpt_unit(g->v->metrics[mk[0]].unit, top, &div, ylabel, sizeof(ylabel));
	have = 0;
	FILE *d = rpt_data(p, dat);
	if (!d)
		return;
	fprintf(d, "# per series: median, 95%% CI low, 95%% CI high, in %s\n", ylabel);
	for (int k = 0; k < g->nslot; k++) { /* a row per slot: x, then median and CI per series */
		fprintf(d, "%.17g", g->lines ? g->slot_x[k] : (double)k);
		for (int m = 0; m < g->nm; m++)
			for (int j = 0; j < g->nser; j++)
				for (int q = 0; q < nk; q++) {
					const struct sample *s = *cell_at(g, k, m, j);
					struct rstat st =
					    s ? rpt_stat(&s->val[mk[q]]) : (struct rstat){0};
					double clo, chi;
					if (!st.n) {
						fprintf(d, " ? ? ?");
						continue;
					}
					median_ci(&s->val[mk[q]], st.med, &clo, &chi);
					fprintf(d, " %.17g %.17g %.17g", st.med / div, clo / div,
						chi / div);
					lo = have && lo < clo / div ? lo : clo / div;
					hi = have && hi > chi / div ? hi : chi / div;
					have = 1;
				}
		fprintf(d, "\n");
	}
	out_close(&p->out, d, dat);
	rpt_fmt(ttl, sizeof(ttl), "%s: %s", title,
		nk == 1 ? g->v->metrics[mk[0]].label : g->v->metrics[mk[0]].unit);
	rpt_chart(p, png, ttl,
		  g->lines   ? g->v->x_label ? g->v->x_label : "x"
		  : g->rb->b ? g->rb->b->variant_col
			     : "variant",
		  ylabel);
	rpt_yaxis(p, lo, hi);
	int log = lo > 0 && hi / lo >= 100, cat = !g->lines || strchr(g->v->x_cols, ',');
	if (cat) { /* categories: the variants, or compound x labels ("1+4") at their index */
		fprintf(p->gp, "set xrange [-0.6:%d.6]\nset xtics (", g->nslot - 1);
		for (int k = 0; k < g->nslot; k++) {
			rpt_gpstr(p, g->slot_name[k]);
			fprintf(p->gp, " %d%s", k, k + 1 < g->nslot ? ", " : "");
		}
		fprintf(p->gp, ")%s\n", g->nslot > 8 ? " rotate by -30" : "");
	} else {
		fprintf(p->gp, "set xrange [%.17g:%.17g]\n", g->slot_x[0] - 0.5,
			g->slot_x[g->nslot - 1] + 0.5);
	}
	for (int i = 0; g->lines && g->v->marks && g->v->marks[i];
	     i++) { /* labelled vertical lines */
		double mx = g->v->marks[i];
		fprintf(p->gp,
			"set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lc rgb 'red'\nset "
			"label %d ",
			mx, mx, i + 1);
		rpt_gpstr(p, g->v->mark_labels && g->v->mark_labels[i] ? g->v->mark_labels[i] : "");
		fprintf(p->gp, " at %g, graph 0.97 rotate by 90 right offset -0.8,0 tc rgb 'red'\n",
			mx);
	}
	if (!g->lines && !log)
		fprintf(p->gp, "set style fill solid 0.6 border -1\nset boxwidth %.4f\n",
			0.8 / nseries);
	fprintf(p->gp, "plot ");
	for (int m = 0, c = 0; m < g->nm; m++)
		for (int j = 0; j < g->nser; j++)
			for (int q = 0; q < nk; q++, c++) {
				int col = 2 + 3 * c, any = 0;
				for (int k = 0; k < g->nslot; k++) {
					const struct sample *s = *cell_at(g, k, m, j);
					any |= s && s->val[mk[q]].n > 0;
				}
				if (!any)
					continue;
				series_name(p, g, m, j, mk[q], nk, name, sizeof(name));
				fprintf(p->gp, "%s", plotted ? ", \\\n  " : "");
				if (g->lines) {
					fprintf(p->gp,
						"'data/%s' using %s:%d:%d:%d with yerrorlines lw 2 "
						"title ",
						dat, cat ? "0" : "1", col, col + 1, col + 2);
				} else {
					double off = -0.4 + 0.8 / nseries * (c + 0.5);
					char wcol[32] = "";
					if (!log)
						rpt_fmt(wcol, sizeof(wcol), ":(%.4f)",
							0.8 / nseries);
					fprintf(p->gp,
						"'data/%s' using ($1%+.4f):%d:%d:%d%s with %s lc "
						"%d title ",
						dat, off, col, col + 1, col + 2, wcol,
						log ? "yerrorbars pt 7 ps 1.2" : "boxerrorbars",
						plotted + 1);
				}
				rpt_gpstr(p, name);
				plotted++;
			}
	fprintf(p->gp, "\n");
}

/* The lines of one slot, series, metric and machine m against machine 0: one, or where either
 * side's repetitions fall in two or more probe classes, one per pair of their classes, named. */
static void ratio_lines(struct rtab *t, const struct grid *g, int k, int j, int q, int m)
{
	const struct sample *s[2] = {*cell_at(g, k, 0, j), *cell_at(g, k, m, j)};
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
static void group_ratios(struct rep *p, const struct grid *g)
{
	struct rtab t = {.p = p};
	for (int k = 0; k < g->nslot; k++)
		for (int j = 0; j < g->nser; j++)
			for (int q = 0; q < g->nmet; q++)
				for (int m = 1; m < g->nm; m++) {
					const struct sample *a = *cell_at(g, k, 0, j),
							    *b = *cell_at(g, k, m, j);
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

/* One chart group: heading, settings, table, a chart per axis, ratios. Return 0 when not shown. */
static int chart_group(struct rep *p, long g0, long g1, const char *varying, int gi)
{
	struct grid g;
	char title[2048], settings[4096], only[2048], base[64];
	grid_make(p, g0, g1, &g);
	if (g.lines && measured_slots(&g) < 2) {
		grid_free(&g);
		return 0;
	}
	const struct sample *s0 = &p->s[g0];
	rpt_gkey_only(s0->gkey, varying, only, sizeof(only));
	rpt_gkey_text(s0->gkey, settings, sizeof(settings));
	rpt_fmt(title, sizeof(title), "%s, %s%s%s", g.rb->name, g.v->title ? g.v->title : "results",
		*only ? ": " : "", only);
	doc_h(&p->doc, 3, "%s", title);
	doc_p(&p->doc, "Settings: %s.", *settings ? settings : "none recorded");
	group_table(p, &g);
	rpt_fmt(base, sizeof(base), "b%d-v%d-g%d", s0->bench + 1, s0->view + 1, gi);
	const char *files[RPT_METRICS], *caps[RPT_METRICS];
	char fbuf[RPT_METRICS][80], cbuf[RPT_METRICS][200], why[RPT_METRICS][512];
	int nwhy = 0;
	int nf = 0, before = p->plots;
	for (int k = 0; k < g.nmet;
	     k++) { /* one chart per axis: metrics sharing it, in declared order */
		int mk[RPT_METRICS], nk = 0, first = 1;
		for (int q = 0; q < k && first; q++)
			first = !(g.v->metrics[k].axis && g.v->metrics[q].axis &&
				  !strcmp(g.v->metrics[k].axis, g.v->metrics[q].axis));
		if (!first)
			continue;
		for (int q = k; q < g.nmet; q++)
			if (q == k || (g.v->metrics[k].axis && g.v->metrics[q].axis &&
				       !strcmp(g.v->metrics[k].axis, g.v->metrics[q].axis)))
				mk[nk++] = q;
		before = p->plots;
		why[nwhy][0] = 0;
		group_chart(p, &g, mk, nk, title, base, k + 1, why[nwhy], sizeof(why[nwhy]));
		nwhy += why[nwhy][0] != 0;
		if (p->plots == before)
			continue;
		rpt_fmt(fbuf[nf], sizeof(fbuf[nf]), "%s", p->pngs[p->plots - 1]);
		if (nk == 1)
			rpt_fmt(cbuf[nf], sizeof(cbuf[nf]),
				"%s (%s); whiskers: 95%% CI of the median", g.v->metrics[k].label,
				g.v->metrics[k].unit);
		else
			rpt_fmt(cbuf[nf], sizeof(cbuf[nf]), "%s; whiskers: 95%% CI of the median",
				g.v->metrics[k].unit);
		files[nf] = fbuf[nf];
		caps[nf] = cbuf[nf];
		nf++;
	}
	if (nf) {
		doc_p(&p->doc,
		      "In the charts, %s: the median over valid repetitions; whiskers: its 95%% "
		      "bootstrap confidence interval "
		      "(none with fewer than 2 repetitions).",
		      g.lines ? "points" : "bars");
		doc_images(&p->doc, nf, files, caps);
	}
	for (int i = 0; i < nwhy; i++)
		doc_p(&p->doc, "%s.", why[i]);
	if (p->nm > 1)
		group_ratios(p, &g);
	grid_free(&g);
	return 1;
}

int rpt_view_range(const struct rep *p, int bi, int vi, long *i0, long *i1)
{
	long i = 0;
	while (i < p->ns && (p->s[i].bench < bi || (p->s[i].bench == bi && p->s[i].view < vi)))
		i++;
	*i0 = i;
	while (i < p->ns && p->s[i].bench == bi && p->s[i].view == vi)
		i++;
	*i1 = i;
	return *i1 > *i0;
}

void rpt_views(struct rep *p)
{
	for (int bi = 0; bi < p->nb; bi++) {
		const struct rbench *rb = &p->bench[bi];
		doc_h(&p->doc, 2, "%s", rb->name);
		for (int vi = 0; rb->views[vi].kind; vi++) {
			const struct bench_view *v = &rb->views[vi];
			long i0, i1, shown = 0;
			if (!rpt_view_range(p, bi, vi, &i0, &i1)) {
				doc_p(&p->doc,
				      "%s: not in these inputs (no %s rows for this view).",
				      v->title ? v->title : "results", rb->name);
				continue;
			}
			if (v->kind == VIEW_MATRIX) {
				rpt_matrix(p, i0, i1);
				continue;
			}
			if (v->with_baseline)
				rpt_baseline(p);
			char *varying = rpt_varying(p, i0, i1);
			for (long g0 = i0, gi = 1; g0 < i1; gi++) {
				long g1 = g0;
				while (g1 < i1 && !strcmp(p->s[g1].gkey, p->s[g0].gkey))
					g1++;
				shown += chart_group(p, g0, g1, varying, (int)gi);
				g0 = g1;
			}
			free(varying);
			if (!shown)
				doc_p(&p->doc,
				      "%s: not in these inputs (no configuration was run at two or "
				      "more values of %s).",
				      v->title ? v->title : "results", v->x_cols ? v->x_cols : "x");
		}
	}
}

/* The bar and line views, written once for every bench: per chart group (one configuration) a
 * table of every machine, one chart per axis with all machines on it, and the ratios between
 * machines. The table and the ratios are report_tables.c's; matrix views are report_matrix.c's. */
#include "analysis/report_int.h"
#include "stats/compare_stats.h"
#include "lib/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
static void grid_make(struct rep *p, long g0, long g1, struct rgrid *g)
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
		*rpt_cell_at(g, k, s->m, ser[i - g0]) = s;
	}
	free(slot);
	free(ser);
}

static void grid_free(struct rgrid *g)
{
	free(g->slot_name);
	free(g->slot_x);
	free(g->ser_name);
	free(g->cell);
}

/* Distinct x values with a measured value: a line view needs two to draw a line. */
static int measured_slots(const struct rgrid *g)
{
	int n = 0;
	for (int k = 0; k < g->nslot; k++) {
		int any = 0;
		for (int m = 0; m < g->nm; m++)
			for (int j = 0; j < g->nser; j++) {
				struct sample *s = *rpt_cell_at(g, k, m, j);
				any |= s && s->val[0].n > 0;
			}
		n += any;
	}
	return n;
}

/* Legend text of a series: machine, then the variant (lines), then the metric. */
static void series_name(const struct rep *p, const struct rgrid *g, int m, int j, int k, int nk,
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
static void group_chart(struct rep *p, const struct rgrid *g, const int *mk, int nk,
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
					const struct sample *s = *rpt_cell_at(g, k, m, j);
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
					const struct sample *s = *rpt_cell_at(g, k, m, j);
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

/* One chart group: heading, settings, table, a chart per axis, ratios. Return 0 when not shown. */
static int chart_group(struct rep *p, long g0, long g1, const char *varying, int gi)
{
	struct rgrid g;
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
	rpt_group_table(p, &g);
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
		rpt_group_ratios(p, &g);
	grid_free(&g);
	return 1;
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


/* Matrix views (pingpong's latency matrix): per configuration and facet (mode), a table per pair
 * class (median and range over pairs) and a heat map per machine on one colour scale shared by
 * all machines, PUs ordered by package, core and SMT sibling as the pair classes tell them. */
#include "analysis/report_int.h"
#include "lib/util.h"
#include "stats/split.h"
#include <stdlib.h>
#include <string.h>

#define VALUES_SHOWN_MAX 16 /* PUs up to which each cell prints its value */

struct pu_order {
	int n;
	int *pu;  /* PU numbers in display order */
	int *pos; /* pos[pu] = display position (-1: absent) */
	int top;
};

static const int *g_core, *g_pkg; /* for the qsort below */

/* Package, then core, then PU number. */
static int by_place(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	if (g_pkg[a] != g_pkg[b])
		return g_pkg[a] - g_pkg[b];
	if (g_core[a] != g_core[b])
		return g_core[a] - g_core[b];
	return a - b;
}

/* The PUs of machine m in samples [f0, f1), ordered by package, core, SMT sibling. */
static void order_pus(const struct rep *p, const struct bench_view *v, int m, long f0, long f1,
		      struct pu_order *o)
{
	int *core, *pkg, *in;
	o->top = rpt_clusters(p, v, m, f0, f1, &core, &pkg, &in);
	o->pos = xcalloc((size_t)o->top + 1, sizeof(int));
	o->pu = xcalloc((size_t)o->top + 1, sizeof(int));
	o->n = 0;
	for (int i = 0; i < o->top; i++) {
		o->pos[i] = -1;
		if (in[i])
			o->pu[o->n++] = i;
	}
	g_core = core, g_pkg = pkg;
	qsort(o->pu, (size_t)o->n, sizeof(int), by_place);
	for (int i = 0; i < o->n; i++)
		o->pos[o->pu[i]] = i;
	free(core);
	free(pkg);
	free(in);
}

#define CLASSES_MAX 64

/* The classes of samples [f0, f1): the declared ones nearest first, then any the bench did not
 * declare. */
static int classes_of(const struct rep *p, const struct bench_view *v, long f0, long f1,
		      const char **seen)
{
	int nseen = 0;
	for (int c = 0; v->classes && v->classes[c] && nseen < CLASSES_MAX; c++)
		seen[nseen++] = v->classes[c];
	for (long i = f0; i < f1 && nseen < CLASSES_MAX; i++) {
		int known = 0;
		for (int c = 0; c < nseen; c++)
			known |= !strcmp(seen[c], p->s[i].cls);
		if (!known)
			seen[nseen++] = p->s[i].cls;
	}
	return nseen;
}

/* Machine m's pairs of class cls in [f0, f1): each pair's median of metric k into per (the
 * per-class table's unit), every repetition into all (the ratio table's sample); the pair count. */
static long class_values(const struct rep *p, int m, const char *cls, int k, long f0, long f1,
			 struct vec *per, struct vec *all)
{
	long n = 0;
	for (long i = f0; i < f1; i++) {
		const struct sample *s = &p->s[i];
		if (s->m != m || strcmp(s->cls, cls))
			continue;
		n++;
		if (per && s->val[k].n)
			vec_push(per, rpt_stat(&s->val[k]).med);
		for (size_t j = 0; all && j < s->val[k].n; j++)
			vec_push(all, s->val[k].v[j]);
	}
	return n;
}

/* "median (lo..hi)" over the pair medians of machine m's class, or NA with the reason. */
static long class_cell(const struct rep *p, int m, const char *cls, int k, long f0, long f1,
		       char *out, size_t cap)
{
	struct vec per = { 0 };
	long n = class_values(p, m, cls, k, f0, f1, &per, NULL);
	struct rstat st = rpt_stat(&per);
	char md[48], lo[48], hi[48];
	rpt_num(st.med, p->bench[p->s[f0].bench].views[p->s[f0].view].metrics[k].unit, md,
		sizeof(md));
	rpt_num(st.lo, p->bench[p->s[f0].bench].views[p->s[f0].view].metrics[k].unit, lo,
		sizeof(lo));
	rpt_num(st.hi, p->bench[p->s[f0].bench].views[p->s[f0].view].metrics[k].unit, hi,
		sizeof(hi));
	struct split sp;
	char text[1024];
	const struct bench_view *v = &p->bench[p->s[f0].bench].views[p->s[f0].view];
	if (st.n && rpt_class_split(p, v, m, cls, k, f0, f1, &sp, text, sizeof(text)) > 1)
		rpt_fmt(out, cap, "split: %s", text); /* its median is in the gap: never alone */
	else if (st.n)
		rpt_fmt(out, cap, "%s (%s..%s)", md, lo, hi);
	else
		rpt_fmt(out, cap, n ? "NA (no valid repetition)" : "NA (no pair of this class)");
	free(per.v);
	return n;
}

/* The per-class table of one facet: machine by machine, median and range over the pairs. */
static void class_table(struct rep *p, const struct bench_view *v, long f0, long f1)
{
	int nmet = rpt_nmet(v) > 2 ? 2 : rpt_nmet(v);
	const char *hdr[6] = { "machine", v->class_col, "pairs" }, *seen[CLASSES_MAX];
	char head[2][160], cell[2][1100], pairs[32];
	for (int k = 0; k < nmet; k++) {
		rpt_fmt(head[k], sizeof(head[k]), "%s (%s): median over pairs (range)",
			v->metrics[k].label, v->metrics[k].unit);
		hdr[3 + k] = head[k];
	}
	doc_table(&p->doc, 3 + nmet, hdr);
	int nseen = classes_of(p, v, f0, f1, seen);
	for (int m = 0; m < p->nm; m++)
		for (int c = 0; c < nseen; c++) {
			long n = 0;
			for (int k = 0; k < nmet; k++)
				n = class_cell(p, m, seen[c], k, f0, f1, cell[k], sizeof(cell[k]));
			if (!n)
				continue;
			rpt_fmt(pairs, sizeof(pairs), "%ld", n);
			const char *row[] = { p->mach[m].label, seen[c], pairs, cell[0], cell[1] };
			doc_row(&p->doc, row);
		}
	doc_table_end(&p->doc);
}

/* Every machine against the first, per class and metric: the repetitions of all the class's pairs
 * pooled on each side (one pair per class with --pairs classes), the ratio of the medians, its
 * bootstrap CI and the U-test adjusted over the table, as the other benches' ratio tables. Not
 * split by probe class: each row measures its own pair, not the probe's. */
static void class_ratios(struct rep *p, const struct bench_view *v, long f0, long f1)
{
	int nmet = rpt_nmet(v) > 2 ? 2 : rpt_nmet(v);
	const char *seen[CLASSES_MAX];
	struct rtab t = {.p = p};
	int nseen = classes_of(p, v, f0, f1, seen);
	doc_p(&p->doc,
	      "Ratios to %s (the first machine in the inputs), per %s: median of the machine over "
	      "median of %s, over the repetitions of every pair of the class, with a bootstrap "
	      "95%% interval.",
	      p->mach[0].label, v->class_col, p->mach[0].label);
	for (int c = 0; c < nseen; c++)
		for (int k = 0; k < nmet; k++) {
			struct vec a = {
			    0}; /* the first machine's side, once for every other machine */
			class_values(p, 0, seen[c], k, f0, f1, NULL, &a);
			for (int m = 1; m < p->nm && a.n; m++) {
				struct vec b = { 0 };
				char what[1400], note[1200] = "";
				class_values(p, m, seen[c], k, f0, f1, NULL, &b);
				long i = f0; /* a median in a gap: said on its line */
				while (i < f1 && strcmp(p->s[i].cls, seen[c]))
					i++;
				if (i < f1)
					rpt_split_note(p, v, 0, m, &p->s[i], f0, f1, note,
						       sizeof(note));
				rpt_fmt(what, sizeof(what), "%s%s", seen[c], note);
				if (b.n)
					rtab_add(&t, what, &v->metrics[k], m, &a, &b);
				free(b.v);
			}
			free(a.v);
		}
	if (t.n) {
		rtab_write(&t, v->class_col);
		return;
	}
	const char *hdr[] = {v->class_col, "metric", "baseline machine", "median",     "machine",
			     "median",     "ratio",  "95% CI",           "p (U-test)", "verdict"};
	const char *row[] = {"NA", "", p->mach[0].label, "", "", "", "", "", "",
			     "no class measured on the first machine and another"};
	doc_table(&p->doc, 10, hdr);
	doc_row(&p->doc, row);
	doc_table_end(&p->doc);
}

/* The baseline table of one configuration [g0, g1) of the baseline view: a row per machine, facet
 * and metric, a column per class (median over its pairs, range). */
static void baseline_table(struct rep *p, const struct bench_view *v, long g0, long g1)
{
	int nmet = rpt_nmet(v) > 2 ? 2 : rpt_nmet(v);
	const char *seen[CLASSES_MAX], *hdr[CLASSES_MAX + 3] = {"machine", v->facet_col, "metric"},
							  *row[CLASSES_MAX + 3];
	int nseen = classes_of(p, v, g0, g1, seen);
	char cell[CLASSES_MAX][1100], met[200];
	for (int c = 0; c < nseen; c++)
		hdr[3 + c] = seen[c];
	doc_table(&p->doc, 3 + nseen, hdr);
	for (int m = 0; m < p->nm; m++) {
		int any = 0;
		for (long i = g0; i < g1; i++)
			any |= p->s[i].m == m;
		if (!any) { /* said, not left out: this machine's results carry no baseline */
			row[0] = p->mach[m].label, row[1] = "NA",
			row[2] = "no rows of this configuration from this machine";
			for (int c = 0; c < nseen; c++)
				row[3 + c] = "NA";
			doc_row(&p->doc, row);
		}
		for (long f0 = g0; f0 < g1;) {
			long f1 = f0;
			int mine = 0;
			while (f1 < g1 && !strcmp(p->s[f1].facet, p->s[f0].facet))
				mine |= p->s[f1++].m == m;
			for (int k = 0; k < nmet && mine; k++) {
				rpt_fmt(met, sizeof(met), "%s (%s)", v->metrics[k].label,
					v->metrics[k].unit);
				row[0] = p->mach[m].label, row[1] = p->s[f0].facet, row[2] = met;
				for (int c = 0; c < nseen; c++) {
					class_cell(p, m, seen[c], k, f0, f1, cell[c],
						   sizeof(cell[c]));
					row[3 + c] = cell[c];
				}
				doc_row(&p->doc, row);
			}
			f0 = f1;
		}
	}
	doc_table_end(&p->doc);
}

void rpt_baseline(struct rep *p)
{
	int shown = 0;
	for (int bi = 0; bi < p->nb; bi++)
		for (int vi = 0; p->bench[bi].views[vi].kind; vi++) {
			const struct bench_view *v = &p->bench[bi].views[vi];
			long i0, i1;
			if (v->kind != VIEW_MATRIX || !v->is_baseline ||
			    !rpt_view_range(p, bi, vi, &i0, &i1))
				continue;
			for (long g0 = i0; g0 < i1;) {
				long g1 = g0;
				char settings[4096];
				while (g1 < i1 && !strcmp(p->s[g1].gkey, p->s[g0].gkey))
					g1++;
				rpt_gkey_text(p->s[g0].gkey, settings, sizeof(settings));
				doc_p(&p->doc,
				      "Line-transfer baseline of each machine (%s, %s; settings: "
				      "%s): per %s, the median over its pairs of each pair's "
				      "median over repetitions (range over pairs). A false-sharing "
				      "cost per operation near these is about one line transfer "
				      "per operation.",
				      p->bench[bi].name, v->title ? v->title : "matrix",
				      *settings ? settings : "none recorded", v->class_col);
				baseline_table(p, v, g0, g1);
				shown = 1;
				g0 = g1;
			}
		}
	if (!shown)
		doc_p(&p->doc, "Line-transfer baseline: none in these inputs (no rows of a view "
			       "declared as the baseline; the quick preset runs one).");
}

/* The colour range over every machine's pair medians of the first metric: one scale for all. */
static int shared_range(const struct rep *p, long f0, long f1, double *lo, double *hi)
{
	int have = 0;
	for (long i = f0; i < f1; i++) {
		if (!p->s[i].val[0].n)
			continue;
		double v = rpt_stat(&p->s[i].val[0]).med;
		*lo = have && *lo < v ? *lo : v;
		*hi = have && *hi > v ? *hi : v;
		have = 1;
	}
	if (have && *hi <= *lo)
		*hi = *lo + 1;
	return have;
}

/* One machine's heat map; 0 when it has no pair in this facet. */
static int heat_map(struct rep *p, const struct bench_view *v, int m, long f0, long f1,
		    const char *title, double lo, double hi, const char *png, const char *dat)
{
	struct pu_order o;
	order_pus(p, v, m, f0, f1, &o);
	int cells = 0;
	FILE *d = o.n ? rpt_data(p, dat) : NULL;
	for (long i = f0; d && i < f1; i++) {
		const struct sample *s = &p->s[i];
		if (s->m != m || !s->val[0].n)
			continue;
		double med = rpt_stat(&s->val[0]).med;
		fprintf(d, "%d %d %.17g\n%d %d %.17g\n", o.pos[s->a], o.pos[s->b], med, o.pos[s->b],
			o.pos[s->a], med); /* symmetric */
		cells++;
	}
	if (d)
		out_close(&p->out, d, dat);
	if (cells) {
		char t[4096], rel[200];
		rpt_fmt(t, sizeof(t), "%s, %s", title, p->mach[m].label);
		rpt_fmt(rel, sizeof(rel), "data/%s", dat);
		rpt_chart(p, png, t, "PU", "PU");
		fprintf(p->gp,
			"unset grid\nset size ratio -1\nset xrange [-0.5:%d.5]\nset yrange "
			"[%d.5:-0.5]\nset cbrange [%.17g:%.17g]\nset cblabel ",
			o.n - 1, o.n - 1, lo, hi);
		rpt_gpstr(p, v->metrics[0].unit);
		fprintf(p->gp, "\nset palette rgbformulae 33,13,10\nset xtics (");
		int step = o.n > 32 ? o.n / 16 : 1;
		for (int i = 0; i < o.n; i += step)
			fprintf(p->gp, "'%d' %d%s", o.pu[i], i, i + step < o.n ? ", " : "");
		fprintf(p->gp, ") rotate by -90\nset ytics (");
		for (int i = 0; i < o.n; i += step)
			fprintf(p->gp, "'%d' %d%s", o.pu[i], i, i + step < o.n ? ", " : "");
		fprintf(p->gp, ")\nplot ");
		rpt_gpstr(p, rel);
		fprintf(
		    p->gp,
		    " using 1:2:(0.5):(0.5):3 with boxxyerror fs solid noborder palette notitle");
		if (o.n <= VALUES_SHOWN_MAX) {
			fprintf(p->gp, ", \\\n  ");
			rpt_gpstr(p, rel);
			fprintf(p->gp,
				" using 1:2:(sprintf('%%.0f', $3)) with labels font ',8' notitle");
		}
		fprintf(p->gp, "\n");
	}
	free(o.pu);
	free(o.pos);
	return cells > 0;
}

/* A heat map's caption: the machine, and each class of it that splits (malloc'ed). */
static char *heat_caption(const struct rep *p, const struct bench_view *v, int m, long f0,
			  long f1)
{
	const char *seen[CLASSES_MAX];
	int nseen = classes_of(p, v, f0, f1, seen);
	size_t cap = 256 + (size_t)nseen * 1100, k;
	char *out = xcalloc(cap, 1), text[1024];
	k = (size_t)snprintf(out, cap, "%s", p->mach[m].label);
	for (int c = 0; c < nseen && k < cap; c++) {
		struct split sp;
		if (rpt_class_split(p, v, m, seen[c], 0, f0, f1, &sp, text, sizeof(text)) > 1)
			k += (size_t)snprintf(out + k, cap - k, "; %s split: %s", seen[c], text);
	}
	return out;
}

void rpt_matrix(struct rep *p, long i0, long i1)
{
	const struct rbench *rb = &p->bench[p->s[i0].bench];
	const struct bench_view *v = &rb->views[p->s[i0].view];
	char *varying = rpt_varying(p, i0, i1);
	for (long g0 = i0, gi = 1; g0 < i1; gi++) {
		long g1 = g0;
		char only[2048], settings[4096], title[2048];
		while (g1 < i1 && !strcmp(p->s[g1].gkey, p->s[g0].gkey))
			g1++;
		rpt_gkey_only(p->s[g0].gkey, varying, only, sizeof(only));
		rpt_gkey_text(p->s[g0].gkey, settings, sizeof(settings));
		doc_h(&p->doc, 3, "%s, %s%s%s", rb->name, v->title ? v->title : "matrix",
		      *only ? ": " : "", only);
		doc_p(&p->doc,
		      "Settings: %s. Each heat-map cell: the median over repetitions of the pair's "
		      "%s; one colour scale for all machines; PUs ordered by package, core and SMT "
		      "sibling.",
		      *settings ? settings : "none recorded", v->metrics[0].label);
		for (long f0 = g0, fi = 1; f0 < g1; fi++) {
			long f1 = f0;
			while (f1 < g1 && !strcmp(p->s[f1].facet, p->s[f0].facet))
				f1++;
			double lo = 0, hi = 1;
			doc_h(&p->doc, 4, "%s %s", v->facet_col, p->s[f0].facet);
			class_table(p, v, f0, f1);
			if (p->nm > 1)
				class_ratios(p, v, f0, f1);
			rpt_fmt(title, sizeof(title), "%s %s %s: %s (%s)", rb->name, v->facet_col,
				p->s[f0].facet, v->metrics[0].label, v->metrics[0].unit);
			const char **files = xcalloc((size_t)p->nm, sizeof(char *)),
				   **caps = xcalloc((size_t)p->nm, sizeof(char *));
			char **own = xcalloc((size_t)p->nm, sizeof(char *));
			int nf = 0;
			shared_range(p, f0, f1, &lo, &hi);
			for (int m = 0; m < p->nm; m++) {
				char png[96], dat[96];
				rpt_fmt(png, sizeof(png), "heat-b%d-g%ld-f%ld-m%d.png",
					p->s[f0].bench + 1, gi, fi, m + 1);
				rpt_fmt(dat, sizeof(dat), "heat-b%d-g%ld-f%ld-m%d.dat",
					p->s[f0].bench + 1, gi, fi, m + 1);
				if (!heat_map(p, v, m, f0, f1, title, lo, hi, png, dat))
					continue;
				files[nf] = p->pngs[p->plots - 1];
				caps[nf++] = own[m] = heat_caption(p, v, m, f0, f1);
			}
			if (nf)
				doc_images(&p->doc, nf, files, caps);
			free(files);
			free(caps);
			for (int m = 0; m < p->nm; m++)
				free(own[m]);
			free(own);
			f0 = f1;
		}
		g0 = g1;
	}
	free(varying);
}

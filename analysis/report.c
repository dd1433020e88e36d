/* `c2cbench report INPUT... -o DIR`: a Markdown report with gnuplot PNGs from result CSVs,
 * machine by machine side by side, saying what was not measured and why. */
#include "harness/bench.h"
#include "harness/cmdargs.h"
#include "analysis/gnuplot.h"
#include "analysis/results_in.h"
#include "harness/stats.h"
#include "analysis/report.h"
#include "harness/util.h"
#include "harness/version.h"
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MACHINES_MAX 16
#define KEYS_MAX 4096
#define METRICS_MAX 8

static const struct opt_spec report_opts[] = {
	{ "out", OPT_TEXT, NULL, "DIR", "directory for report.md, its PNG plots and their data (also -o DIR)", NULL, NULL },
	{ 0 },
};

struct rec {
	int m;
	const struct table *t;
	long r;
	const char *bench, *variant;
	char gkey[1024]; /* bench and configuration without the variant and offset: one bar chart or sweep curve */
	char skey[1024]; /* gkey without thread counts: one scaling curve */
	char tkey[32];   /* "W+R" */
	int sweep, threads;
	double offset;
};

struct keys {
	char *k[KEYS_MAX];
	int n;
};

struct rep {
	struct results res;
	struct rec *rec;
	long nrec;
	int nm;
	char machine[MACHINES_MAX][128]; /* label */
	char mid[MACHINES_MAX][256];     /* host and cpu_model */
	long mrow[MACHINES_MAX]; /* a row of each machine, for its context columns */
	FILE *md, *gp;
	const char *dir;
	int plots;
};

static void keys_add(struct keys *k, const char *s)
{
	for (int i = 0; i < k->n; i++)
		if (!strcmp(k->k[i], s))
			return;
	if (k->n < KEYS_MAX)
		k->k[k->n++] = xstrdup(s);
}

static int cmp_ver(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static void keys_free(struct keys *k)
{
	for (int i = 0; i < k->n; i++)
		free(k->k[i]);
	k->n = 0;
}

/* Which machine a row comes from: its host and cpu_model columns (two VMs may share a host name). */
static int machine_of(struct rep *p, const struct table *t, long r, long *first)
{
	const char *h = table_get(t, r, "host"), *c = table_get(t, r, "cpu_model");
	char id[256];
	snprintf(id, sizeof(id), "%s\x1f%s", h && *h ? h : "unknown", c ? c : "");
	for (int i = 0; i < p->nm; i++)
		if (!strcmp(p->mid[i], id))
			return i;
	if (p->nm >= MACHINES_MAX)
		return MACHINES_MAX - 1;
	snprintf(p->mid[p->nm], sizeof(p->mid[0]), "%s", id);
	snprintf(p->machine[p->nm], sizeof(p->machine[0]), "%s", h && *h ? h : "unknown");
	for (int i = 0; i < p->nm; i++) /* same host name, other CPU: say which */
		if (!strcmp(p->machine[i], p->machine[p->nm]))
			snprintf(p->machine[p->nm], sizeof(p->machine[0]), "%.60s (%.60s)", h && *h ? h : "unknown", c ? c : "");
	*first = 1;
	return p->nm++;
}

static void build_recs(struct rep *p)
{
	long total = 0;
	for (int f = 0; f < p->res.n; f++)
		total += p->res.t[f].nrows;
	p->rec = xcalloc((size_t)total + 1, sizeof(struct rec));
	for (int f = 0; f < p->res.n; f++) {
		const struct table *t = &p->res.t[f];
		for (long r = 0; r < t->nrows; r++) {
			struct rec *x = &p->rec[p->nrec++];
			long first = 0;
			const char *cols[CONFIG_MAX];
			int declared, nc = config_cols(t, t->cell[r][1], cols, CONFIG_MAX, &declared);
			x->m = machine_of(p, t, r, &first);
			if (first) {
				p->mrow[x->m] = r;
				p->mrow[x->m] |= (long)f << 40; /* file index in the high bits */
			}
			x->t = t;
			x->r = r;
			x->bench = t->cell[r][1];
			x->variant = t->cell[r][2];
			x->sweep = !strncmp(x->variant, "offset-", 7);
			int ok, okw, okr;
			x->offset = cell_num(t, r, "offset", &ok);
			double w = cell_num(t, r, "writers", &okw), rd = cell_num(t, r, "readers", &okr);
			x->threads = okw && okr;
			snprintf(x->tkey, sizeof(x->tkey), "%.0f+%.0f", w, rd);
			size_t g = (size_t)snprintf(x->gkey, sizeof(x->gkey), "%s", x->bench), s = (size_t)snprintf(x->skey, sizeof(x->skey), "%s", x->bench);
			for (int i = 2; i < nc; i++) { /* 0: bench, 1: variant */
				const char *v = table_get(t, r, cols[i]);
				if (!strcmp(cols[i], "offset"))
					continue;
				if (g < sizeof(x->gkey))
					g += (size_t)snprintf(x->gkey + g, sizeof(x->gkey) - g, " %s=%s", cols[i], v ? v : "(absent)");
				if (strcmp(cols[i], "writers") && strcmp(cols[i], "readers") && s < sizeof(x->skey))
					s += (size_t)snprintf(x->skey + s, sizeof(x->skey) - s, " %s=%s", cols[i], v ? v : "(absent)");
			}
		}
	}
}

static const struct table *mtable(const struct rep *p, int m, long *row)
{
	*row = p->mrow[m] & ((1L << 40) - 1);
	return &p->res.t[p->mrow[m] >> 40];
}

static const char *ctxv(const struct rep *p, int m, const char *col)
{
	long r;
	const struct table *t = mtable(p, m, &r);
	const char *v = table_get(t, r, col);
	return v ? v : "NA";
}

/* Median, min and max of metric over the recs matching machine, group and variant/x. */
static struct stats gather(const struct rep *p, int m, const char *gkey, int by_skey, const char *variant, const char *tkey,
			   int sweep, double offset, const char *metric)
{
	double *v = xcalloc((size_t)p->nrec + 1, sizeof(double));
	size_t n = 0;
	for (long i = 0; i < p->nrec; i++) {
		const struct rec *x = &p->rec[i];
		int ok;
		if (x->m != m || x->sweep != sweep || strcmp(by_skey ? x->skey : x->gkey, gkey))
			continue;
		if ((variant && strcmp(x->variant, variant)) || (tkey && strcmp(x->tkey, tkey)) || (sweep && x->offset != offset))
			continue;
		double y = cell_num(x->t, x->r, metric, &ok);
		if (ok)
			v[n++] = y;
	}
	struct stats s = stats_of(v, n);
	free(v);
	return s;
}

static int metrics_of(const struct rep *p, const char *bench, const char **out)
{
	for (long i = 0; i < p->nrec; i++)
		if (!strcmp(p->rec[i].bench, bench))
			return metric_cols(p->rec[i].t, bench, out, METRICS_MAX);
	return 0;
}

static void put_stat(FILE *f, struct stats s)
{
	if (s.n)
		fprintf(f, " %.6g %.6g %.6g", s.median, s.min, s.max);
	else
		fprintf(f, " ? ? ?");
}

static FILE *data_file(struct rep *p, const char *name)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/data/%s", p->dir, name);
	FILE *f = fopen(path, "w");
	if (!f)
		die(1, "cannot create %s: %s", path, strerror(errno));
	return f;
}

static void gp_begin(struct rep *p, const char *png, const char *title, const char *xlabel, const char *ylabel)
{
	fprintf(p->gp, "\nreset\nset terminal pngcairo size 720,420 noenhanced\nset output '%s'\nset datafile missing '?'\n", png);
	fprintf(p->gp, "set title \"%s\" font ',9'\nset xlabel \"%s\"\nset ylabel \"%s\"\nset yrange [0:*]\nset grid ytics\nset key below\n", title, xlabel, ylabel);
	p->plots++;
}

/* One row of images, a column per machine: the side-by-side view. */
static void md_images(struct rep *p, char png[][128], const int *have, const char *none)
{
	fprintf(p->md, "\n|");
	for (int m = 0; m < p->nm; m++)
		fprintf(p->md, " %s |", p->machine[m]);
	fprintf(p->md, "\n|");
	for (int m = 0; m < p->nm; m++)
		fprintf(p->md, "---|");
	fprintf(p->md, "\n|");
	for (int m = 0; m < p->nm; m++)
		if (have[m])
			fprintf(p->md, " ![%s](%s) |", p->machine[m], png[m]);
		else
			fprintf(p->md, " %s |", none);
	fprintf(p->md, "\n");
}

/* The configurations (one chart each) of layout runs (sweep 0) or offset sweeps (sweep 1). */
static void groups_of(const struct rep *p, int sweep, struct keys *k)
{
	for (long i = 0; i < p->nrec; i++)
		if (p->rec[i].sweep == sweep)
			keys_add(k, p->rec[i].gkey);
}

static void variants_of(const struct rep *p, const char *gkey, int sweep, struct keys *k)
{
	for (long i = 0; i < p->nrec; i++)
		if (p->rec[i].sweep == sweep && !strcmp(p->rec[i].gkey, gkey))
			keys_add(k, p->rec[i].variant);
}

static void section_bars(struct rep *p)
{
	struct keys groups = { 0 };
	groups_of(p, 0, &groups);
	qsort(groups.k, (size_t)groups.n, sizeof(char *), cmp_ver);
	fprintf(p->md, "\n## Per-layout bars: ns per operation by role\n\nBars: median over repetitions; whiskers: the lowest and highest repetition.\n");
	if (!groups.n)
		fprintf(p->md, "\nNo layout runs in the inputs.\n");
	for (int g = 0; g < groups.n; g++) {
		const char *met[METRICS_MAX];
		struct keys var = { 0 };
		char bench[64], png[MACHINES_MAX][128];
		int have[MACHINES_MAX] = { 0 };
		sscanf(groups.k[g], "%63s", bench);
		int nmet = metrics_of(p, bench, met);
		variants_of(p, groups.k[g], 0, &var);
		fprintf(p->md, "\n### %s\n\n| machine | variant |", groups.k[g]);
		for (int k = 0; k < nmet; k++)
			fprintf(p->md, " %s median [min..max] (n) |", met[k]);
		fprintf(p->md, "\n|---|---|");
		for (int k = 0; k < nmet; k++)
			fprintf(p->md, "---|");
		fprintf(p->md, "\n");
		for (int m = 0; m < p->nm; m++) {
			char dat[64];
			snprintf(dat, sizeof(dat), "bars-%02d-m%d.dat", g + 1, m + 1);
			snprintf(png[m], sizeof(png[m]), "bars-%02d-m%d.png", g + 1, m + 1);
			FILE *d = NULL;
			for (int v = 0; v < var.n; v++) {
				int any = 0;
				struct stats s[METRICS_MAX];
				for (int k = 0; k < nmet; k++) {
					s[k] = gather(p, m, groups.k[g], 0, var.k[v], NULL, 0, 0, met[k]);
					any |= s[k].n > 0;
				}
				if (!any)
					continue;
				if (!d)
					d = data_file(p, dat);
				fprintf(d, "\"%s\"", var.k[v]);
				fprintf(p->md, "| %s | %s |", p->machine[m], var.k[v]);
				for (int k = 0; k < nmet; k++) {
					put_stat(d, s[k]);
					if (s[k].n)
						fprintf(p->md, " %.4g [%.4g..%.4g] (%zu) |", s[k].median, s[k].min, s[k].max, s[k].n);
					else
						fprintf(p->md, " NA |");
				}
				fprintf(d, "\n");
				fprintf(p->md, "\n");
			}
			if (!d)
				continue;
			fclose(d);
			have[m] = 1;
			gp_begin(p, png[m], groups.k[g], "variant", "ns per operation");
			fprintf(p->gp, "set style data histograms\nset style histogram errorbars gap 1 lw 1\nset style fill solid 0.6 border -1\nplot ");
			for (int k = 0; k < nmet; k++)
				fprintf(p->gp, "%s'data/%s' using %d:%d:%d%s title '%s'", k ? ", " : "", dat, 2 + 3 * k, 3 + 3 * k, 4 + 3 * k,
					k ? "" : ":xtic(1)", met[k]);
			fprintf(p->gp, "\n");
		}
		md_images(p, png, have, "not run on this machine");
		keys_free(&var);
	}
	keys_free(&groups);
}

static void section_sweep(struct rep *p)
{
	struct keys groups = { 0 };
	groups_of(p, 1, &groups);
	fprintf(p->md, "\n## Offset sweep: ns per operation against byte distance\n\n");
	if (!groups.n) {
		fprintf(p->md, "Not in these inputs: no offset-sweep runs (run `c2cbench preset sweep`).\n");
		return;
	}
	fprintf(p->md, "Distance of the read-mostly pointer from the pending word; dashed lines at 64 and 128 bytes (the line size, and the pair of lines an adjacent-line prefetcher fetches). Points: median; bars: lowest and highest repetition.\n");
	for (int g = 0; g < groups.n; g++) {
		const char *met[METRICS_MAX];
		struct keys var = { 0 };
		char bench[64], png[MACHINES_MAX][128];
		int have[MACHINES_MAX] = { 0 };
		sscanf(groups.k[g], "%63s", bench);
		int nmet = metrics_of(p, bench, met);
		variants_of(p, groups.k[g], 1, &var);
		qsort(var.k, (size_t)var.n, sizeof(char *), cmp_ver);
		fprintf(p->md, "\n### %s\n", groups.k[g]);
		for (int m = 0; m < p->nm; m++) {
			char dat[64];
			snprintf(dat, sizeof(dat), "sweep-%02d-m%d.dat", g + 1, m + 1);
			snprintf(png[m], sizeof(png[m]), "sweep-%02d-m%d.png", g + 1, m + 1);
			FILE *d = NULL;
			for (int v = 0; v < var.n; v++) {
				double off = atof(var.k[v] + 7);
				struct stats s[METRICS_MAX];
				int any = 0;
				for (int k = 0; k < nmet; k++) {
					s[k] = gather(p, m, groups.k[g], 0, NULL, NULL, 1, off, met[k]);
					any |= s[k].n > 0;
				}
				if (!any)
					continue;
				if (!d)
					d = data_file(p, dat);
				fprintf(d, "%g", off);
				for (int k = 0; k < nmet; k++)
					put_stat(d, s[k]);
				fprintf(d, "\n");
			}
			if (!d)
				continue;
			fclose(d);
			have[m] = 1;
			gp_begin(p, png[m], groups.k[g], "distance from the pending word (bytes)", "ns per operation");
			fprintf(p->gp, "set arrow from 64, graph 0 to 64, graph 1 nohead dt 2 lc rgb 'red'\nset arrow from 128, graph 0 to 128, graph 1 nohead dt 2 lc rgb 'red'\n");
			fprintf(p->gp, "set xrange [0:*]\nset xtics 0,32\nplot ");
			for (int k = 0; k < nmet; k++)
				fprintf(p->gp, "%s'data/%s' using 1:%d:%d:%d with yerrorlines title '%s'", k ? ", " : "", dat, 2 + 3 * k, 3 + 3 * k, 4 + 3 * k, met[k]);
			fprintf(p->gp, "\n");
		}
		md_images(p, png, have, "no sweep on this machine");
		keys_free(&var);
	}
	keys_free(&groups);
}

static int tkey_cmp(const void *a, const void *b)
{
	int w1 = 0, r1 = 0, w2 = 0, r2 = 0;
	sscanf(*(char *const *)a, "%d+%d", &w1, &r1);
	sscanf(*(char *const *)b, "%d+%d", &w2, &r2);
	return w1 + r1 != w2 + r2 ? (w1 + r1) - (w2 + r2) : w1 - w2;
}

static void section_scaling(struct rep *p)
{
	struct keys groups = { 0 };
	int shown = 0;
	for (long i = 0; i < p->nrec; i++)
		if (!p->rec[i].sweep && p->rec[i].threads)
			keys_add(&groups, p->rec[i].skey);
	qsort(groups.k, (size_t)groups.n, sizeof(char *), cmp_ver);
	fprintf(p->md, "\n## Thread scaling\n\nx: writers+readers; one line per variant and metric (median; bars: lowest and highest repetition).\n");
	for (int g = 0; g < groups.n; g++) {
		struct keys tk = { 0 }, var = { 0 };
		for (long i = 0; i < p->nrec; i++)
			if (!p->rec[i].sweep && p->rec[i].threads && !strcmp(p->rec[i].skey, groups.k[g])) {
				keys_add(&tk, p->rec[i].tkey);
				keys_add(&var, p->rec[i].variant);
			}
		if (tk.n < 2) {
			keys_free(&tk);
			keys_free(&var);
			continue;
		}
		qsort(tk.k, (size_t)tk.n, sizeof(char *), tkey_cmp);
		const char *met[METRICS_MAX];
		char bench[64], png[MACHINES_MAX][128];
		int have[MACHINES_MAX] = { 0 };
		sscanf(groups.k[g], "%63s", bench);
		int nmet = metrics_of(p, bench, met);
		shown++;
		fprintf(p->md, "\n### %s\n", groups.k[g]);
		for (int m = 0; m < p->nm; m++) {
			char dat[64];
			snprintf(dat, sizeof(dat), "scaling-%02d-m%d.dat", g + 1, m + 1);
			snprintf(png[m], sizeof(png[m]), "scaling-%02d-m%d.png", g + 1, m + 1);
			FILE *d = data_file(p, dat);
			int points = 0;
			for (int t = 0; t < tk.n; t++) {
				int any = 0;
				fprintf(d, "\"%s\"", tk.k[t]);
				for (int v = 0; v < var.n; v++)
					for (int k = 0; k < nmet; k++) {
						struct stats s = { 0 };
						for (long i = 0; i < p->nrec && !s.n; i++) /* the group key of this thread count */
							if (p->rec[i].m == m && !p->rec[i].sweep && !strcmp(p->rec[i].skey, groups.k[g]) && !strcmp(p->rec[i].tkey, tk.k[t]))
								s = gather(p, m, p->rec[i].gkey, 0, var.k[v], NULL, 0, 0, met[k]);
						any |= s.n > 0;
						put_stat(d, s);
					}
				points += any;
				fprintf(d, "\n");
			}
			fclose(d);
			if (points < 2)
				continue;
			have[m] = 1;
			gp_begin(p, png[m], groups.k[g], "threads (writers+readers)", "ns per operation");
			fprintf(p->gp, "set offsets 0.3, 0.3, 0, 0\nplot ");
			for (int v = 0, c = 0; v < var.n; v++)
				for (int k = 0; k < nmet; k++, c++)
					fprintf(p->gp, "%s'data/%s' using 0:%d:%d:%d%s with yerrorlines title '%s %s'", c ? ", " : "", dat, 2 + 3 * c, 3 + 3 * c,
						4 + 3 * c, c ? "" : ":xtic(1)", var.k[v], met[k]);
			fprintf(p->gp, "\n");
		}
		md_images(p, png, have, "fewer than two thread counts on this machine");
		keys_free(&tk);
		keys_free(&var);
	}
	if (!shown)
		fprintf(p->md, "\nNot in these inputs: no configuration was run with two or more thread counts (the two-socket preset runs 1+1, 1+4 and 4+4).\n");
	keys_free(&groups);
}

/* HITM counts come from hardware counters: columns named *_hitm; per 1,000 operations of the same role. */
/* HITM (or the platform's stand-in) per 1,000 operations: the counters module's hitm_per_kop column. */
static void section_hitm(struct rep *p)
{
	int cols = 0, counted = 0;
	fprintf(p->md, "\n## HITM per 1,000 operations\n\n");
	for (int f = 0; f < p->res.n; f++)
		for (int c = 0; c < p->res.t[f].ncols; c++)
			if (!strcmp(p->res.t[f].cols[c], "hitm_per_kop")) {
				cols++;
				for (long r = 0; r < p->res.t[f].nrows; r++)
					counted += strcmp(p->res.t[f].cell[r][c], "NA") != 0;
			}
	if (!cols) {
		fprintf(p->md, "Not measured: these results have no hitm_per_kop column (written by a build without counters).\n");
		return;
	}
	if (!counted) {
		fprintf(p->md, "Not measured: every HITM value is NA (no usable PMU: a VM or container, perf_event_paranoid, or an unknown CPU); the reasons are in the table of values not measured below.\n");
		return;
	}
	fprintf(p->md, "| machine | bench | configuration | variant | events | per 1,000 operations (median) |\n|---|---|---|---|---|---|\n");
	for (int m = 0; m < p->nm; m++)
		for (long i = 0; i < p->nrec; i++) {
			const struct rec *x = &p->rec[i];
			const char *rep = table_get(x->t, x->r, "rep"), *src = table_get(x->t, x->r, "hitm_source");
			if (x->m != m || !rep || strcmp(rep, "0")) /* rep 0 lists each configuration once */
				continue;
			struct stats s = gather(p, m, x->gkey, 0, x->variant, NULL, x->sweep, x->offset, "hitm_per_kop");
			if (s.n)
				fprintf(p->md, "| %s | %s | %s | %s | %s | %.4g |\n", p->machine[m], x->bench, x->gkey, x->variant, src ? src : "NA", s.median);
			else
				fprintf(p->md, "| %s | %s | %s | %s | NA | NA (see below) |\n", p->machine[m], x->bench, x->gkey, x->variant);
		}
}

/* A dynamic list of (a, b, value) for the latency matrix. */
struct cellv {
	int a, b;
	double v;
};

static int by_pair(const void *x, const void *y)
{
	const struct cellv *p = x, *q = y;
	return p->a != q->a ? (p->a > q->a) - (p->a < q->a) : (p->b > q->b) - (p->b < q->b);
}

/* One machine's latency matrix for one mode: the median over repetitions of each pair's min_ns.
 * Returns the highest CPU number seen plus one (0: no pingpong rows for this machine and mode). */
static int heat_data(struct rep *p, int m, const char *mode, const char *name)
{
	int top = 0;
	struct cellv *c = xcalloc((size_t)p->nrec + 1, sizeof(*c));
	long n = 0;
	for (long i = 0; i < p->nrec; i++) {
		const struct rec *x = &p->rec[i];
		const char *md = table_get(x->t, x->r, "mode");
		int ok1, ok2, ok3;
		if (x->m != m || strcmp(x->bench, "pingpong") || !md || strcmp(md, mode))
			continue;
		double a = cell_num(x->t, x->r, "cpu_a", &ok1), b = cell_num(x->t, x->r, "cpu_b", &ok2);
		double v = cell_num(x->t, x->r, "min_ns", &ok3);
		if (ok1 && ok2 && ok3 && a >= 0 && b >= 0 && a < 4096 && b < 4096) {
			c[n++] = (struct cellv){ (int)a, (int)b, v };
			top = (int)(a > b ? a : b) + 1 > top ? (int)(a > b ? a : b) + 1 : top;
		}
	}
	if (!n) {
		free(c);
		return 0;
	}
	qsort(c, (size_t)n, sizeof(*c), by_pair);
	FILE *f = data_file(p, name);
	double *v = xcalloc((size_t)n, sizeof(double));
	for (long i = 0; i < n;) {
		long j = i;
		size_t k = 0;
		for (; j < n && c[j].a == c[i].a && c[j].b == c[i].b; j++)
			v[k++] = c[j].v;
		double med = stats_of(v, k).median;
		fprintf(f, "%d %d %.3f\n%d %d %.3f\n", c[i].a, c[i].b, med, c[i].b, c[i].a, med); /* symmetric */
		i = j;
	}
	fclose(f);
	free(v);
	free(c);
	return top;
}

/* pingpong: the core-to-core latency matrix as a heatmap per machine and mode. */
static void section_heatmap(struct rep *p)
{
	static const char *const modes[] = { "load-store", "cas" };
	int any = 0;
	for (long i = 0; i < p->nrec && !any; i++)
		any = !strcmp(p->rec[i].bench, "pingpong");
	if (!any)
		return;
	fprintf(p->md, "\n## Core-to-core latency (pingpong)\n\nEach cell: the median over repetitions of the pair's minimum one-way latency, ns (CPU numbers as the OS numbers them; blank: pair not measured).\n");
	for (int mo = 0; mo < 2; mo++) {
		char png[MACHINES_MAX][128];
		int have[MACHINES_MAX] = { 0 };
		fprintf(p->md, "\n### %s handoff\n", modes[mo]);
		for (int m = 0; m < p->nm; m++) {
			char name[64], title[256];
			snprintf(name, sizeof(name), "heat-%s-m%d.dat", modes[mo], m + 1);
			snprintf(png[m], sizeof(png[m]), "heat-%s-m%d.png", modes[mo], m + 1);
			int top = heat_data(p, m, modes[mo], name);
			if (!(have[m] = top > 0))
				continue;
			snprintf(title, sizeof(title), "pingpong %s: one-way latency (ns), %s", modes[mo], p->machine[m]);
			gp_begin(p, png[m], title, "CPU a", "CPU b");
			fprintf(p->gp, "set size ratio -1\nset xrange [-0.5:%d.5]\nset yrange [%d.5:-0.5]\nset cblabel 'ns'\nset palette rgbformulae 33,13,10\n",
				top - 1, top - 1);
			fprintf(p->gp, "set xtics %d\nset ytics %d\nunset grid\n", top > 16 ? top / 8 : 1, top > 16 ? top / 8 : 1);
			fprintf(p->gp, "plot 'data/%s' using 1:2:(0.5):(0.5):3 with boxxyerror fill solid noborder palette notitle\n", name);
		}
		md_images(p, png, have, "not measured on this machine");
	}
}

/* Every NA in the inputs, by machine, column and reason (from na_reason: "col: why; col: why"). */
static void section_na(struct rep *p)
{
	struct keys k = { 0 };
	long count[KEYS_MAX] = { 0 };
	fprintf(p->md, "\n## Values not measured, and why\n\n");
	for (long i = 0; i < p->nrec; i++) {
		const struct rec *x = &p->rec[i];
		const char *nr = table_get(x->t, x->r, "na_reason");
		for (int c = 0; c < x->t->ncols; c++) {
			if (strcmp(x->t->cell[x->r][c], "NA"))
				continue;
			const char *col = x->t->cols[c], *why = "no reason recorded";
			char buf[1200], reason[600] = "";
			size_t l = strlen(col);
			for (const char *s = nr; s && *s; s = strstr(s, "; ") ? strstr(s, "; ") + 2 : NULL)
				if (!strncmp(s, col, l) && s[l] == ':') {
					snprintf(reason, sizeof(reason), "%s", s + l + 2);
					reason[strcspn(reason, ";")] = 0;
					why = reason;
					break;
				}
			snprintf(buf, sizeof(buf), "%s\x1f%s\x1f%s", p->machine[x->m], col, why);
			keys_add(&k, buf);
			for (int j = 0; j < k.n; j++)
				if (!strcmp(k.k[j], buf))
					count[j]++;
		}
	}
	if (!k.n) {
		fprintf(p->md, "Every value in these inputs was measured (no NA).\n");
		return;
	}
	fprintf(p->md, "| machine | column | rows | why |\n|---|---|---|---|\n");
	for (int j = 0; j < k.n; j++) {
		char *a = k.k[j], *b = strchr(a, '\x1f'), *c = strchr(b + 1, '\x1f');
		fprintf(p->md, "| %.*s | %.*s | %ld | %s |\n", (int)(b - a), a, (int)(c - b - 1), b + 1, count[j], c + 1);
	}
	keys_free(&k);
}

static void section_machines(struct rep *p, char **inputs, int ninputs)
{
	static const char *const ctx[] = { "cpu_model", "packages", "cores", "pus", "numa_nodes", "line_size", "kernel", "compiler", "c2cbench_rev", NULL };
	fprintf(p->md, "# c2cbench report\n\nMade by c2cbench %s (schema_version %d) from:", C2C_VERSION, SCHEMA_VERSION);
	for (int i = 0; i < ninputs; i++)
		fprintf(p->md, " `%s`", inputs[i]);
	fprintf(p->md, "\n\nPlots are made by gnuplot from `plots.gp` and the files in `data/`; rerun `gnuplot plots.gp` here to redraw them.\n\n## Machines\n\n| machine |");
	for (int i = 0; ctx[i]; i++)
		fprintf(p->md, " %s |", ctx[i]);
	fprintf(p->md, " rows |\n|---|");
	for (int i = 0; ctx[i]; i++)
		fprintf(p->md, "---|");
	fprintf(p->md, "---|\n");
	for (int m = 0; m < p->nm; m++) {
		long rows = 0;
		for (long i = 0; i < p->nrec; i++)
			rows += p->rec[i].m == m;
		fprintf(p->md, "| %s |", p->machine[m]);
		for (int i = 0; ctx[i]; i++)
			fprintf(p->md, " %s |", ctxv(p, m, ctx[i]));
		fprintf(p->md, " %ld |\n", rows);
	}
}

static int open_out(struct rep *p, const char *dir, char *err)
{
	char path[PATH_MAX];
	if (mkdir(dir, 0755) && errno != EEXIST)
		return err_set(err, "--out: cannot create '%s': %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/report.md", dir);
	if (!access(path, F_OK))
		return err_set(err, "--out: '%s' already exists; accepted: a new or empty directory (reports are never overwritten)", path);
	snprintf(path, sizeof(path), "%s/data", dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		return err_set(err, "--out: cannot create '%s': %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/plots.gp", dir);
	p->gp = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/.report.md.tmp", dir);
	p->md = p->gp ? fopen(path, "w") : NULL;
	if (!p->md)
		return err_set(err, "--out: cannot write in '%s': %s", dir, strerror(errno));
	p->dir = dir;
	return 0;
}

int report_main(int argc, char **argv)
{
	const struct opt_spec *tables[] = { report_opts, NULL };
	struct opts o;
	struct rep p = { 0 };
	char err[ERRLEN] = "", **argcopy = NULL;
	char **av = xcalloc((size_t)argc + 1, sizeof(char *));
	for (int i = 0; i < argc; i++) /* -o DIR, as the usage line says */
		av[i] = !strcmp(argv[i], "-o") ? "--out" : argv[i];
	int rc = opts_parse_mixed(&o, tables, argc, av, &argcopy, err);
	if (rc && !strcmp(err, "help")) {
		printf("usage: c2cbench report INPUT... -o DIR\nINPUT: result CSV files or result directories (several machines are shown side by side).\n");
		opts_help(stdout, report_opts);
		rc = 0;
		goto out;
	}
	if (!rc && !o.nargs)
		rc = err_set(err, "report needs one or more inputs (result CSV files or directories)");
	if (!rc && !opt_str(&o, "out"))
		rc = err_set(err, "report needs -o DIR, the directory to write the report into");
	for (int i = 0; !rc && i < o.nargs; i++)
		rc = results_add(&p.res, o.args[i], err);
	if (!rc && p.res.schema < 0)
		rc = err_set(err, "the inputs hold no result rows; nothing to report");
	if (!rc && p.res.schema > SCHEMA_VERSION)
		rc = err_set(err, "%s has schema_version %d; this c2cbench reads schema_version %d and older", p.res.first, p.res.schema, SCHEMA_VERSION);
	if (rc) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		rc = EXIT_BADINPUT;
		goto out;
	}
	if (gnuplot_find(err)) { /* before anything is written: no half report */
		fprintf(stderr, "c2cbench: error: %s\n", err);
		rc = 1;
		goto out;
	}
	if (open_out(&p, opt_str(&o, "out"), err)) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		rc = EXIT_BADINPUT;
		goto out;
	}
	build_recs(&p);
	section_machines(&p, o.args, o.nargs);
	section_bars(&p);
	section_hitm(&p);
	section_sweep(&p);
	section_scaling(&p);
	section_heatmap(&p);
	section_na(&p);
	fclose(p.gp);
	p.gp = NULL;
	if (p.plots && gnuplot_run(p.dir, "plots.gp", err)) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		rc = 1;
		goto out;
	}
	fclose(p.md);
	p.md = NULL;
	char a[PATH_MAX], b[PATH_MAX];
	snprintf(a, sizeof(a), "%s/.report.md.tmp", p.dir);
	snprintf(b, sizeof(b), "%s/report.md", p.dir);
	if (rename(a, b)) {
		fprintf(stderr, "c2cbench: error: cannot create %s: %s\n", b, strerror(errno));
		rc = 1;
		goto out;
	}
	printf("report: %s (%d plot(s), %d machine(s))\n", b, p.plots, p.nm);
out:
	if (p.gp)
		fclose(p.gp);
	if (p.md)
		fclose(p.md);
	free(p.rec);
	results_free(&p.res);
	opts_free(&o);
	free(argcopy);
	free(av);
	return rc;
}

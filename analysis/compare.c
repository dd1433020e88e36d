/* `c2cbench compare A B`: the same configurations measured twice (two machines, two builds),
 * joined on configuration, never on machine; medians, ratio with its interval, Mann-Whitney U. */
#include "harness/bench.h"
#include "harness/cmdargs.h"
#include "harness/compare_stats.h"
#include "harness/csv.h"
#include "analysis/results_in.h"
#include "harness/stats.h"
#include "analysis/compare.h"
#include "harness/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define METRICS_MAX 16

static const struct opt_spec compare_opts[] = {
	{ "csv", OPT_FLAG, NULL, NULL, "write the table as CSV on stdout (one row per configuration and metric)", NULL, NULL },
	{ "metric", OPT_TEXT, NULL, "COL,...", "metric columns to compare (default: each bench's summary columns)", NULL, NULL },
	{ 0 },
};

struct vals {
	double *v;
	size_t n, cap;
};

struct group {
	char *key;     /* "col=val;col=val..." over all configuration columns */
	char *bench;
	int ncfg;
	const char *cfg_col[CONFIG_MAX];
	char *cfg_val[CONFIG_MAX];
	int nmet;
	char *metric[METRICS_MAX];
	struct vals side[2][METRICS_MAX];
	int rows[2];
};

struct cmp {
	struct group *g;
	int n;
	char warned[8][64];
	int nwarned;
	const char *metric_opt;
};

static void vals_push(struct vals *v, double x)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 8;
		v->v = realloc(v->v, v->cap * sizeof(double));
		if (!v->v)
			out_of_memory(0);
	}
	v->v[v->n++] = x;
}

/* Say once per bench that its rows join on bench and variant only: never a silent loose join. */
static void warn_undeclared(struct cmp *c, const char *bench, const char *vcol)
{
	for (int i = 0; i < c->nwarned; i++)
		if (!strcmp(c->warned[i], bench))
			return;
	if (c->nwarned < 8)
		snprintf(c->warned[c->nwarned++], 64, "%s", bench);
	fprintf(stderr, "c2cbench: warning: bench '%s' is not in this build or declares no configuration columns; joining its rows on bench and %s only\n", bench, vcol);
}

static struct group *find_or_add(struct cmp *c, const struct table *t, long r, const char **cols, int ncols)
{
	char key[4096];
	size_t k = 0;
	key[0] = 0;
	for (int i = 0; i < ncols; i++) {
		const char *v = table_get(t, r, cols[i]);
		k += (size_t)snprintf(key + k, sizeof(key) > k ? sizeof(key) - k : 0, "%s%s=%s", i ? ";" : "", cols[i], v ? v : "(absent)");
	}
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->g[i].key, key))
			return &c->g[i];
	c->g = realloc(c->g, (size_t)(c->n + 1) * sizeof(struct group));
	if (!c->g)
		out_of_memory(0);
	struct group *g = &c->g[c->n++];
	memset(g, 0, sizeof(*g));
	g->key = xstrdup(key);
	g->bench = xstrdup(t->cell[r][1]);
	g->ncfg = ncols;
	for (int i = 0; i < ncols; i++) {
		const char *v = table_get(t, r, cols[i]);
		g->cfg_col[i] = cols[i];
		g->cfg_val[i] = xstrdup(v ? v : "(absent)");
	}
	return g;
}

static int metric_index(struct group *g, const char *m)
{
	for (int i = 0; i < g->nmet; i++)
		if (!strcmp(g->metric[i], m))
			return i;
	if (g->nmet >= METRICS_MAX)
		return -1;
	g->metric[g->nmet] = xstrdup(m);
	return g->nmet++;
}

/* File every row of one side under its configuration. */
static void collect(struct cmp *c, const struct results *res, int side)
{
	for (int f = 0; f < res->n; f++) {
		const struct table *t = &res->t[f];
		for (long r = 0; r < t->nrows; r++) {
			const char *cols[CONFIG_MAX], *mets[METRICS_MAX];
			int declared, nm;
			int nc = config_cols(t, t->cell[r][1], cols, CONFIG_MAX, &declared);
			if (!declared)
				warn_undeclared(c, t->cell[r][1], t->cols[2]);
			if (c->metric_opt)
				nm = list_split(c->metric_opt, (char **)mets, METRICS_MAX);
			else
				nm = metric_cols(t, t->cell[r][1], mets, METRICS_MAX);
			struct group *g = find_or_add(c, t, r, cols, nc);
			g->rows[side]++;
			for (int m = 0; m < nm; m++) {
				int ok, mi = metric_index(g, mets[m]);
				double x = cell_num(t, r, mets[m], &ok);
				if (mi >= 0 && ok)
					vals_push(&g->side[side][mi], x);
			}
			if (c->metric_opt)
				for (int m = 0; m < nm; m++)
					free((char *)mets[m]);
		}
	}
}

/* Configuration columns whose values differ between groups of one bench: what a reader needs to tell rows apart. */
static int varies(const struct cmp *c, const struct group *g, int col)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->g[i].bench, g->bench) && c->g[i].ncfg == g->ncfg && strcmp(c->g[i].cfg_val[col], g->cfg_val[col]))
			return 1;
	return 0;
}

static void label(const struct cmp *c, const struct group *g, char *out, size_t n)
{
	size_t k = (size_t)snprintf(out, n, "%s %s", g->bench, g->cfg_val[1]);
	for (int i = 2; i < g->ncfg && k < n; i++)
		if (varies(c, g, i))
			k += (size_t)snprintf(out + k, n - k, " %s=%s", g->cfg_col[i], g->cfg_val[i]);
}

struct result {
	double ma, mb, ratio, lo, hi, u, p;
	int has_ratio, has_ci, has_p, exact;
};

static struct result compute(const struct vals *a, const struct vals *b)
{
	struct result r = { 0 };
	if (a->n)
		r.ma = stats_of(a->v, a->n).median;
	if (b->n)
		r.mb = stats_of(b->v, b->n).median;
	r.has_ratio = a->n && b->n && r.ma != 0;
	if (r.has_ratio)
		r.ratio = r.mb / r.ma;
	r.has_ci = r.has_ratio && !boot_ratio_ci(a->v, a->n, b->v, b->n, &r.lo, &r.hi);
	r.has_p = a->n && b->n;
	if (r.has_p)
		mann_whitney(a->v, a->n, b->v, b->n, &r.u, &r.p, &r.exact);
	return r;
}

static const char *stars(const struct result *r)
{
	if (!r->has_p)
		return "";
	return r->p < 0.001 ? "***" : r->p < 0.01 ? "**" : r->p < 0.05 ? "*" : "";
}

static void put_field(const char *s, int last)
{
	char buf[8192];
	csv_field(s, buf, sizeof(buf));
	printf("%s%s", buf, last ? "\n" : ",");
}

static void numf(char *buf, size_t n, int ok, const char *fmt, double v)
{
	if (ok)
		snprintf(buf, n, fmt, v);
	else
		snprintf(buf, n, "NA");
}

static void print_csv(const struct cmp *c)
{
	printf("bench,config,metric,n_a,median_a,n_b,median_b,ratio,ci_low,ci_high,u,p_value,p_method,significance,only_in\n");
	for (int i = 0; i < c->n; i++) {
		const struct group *g = &c->g[i];
		const char *only = !g->rows[0] ? "B" : !g->rows[1] ? "A" : "";
		for (int m = 0; m < g->nmet; m++) {
			const struct vals *a = &g->side[0][m], *b = &g->side[1][m];
			struct result r = compute(a, b);
			char f[10][64];
			snprintf(f[0], 64, "%zu", a->n);
			numf(f[1], 64, a->n > 0, "%.6g", r.ma);
			snprintf(f[2], 64, "%zu", b->n);
			numf(f[3], 64, b->n > 0, "%.6g", r.mb);
			numf(f[4], 64, r.has_ratio, "%.6g", r.ratio);
			numf(f[5], 64, r.has_ci, "%.6g", r.lo);
			numf(f[6], 64, r.has_ci, "%.6g", r.hi);
			numf(f[7], 64, r.has_p, "%.6g", r.u);
			numf(f[8], 64, r.has_p, "%.6g", r.p);
			put_field(g->bench, 0);
			put_field(g->key, 0);
			put_field(g->metric[m], 0);
			for (int k = 0; k < 9; k++)
				put_field(f[k], 0);
			put_field(r.has_p ? (r.exact ? "exact" : "normal") : "NA", 0);
			put_field(stars(&r), 0);
			put_field(only, 1);
		}
	}
}

static void print_side(const char *name, const struct results *res)
{
	long rows = 0;
	char hosts[512] = "";
	size_t k = 0;
	for (int f = 0; f < res->n; f++) {
		rows += res->t[f].nrows;
		for (long r = 0; r < res->t[f].nrows; r++) {
			const char *h = table_get(&res->t[f], r, "host"), *m = table_get(&res->t[f], r, "cpu_model");
			char one[300];
			snprintf(one, sizeof(one), "%s (%s)", h ? h : "?", m ? m : "?");
			if (!strstr(hosts, one) && k < sizeof(hosts))
				k += (size_t)snprintf(hosts + k, sizeof(hosts) - k, "%s%s", k ? ", " : "", one);
		}
	}
	printf("%s: %ld row(s) from %d file(s); machine(s): %s\n", name, rows, res->n, k ? hosts : "none");
}

static void print_table(const struct cmp *c, const struct results *ra, const struct results *rb)
{
	char lab[1024];
	int w = 13, only[2] = { 0, 0 };
	print_side("A", ra);
	print_side("B", rb);
	printf("ratio = median B / median A; 95%% CI: percentile bootstrap (%d resamples); p: two-sided Mann-Whitney U over repetitions\n"
	       "(exact when no ties, else normal approximation); significance: * p<0.05, ** p<0.01, *** p<0.001\n\n", BOOT_RESAMPLES);
	for (int i = 0; i < c->n; i++) {
		label(c, &c->g[i], lab, sizeof(lab));
		if ((int)strlen(lab) > w)
			w = (int)strlen(lab);
	}
	printf("%-*s  %-18s %3s %11s %3s %11s %8s  %-19s %8s\n", w, "configuration", "metric", "nA", "median A", "nB", "median B", "ratio", "95% CI", "p");
	for (int i = 0; i < c->n; i++) {
		const struct group *g = &c->g[i];
		if (!g->rows[0] || !g->rows[1]) {
			only[g->rows[0] ? 0 : 1]++;
			continue;
		}
		label(c, g, lab, sizeof(lab));
		for (int m = 0; m < g->nmet; m++) {
			const struct vals *a = &g->side[0][m], *b = &g->side[1][m];
			struct result r = compute(a, b);
			char ma[32], mb[32], ra_[32], ci[64], p[32];
			numf(ma, 32, a->n > 0, "%.4g", r.ma);
			numf(mb, 32, b->n > 0, "%.4g", r.mb);
			numf(ra_, 32, r.has_ratio, "%.3f", r.ratio);
			if (r.has_ci)
				snprintf(ci, sizeof(ci), "[%.3f, %.3f]", r.lo, r.hi);
			else if (a->n < 2 || b->n < 2)
				snprintf(ci, sizeof(ci), "NA (n<2)");
			else
				snprintf(ci, sizeof(ci), "NA (median A is 0)");
			numf(p, 32, r.has_p, "%.3g", r.p);
			printf("%-*s  %-18s %3zu %11s %3zu %11s %8s  %-19s %8s %s\n", w, m ? "" : lab, g->metric[m], a->n, ma, b->n, mb, ra_, ci, p, stars(&r));
		}
	}
	for (int s = 0; s < 2; s++) {
		if (!only[s])
			continue;
		printf("\nonly in %s (%d configuration(s), not compared):\n", s ? "B" : "A", only[s]);
		for (int i = 0; i < c->n; i++)
			if (c->g[i].rows[s] && !c->g[i].rows[!s])
				printf("  %s\n", c->g[i].key);
	}
}

static int cmp_group(const void *x, const void *y)
{
	return strverscmp(((const struct group *)x)->key, ((const struct group *)y)->key);
}

static void cmp_free(struct cmp *c)
{
	for (int i = 0; i < c->n; i++) {
		struct group *g = &c->g[i];
		free(g->key);
		free(g->bench);
		for (int k = 0; k < g->ncfg; k++)
			free(g->cfg_val[k]);
		for (int m = 0; m < g->nmet; m++) {
			free(g->metric[m]);
			free(g->side[0][m].v);
			free(g->side[1][m].v);
		}
	}
	free(c->g);
}

/* Both sides must share one schema, and this build must read it. */
static int check_schemas(const struct results *a, const struct results *b, char *err)
{
	if (a->schema != b->schema)
		return err_set(err, "A (%s) has schema_version %d but B (%s) has schema_version %d; rows of different schema versions cannot be joined: compare results written by c2cbench builds of the same schema",
			    a->first, a->schema, b->first, b->schema);
	if (a->schema > SCHEMA_VERSION || b->schema > SCHEMA_VERSION)
		return err_set(err, "%s has schema_version %d; this c2cbench reads schema_version %d and older", a->schema > SCHEMA_VERSION ? a->first : b->first, a->schema > SCHEMA_VERSION ? a->schema : b->schema, SCHEMA_VERSION);
	return 0;
}

int compare_main(int argc, char **argv)
{
	const struct opt_spec *tables[] = { compare_opts, NULL };
	struct opts o;
	struct results ra = { 0 }, rb = { 0 };
	struct cmp c = { 0 };
	char err[ERRLEN] = "", **argcopy = NULL;
	int rc = opts_parse_mixed(&o, tables, argc, argv, &argcopy, err);
	if (rc && !strcmp(err, "help")) {
		printf("usage: c2cbench compare A B [options]\nA and B: result CSV files or result directories; B is compared with A.\n");
		opts_help(stdout, compare_opts);
		opts_free(&o);
		free(argcopy);
		return 0;
	}
	if (!rc && o.nargs != 2)
		rc = err_set(err, "compare needs two inputs A and B (CSV files or result directories), got %d", o.nargs);
	if (!rc)
		rc = results_add(&ra, o.args[0], err);
	if (!rc)
		rc = results_add(&rb, o.args[1], err);
	if (!rc && (ra.schema < 0 || rb.schema < 0))
		rc = err_set(err, "%s has no result rows; nothing to compare", ra.schema < 0 ? o.args[0] : o.args[1]);
	if (!rc)
		rc = check_schemas(&ra, &rb, err);
	if (!rc) {
		c.metric_opt = opt_str(&o, "metric");
		collect(&c, &ra, 0);
		collect(&c, &rb, 1);
		qsort(c.g, (size_t)c.n, sizeof(struct group), cmp_group); /* bench, then variant: offset-8 before offset-16 */
		if (opt_flag(&o, "csv"))
			print_csv(&c);
		else
			print_table(&c, &ra, &rb);
	}
	cmp_free(&c);
	results_free(&ra);
	results_free(&rb);
	opts_free(&o);
	free(argcopy);
	if (rc) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	return 0;
}

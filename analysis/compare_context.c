/* The context a compare line travels with: how each side's rows were judged (the .meta's
 * [validity]) and whether its placement probe moved between repetitions (the probe columns of its
 * valid rows), so a verdict never hides a relaxed rule or a vCPU the hypervisor moved. */
#include "analysis/compare.h"
#include "lib/csvread.h"
#include "lib/infile.h"
#include "schema/meta.h"
#include "lib/parse.h"
#include "schema/probeclass.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CTX_PAIRS 4 /* probed pairs kept per configuration and side (a row probes at most 4) */

/* How one file's rows were judged: its .meta [validity]. */
struct vfile {
	char *path;
	int known;            /* the .meta has a [validity] section */
	char by[200];         /* relaxed_by: "" when strict */
	double probe_factor;  /* valid-probe as used (the default when unknown) */
	int sides;            /* the sides its rows are on: 1 A, 2 B, 3 both */
};

struct pair {
	char name[24];
	double lo, hi;
	double *lat; /* per valid row: its latency (schema/probeclass.h), for the classes */
	int nlat, cap;
};

struct ccell {
	int vfile;  /* the file of its first row, + 1; 0: no row yet */
	int vmixed; /* its rows come from files judged differently */
	int npair;
	struct pair *pair; /* CTX_PAIRS, from its first probed pair (most benches probe none) */
};

struct cmp_ctx {
	struct ccell *cell; /* [group * 2 + side] */
	int cap;
	struct vfile *file;
	int nfile;
	char *cols_path;    /* the file whose column indexes are cached */
	int c_pairs, c_before, c_after;
};

static void read_validity(struct vfile *v, const char *csv)
{
	char meta[4200], line[512];
	int in = 0;
	v->probe_factor = VALID_PROBE_DEFAULT;
	context_meta_path(csv, meta, sizeof(meta));
	FILE *m = fopen_regular(meta);
	while (m && fgets(line, sizeof(line), m)) {
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '[') {
			in = !strcmp(line, "[validity]");
			v->known |= in;
			continue;
		}
		char *eq = strstr(line, " = ");
		if (!in || !eq)
			continue;
		*eq = 0;
		double d;
		if (!strcmp(line, "relaxed_by"))
			snprintf(v->by, sizeof(v->by), "%s", eq + 3);
		else if (!strcmp(line, "valid-probe") && !parse_double(eq + 3, &d) && d >= 1)
			v->probe_factor = d;
	}
	if (m)
		fclose(m);
}

int cmp_file_relaxed(const char *csv, char *by, size_t n)
{
	struct vfile v = { 0 };
	read_validity(&v, csv);
	snprintf(by, n, "%s", v.by);
	return v.by[0] != 0;
}

static int file_of(struct cmp_ctx *x, const char *path)
{
	for (int i = x->nfile - 1; i >= 0; i--) /* a few files a side */
		if (!strcmp(x->file[i].path, path))
			return i;
	x->file = realloc(x->file, (size_t)(x->nfile + 1) * sizeof(*x->file));
	if (!x->file)
		out_of_memory(0);
	struct vfile *v = &x->file[x->nfile];
	memset(v, 0, sizeof(*v));
	v->path = xstrdup(path);
	read_validity(v, path);
	return x->nfile++;
}

static struct ccell *cell_of(struct cmp_ctx *x, int group, int side)
{
	int k = group * 2 + side;
	if (k >= x->cap) {
		int cap = x->cap ? x->cap : 64;
		while (cap <= k)
			cap *= 2;
		x->cell = realloc(x->cell, (size_t)cap * sizeof(*x->cell));
		if (!x->cell)
			out_of_memory(0);
		memset(x->cell + x->cap, 0, (size_t)(cap - x->cap) * sizeof(*x->cell));
		x->cap = cap;
	}
	return &x->cell[k];
}

/* One pair's latency into the cell's range of that pair. */
static void probe_value(struct ccell *c, const char *pair, const char *v)
{
	double d;
	int i = 0;
	if (parse_double(v, &d) || d <= 0)
		return; /* NA: not measured */
	while (i < c->npair && strcmp(c->pair[i].name, pair))
		i++;
	if (i == c->npair) {
		if (c->npair == CTX_PAIRS)
			return;
		if (!c->pair)
			c->pair = xcalloc(CTX_PAIRS, sizeof(*c->pair));
		snprintf(c->pair[c->npair].name, sizeof(c->pair[0].name), "%s", pair);
		c->pair[c->npair++].lo = c->pair[i].hi = d;
	}
	c->pair[i].lo = d < c->pair[i].lo ? d : c->pair[i].lo;
	c->pair[i].hi = d > c->pair[i].hi ? d : c->pair[i].hi;
}

/* The space-separated pairs and each list of latencies, in the same order. */
static void probes(struct ccell *c, const char *pairs, const char *lat)
{
	char p[128], l[128], *sp, *sl;
	snprintf(p, sizeof(p), "%s", pairs);
	snprintf(l, sizeof(l), "%s", lat);
	for (char *a = strtok_r(p, " ", &sp), *b = strtok_r(l, " ", &sl); a && b;
	     a = strtok_r(NULL, " ", &sp), b = strtok_r(NULL, " ", &sl))
		probe_value(c, a, b);
}

/* A valid row's latency of each pair, the mean of its before and after probes, for the classes. */
static void row_latencies(struct ccell *c, const char *pairs, const char *before, const char *after)
{
	char p[128], b[128], a[128], *sp, *sb, *sa;
	snprintf(p, sizeof(p), "%s", pairs);
	snprintf(b, sizeof(b), "%s", before ? before : "");
	snprintf(a, sizeof(a), "%s", after ? after : "");
	char *x = strtok_r(p, " ", &sp), *y = strtok_r(b, " ", &sb), *z = strtok_r(a, " ", &sa);
	for (; x; x = strtok_r(NULL, " ", &sp), y = y ? strtok_r(NULL, " ", &sb) : NULL,
		  z = z ? strtok_r(NULL, " ", &sa) : NULL) {
		double db = -1, da = -1;
		if (y && (parse_double(y, &db) || db <= 0))
			db = -1;
		if (z && (parse_double(z, &da) || da <= 0))
			da = -1;
		double l = probe_latency(db, da);
		int i = 0;
		while (i < c->npair && strcmp(c->pair[i].name, x))
			i++;
		if (l < 0 || i == c->npair)
			continue;
		struct pair *q = &c->pair[i];
		if (q->nlat == q->cap) {
			q->cap = q->cap ? 2 * q->cap : 16;
			q->lat = realloc(q->lat, (size_t)q->cap * sizeof(double));
			if (!q->lat)
				out_of_memory(0);
		}
		q->lat[q->nlat++] = l;
	}
}

int cmp_ctx_hook(void *arg, const struct grp_row *r, char *err)
{
	struct cmp *cm = arg;
	(void)err;
	if (!cm->ctx)
		cm->ctx = xcalloc(1, sizeof(*cm->ctx));
	struct cmp_ctx *x = cm->ctx;
	const struct table *t = r->one;
	if (!x->cols_path || strcmp(x->cols_path, t->path)) {
		free(x->cols_path);
		x->cols_path = xstrdup(t->path);
		x->c_pairs = table_col(t, "probe_pairs");
		x->c_before = table_col(t, "probe_before_ns");
		x->c_after = table_col(t, "probe_after_ns");
	}
	struct ccell *c = cell_of(x, r->group, r->side);
	int f = file_of(x, t->path) + 1;
	x->file[f - 1].sides |= 1 << r->side;
	if (!c->vfile)
		c->vfile = f;
	else if (c->vfile != f) {
		const struct vfile *u = &x->file[c->vfile - 1], *v = &x->file[f - 1];
		c->vmixed |= u->known != v->known || strcmp(u->by, v->by);
	}
	if (!r->valid || x->c_pairs < 0)
		return 0;
	const char *pairs = t->cell[0][x->c_pairs];
	if (x->c_before >= 0)
		probes(c, pairs, t->cell[0][x->c_before]);
	if (x->c_after >= 0)
		probes(c, pairs, t->cell[0][x->c_after]);
	row_latencies(c, pairs, x->c_before >= 0 ? t->cell[0][x->c_before] : NULL,
		      x->c_after >= 0 ? t->cell[0][x->c_after] : NULL);
	return 0;
}

void cmp_ctx_free(struct cmp_ctx *x)
{
	if (!x)
		return;
	for (int i = 0; i < x->nfile; i++)
		free(x->file[i].path);
	for (int k = 0; k < x->cap; k++) {
		for (int i = 0; i < x->cell[k].npair; i++)
			free(x->cell[k].pair[i].lat);
		free(x->cell[k].pair);
	}
	free(x->file);
	free(x->cell);
	free(x->cols_path);
	free(x);
}

/* The context cell of line l's side s (B's is its matched configuration's), or NULL. */
static const struct ccell *ccell(const struct cmp *c, const struct cmp_line *l, int s)
{
	int g = s ? l->group_b : l->group, k = g * 2 + s;
	if (!c->ctx || !(s ? l->b : l->a) || k >= c->ctx->cap || !c->ctx->cell[k].vfile)
		return NULL;
	return &c->ctx->cell[k];
}

/* The pair that moved most (hi / lo), or -1 without a pair measured twice. */
static int widest(const struct ccell *x)
{
	int w = -1;
	for (int i = 0; x && i < x->npair; i++)
		if (w < 0 || x->pair[i].hi / x->pair[i].lo > x->pair[w].hi / x->pair[w].lo)
			w = i;
	return w;
}

void cmp_ctx_side(const struct cmp *c, const struct cmp_line *l, int s, char *validity,
		  size_t vn, char *probe, size_t pn)
{
	const struct ccell *x = ccell(c, l, s);
	const struct vfile *v = x ? &c->ctx->file[x->vfile - 1] : NULL;
	int w = widest(x);
	if (!v)
		snprintf(validity, vn, "NA");
	else if (x->vmixed)
		snprintf(validity, vn, "mixed: its files were judged by different rules");
	else if (!v->known)
		snprintf(validity, vn, "unknown");
	else if (v->by[0])
		snprintf(validity, vn, "relaxed: %s", v->by);
	else
		snprintf(validity, vn, "strict");
	if (w < 0)
		snprintf(probe, pn, "NA");
	else
		snprintf(probe, pn, "%.0f-%.0f", x->pair[w].lo, x->pair[w].hi);
}

/* "A judged with relaxed validity (...), B strict" where the two sides were judged apart. */
static size_t validity_words(const struct cmp *c, const struct cmp_line *l, char *out, size_t n)
{
	char va[240], vb[240], pa[40], pb[40];
	cmp_ctx_side(c, l, 0, va, sizeof(va), pa, sizeof(pa));
	cmp_ctx_side(c, l, 1, vb, sizeof(vb), pb, sizeof(pb));
	int ra = !strncmp(va, "relaxed", 7) || !strncmp(va, "mixed", 5);
	int rb = !strncmp(vb, "relaxed", 7) || !strncmp(vb, "mixed", 5);
	if ((!ra && !rb) || !strcmp(va, vb) || !strcmp(va, "NA") || !strcmp(vb, "NA"))
		return 0; /* the same rules, or a side without rows of it */
	const char *const side[2] = { va, vb };
	size_t k = 0;
	for (int s = 0; s < 2 && k < n; s++) {
		const char *v = side[s], *who = s ? "B" : "A";
		const char *sep = s ? ", " : "";
		if (!strncmp(v, "relaxed: ", 9))
			k += (size_t)snprintf(out + k, n - k,
					      "%s%s judged with relaxed validity (%s)", sep, who,
					      v + 9);
		else if (!strncmp(v, "mixed", 5))
			k += (size_t)snprintf(out + k, n - k,
					      "%s%s's rows come from files judged by different "
					      "validity rules", sep, who);
		else if (!strcmp(v, "strict"))
			k += (size_t)snprintf(out + k, n - k, "%s%s strict", sep, who);
		else
			k += (size_t)snprintf(out + k, n - k,
					      "%s%s's .meta does not say how it was judged", sep,
					      who);
	}
	return k < n ? k : n;
}

/* The machine's hypervisor, if its fingerprint knows one. */
static const char *hypervisor(const struct cmp *c, const struct grp_cell *cell)
{
	if (!cell || cell->mixed || cell->mach < 0)
		return NULL;
	const char *h = grp_fp_field(&c->g.mach[cell->mach].fp, "hypervisor");
	return h && strcmp(h, "none") ? h : NULL;
}

int cmp_ctx_words(const struct cmp *c, const struct cmp_line *l, char *out, size_t n)
{
	size_t k = validity_words(c, l, out, n);
	if (k < n)
		out[k] = 0;
	for (int s = 0; s < 2 && k < n; s++) {
		const struct ccell *x = ccell(c, l, s);
		int w = widest(x);
		const struct vfile *v = x ? &c->ctx->file[x->vfile - 1] : NULL;
		if (w < 0 || x->pair[w].hi / x->pair[w].lo <= v->probe_factor)
			continue;
		const char *hv = hypervisor(c, s ? l->b : l->a);
		k += (size_t)snprintf(out + k, n - k,
				      "%s%s's placement probe ranged %.0f-%.0f ns over its "
				      "repetitions (CPUs %s, more than its --valid-probe %g): %s",
				      k ? "; " : "", s ? "B" : "A", x->pair[w].lo, x->pair[w].hi,
				      x->pair[w].name, v->probe_factor,
				      hv ? "the hypervisor moved vCPUs"
					 : "its latency changed between repetitions");
	}
	for (int s = 0; s < 2 && k < n; s++) { /* the classes its valid repetitions fall in */
		const struct ccell *x = ccell(c, l, s);
		int w = widest(x);
		if (w < 0 || x->pair[w].nlat < 2)
			continue;
		const struct pair *q = &x->pair[w];
		int *cls = xcalloc((size_t)q->nlat, sizeof(int)),
		    ncls = probe_classes(q->lat, q->nlat, cls);
		char t[400];
		if (ncls > 1) {
			probe_classes_text(q->lat, cls, q->nlat, ncls, t, sizeof(t));
			k += (size_t)snprintf(
			    out + k, n - k,
			    "%s%s's valid repetitions fall in %d probe classes on CPUs "
			    "%s (latencies more than %gx apart): %s; its median pools "
			    "them",
			    k ? "; " : "", s ? "B" : "A", ncls, q->name, PROBE_CLASS_GAP, t);
		}
		free(cls);
	}
	return k > 0;
}

int cmp_side_relaxed(const struct cmp *c, int s, char *by, size_t n)
{
	const struct cmp_ctx *x = c->ctx;
	by[0] = 0;
	for (int g = 0; x && g < c->g.ngroup && (g + 1) * 2 <= x->cap; g++) {
		const struct ccell *cc = &x->cell[g * 2 + s];
		if (cc->vfile && x->file[cc->vfile - 1].by[0]) {
			snprintf(by, n, "%s", x->file[cc->vfile - 1].by);
			return 1;
		}
	}
	return 0;
}

int cmp_ctx_input(const struct cmp *c, int i, const char **path)
{
	const struct cmp_ctx *x = c->ctx;
	if (!x || i < 0 || i >= x->nfile)
		return 0;
	*path = x->file[i].path;
	return x->file[i].sides;
}

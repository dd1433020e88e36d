#include "analysis/groups_int.h"
#include "analysis/groups_decl.h"
#include "lib/util.h"
#include "schema/desc.h"
#include "schema/columns.h"
#include "schema/meta.h"
#include "stats/twosample.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Grow an array of n elements of size sz to hold one more, doubling its capacity *cap. */
static void *more(void *p, int n, int *cap, size_t sz)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : 64;
	p = realloc(p, (size_t)*cap * sz);
	if (!p)
		out_of_memory(0); /* one line, exit 1 */
	return p;
}

/* Eight bytes at a time, multiplied and folded (groups_once.c's mix_bytes), the length in last:
 * good enough to spread configuration keys, and cheap per row (a byte at a time, FNV-1a, cost a
 * twentieth of compare). Only the tables' slots depend on it, never an order. */
static unsigned long long hash_bytes(const void *p, size_t n, unsigned long long h)
{
	const unsigned char *b = p;
	unsigned long long w;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		memcpy(&w, b + i, sizeof(w));
		h = (h ^ w) * 0x9fb21c651e98df25ull;
		h ^= h >> 32;
	}
	w = 0;
	memcpy(&w, b + i, n - i); /* the last 0..7 bytes */
	h = (h ^ w) * 0x9fb21c651e98df25ull;
	h = (h ^ n) * 0x9fb21c651e98df25ull;
	return h ^ (h >> 29);
}
#define HASH0 0xcbf29ce484222325ull

/* Double an open-addressing table when it is half full, re-placing every entry. */
static void hash_grow(struct grp_hash *t)
{
	if (2 * (t->n + 1) <= t->cap)
		return;
	size_t cap = t->cap ? 2 * t->cap : 1024;
	unsigned long long *h = xcalloc(cap, sizeof(*h));
	int *idx = xcalloc(cap, sizeof(*idx));
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->idx[i])
			continue;
		size_t j = t->h[i] & (cap - 1);
		while (idx[j])
			j = (j + 1) & (cap - 1);
		h[j] = t->h[i];
		idx[j] = t->idx[i];
	}
	free(t->h);
	free(t->idx);
	t->h = h;
	t->idx = idx;
	t->cap = cap;
}

/* The slot of hash h whose entry satisfies same(), or the empty slot where it would go. */
static size_t hash_slot(const struct grp_hash *t, unsigned long long h,
			int (*same)(const struct groups *, int, const void *),
			const struct groups *g, const void *key)
{
	size_t j = h & (t->cap - 1);
	while (t->idx[j] && !(t->h[j] == h && same(g, t->idx[j] - 1, key)))
		j = (j + 1) & (t->cap - 1);
	return j;
}

static void hash_put(struct grp_hash *t, size_t slot, unsigned long long h, int idx)
{
	t->h[slot] = h;
	t->idx[slot] = idx + 1;
	t->n++;
}

int groups_init(struct groups *g, const char *metrics, char *err)
{
	memset(g, 0, sizeof(*g));
	hash_grow(&g->gh);
	hash_grow(&g->ch);
	hash_grow(&g->mh);
	if (metrics && !*metrics) /* given empty: never read as not given */
		return err_set(err, "--metric '': an empty list; accepted: metric columns, "
				    "comma-separated");
	for (const char *p = metrics; p && *p;) {
		size_t l = strcspn(p, ",");
		if (!l)
			return err_set(err,
				       "--metric '%s': an empty name in the list; accepted: metric "
				       "columns, comma-separated",
				       metrics);
		g->want = realloc(g->want, (size_t)(g->nwant + 1) * sizeof(char *));
		if (!g->want)
			out_of_memory(0);
		g->want[g->nwant] = xcalloc(l + 1, 1);
		memcpy(g->want[g->nwant++], p, l);
		p += l + (p[l] == ',');
		if (p[-1] == ',' && !*p)
			return err_set(err,
				       "--metric '%s': an empty name in the list; accepted: metric "
				       "columns, comma-separated",
				       metrics);
	}
	return 0;
}

/* A metric's direction (1 higher is better, -1 lower, 0 unknown) and unit (*unit, may be NULL):
 * from the fallback's declaration (an older result set's), then its description's views, else
 * from its name: _per_s higher, _ns lower. */
static int direction(const struct grp_bench *b, const char *col, const char **unit)
{
	size_t l = strlen(col);
	int dir = l > 6 && !strcmp(col + l - 6, "_per_s")                             ? 1
		  : l > 3 && (!strcmp(col + l - 3, "_ns") || strstr(col, "_ns_per_")) ? -1
										      : 0;
	*unit = NULL;
	long di = b->fb_decl ? grp_decl_find(b->fb_decl, col) : -1;
	if (di >= 0 && grp_decl_direction(b->fb_decl, di)) /* the declaration, then the views */
		dir = grp_decl_direction(b->fb_decl, di);
	for (const struct bench_view *v = b->b ? b->b->views : NULL; v && v->kind; v++)
		for (const struct view_metric *m = v->metrics; m && m->col; m++)
			if (!strcmp(m->col, col)) {
				dir = m->higher_better ? 1 : -1;
				*unit = m->unit;
			}
	return dir;
}

/* Add a metric column to a bench's list once, with which way is better: from the result set's
 * declaration (d, may be NULL) where it says, else from the bench's description. */
static void add_metric(struct grp_bench *b, const char *col, const struct grp_decl *d)
{
	for (int i = 0; i < b->nmet; i++)
		if (!strcmp(b->metric[i], col))
			return;
	b->metric = realloc(b->metric, (size_t)(b->nmet + 1) * sizeof(char *));
	b->direction = realloc(b->direction, (size_t)(b->nmet + 1) * sizeof(int));
	b->unit = realloc(b->unit, (size_t)(b->nmet + 1) * sizeof(char *));
	b->met_seen = realloc(b->met_seen, (size_t)(b->nmet + 1) * sizeof(int));
	if (!b->metric || !b->direction || !b->unit || !b->met_seen)
		out_of_memory(0);
	const char *unit;
	int dir = direction(b, col, &unit);
	long di = d ? grp_decl_find(d, col) : -1;
	if (di >= 0 && grp_decl_direction(d, di)) { /* the file's word; "ns" names its time unit */
		dir = grp_decl_direction(d, di);
		unit = ts_is_time(col, grp_decl_unit(d, di)) ? "ns" : "";
	}
	b->metric[b->nmet] = xstrdup(col);
	b->direction[b->nmet] = dir;
	b->unit[b->nmet] = unit;
	b->met_seen[b->nmet++] = 0;
}

static void add_key(struct grp_bench *b, const char *col)
{
	b->key_col = realloc(b->key_col, (size_t)(b->nkey + 1) * sizeof(char *));
	if (!b->key_col)
		out_of_memory(0);
	b->key_col[b->nkey++] = xstrdup(col);
}

/* The bench's metrics: --metric, else its summary and view columns, else (an undescribed bench)
 * the metrics its result set declares with a better side, else the header's *_ns_per_op columns. */
static void bench_metrics(struct groups *g, struct grp_bench *b, const char *const *header,
			  int ncols, const struct grp_decl *d)
{
	for (int i = 0; i < g->nwant; i++)
		add_metric(b, g->want[i], d);
	if (g->nwant)
		return;
	for (int i = 0; b->b && b->b->summary && b->b->summary[i]; i++)
		add_metric(b, b->b->summary[i], d);
	for (const struct bench_view *v = b->b ? b->b->views : NULL; v && v->kind; v++)
		for (const struct view_metric *m = v->metrics; m && m->col; m++)
			add_metric(b, m->col, d);
	for (long i = 0; !b->b && d && d->present && i < d->t.nrows; i++)
		if (!strcmp(grp_decl_kind(d, i), "metric") && grp_decl_direction(d, i))
			add_metric(b, grp_decl_name(d, i), d);
	for (int c = 0; !b->b && !b->nmet && c < ncols; c++) {
		size_t l = strlen(header[c]);
		if (l > 10 && !strcmp(header[c] + l - 10, "_ns_per_op"))
			add_metric(b, header[c], d);
	}
}

/* Each metric's place in the verdict family (resultset.h: in_verdict, predict). */
static void verdict_family(struct groups *g, struct grp_bench *b, const char *const *header,
			   int ncols)
{
	const char *const *list = b->b ? b->b->verdict : NULL;
	if (!list && !g->nwant) { /* written before the families: this build's list, if any */
		b->verdict_desc = grp_desc_fallback(g, b->name, header, ncols);
		list = b->verdict_desc ? b->verdict_desc->verdict : NULL;
	}
	b->in_verdict = xcalloc((size_t)b->nmet + 1, sizeof(int));
	b->disputed = xcalloc((size_t)b->nmet + 1, sizeof(int));
	b->predict = xcalloc((size_t)b->nmet + 1, sizeof(int));
	for (int m = 0; m < b->nmet; m++) /* --metric's names are the user's family */
		b->in_verdict[m] =
		    g->nwant || col_verdict_in(list, b->metric[m], b->direction[m], &b->predict[m]);
}

/* A key column once: a declaration may name one the harness's list has too. */
static void add_key_once(struct grp_bench *b, const char *col)
{
	for (int k = 0; k < b->nkey; k++)
		if (!strcmp(b->key_col[k], col))
			return;
	add_key(b, col);
}

/* Another input's declaration of bench b's metrics: where it says the other way is better, neither
 * is taken: the metric gets no verdict (B higher or lower, swapping A and B flips it), said once.
 */
static void same_directions(struct grp_bench *b, const struct grp_decl *d)
{
	for (int m = 0; d && d->present && m < b->nmet; m++) {
		long di = grp_decl_find(d, b->metric[m]);
		int dd = di >= 0 ? grp_decl_direction(d, di) : 0;
		if (!dd || !b->direction[m] || dd == b->direction[m])
			continue;
		fprintf(grp_warn_to(),
			"c2cbench: warning: %s %s: one input declares %s better, another %s: the "
			"declarations differ, so it gets no verdict (only higher or lower)\n",
			b->name, b->metric[m], b->direction[m] > 0 ? "higher" : "lower",
			dd > 0 ? "higher" : "lower");
		b->direction[m] = 0;
		if (b->in_verdict) /* out of the verdict family: report's views give none either */
			b->in_verdict[m] = 0, b->disputed[m] = 1;
	}
}

/* An input declaring a metric in another unit than the first that declared it (ns and us, say):
 * its ratio would mix units; the metric gets no verdict, said once. */
static void same_units(struct grp_bench *b, const struct grp_decl *d)
{
	if (!b->decl_unit)
		b->decl_unit = xcalloc((size_t)b->nmet + 1, sizeof(char *));
	for (int m = 0; d && d->present && m < b->nmet; m++) {
		long di = grp_decl_find(d, b->metric[m]);
		const char *u = di >= 0 ? grp_decl_unit(d, di) : NULL;
		if (!u)
			continue;
		if (!b->decl_unit[m]) {
			b->decl_unit[m] = xstrdup(u);
			continue;
		}
		if (!strcmp(u, b->decl_unit[m]) || b->disputed[m] == 3)
			continue;
		fprintf(grp_warn_to(),
			"c2cbench: warning: %s %s: one input declares it in '%.20s', another in "
			"'%.20s': the declarations differ, so it gets no verdict (its ratio mixes "
			"units)\n",
			b->name, b->metric[m], b->decl_unit[m], u);
		b->direction[m] = 0;
		b->in_verdict[m] = 0, b->disputed[m] = 3;
	}
}

/* A metric an input declares a configuration, evidence or context column (kind in X.columns, or in
 * this build's declaration for an older set) is described, never tested: no verdict, said once. */
static void declared_kinds(struct grp_bench *b, const struct grp_decl *d)
{
	if (!d || !d->present)
		d = b->fb_decl;
	for (int m = 0; d && d->present && m < b->nmet; m++) {
		long di = grp_decl_find(d, b->metric[m]);
		const char *k = di >= 0 ? grp_decl_kind(d, di) : "metric";
		if (!strcmp(k, "metric") || !strcmp(k, "undeclared") || b->disputed[m] == 2)
			continue;
		fprintf(grp_warn_to(),
			"c2cbench: warning: %s %s: %s declares it %.20s, not a metric, so it "
			"gets no verdict (only its ratio)\n",
			b->name, b->metric[m], d->t.path ? d->t.path : "its declaration", k);
		b->direction[m] = 0;
		b->in_verdict[m] = 0, b->disputed[m] = 2;
	}
}

int grp_bench_of(struct groups *g, const char *name, const char *variant_col,
		 const char *const *header, int ncols, const struct grp_decl *d,
		 struct bench_desc *desc)
{
	for (int i = 0; i < g->nbench; i++) /* a handful of benches: no hash needed */
		if (!strcmp(g->bench[i].name, name)) {
			/* an input with no declaration (an older set): this build's, as when it
			 * comes first, so swapping A and B flips the verdict */
			struct grp_decl *fb = NULL;
			if (!d || !d->present)
				fb = grp_decl_fallback(g, name, header, ncols);
			same_directions(&g->bench[i], fb ? fb : d);
			declared_kinds(&g->bench[i], d);
			same_units(&g->bench[i], d);
			grp_desc_free(NULL, fb);
			return i;
		}
	g->bench = realloc(g->bench, (size_t)(g->nbench + 1) * sizeof(*g->bench));
	if (!g->bench)
		out_of_memory(0);
	struct grp_bench *b = &g->bench[g->nbench];
	memset(b, 0, sizeof(*b));
	b->name = xstrdup(name);
	b->b = grp_desc_of(g, name, desc, header, ncols, &b->fb_decl);
	add_key(b, b->b ? b->b->variant_col : variant_col);
	for (int i = 0; b->b && b->b->config && b->b->config[i]; i++)
		add_key(b, b->b->config[i]);
	for (int i = 0; harness_config[i]; i++)
		add_key(b, harness_config[i]);
	for (long i = 0; !b->b && d && d->present && i < d->t.nrows; i++) /* its own settings */
		if (!strcmp(grp_decl_kind(d, i), "configuration") &&
		    strcmp(grp_decl_name(d, i), "bench"))
			add_key_once(b, grp_decl_name(d, i));
	for (const struct bench_resolved *r = b->b ? b->b->resolved : NULL; r && r->requested; r++)
		for (int k = 1; k < b->nkey; k++)
			if (!strcmp(b->key_col[k], r->requested)) {
				b->res_key =
				    realloc(b->res_key, (size_t)(b->nres + 1) * sizeof(int));
				b->res_col =
				    realloc(b->res_col, (size_t)(b->nres + 1) * sizeof(char *));
				b->res_unit =
				    realloc(b->res_unit, (size_t)(b->nres + 1) * sizeof(char *));
				if (!b->res_key || !b->res_col || !b->res_unit)
					out_of_memory(0);
				b->res_key[b->nres] = k;
				b->res_col[b->nres] = r->resolved;
				b->res_unit[b->nres++] = r->unit;
			}
	bench_metrics(g, b, header, ncols, d);
	verdict_family(g, b, header, ncols);
	declared_kinds(b, d);
	same_units(b, d);
	b->avail = xstrdup("");
	return g->nbench++;
}

/* Encode bench and values as one byte string: each value as a flag byte (absent, present, or
 * not recorded with what stands in for it) and its text with its NUL (no value holds a NUL: the
 * reader refuses them), a stand-in as a flag byte and its text, so keys never collide. */
static size_t encode(struct groups *g, int bench, int nkey, const char *const *val,
		     const int *nrec, const char *const *eff)
{
	size_t need = sizeof(int) + 1;
	for (int i = 0; i < nkey; i++)
		need += 4 + (val[i] ? strlen(val[i]) : 0) +
			(nrec && nrec[i] && eff[i] ? strlen(eff[i]) : 0);
	if (need > g->kbuf_cap) {
		g->kbuf_cap = 2 * need;
		g->kbuf = realloc(g->kbuf, g->kbuf_cap);
		if (!g->kbuf)
			out_of_memory(0);
	}
	size_t k = 0;
	memcpy(g->kbuf, &bench, sizeof(int));
	k += sizeof(int);
	for (int i = 0; i < nkey; i++) {
		size_t l = val[i] ? strlen(val[i]) : 0;
		int nr = nrec && nrec[i];
		g->kbuf[k++] = nr ? 2 : val[i] ? 1 : 0;
		memcpy(g->kbuf + k, val[i] ? val[i] : "", l + 1);
		k += l + 1;
		if (!nr)
			continue;
		l = eff[i] ? strlen(eff[i]) : 0;
		g->kbuf[k++] = eff[i] ? 1 : 0;
		memcpy(g->kbuf + k, eff[i] ? eff[i] : "", l + 1);
		k += l + 1;
	}
	return k;
}

struct blob {
	const char *p;
	size_t n;
};

/* The length of a key's encoding at p (a blob's keys after its bench). */
static size_t key_len(const char *p, int nkey)
{
	size_t k = 0;
	for (int i = 0; i < nkey; i++) {
		int nr = p[k] == 2;
		k += 1 + strlen(p + k + 1) + 1;
		if (nr)
			k += 1 + strlen(p + k + 1) + 1;
	}
	return k;
}

static size_t blob_len(const struct groups *g, int gi)
{
	const struct grp_bench *b = &g->bench[g->group[gi].bench];
	return sizeof(int) + key_len(g->key_blob[gi] + sizeof(int), b->nkey);
}

static int same_group(const struct groups *g, int gi, const void *key)
{
	const struct blob *k = key;
	int bench;
	memcpy(&bench, k->p, sizeof(int));
	return g->group[gi].bench == bench && blob_len(g, gi) == k->n &&
	       !memcmp(g->key_blob[gi], k->p, k->n);
}

int grp_group_of(struct groups *g, int bench, const char *const *val, const int *nrec,
		 const char *const *eff)
{
	const struct grp_bench *b = &g->bench[bench];
	size_t n = encode(g, bench, b->nkey, val, nrec, eff);
	unsigned long long h = hash_bytes(g->kbuf, n, HASH0);
	struct blob k = { g->kbuf, n };
	hash_grow(&g->gh);
	size_t slot = hash_slot(&g->gh, h, same_group, g, &k);
	if (g->gh.idx[slot])
		return g->gh.idx[slot] - 1;
	int cap = g->cap_group;
	g->group = more(g->group, g->ngroup, &g->cap_group, sizeof(*g->group));
	g->key_blob = more(g->key_blob, g->ngroup, &cap, sizeof(char *));
	struct grp_group *gr = &g->group[g->ngroup];
	char *blob = malloc(n);
	const char **v = malloc((size_t)b->nkey * sizeof(char *));
	if (!blob || !v)
		out_of_memory(0);
	memcpy(blob, g->kbuf, n);
	gr->nrec = xcalloc((size_t)b->nkey + 1, sizeof(int));
	gr->joined = xcalloc((size_t)b->nkey + 1, sizeof(int));
	gr->eff = xcalloc((size_t)b->nkey + 1, sizeof(char *));
	for (size_t i = 0, k2 = sizeof(int); i < (size_t)b->nkey; i++) {
		int nr = blob[k2] == 2;
		v[i] = blob[k2] ? blob + k2 + 1 : NULL;
		k2 += 1 + strlen(blob + k2 + 1) + 1;
		if (!nr)
			continue;
		gr->nrec[i] = nrec[i];
		gr->eff[i] = blob[k2] ? blob + k2 + 1 : NULL;
		k2 += 1 + strlen(blob + k2 + 1) + 1;
	}
	gr->bench = bench;
	gr->val = v;
	gr->variant_rank = 1 << 30;
	for (int i = 0; b->b && b->b->variant_order && b->b->variant_order[i] && v[0]; i++)
		if (!strcmp(b->b->variant_order[i], v[0]))
			gr->variant_rank = i;
	g->key_blob[g->ngroup] = blob;
	hash_put(&g->gh, slot, h, g->ngroup);
	return g->ngroup++;
}

static unsigned long long cell_hash(int group, int side)
{
	int k[2] = { group, side };
	return hash_bytes(k, sizeof(k), HASH0);
}

static int same_cell(const struct groups *g, int ci, const void *key)
{
	const int *k = key;
	return g->cell[ci].group == k[0] && g->cell[ci].side == k[1];
}

struct grp_cell *grp_cell_of(struct groups *g, int group, int side)
{
	int k[2] = { group, side };
	unsigned long long h = cell_hash(group, side);
	hash_grow(&g->ch);
	size_t slot = hash_slot(&g->ch, h, same_cell, g, k);
	if (g->ch.idx[slot])
		return &g->cell[g->ch.idx[slot] - 1];
	g->cell = more(g->cell, g->ncell, &g->cap_cell, sizeof(*g->cell));
	struct grp_cell *c = &g->cell[g->ncell];
	memset(c, 0, sizeof(*c));
	c->group = group;
	c->side = side;
	c->mach = -1;
	c->met = xcalloc((size_t)g->bench[g->group[group].bench].nmet + 1, sizeof(struct grp_vals));
	c->res = xcalloc((size_t)g->bench[g->group[group].bench].nres + 1, sizeof(char *));
	c->res_mixed = xcalloc((size_t)g->bench[g->group[group].bench].nres + 1, 1);
	c->why = xcalloc((size_t)g->bench[g->group[group].bench].nkey + 1, sizeof(char *));
	hash_put(&g->ch, slot, h, g->ncell++);
	return c;
}

const struct grp_cell *groups_cell(const struct groups *g, int gi, int s)
{
	int k[2] = { gi, s };
	size_t slot = hash_slot(&g->ch, cell_hash(gi, s), same_cell, g, k);
	return g->ch.idx[slot] ? &g->cell[g->ch.idx[slot] - 1] : NULL;
}

void grp_merge_groups(struct groups *g, const int *into)
{
	int *at = xcalloc((size_t)g->ngroup + 1, sizeof(int)), n = 0, *none = NULL;
	if (!into) /* the cells alone filed again */
		into = none = xcalloc((size_t)g->ngroup + 1, sizeof(int));
	for (int i = 0; none && i < g->ngroup; i++)
		none[i] = -1;
	for (int i = 0; i < g->ngroup; i++) /* each kept group's new index */
		at[i] = into[i] >= 0 ? -1 : n++;
	for (int c = 0; c < g->ncell; c++) {
		int gi = g->cell[c].group;
		g->cell[c].group = at[into[gi] >= 0 ? into[gi] : gi];
	}
	for (int i = 0; i < g->ngroup; i++) {
		if (at[i] >= 0) {
			g->group[at[i]] = g->group[i];
			g->key_blob[at[i]] = g->key_blob[i];
			continue;
		}
		free(g->key_blob[i]);
		free((void *)g->group[i].val);
		free(g->group[i].nrec);
		free(g->group[i].joined);
		free((void *)g->group[i].eff);
	}
	g->ngroup = n;
	memset(g->gh.idx, 0, g->gh.cap * sizeof(int)); /* both tables filed again */
	memset(g->ch.idx, 0, g->ch.cap * sizeof(int));
	g->gh.n = g->ch.n = 0;
	for (int i = 0; i < g->ngroup; i++) {
		struct blob k = { g->key_blob[i], blob_len(g, i) };
		unsigned long long h = hash_bytes(k.p, k.n, HASH0);
		hash_put(&g->gh, hash_slot(&g->gh, h, same_group, g, &k), h, i);
	}
	for (int c = 0; c < g->ncell; c++) {
		int k[2] = { g->cell[c].group, g->cell[c].side };
		unsigned long long h = cell_hash(k[0], k[1]);
		hash_put(&g->ch, hash_slot(&g->ch, h, same_cell, g, k), h, c);
	}
	free(at);
	free(none);
}

int grp_side_of(struct groups *g, int side, const char *name)
{
	while (g->nside <= side) {
		g->side = realloc(g->side, (size_t)(g->nside + 1) * sizeof(*g->side));
		if (!g->side)
			out_of_memory(0);
		memset(&g->side[g->nside], 0, sizeof(*g->side));
		g->side[g->nside].name = xstrdup(g->nside == side ? name : "");
		g->nside++;
	}
	return side;
}

static int same_label(const struct groups *g, int mi, const void *key)
{
	return !strcmp(g->mach[mi].raw, key);
}

/* Record that side holds machine mi (a side holds a few machines: a short list). */
static void side_has(struct groups *g, int side, int mi)
{
	struct grp_side *s = &g->side[side];
	for (int i = 0; i < s->nmach; i++)
		if (s->mach[i] == mi)
			return;
	s->mach = realloc(s->mach, (size_t)(s->nmach + 1) * sizeof(int));
	if (!s->mach)
		out_of_memory(0);
	s->mach[s->nmach++] = mi;
}

int grp_label_taken(struct groups *g, const char *label, const char *host, const char *cpu)
{
	unsigned long long h = hash_bytes(label, strlen(label), HASH0);
	hash_grow(&g->mh);
	size_t slot = hash_slot(&g->mh, h, same_label, g, label);
	const struct grp_machine *m = g->mh.idx[slot] ? &g->mach[g->mh.idx[slot] - 1] : NULL;
	return m && (strcmp(m->host, host) || strcmp(m->cpu_model, cpu));
}

/* The machine of fingerprint fp among those of the label's chain (first: mi): one that no field
 * tells apart, its fields merged; else -1, with the last of the chain in *last. */
static int twin_of(struct groups *g, int mi, const struct grp_fp *fp, int *last)
{
	for (int k = mi; k >= 0; k = g->mach[k].twin) {
		*last = k;
		if (!grp_fp_differ(&g->mach[k].fp, fp, NULL, 0)) {
			grp_fp_absorb(&g->mach[k].fp, fp);
			return k;
		}
	}
	return -1;
}

/* Name every machine of the chain from mi LABEL#ID6 (the whole id when 6 digits do not tell them
 * apart), its side too when sides are labels; say so once on stderr for the newest one, nw. */
static void split_names(struct groups *g, int mi, int nw)
{
	char why[400], name[96];
	grp_fp_differ(&g->mach[mi].fp, &g->mach[nw].fp, why, sizeof(why));
	int digits = 6;
	for (int a = mi; a >= 0; a = g->mach[a].twin)
		for (int b = g->mach[a].twin; b >= 0; b = g->mach[b].twin)
			if (!strncmp(g->mach[a].fp.id, g->mach[b].fp.id, 6))
				digits = 24;
	for (int k = mi; k >= 0; k = g->mach[k].twin) {
		struct grp_machine *m = &g->mach[k];
		snprintf(name, sizeof(name), "%s#%.*s", m->raw, digits,
			 m->fp.id[0] ? m->fp.id : "unknown");
		free(m->label);
		m->label = xstrdup(name);
		if (g->by_label) {
			free(g->side[m->side].name);
			g->side[m->side].name = xstrdup(name);
		}
	}
	fprintf(grp_warn_to(),
		"c2cbench: note: label '%s' names two machines (%s): kept apart as '%s' (%s) and "
		"'%s' (%s); give each machine its own --label when running (run or preset --label "
		"NAME) to name them\n",
		g->mach[mi].raw, why, g->mach[mi].label, g->mach[mi].file, g->mach[nw].label,
		g->mach[nw].file);
}

int grp_machine_of(struct groups *g, const char *label, const char *host, const char *cpu,
		   const struct grp_fp *fp, const char *file, long line, int side, int *mach,
		   char *err)
{
	unsigned long long h = hash_bytes(label, strlen(label), HASH0);
	hash_grow(&g->mh);
	size_t slot = hash_slot(&g->mh, h, same_label, g, label);
	int first = g->mh.idx[slot] - 1, mi = first, last = -1;
	if (first >= 0) {
		struct grp_machine *m = &g->mach[first];
		if (strcmp(m->host, host) || strcmp(m->cpu_model, cpu))
			return err_set(err,
				       "label '%s' names two machines: host '%.60s' (%.80s) in %s "
				       "and host '%.60s' (%.80s) in %s:%ld; accepted: one machine "
				       "per label (run or preset with --label NAME)",
				       label, m->host, m->cpu_model, m->file, host, cpu, file,
				       line);
		mi = twin_of(g, first, fp, &last);
	}
	if (mi < 0) {
		g->mach = more(g->mach, g->nmach, &g->cap_mach, sizeof(*g->mach));
		struct grp_machine *m = &g->mach[g->nmach];
		memset(m, 0, sizeof(*m));
		m->label = xstrdup(label);
		m->raw = xstrdup(label);
		m->host = xstrdup(host);
		m->cpu_model = xstrdup(cpu);
		m->file = xstrdup(file);
		grp_fp_copy(&m->fp, fp);
		m->twin = -1;
		m->side = side >= 0 ? side : grp_side_of(g, g->nside, label);
		if (first < 0)
			hash_put(&g->mh, slot, h, g->nmach);
		mi = g->nmach++;
		if (first >= 0) {
			g->mach[last].twin = mi;
			split_names(g, first, mi);
		}
	}
	int s = side >= 0 ? side : g->mach[mi].side;
	side_has(g, s, mi);
	*mach = mi;
	return s;
}

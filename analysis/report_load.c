/* report's input side: every row of every input, valid rows into samples (one per machine, bench
 * view, configuration, variant and x: runs whose settings differ are never pooled). */
#include "analysis/report_int.h"
#include "harness/util.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void vec_push(struct vec *v, double x)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? v->cap * 2 : 8;
		v->v = realloc(v->v, v->cap * sizeof(double));
		if (!v->v)
			die(1, "out of memory");
	}
	v->v[v->n++] = x;
}

int rpt_nmet(const struct bench_view *v)
{
	int n = 0;
	while (v->metrics && v->metrics[n].col && n < RPT_METRICS)
		n++;
	return n;
}

/* FNV-1a: the sample table is a hash, so a million rows cost a million lookups, not a scan each. */
static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* Which machine a row comes from: its label (refusing two machines under one), else host and CPU. */
static int machine_of(struct rep *p, const struct table *t, long r, char *err)
{
	const char *l = table_get(t, r, "label"), *h = table_get(t, r, "host"), *c = table_get(t, r, "cpu_model");
	h = h && *h ? h : "unknown";
	c = c ? c : "";
	int by_label = l && *l && strcmp(l, "NA");
	for (int i = 0; i < p->nm; i++) {
		struct rmachine *m = &p->mach[i];
		if (by_label ? strcmp(m->label, l) : strcmp(m->host, h) || strcmp(m->cpu, c))
			continue;
		if (by_label && (strcmp(m->host, h) || strcmp(m->cpu, c)))
			return err_set(err, "%s line %ld: label '%.100s' names two machines: host '%.100s' (%.100s) and host '%.100s' (%.100s); accepted: one label per machine (--label NAME on run and preset)",
				       t->path, t->line[r], l, m->host, m->cpu, h, c);
		return i;
	}
	p->mach = realloc(p->mach, (size_t)(p->nm + 1) * sizeof(*p->mach));
	if (!p->mach)
		die(1, "out of memory");
	struct rmachine *m = &p->mach[p->nm];
	*m = (struct rmachine){ .label = xstrdup(by_label ? l : h), .host = xstrdup(h), .cpu = xstrdup(c) };
	for (int i = 0; i < RPT_CTX; i++) { /* its context, from its first row */
		const char *v = table_get(t, r, rpt_ctx_cols[i]);
		m->ctx[i] = xstrdup(v ? v : "NA");
	}
	for (int i = 0; !by_label && i < p->nm; i++) /* same host name, other CPU: say which */
		if (!strcmp(p->mach[i].label, m->label)) {
			char buf[300];
			snprintf(buf, sizeof(buf), "%.120s (%.120s)", h, c);
			free(m->label);
			m->label = xstrdup(buf);
		}
	return p->nm++;
}

/* The fallback views of a bench this build does not declare: one bar view of its metric columns,
 * each metric on its own axis, the unit guessed from the column name. */
static void fallback_views(struct rbench *rb, const struct table *t)
{
	const char *cols[RPT_METRICS];
	int n = metric_cols(t, rb->name, cols, RPT_METRICS);
	rb->own = xcalloc(2, sizeof(struct bench_view));
	rb->own_met = xcalloc((size_t)n + 1, sizeof(struct view_metric));
	rb->own_cols = xcalloc((size_t)n + 1, sizeof(char *));
	for (int i = 0; i < n; i++) {
		size_t l = strlen(cols[i]);
		rb->own_cols[i] = xstrdup(cols[i]);
		rb->own_met[i].col = rb->own_met[i].label = rb->own_cols[i];
		rb->own_met[i].unit = l > 10 && !strcmp(cols[i] + l - 10, "_ns_per_op") ? "ns per operation"
				     : l > 3 && !strcmp(cols[i] + l - 3, "_ns")           ? "ns"
				     : l > 6 && !strcmp(cols[i] + l - 6, "_per_s")        ? "per second"
										   : "value";
	}
	rb->own[0] = (struct bench_view){ .kind = VIEW_BARS, .title = "Results", .metrics = rb->own_met };
	rb->views = rb->own;
}

/* The bench entry for a row's bench name: declared views when this build knows the bench. */
static int bench_of(struct rep *p, const struct table *t, const char *name)
{
	for (int i = 0; i < p->nb; i++)
		if (!strcmp(p->bench[i].name, name))
			return i;
	p->bench = realloc(p->bench, (size_t)(p->nb + 1) * sizeof(*p->bench));
	if (!p->bench)
		die(1, "out of memory");
	struct rbench *rb = &p->bench[p->nb];
	*rb = (struct rbench){ .name = xstrdup(name), .b = bench_find(name) };
	if (rb->b && rb->b->views)
		rb->views = rb->b->views;
	else
		fallback_views(rb, t);
	return p->nb++;
}

/* Does view vi of the bench take rows of this variant? A prefix view takes its prefix; a view
 * without one takes what no prefix view of the bench takes. */
static int view_takes(const struct bench_view *views, int vi, const char *variant)
{
	if (views[vi].variant_prefix)
		return !strncmp(variant, views[vi].variant_prefix, strlen(views[vi].variant_prefix));
	for (int i = 0; views[i].kind; i++)
		if (views[i].variant_prefix && !strncmp(variant, views[i].variant_prefix, strlen(views[i].variant_prefix)))
			return 0;
	return 1;
}

/* Is col one of the comma-listed columns in list? */
static int in_list(const char *list, const char *col)
{
	size_t l = strlen(col);
	for (const char *s = list; s && *s;) {
		const char *e = strchr(s, ',');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == l && !strncmp(s, col, l))
			return 1;
		s = e ? e + 1 : NULL;
	}
	return 0;
}

/* Append "col=val" to a key being built (0x1f between pairs; raw values, escaped when shown). */
static void key_add(char **k, size_t *len, const char *col, const char *val)
{
	size_t need = strlen(col) + strlen(val) + 3;
	*k = realloc(*k, *len + need);
	if (!*k)
		die(1, "out of memory");
	*len += (size_t)sprintf(*k + *len, "%s%s=%s", *len ? "\x1f" : "", col, val);
}

/* The configuration of a row for view v: every config column but the variant, x and matrix ones. */
static char *gkey_of(const struct table *t, long r, const struct bench_view *v)
{
	const char *cols[CONFIG_MAX];
	int declared, nc = config_cols(t, t->cell[r][1], cols, CONFIG_MAX, &declared);
	char *k = xstrdup("");
	size_t len = 0;
	for (int i = 2; i < nc; i++) {
		const char *c = cols[i], *val = table_get(t, r, c);
		if ((v->kind == VIEW_LINES && in_list(v->x_cols, c)) ||
		    (v->kind == VIEW_MATRIX && (!strcmp(c, v->row_col) || !strcmp(c, v->col_col) || !strcmp(c, v->facet_col) || !strcmp(c, v->class_col))))
			continue;
		if (in_list(v->implied_cols, c))
			continue;
		key_add(&k, &len, c, val ? val : "(absent)");
	}
	for (int i = 0; harness_config[i]; i++) { /* requested duration and warm-up change results */
		const char *val = table_get(t, r, harness_config[i]);
		int listed = 0;
		for (int j = 0; j < nc; j++)
			listed |= !strcmp(cols[j], harness_config[i]);
		if (val && !listed)
			key_add(&k, &len, harness_config[i], val);
	}
	int ok;
	double d = cell_num(t, r, "duration_s", &ok);
	if (!table_get(t, r, harness_config[0]) && ok) { /* older schema: the measured duration, to 2 digits */
		char buf[32];
		snprintf(buf, sizeof(buf), "%.2g", d);
		key_add(&k, &len, "duration_s (measured)", buf);
	}
	return k;
}

/* The x of a row in a line view: the sum of its x columns, labelled "a+b". 0 when one is absent. */
static int x_of(const struct table *t, long r, const char *x_cols, double *x, char *label, size_t cap)
{
	char list[256];
	size_t len = 0;
	snprintf(list, sizeof(list), "%s", x_cols);
	*x = 0;
	label[0] = 0;
	for (char *save = NULL, *c = strtok_r(list, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
		int ok;
		double v = cell_num(t, r, c, &ok);
		if (!ok)
			return 0;
		*x += v;
		len += (size_t)snprintf(label + len, len < cap ? cap - len : 0, "%s%g", len ? "+" : "", v);
	}
	return 1;
}

/* Find or add the sample for this key. */
static struct sample *sample_at(struct rep *p, const char *key, const struct sample *proto)
{
	if (p->ns * 2 >= p->hcap) { /* grow and rehash */
		long cap = p->hcap ? p->hcap * 2 : 1024;
		free(p->hash);
		p->hash = xcalloc((size_t)cap, sizeof(long));
		p->hcap = cap;
		for (long i = 0; i < p->ns; i++) {
			long h = (long)(hash_str(p->s[i].key) & (uint64_t)(cap - 1));
			while (p->hash[h])
				h = (h + 1) & (cap - 1);
			p->hash[h] = i + 1;
		}
	}
	long h = (long)(hash_str(key) & (uint64_t)(p->hcap - 1));
	for (; p->hash[h]; h = (h + 1) & (p->hcap - 1))
		if (!strcmp(p->s[p->hash[h] - 1].key, key))
			return &p->s[p->hash[h] - 1];
	if (p->ns == p->scap) {
		p->scap = p->scap ? p->scap * 2 : 256;
		p->s = realloc(p->s, (size_t)p->scap * sizeof(*p->s));
		if (!p->s)
			die(1, "out of memory");
	}
	struct sample *s = &p->s[p->ns];
	*s = *proto;
	s->key = xstrdup(key);
	p->hash[h] = ++p->ns;
	return s;
}

/* Add one row to the sample of view vi, if that view takes it. */
static void add_row(struct rep *p, int m, int bi, int vi, const struct table *t, long r, int valid)
{
	const struct bench_view *v = &p->bench[bi].views[vi];
	const char *variant = t->cell[r][2];
	struct sample proto = { .m = m, .bench = bi, .view = vi, .variant = xstrdup(variant) };
	char xl[128] = "", *key;
	if (!view_takes(p->bench[bi].views, vi, variant)) {
		free(proto.variant);
		return;
	}
	if (v->kind == VIEW_LINES && !x_of(t, r, v->x_cols, &proto.x, xl, sizeof(xl))) {
		free(proto.variant);
		return;
	}
	if (v->kind == VIEW_LINES && v->x_is_variant)
		proto.variant[0] = 0;
	if (v->kind == VIEW_MATRIX) {
		int ok1, ok2;
		const char *f = table_get(t, r, v->facet_col), *c = table_get(t, r, v->class_col);
		proto.a = (int)cell_num(t, r, v->row_col, &ok1);
		proto.b = (int)cell_num(t, r, v->col_col, &ok2);
		if (!ok1 || !ok2 || proto.a < 0 || proto.b < 0) {
			free(proto.variant);
			return;
		}
		proto.facet = xstrdup(f ? f : "");
		proto.cls = xstrdup(c ? c : "");
	}
	proto.gkey = gkey_of(t, r, v);
	proto.xlabel = xstrdup(xl);
	size_t kl = strlen(proto.gkey) + strlen(variant) + 160 + (proto.facet ? strlen(proto.facet) : 0);
	key = xcalloc(kl, 1);
	snprintf(key, kl, "%d\x1e%d\x1e%d\x1e%s\x1e%s\x1e%.17g\x1e%d\x1e%d\x1e%s", m, bi, vi, proto.gkey, proto.variant, proto.x, proto.a, proto.b,
		 proto.facet ? proto.facet : "");
	struct sample *s = sample_at(p, key, &proto);
	if (s->gkey != proto.gkey) { /* an existing sample: the prototype's strings are not needed */
		free(proto.gkey), free(proto.variant), free(proto.xlabel), free(proto.facet), free(proto.cls);
	}
	free(key);
	s->rows++;
	if (!valid)
		return;
	s->valid++;
	for (int k = 0; k < rpt_nmet(v); k++) {
		int ok;
		double y = cell_num(t, r, v->metrics[k].col, &ok);
		if (ok)
			vec_push(&s->val[k], y);
	}
}

/* One row (streamed: t holds the header and this row only): machine, validity, NA reasons, and
 * the samples of each view. Nothing may keep a pointer into t. */
int rpt_row(void *arg, const struct table *t, char *err)
{
	struct rep *p = arg;
	int m = machine_of(p, t, 0, err);
	if (m < 0)
		return -1;
	const char *v = table_get(t, 0, "valid");
	int valid = !v || !strcmp(v, "yes");
	int bi = bench_of(p, t, t->cell[0][1]);
	p->mach[m].rows++;
	p->mach[m].valid += valid;
	if (!valid)
		rpt_unused_row(p, m, t, 0);
	rpt_na_row(p, m, t, 0);
	for (int vi = 0; p->bench[bi].views[vi].kind; vi++)
		add_row(p, m, bi, vi, t, 0, valid);
	return 0;
}

void rpt_free(struct rep *p)
{
	for (long i = 0; i < p->ns; i++) {
		struct sample *s = &p->s[i];
		free(s->key), free(s->gkey), free(s->variant), free(s->xlabel), free(s->facet), free(s->cls);
		for (int k = 0; k < RPT_METRICS; k++)
			free(s->val[k].v);
	}
	free(p->s);
	free(p->hash);
	for (int i = 0; i < p->nm; i++) {
		free(p->mach[i].label), free(p->mach[i].host), free(p->mach[i].cpu);
		for (int c = 0; c < RPT_CTX; c++)
			free(p->mach[i].ctx[c]);
	}
	free(p->mach);
	for (int i = 0; i < p->nb; i++) {
		for (int k = 0; p->bench[i].own_cols && p->bench[i].own_cols[k]; k++)
			free(p->bench[i].own_cols[k]);
		free(p->bench[i].name), free(p->bench[i].own), free(p->bench[i].own_met), free(p->bench[i].own_cols);
	}
	free(p->bench);
	rpt_reasons_free(p);
	results_free(&p->res);
}

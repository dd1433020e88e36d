/* report's input side, on compare's grouping engine (analysis/groups.c): every row is filed under
 * its full configuration and machine label there, and each engine cell (a configuration on one
 * machine) becomes the samples of the views that take it (one per machine, bench view,
 * configuration, variant and x: runs whose settings differ are never pooled). */
#include "analysis/report_int.h"
#include "analysis/compare.h"
#include "lib/parse.h"
#include "schema/meta.h"
#include "lib/util.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

/* The machine of a row: the engine's side for its label (sides are numbered in order of first
 * appearance, so a new one is the next); its host, CPU model and context from its first row. */
static int machine_of(struct rep *p, const struct grp_row *r)
{
	const struct table *t = r->one;
	while (p->nm <= r->side) {
		const char *h = table_get(t, 0, "host"), *c = table_get(t, 0, "cpu_model");
		p->mach = realloc(p->mach, (size_t)(p->nm + 1) * sizeof(*p->mach));
		if (!p->mach)
			die(1, "out of memory");
		struct rmachine *m = &p->mach[p->nm++];
		*m = (struct rmachine){.label = xstrdup(p->g.side[p->nm - 1].name),
				       .host = xstrdup(h && *h ? h : "unknown"),
				       .cpu = xstrdup(c ? c : "")};
		for (int i = 0; i < RPT_CTX; i++) {
			const char *v = table_get(t, 0, rpt_ctx_cols[i]);
			m->ctx[i] = xstrdup(v ? v : "NA");
		}
	}
	return r->side;
}

/* The fallback views of a bench without a description: one bar view of the engine's metric
 * columns for it (its summary, or the *_ns_per_op columns), each on its own axis, the unit guessed
 * from the column name. */
static void fallback_views(struct rbench *rb, const struct grp_bench *gb)
{
	int n = gb->nmet < RPT_METRICS ? gb->nmet : RPT_METRICS;
	rb->own = xcalloc(2, sizeof(struct bench_view));
	rb->own_met = xcalloc((size_t)n + 1, sizeof(struct view_metric));
	rb->own_cols = xcalloc((size_t)n + 1, sizeof(char *));
	for (int i = 0; i < n; i++) {
		const char *col = gb->metric[i];
		size_t l = strlen(col);
		rb->own_cols[i] = xstrdup(col);
		rb->own_met[i].col = rb->own_met[i].label = rb->own_cols[i];
		rb->own_met[i].unit = l > 10 && !strcmp(col + l - 10, "_ns_per_op")
					  ? "ns per operation"
				      : l > 3 && !strcmp(col + l - 3, "_ns")    ? "ns"
				      : l > 6 && !strcmp(col + l - 6, "_per_s") ? "per second"
										: "value";
	}
	rb->own[0] =
	    (struct bench_view){.kind = VIEW_BARS, .title = "Results", .metrics = rb->own_met};
	rb->views = rb->own;
}

/* The report's entry for an engine bench: declared views when it is described. */
static int bench_of(struct rep *p, const struct grp_bench *gb)
{
	for (int i = 0; i < p->nb; i++)
		if (!strcmp(p->bench[i].name, gb->name))
			return i;
	p->bench = realloc(p->bench, (size_t)(p->nb + 1) * sizeof(*p->bench));
	if (!p->bench)
		die(1, "out of memory");
	struct rbench *rb = &p->bench[p->nb];
	*rb = (struct rbench){ .name = xstrdup(gb->name), .b = gb->b };
	if (rb->b && rb->b->views)
		rb->views = rb->b->views;
	else
		fallback_views(rb, gb);
	return p->nb++;
}

/* Does view vi of the bench take rows of this variant? A prefix view takes its prefix; a view
 * without one takes what no prefix view of the bench takes. */
static int view_takes(const struct bench_view *views, int vi, const char *variant)
{
	if (views[vi].variant_prefix)
		return !strncmp(variant, views[vi].variant_prefix,
				strlen(views[vi].variant_prefix));
	for (int i = 0; views[i].kind; i++)
		if (views[i].variant_prefix &&
		    !strncmp(variant, views[i].variant_prefix, strlen(views[i].variant_prefix)))
			return 0;
	return 1;
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

/* A harness configuration column (requested duration, warm-up): older results lack it, and a
 * missing one is left out of the settings rather than shown as absent. */
static int harness_col(const char *col)
{
	for (int i = 0; harness_config[i]; i++)
		if (!strcmp(harness_config[i], col))
			return 1;
	return 0;
}

/* The configuration of a group for view v: every key column of the engine but the variant and
 * the view's x, matrix and implied columns. */
static char *gkey_of(const struct grp_bench *gb, const struct grp_group *gr,
		     const struct bench_view *v)
{
	char *k = xstrdup("");
	size_t len = 0;
	for (int i = 1; i < gb->nkey; i++) {
		const char *c = gb->key_col[i];
		if ((v->kind == VIEW_LINES && list_has(v->x_cols, c)) ||
		    (v->kind == VIEW_MATRIX &&
		     (!strcmp(c, v->row_col) || !strcmp(c, v->col_col) ||
		      !strcmp(c, v->facet_col) || !strcmp(c, v->class_col))))
			continue;
		if (list_has(v->implied_cols, c) || (!gr->val[i] && harness_col(c)))
			continue;
		char v2[200];
		if (gr->joined && gr->joined[i] == GRP_NREC_IMPORTED) /* an imported machine's */
			snprintf(v2, sizeof(v2),
				 "%.80s (a machine's rows: imported, not recorded by their source)",
				 gr->val[i] ? gr->val[i] : "(absent)");
		else if (gr->joined && gr->joined[i]) /* a machine's rows did not record it */
			snprintf(v2, sizeof(v2),
				 "%.80s (a machine's rows: not recorded (schema %d), joined on its "
				 "effective value)",
				 gr->val[i] ? gr->val[i] : "(absent)", gr->joined[i]);
		key_add(&k, &len, c, gr->joined && gr->joined[i] ? v2
					     : gr->val[i]	  ? gr->val[i]
								  : "(absent)");
	}
	return k;
}

/* A key column's value in a group, or NULL (absent, or not a key column of the bench). */
static const char *key_val(const struct grp_bench *gb, const struct grp_group *gr, const char *col)
{
	for (int i = 0; i < gb->nkey; i++)
		if (!strcmp(gb->key_col[i], col))
			return gr->val[i];
	return NULL;
}

/* A key column's value as a number; 0 when absent or not a number. */
static int key_num(const struct grp_bench *gb, const struct grp_group *gr, const char *col,
		   double *x)
{
	const char *v = key_val(gb, gr, col);
	char *end;
	if (!v || !*v)
		return 0;
	*x = strtod(v, &end);
	return !*end;
}

/* The x of a group in a line view: the sum of its x columns, labelled "a+b". 0 when one is absent.
 */
static int x_of(const struct grp_bench *gb, const struct grp_group *gr, const char *x_cols,
		double *x, char *label, size_t cap)
{
	char list[256];
	size_t len = 0;
	snprintf(list, sizeof(list), "%s", x_cols);
	*x = 0;
	label[0] = 0;
	for (char *save = NULL, *c = strtok_r(list, ",", &save); c;
	     c = strtok_r(NULL, ",", &save)) {
		double v;
		if (!key_num(gb, gr, c, &v))
			return 0;
		*x += v;
		len += (size_t)snprintf(label + len, len < cap ? cap - len : 0, "%s%g",
					len ? "+" : "", v);
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

/* The view's place of a group: x (lines), pair, facet and class (matrix); 0 when the group has
 * no place in it (an x or pair column absent). */
static int place_of(const struct grp_bench *gb, const struct grp_group *gr,
		    const struct bench_view *v, struct sample *proto, char *xl, size_t cap)
{
	if (v->kind == VIEW_LINES && !x_of(gb, gr, v->x_cols, &proto->x, xl, cap))
		return 0;
	if (v->kind == VIEW_LINES && v->x_is_variant)
		proto->variant[0] = 0;
	if (v->kind != VIEW_MATRIX)
		return 1;
	double a, b;
	if (!key_num(gb, gr, v->row_col, &a) || !key_num(gb, gr, v->col_col, &b) || a < 0 || b < 0)
		return 0;
	const char *f = key_val(gb, gr, v->facet_col), *c = key_val(gb, gr, v->class_col);
	proto->a = (int)a, proto->b = (int)b;
	proto->facet = xstrdup(f ? f : "");
	proto->cls = xstrdup(c ? c : "");
	return 1;
}

/* What the cell's rows resolved its settings to, as compare shows it ("placement=cross-llc"): kept
 * by the sample, which names it beside its numbers; "(and others)" when its cells differ there. */
static void resolved_of(const struct grp_bench *gb, const struct grp_cell *cell, struct sample *s)
{
	char buf[400];
	size_t k = 0;
	buf[0] = 0;
	for (int r = 0; r < gb->nres && k < sizeof(buf); r++)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%s=%s%s", k ? " " : "",
				      gb->res_col[r], cell->res[r] ? cell->res[r] : "(absent)",
				      cell->res_mixed[r] ? " (and others)" : "");
	if (!k)
		return;
	if (!s->resolved)
		s->resolved = xstrdup(buf);
	else if (strcmp(s->resolved, buf) && !strstr(s->resolved, " (and others)")) {
		char *t = xcalloc(strlen(s->resolved) + 16, 1);
		sprintf(t, "%s (and others)", s->resolved);
		free(s->resolved);
		s->resolved = t;
	}
}

/* One engine cell (a configuration on one machine) into the sample of view vi, if it takes it:
 * its row counts and the values of the view's metrics. */
static void add_cell(struct rep *p, const struct grp_cell *cell, int bi, int vi)
{
	const struct grp_group *gr = &p->g.group[cell->group];
	const struct grp_bench *gb = &p->g.bench[gr->bench];
	const struct bench_view *v = &p->bench[bi].views[vi];
	const char *variant = gr->val[0] ? gr->val[0] : "";
	struct sample proto = {
	    .m = cell->side, .bench = bi, .view = vi, .variant = xstrdup(variant)};
	char xl[128] = "", *key;
	if (!view_takes(p->bench[bi].views, vi, variant) ||
	    !place_of(gb, gr, v, &proto, xl, sizeof(xl))) {
		free(proto.variant), free(proto.facet), free(proto.cls);
		return;
	}
	proto.gkey = gkey_of(gb, gr, v);
	proto.xlabel = xstrdup(xl);
	size_t kl =
	    strlen(proto.gkey) + strlen(variant) + 160 + (proto.facet ? strlen(proto.facet) : 0);
	key = xcalloc(kl, 1);
	snprintf(key, kl, "%d\x1e%d\x1e%d\x1e%s\x1e%s\x1e%.17g\x1e%d\x1e%d\x1e%s", proto.m, bi, vi,
		 proto.gkey, proto.variant, proto.x, proto.a, proto.b,
		 proto.facet ? proto.facet : "");
	struct sample *s = sample_at(p, key, &proto);
	if (s->gkey != proto.gkey) /* an existing sample: the prototype's strings are not needed */
		free(proto.gkey), free(proto.variant), free(proto.xlabel), free(proto.facet),
		    free(proto.cls);
	free(key);
	s->rows += cell->rows;
	s->valid += cell->valid;
	resolved_of(gb, cell, s);
	for (int k = 0; k < rpt_nmet(v); k++)
		for (int q = 0; q < gb->nmet; q++)
			if (!strcmp(gb->metric[q], v->metrics[k].col))
				for (size_t j = 0; j < cell->met[q].n; j++) {
					long r = cell->met[q].row[j]; /* the latency of its row */
					vec_push(&s->val[k], cell->met[q].v[j]);
					vec_push(&s->lat[k],
						 rpt_probe_lat(p, cell->group, cell->side, r));
				}
	for (long r = 0; r < cell->valid; r++)
		vec_push(&s->rowlat, rpt_probe_lat(p, cell->group, cell->side, r));
}

/* Every row as the engine files it: its machine, and what the report says of rows (NA reasons,
 * rows not used). Nothing may keep a pointer into r->one. */
static int rpt_row(void *arg, const struct grp_row *r, char *err)
{
	struct rep *p = arg;
	int m = machine_of(p, r);
	(void)err;
	p->mach[m].rows++;
	p->mach[m].valid += r->valid;
	struct rmachine *mc = &p->mach[m];
	if (r->one->path && (!mc->last_file || strcmp(mc->last_file, r->one->path))) {
		char by[200];
		free(mc->last_file);
		mc->last_file = xstrdup(r->one->path);
		if (!mc->relaxed[0] && cmp_file_relaxed(r->one->path, by, sizeof(by)))
			snprintf(mc->relaxed, sizeof(mc->relaxed), "%s", by);
	}
	if (!r->valid)
		rpt_unused_row(p, m, r->one, 0);
	rpt_na_row(p, m, r->one, 0);
	rpt_probe_row(p, m, r);
	return 0;
}

int rpt_load(struct rep *p, char **inputs, int ninputs, char *err)
{
	if (groups_init(&p->g, NULL, err))
		return -1;
	p->g.row = rpt_row;
	p->g.row_arg = p;
	p->inputs = inputs;
	p->ninputs = ninputs;
	for (int i = 0; i < ninputs; i++)
		if (groups_add(&p->g, inputs[i], GROUPS_BY_LABEL, err))
			return -1;
	if (!p->g.rows)
		return err_set(err, "the inputs hold no result rows; nothing to report");
	if (groups_finish(&p->g, err))
		return -1;
	for (int m = 0; m < p->nm;
	     m++) { /* a label split after its first rows: the name it has now */
		free(p->mach[m].label);
		p->mach[m].label = xstrdup(p->g.side[m].name);
	}
	p->unfinished = p->g.warnings;
	for (int c = 0; c < p->g.ncell;
	     c++) { /* each configuration of each machine into its views */
		struct grp_cell *cell = &p->g.cell[c];
		const struct grp_bench *gb = &p->g.bench[p->g.group[cell->group].bench];
		int bi = bench_of(p, gb);
		for (int vi = 0; p->bench[bi].views[vi].kind;
		     vi++) /* copied: the cells keep theirs for compare's lines (the Summary) */
			add_cell(p, cell, bi, vi);
	}
	return 0;
}

void rpt_free(struct rep *p)
{
	for (long i = 0; i < p->ns; i++) {
		struct sample *s = &p->s[i];
		free(s->key), free(s->gkey), free(s->variant), free(s->xlabel), free(s->facet),
		    free(s->cls), free(s->resolved);
		for (int k = 0; k < RPT_METRICS; k++)
			free(s->val[k].v), free(s->lat[k].v);
		free(s->rowlat.v);
	}
	free(p->s);
	free(p->hash);
	for (int i = 0; i < p->nm; i++) {
		free(p->mach[i].label), free(p->mach[i].host), free(p->mach[i].cpu);
		free(p->mach[i].last_file);
		for (int c = 0; c < RPT_CTX; c++)
			free(p->mach[i].ctx[c]);
	}
	free(p->mach);
	for (int i = 0; i < p->nb; i++) {
		for (int k = 0; p->bench[i].own_cols && p->bench[i].own_cols[k]; k++)
			free(p->bench[i].own_cols[k]);
		free(p->bench[i].name), free(p->bench[i].own), free(p->bench[i].own_met),
		    free(p->bench[i].own_cols);
	}
	free(p->bench);
	rpt_reasons_free(p);
	rpt_probe_free(p);
	groups_free(&p->g);
}

/* A bench description written as text (desc.h); read back by desc.c. */
#include "schema/desc_int.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

struct wr {
	FILE *f;
	char *err;
	int rc;
};

static void put(struct wr *w, const char *key, const char *v)
{
	if (!v || w->rc)
		return;
	size_t n = strlen(v);
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f) {
			w->rc = err_set(w->err, "bench description: %s holds a control byte", key);
			return;
		}
	if (strlen(key) + 3 + n >= DESC_LINE_MAX)
		w->rc = err_set(w->err, "bench description: %s is longer than a line (%d bytes)",
				key, DESC_LINE_MAX);
	else
		fprintf(w->f, n ? "%s = %s\n" : "%s =\n", key, v);
}

static void put_all(struct wr *w, const char *key, const char *const *v)
{
	for (; v && *v; v++)
		put(w, key, *v);
}

static void put_flag(struct wr *w, const char *key, int v)
{
	if (v)
		put(w, key, "1");
}

static void put_view(struct wr *w, const struct bench_view *v)
{
	char mark[DESC_LINE_MAX];
	fprintf(w->f, "\n[view]\n");
	put(w, "kind", v->kind > 0 && v->kind <= VIEW_MATRIX ? desc_kind_name[v->kind] : "?");
	put(w, "title", v->title);
	put(w, "variant_prefix", v->variant_prefix);
	put(w, "implied_cols", v->implied_cols);
	put(w, "x_cols", v->x_cols);
	put(w, "x_label", v->x_label);
	put_flag(w, "x_is_variant", v->x_is_variant);
	for (int i = 0; v->marks && v->marks[i]; i++) {
		const char *l = v->mark_labels ? v->mark_labels[i] : NULL;
		snprintf(mark, sizeof(mark), "%.17g%s%.900s", v->marks[i], l ? " " : "",
			 l ? l : "");
		put(w, "mark", mark);
	}
	put(w, "row_col", v->row_col);
	put(w, "col_col", v->col_col);
	put(w, "facet_col", v->facet_col);
	put(w, "class_col", v->class_col);
	put_all(w, "class", v->classes);
	put_flag(w, "is_baseline", v->is_baseline);
	put_flag(w, "with_baseline", v->with_baseline);
	for (const struct view_metric *m = v->metrics; m && m->col; m++) {
		fprintf(w->f, "[metric]\n");
		put(w, "col", m->col);
		put(w, "label", m->label);
		put(w, "unit", m->unit);
		put(w, "axis", m->axis);
		put(w, "higher_better", m->higher_better ? "1" : "0");
	}
}

int bench_desc_write(FILE *f, const struct bench_desc *d, char *err)
{
	struct wr w = { f, err, 0 };
	if (!d->split_cols != !d->split_name) /* the reader's rule: both or neither */
		return err_set(err, "bench description: %s without %s",
			       d->split_cols ? "split_cols" : "split_name",
			       d->split_cols ? "split_name" : "split_cols");
	fprintf(f, "# c2cbench bench description (results/README.md, FILE.bench)\n[bench]\n");
	put(&w, "name", d->name);
	put(&w, "variant_col", d->variant_col);
	put_all(&w, "config", d->config);
	put(&w, "match_by", d->match_by);
	put_all(&w, "match_loose", d->match_loose);
	put_all(&w, "summary", d->summary);
	put(&w, "summary_by", d->summary_by);
	put(&w, "split_cols", d->split_cols);
	put(&w, "split_name", d->split_name);
	put_all(&w, "verdict", d->verdict);
	put_all(&w, "variant_order", d->variant_order);
	for (const char *p = d->summary_note; p && *p && !w.rc;) { /* a line each */
		char line[DESC_LINE_MAX];
		size_t n = strcspn(p, "\n");
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1),
			 p);
		put(&w, "summary_note", line);
		p += n + (p[n] == '\n');
	}
	put(&w, "summary_note_if", d->summary_note_if);
	for (const struct bench_resolved *r = d->resolved; r && r->requested && !w.rc; r++) {
		fprintf(f, "\n[resolved]\n");
		put(&w, "requested", r->requested);
		put(&w, "resolved", r->resolved);
		put(&w, "unit", r->unit);
	}
	for (const struct bench_view *v = d->views; v && v->kind && !w.rc; v++)
		put_view(&w, v);
	if (!w.rc && ferror(f))
		return err_set(err, "bench description: a write failed");
	return w.rc;
}

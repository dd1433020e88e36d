/* A bench description read back from its text (desc.h); written by desc_write.c. */
#include "schema/desc_int.h"
#include "lib/infile.h"
#include "lib/parse.h"
#include "lib/util.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const desc_kind_name[VIEW_MATRIX + 1] = { "", "bars", "lines", "matrix" };

struct desc_own {
	void **p;
	int n, cap;
};

static void *own(struct desc_own *o, void *p)
{
	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64;
		o->p = realloc(o->p, (size_t)o->cap * sizeof(void *));
		if (!o->p)
			out_of_memory(0);
	}
	return o->p[o->n++] = p;
}

/* A list of at most max strings, NULL-terminated. */
struct list {
	char **v;
	int n;
};

/* The view being read, with room for its lists. */
struct vbuild {
	struct bench_view *v;
	struct view_metric *met;
	struct list cls;
	double *marks;
	char **mlab;
	int nmet, nmarks;
};

struct rd {
	struct bench_desc *d;
	struct desc_own *o;
	const char *path;
	long line, sect_line;
	char sect; /* 'b' bench, 'r' resolved, 'v' view, 'm' metric, '?' unknown, 0 none */
	struct list config, loose, summary, verdict, order;
	struct bench_resolved *res;
	int nres;
	struct bench_view *views;
	int nviews;
	struct vbuild cur;
	char *err, *warn;
	size_t wn;
};

static void *room(struct rd *r, size_t n, size_t sz)
{
	return own(r->o, xcalloc(n, sz));
}

static int fail(struct rd *r, const char *fmt, const char *a, const char *b)
{
	char x[80], y[80];
	text_escape(a ? a : "", x, sizeof(x));
	text_escape(b ? b : "", y, sizeof(y));
	char what[400];
	snprintf(what, sizeof(what), fmt, x, y);
	return err_set(r->err, "%s:%ld: %s", r->path, r->line, what);
}

static int fail_max(struct rd *r, const char *what, int max)
{
	return err_set(r->err, "%s:%ld: more than %d %s; accepted: at most %d", r->path, r->line,
		       max, what, max);
}

static void warn_once(struct rd *r, const char *what, const char *name)
{
	char x[80];
	if (!r->warn || r->warn[0])
		return;
	text_escape(name, x, sizeof(x));
	snprintf(r->warn, r->wn, "%s:%ld: %s '%s' unknown to this version, skipped", r->path,
		 r->line, what, x);
}

static int set_str(struct rd *r, const char **field, const char *key, const char *v)
{
	if (*field)
		return fail(r, "%s is given twice in its section; accepted: once%s", key, "");
	*field = own(r->o, xstrdup(v));
	return 0;
}

static int add_item(struct rd *r, struct list *l, int max, const char *key, const char *v)
{
	if (!l->v)
		l->v = room(r, (size_t)max + 1, sizeof(char *));
	if (l->n >= max) {
		char what[64];
		snprintf(what, sizeof(what), "%s lines", key);
		return fail_max(r, what, max);
	}
	l->v[l->n++] = own(r->o, xstrdup(v));
	return 0;
}

static int set_flag(struct rd *r, int *field, const char *key, const char *v)
{
	if (strcmp(v, "0") && strcmp(v, "1"))
		return fail(r, "%s '%s' is not accepted; accepted: 0 or 1", key, v);
	*field = v[0] == '1';
	return 0;
}

static int is_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* The section just read is whole: what it must name, it names. */
static int close_sect(struct rd *r)
{
	long at = r->line;
	int rc = 0;
	r->line = r->sect_line;
	const struct bench_view *v = r->cur.v;
	const struct view_metric *m = r->cur.nmet ? &r->cur.met[r->cur.nmet - 1] : NULL;
	if (r->sect == 'b' && (!r->d->name || !r->d->variant_col))
		rc = fail(r, "[bench] names no %s%s; accepted: a name and a variant_col",
			  r->d->name ? "variant_col" : "name", "");
	else if (r->sect == 'b' && !r->d->split_cols != !r->d->split_name)
		rc = fail(r, "[bench] names %s without %s; accepted: both or neither",
			  r->d->split_cols ? "split_cols" : "split_name",
			  r->d->split_cols ? "split_name" : "split_cols");
	else if (r->sect == 'r' &&
		 (!r->res[r->nres - 1].requested || !r->res[r->nres - 1].resolved))
		rc = fail(r, "[resolved] names no %s%s; accepted: requested and resolved",
			  r->res[r->nres - 1].requested ? "resolved" : "requested", "");
	else if (r->sect == 'm' && (!m->col || !m->label || !m->unit))
		rc = fail(r, "[metric] names no %s%s; accepted: col, label and unit",
			  !m->col ? "col" : !m->label ? "label" : "unit", "");
	else if (r->sect == 'v' && !v->kind)
		rc = fail(r, "[view] names no kind%s%s; accepted: bars, lines or matrix", "", "");
	else if (r->sect == 'v' && v->kind == VIEW_LINES && !v->x_cols)
		rc = fail(r, "a lines [view] names no x_cols%s%s; accepted: its x columns", "", "");
	else if (r->sect == 'v' && v->kind == VIEW_MATRIX &&
		 (!v->row_col || !v->col_col || !v->facet_col || !v->class_col))
		rc = fail(r,
			  "a matrix [view] lacks one of row_col, col_col, facet_col, class_col%s%s",
			  "", "");
	r->line = at;
	return rc;
}

/* The view's metrics are all read: it has one at least. */
static int close_view(struct rd *r)
{
	if (!r->cur.v || r->cur.nmet)
		return 0;
	long at = r->line;
	r->line = r->sect_line;
	int rc = fail(r, "[view] has no [metric] section after it%s%s; accepted: one or more", "",
		      "");
	r->line = at;
	return rc;
}

static int open_sect(struct rd *r, const char *name)
{
	if ((r->sect && close_sect(r)) || (strcmp(name, "metric") && close_view(r)))
		return -1;
	if (strcmp(name, "metric")) /* a view's metrics follow it, nothing else between */
		memset(&r->cur, 0, sizeof(r->cur));
	r->sect_line = r->line;
	if (!strcmp(name, "bench")) {
		if (r->d->name || r->d->variant_col)
			return fail(r, "a second [bench] section%s%s; accepted: one", "", "");
		r->sect = 'b';
	} else if (!strcmp(name, "resolved")) {
		if (!r->res)
			r->res = room(r, DESC_ITEMS_MAX + 1, sizeof(*r->res));
		if (r->nres >= DESC_ITEMS_MAX)
			return fail_max(r, "[resolved] sections", DESC_ITEMS_MAX);
		r->nres++;
		r->sect = 'r';
	} else if (!strcmp(name, "view")) {
		if (!r->views)
			r->views = room(r, DESC_VIEWS_MAX + 1, sizeof(*r->views));
		if (r->nviews >= DESC_VIEWS_MAX)
			return fail_max(r, "[view] sections", DESC_VIEWS_MAX);
		r->cur.v = &r->views[r->nviews++];
		r->cur.met = room(r, DESC_METRICS_MAX + 1, sizeof(*r->cur.met));
		r->cur.v->metrics = r->cur.met;
		r->sect = 'v';
	} else if (!strcmp(name, "metric")) {
		if (!r->cur.v)
			return fail(r, "[metric] before any [view]%s%s; accepted: a view's metrics "
				       "after it", "", "");
		if (r->cur.nmet >= DESC_METRICS_MAX)
			return fail_max(r, "[metric] sections in one view", DESC_METRICS_MAX);
		r->cur.nmet++;
		r->sect = 'm';
	} else {
		warn_once(r, "section", name);
		r->sect = '?';
	}
	return 0;
}

/* summary_note: one line per key, in order. */
static int note_line(struct rd *r, const char *v)
{
	const char *old = r->d->summary_note;
	size_t a = old ? strlen(old) + 1 : 0, n = strlen(v);
	if (a + n > DESC_NOTE_MAX)
		return fail_max(r, "bytes of summary_note lines in all", DESC_NOTE_MAX);
	char *s = own(r->o, xcalloc(a + n + 1, 1));
	if (old)
		memcpy(s, old, a - 1), s[a - 1] = '\n';
	memcpy(s + a, v, n + 1);
	r->d->summary_note = s;
	return 0;
}

static int bench_key(struct rd *r, const char *k, const char *v)
{
	struct bench_desc *d = r->d;
	if (!strcmp(k, "name"))
		return set_str(r, &d->name, k, v);
	if (!strcmp(k, "variant_col"))
		return set_str(r, &d->variant_col, k, v);
	if (!strcmp(k, "match_by"))
		return set_str(r, &d->match_by, k, v);
	if (!strcmp(k, "summary_by"))
		return set_str(r, &d->summary_by, k, v);
	if (!strcmp(k, "split_cols")) {
		char why[80];
		int n = list_count(v, why, sizeof(why));
		if (n > DESC_SPLIT_COLS_MAX)
			snprintf(why, sizeof(why), "more than %d columns", DESC_SPLIT_COLS_MAX);
		if (n < 0 || n > DESC_SPLIT_COLS_MAX)
			return fail(r,
				    "split_cols '%s' is not accepted (%s); accepted: a comma "
				    "list of columns",
				    v, why);
		return set_str(r, &d->split_cols, k, v);
	}
	if (!strcmp(k, "split_name"))
		return set_str(r, &d->split_name, k, v);
	if (!strcmp(k, "summary_note"))
		return note_line(r, v);
	if (!strcmp(k, "summary_note_if"))
		return set_str(r, &d->summary_note_if, k, v);
	if (!strcmp(k, "config"))
		return add_item(r, &r->config, DESC_LIST_MAX, k, v);
	if (!strcmp(k, "match_loose"))
		return add_item(r, &r->loose, DESC_LIST_MAX, k, v);
	if (!strcmp(k, "summary"))
		return add_item(r, &r->summary, DESC_LIST_MAX, k, v);
	if (!strcmp(k, "verdict"))
		return add_item(r, &r->verdict, DESC_LIST_MAX, k, v);
	if (!strcmp(k, "variant_order"))
		return add_item(r, &r->order, DESC_LIST_MAX, k, v);
	warn_once(r, "key", k);
	return 0;
}

static int mark(struct rd *r, const char *v)
{
	struct vbuild *b = &r->cur;
	char num[64];
	size_t n = strcspn(v, " ");
	double x;
	snprintf(num, sizeof(num), "%.*s", (int)(n < 63 ? n : 63), v);
	if (n > 63 || parse_double(num, &x) || x == 0)
		return fail(r, "mark '%s' is not accepted%s; accepted: a number other than 0, then "
			       "its label", v, "");
	if (!b->marks) {
		b->marks = room(r, DESC_ITEMS_MAX + 1, sizeof(double));
		b->mlab = room(r, DESC_ITEMS_MAX + 1, sizeof(char *));
		b->v->marks = b->marks;
		b->v->mark_labels = (const char *const *)b->mlab;
	}
	if (b->nmarks >= DESC_ITEMS_MAX)
		return fail_max(r, "mark lines in one view", DESC_ITEMS_MAX);
	b->marks[b->nmarks] = x;
	b->mlab[b->nmarks++] = own(r->o, xstrdup(v[n] ? v + n + 1 : ""));
	return 0;
}

static int view_key(struct rd *r, const char *k, const char *v)
{
	struct bench_view *w = r->cur.v;
	if (!strcmp(k, "kind")) {
		for (int i = 1; i <= VIEW_MATRIX; i++)
			if (!strcmp(v, desc_kind_name[i])) {
				if (w->kind)
					return fail(r, "kind is given twice in its section%s%s", "",
						    "");
				w->kind = (enum view_kind)i;
				return 0;
			}
		return fail(r, "kind '%s' is not accepted%s; accepted: bars, lines, matrix", v, "");
	}
	const char **s = !strcmp(k, "title")	      ? &w->title
			 : !strcmp(k, "variant_prefix") ? &w->variant_prefix
			 : !strcmp(k, "implied_cols")   ? &w->implied_cols
			 : !strcmp(k, "x_cols")	      ? &w->x_cols
			 : !strcmp(k, "x_label")	      ? &w->x_label
			 : !strcmp(k, "row_col")	      ? &w->row_col
			 : !strcmp(k, "col_col")	      ? &w->col_col
			 : !strcmp(k, "facet_col")      ? &w->facet_col
			 : !strcmp(k, "class_col")      ? &w->class_col
							: NULL;
	if (s)
		return set_str(r, s, k, v);
	if (!strcmp(k, "x_is_variant"))
		return set_flag(r, &w->x_is_variant, k, v);
	if (!strcmp(k, "is_baseline"))
		return set_flag(r, &w->is_baseline, k, v);
	if (!strcmp(k, "with_baseline"))
		return set_flag(r, &w->with_baseline, k, v);
	if (!strcmp(k, "mark"))
		return mark(r, v);
	if (!strcmp(k, "class")) {
		int rc = add_item(r, &r->cur.cls, DESC_ITEMS_MAX, k, v);
		w->classes = (const char *const *)r->cur.cls.v;
		return rc;
	}
	warn_once(r, "key", k);
	return 0;
}

static int other_key(struct rd *r, const char *k, const char *v)
{
	if (r->sect == 'r') {
		struct bench_resolved *x = &r->res[r->nres - 1];
		const char **s = !strcmp(k, "requested") ? &x->requested
				 : !strcmp(k, "resolved") ? &x->resolved
				 : !strcmp(k, "unit")	    ? &x->unit
							    : NULL;
		if (s)
			return set_str(r, s, k, v);
	} else if (r->sect == 'm') {
		struct view_metric *m = &r->cur.met[r->cur.nmet - 1];
		const char **s = !strcmp(k, "col")	? &m->col
				 : !strcmp(k, "label") ? &m->label
				 : !strcmp(k, "unit")	? &m->unit
				 : !strcmp(k, "axis")	? &m->axis
							: NULL;
		if (s)
			return set_str(r, s, k, v);
		if (!strcmp(k, "higher_better"))
			return set_flag(r, &m->higher_better, k, v);
	}
	if (r->sect != '?')
		warn_once(r, "key", k);
	return 0;
}

/* One line (NUL-terminated, without its newline): a comment, [section] or KEY = VALUE, the
 * value the rest of the line after one space (its own leading spaces kept: a note's indent). */
static int one_line(struct rd *r, char *s)
{
	size_t n = strlen(s);
	if (n && s[n - 1] == '\r')
		s[--n] = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '#' || *s == ';')
		return 0;
	if (*s == '[') {
		char *e = strchr(s, ']');
		if (e && strspn(e + 1, " \t") == strlen(e + 1))
			e[1] = 0;
		if (!e || e[1])
			return fail(r, "'%s' is not a section header%s; accepted: [NAME]", s, "");
		*e = 0;
		return open_sect(r, s + 1);
	}
	char *eq = strchr(s, '=');
	if (!eq)
		return fail(r, "'%s' is not KEY = VALUE%s", s, "");
	char *v = eq + 1 + (eq[1] == ' '), *k = s;
	for (*eq = 0; eq > k && (eq[-1] == ' ' || eq[-1] == '\t');)
		*--eq = 0;
	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return fail(r, "%s's value holds a control byte%s; accepted: text", k, "");
	if (!is_name(k))
		return fail(r, "key '%s' is not a name%s; accepted: a-z, 0-9 and _", k, "");
	if (!r->sect)
		return fail(r, "key '%s' before any section%s; accepted: [bench] first", k, "");
	return r->sect == 'b' ? bench_key(r, k, v)
	       : r->sect == 'v' ? view_key(r, k, v)
				: other_key(r, k, v);
}

static const char *const *list_end(struct list *l)
{
	return (const char *const *)l->v; /* room has max + 1 slots: NULL-terminated */
}

void bench_desc_free(struct bench_desc *d)
{
	if (d->own) {
		for (int i = 0; i < d->own->n; i++)
			free(d->own->p[i]);
		free(d->own->p);
		free(d->own);
	}
	memset(d, 0, sizeof(*d));
}

int bench_desc_parse(struct bench_desc *d, const char *path, const char *text, size_t len,
		     char *err, char *warn, size_t wn)
{
	memset(d, 0, sizeof(*d));
	if (warn && wn)
		warn[0] = 0;
	struct rd r = { .d = d, .path = path, .err = err, .warn = wn ? warn : NULL, .wn = wn };
	r.o = d->own = xcalloc(1, sizeof(*d->own));
	char line[DESC_LINE_MAX + 1];
	int rc = 0;
	for (size_t at = 0; at < len && !rc;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - text - at) : len - at;
		r.line++;
		if (n > DESC_LINE_MAX)
			rc = err_set(err, "%s:%ld: a line of %zu bytes; accepted: at most %d", path,
				     r.line, n, DESC_LINE_MAX);
		else if (memchr(text + at, 0, n))
			rc = err_set(err, "%s:%ld: a NUL byte; accepted: text", path, r.line);
		else {
			memcpy(line, text + at, n);
			line[n] = 0;
			rc = one_line(&r, line);
		}
		at += n + 1;
	}
	r.line++;
	if (!rc && r.sect)
		rc = close_sect(&r);
	if (!rc)
		rc = close_view(&r);
	if (!rc && !d->name)
		rc = err_set(err, "%s: no [bench] section; accepted: a bench description "
				  "(results/README.md)", path);
	if (rc) {
		bench_desc_free(d);
		return -1;
	}
	d->config = list_end(&r.config);
	d->match_loose = list_end(&r.loose);
	d->summary = list_end(&r.summary);
	d->verdict = list_end(&r.verdict);
	d->variant_order = list_end(&r.order);
	d->resolved = r.res;
	d->views = r.views;
	return 0;
}

int bench_desc_read(struct bench_desc *d, const char *path, char *err, char *warn, size_t wn)
{
	memset(d, 0, sizeof(*d));
	FILE *f = fopen_regular(path);
	if (!f && errno == ENOENT)
		return 0;
	if (!f && errno == EINVAL)
		return err_set(err, "%s: not a regular file; accepted: the bench description a run "
				    "wrote beside its CSV, or none", path);
	if (!f)
		return err_set(err, "%s: %s", path, strerror(errno));
	char *buf = xcalloc(DESC_BYTES_MAX + 1, 1);
	size_t n = fread(buf, 1, DESC_BYTES_MAX + 1, f);
	int bad = ferror(f);
	fclose(f);
	int rc = bad ? err_set(err, "%s: a read failed", path)
	     : n > DESC_BYTES_MAX
		 ? err_set(err, "%s: larger than %ld bytes; accepted: a bench description", path,
			   DESC_BYTES_MAX)
		 : bench_desc_parse(d, path, buf, n, err, warn, wn);
	free(buf);
	return rc ? -1 : 1;
}

const char *desc_note_instead(const char *note_if, const char *value, char *out, size_t n)
{
	if (!note_if || (value && !strcmp(value, "yes")))
		return NULL;
	if (!value)
		snprintf(out, n,
			 "the seed's figures are left out: the rows do not say whether they match "
			 "its setting (no %s column)",
			 note_if);
	else
		snprintf(out, n, "the seed's figures are left out, the setting differs: %s",
			 strncmp(value, "no: ", 4) ? value : value + 4);
	return out;
}

int desc_class_in_package(const struct bench_view *v, const char *cls)
{
	int n = 0;
	while (v->classes && v->classes[n])
		n++;
	for (int c = 0; c < n - 1; c++)
		if (cls && !strcmp(cls, v->classes[c]))
			return 1;
	return 0;
}

long desc_split_attr_of(const char *const *vals, int n)
{
	long first = -1, v;
	for (int i = 0; i < n; i++) {
		if (!vals[i] || parse_long(vals[i], &v) || (i && v != first))
			return -1;
		first = v;
	}
	return first;
}

long desc_split_attr(const char *cols, const char *(*get)(const void *row, const char *col),
		     const void *row)
{
	const char *vals[DESC_SPLIT_COLS_MAX];
	char name[128];
	int n = 0;
	for (const char *p = cols; p && *p; n++) {
		size_t len = strcspn(p, ",");
		if (n == DESC_SPLIT_COLS_MAX || len >= sizeof(name))
			return -1;
		memcpy(name, p, len);
		name[len] = 0;
		vals[n] = get(row, name);
		p += len + (p[len] == ',');
	}
	return desc_split_attr_of(vals, n);
}

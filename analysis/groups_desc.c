/* Each bench's description for the grouping engine: the one its result set carries (FILE.bench),
 * else the fallback's text for an older set, read by the same parser (resultset.h). */
#include "analysis/groups_int.h"
#include "analysis/groups_decl.h"
#include "lib/util.h"
#include "schema/desc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static groups_desc_fn fallback;

void groups_set_desc_fallback(groups_desc_fn fn)
{
	fallback = fn;
}

/* The fallback's description of name: NULL when it has none, or (said on stderr) when its text
 * does not parse. */
static struct bench_desc *from_fallback(struct groups *g, const char *name,
					const char *const *header, int ncols, struct grp_decl **fb)
{
	char *dt = NULL, *ct = NULL, err[ERRLEN], what[200];
	if (!fallback || !fallback(name, header, ncols, &dt, &ct) || !dt) {
		free(dt);
		free(ct);
		return NULL;
	}
	struct bench_desc *d = xcalloc(1, sizeof(*d));
	snprintf(what, sizeof(what), "(this build's description of %.64s)", name);
	int rc = bench_desc_parse(d, what, dt, strlen(dt), err, NULL, 0);
	if (!rc && ct) {
		*fb = xcalloc(1, sizeof(**fb));
		if (grp_decl_parse(*fb, what, ct, strlen(ct), err)) {
			free(*fb);
			*fb = NULL;
			bench_desc_free(d);
			rc = -1;
		}
	}
	free(dt);
	free(ct);
	if (rc) {
		g->warnings++;
		fprintf(grp_warn_to(), "c2cbench: warning: %s\n", err);
		free(d);
		return NULL;
	}
	return d;
}

struct bench_desc *grp_desc_of(struct groups *g, const char *name, struct bench_desc *file,
			       const char *const *header, int ncols, struct grp_decl **fb)
{
	*fb = NULL;
	if (file && file->name && !strcmp(file->name, name)) {
		struct bench_desc *d = xcalloc(1, sizeof(*d));
		*d = *file;
		memset(file, 0, sizeof(*file)); /* the bench holds its memory now */
		return d;
	}
	return from_fallback(g, name, header, ncols, fb);
}

void grp_desc_free(struct bench_desc *d, struct grp_decl *fb)
{
	if (d) {
		bench_desc_free(d);
		free(d);
	}
	if (fb) {
		grp_decl_free(fb);
		free(fb);
	}
}

struct bench_desc *grp_desc_fallback(struct groups *g, const char *name,
				     const char *const *header, int ncols)
{
	struct grp_decl *fb = NULL;
	struct bench_desc *d = from_fallback(g, name, header, ncols, &fb);
	grp_desc_free(NULL, fb);
	return d;
}

struct grp_decl *grp_decl_fallback(struct groups *g, const char *name, const char *const *header,
				   int ncols)
{
	struct grp_decl *fb = NULL;
	struct bench_desc *d = from_fallback(g, name, header, ncols, &fb);
	grp_desc_free(d, NULL);
	return fb;
}

/* Is each comma-separated name of list (an item's ":lower"/":higher" left out; one ending in '?',
 * summary_by's where it varies, may be absent) a column of the header? 0, or -1 with the first
 * that is not. */
static int cols_in(const char *list, const char *what, const char *path, const char *csv,
		   const char *const *hdr, int ncols, char *err)
{
	for (const char *p = list; p && *p;) {
		size_t n = strcspn(p, ",:");
		int found = 0;
		for (int c = 0; c < ncols && !found; c++)
			found = strlen(hdr[c]) == n && !strncmp(hdr[c], p, n);
		if (!found && n && p[n - 1] != '?')
			return err_set(err,
				       "%s: its %s names column '%.*s', which the CSV %s has not; "
				       "accepted: the description its run wrote beside it, or none",
				       path, what, (int)(n > 64 ? 64 : n), p, csv);
		p += n;
		p += strcspn(p, ","); /* past an item's direction */
		p += *p == ',';
	}
	return 0;
}

static int list_in(const char *const *list, const char *what, const char *path, const char *csv,
		   const char *const *hdr, int ncols, char *err)
{
	for (int i = 0; list && list[i]; i++)
		if (cols_in(list[i], what, path, csv, hdr, ncols, err))
			return -1;
	return 0;
}

/* A column the description keys on (what) that the declaration (decl, may be NULL) makes a
 * metric or evidence: rows would never join (each repetition its own configuration). */
static int key_kind(const struct grp_decl *decl, const char *col, const char *what,
		    const char *path, char *err)
{
	long di = decl && decl->present && col ? grp_decl_find(decl, col) : -1;
	const char *k = di >= 0 ? grp_decl_kind(decl, di) : "";
	if (strcmp(k, "metric") && strcmp(k, "evidence"))
		return 0;
	return err_set(err,
		       "%s: its %s names column '%.64s', which %s declares %s; accepted: a "
		       "configuration column",
		       path, what, col, decl->t.path ? decl->t.path : "its declaration", k);
}

/* A column the description measures (what: its verdict, summary or a view's metric; item: the
 * name, a verdict item's ":lower"/":higher" left out) that the declaration (may be NULL) gives
 * another kind than metric, or, for a view (better: 1 higher, -1 lower, 0 not said), the other
 * better side: refused, never read two ways. */
static int metric_kind(const struct grp_decl *decl, const char *item, const char *what, int better,
		       const char *path, char *err)
{
	char col[128];
	snprintf(col, sizeof(col), "%.*s", (int)strcspn(item, ":"), item);
	size_t l = strlen(col);
	if (l && col[l - 1] == '?')
		col[l - 1] = 0;
	long di = decl && decl->present ? grp_decl_find(decl, col) : -1;
	if (di < 0)
		return 0;
	const char *k = grp_decl_kind(decl, di);
	const char *dp = decl->t.path ? decl->t.path : "its declaration";
	if (strcmp(k, "metric"))
		return err_set(err,
			       "%s: its %s names column '%.64s', which %s declares %s; accepted: a "
			       "metric column",
			       path, what, col, dp, k);
	int dd = grp_decl_direction(decl, di);
	if (better && dd && better != dd)
		return err_set(err,
			       "%s: its %s '%.64s' is %s better, where %s declares it %s; "
			       "accepted: the same side",
			       path, what, col, better > 0 ? "higher" : "lower", dp,
			       dd > 0 ? "higher" : "lower");
	return 0;
}

int grp_desc_check(const struct bench_desc *d, const struct grp_decl *decl, const char *path,
		   const char *csv, const char *const *hdr, int ncols, char *err)
{
	if (!d->name)
		return 0;
	if (key_kind(decl, d->variant_col, "variant_col", path, err))
		return -1;
	for (int i = 0; d->config && d->config[i]; i++)
		if (key_kind(decl, d->config[i], "config", path, err))
			return -1;
	for (const struct bench_resolved *r = d->resolved; r && r->requested; r++)
		if (key_kind(decl, r->requested, "[resolved] requested", path, err))
			return -1;
	for (int i = 0; d->verdict && d->verdict[i]; i++)
		if (metric_kind(decl, d->verdict[i], "verdict", 0, path, err))
			return -1;
	for (int i = 0; d->summary && d->summary[i]; i++)
		if (metric_kind(decl, d->summary[i], "summary", 0, path, err))
			return -1;
	for (const struct bench_view *v = d->views; v && v->kind; v++)
		for (const struct view_metric *m = v->metrics; m && m->col; m++)
			if (metric_kind(decl, m->col, "view's metric", m->higher_better ? 1 : -1,
					path, err))
				return -1;
#define IN(s, what) cols_in(s, what, path, csv, hdr, ncols, err)
#define LIST(l, what) list_in(l, what, path, csv, hdr, ncols, err)
	if (IN(d->variant_col, "variant_col") || LIST(d->config, "config") ||
	    LIST(d->summary, "summary") || LIST(d->verdict, "verdict") ||
	    IN(d->match_by, "match_by") || LIST(d->match_loose, "match_loose") ||
	    IN(d->summary_by, "summary_by") || IN(d->summary_note_if, "summary_note_if"))
		return -1;
	for (const struct bench_resolved *r = d->resolved; r && r->requested; r++)
		if (IN(r->requested, "[resolved] requested") ||
		    IN(r->resolved, "[resolved] resolved"))
			return -1;
	for (const struct bench_view *v = d->views; v && v->kind; v++) {
		if (IN(v->implied_cols, "view's implied_cols") || IN(v->x_cols, "view's x_cols") ||
		    IN(v->row_col, "view's row_col") || IN(v->col_col, "view's col_col") ||
		    IN(v->facet_col, "view's facet_col") || IN(v->class_col, "view's class_col"))
			return -1;
		for (const struct view_metric *m = v->metrics; m && m->col; m++)
			if (IN(m->col, "view's metric"))
				return -1;
	}
#undef IN
#undef LIST
	return 0;
}

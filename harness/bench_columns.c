/* A bench's column declaration checked against the names its other declarations use and the keys
 * of its rows, and written beside each result set. */
#include "harness/bench_columns.h"
#include "harness/context.h"
#include "lib/parse.h"
#include "lib/replace.h"
#include "lib/util.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const struct col_decl *bench_column(const struct bench *b, const char *name)
{
	return col_find(b->columns, b->validity.roles, name);
}

/* Each item of the comma list (or the one name) declared. */
static int declared(const struct bench *b, const char *what, const char *names, char *err)
{
	for (const char *p = names; p && *p;) {
		size_t n = strcspn(p, ",");
		char name[128];
		/* summary_by's optional column: "home?" */
		int opt = n && p[n - 1] == '?' && !strcmp(what, "summary_by");
		snprintf(name, sizeof(name), "%.*s", (int)(n - (size_t)opt), p);
		if (n && !bench_column(b, name))
			return err_set(err,
				       "bench %s: its %s names column '%s', which it does not "
				       "declare (.columns)",
				       b->name, what, name);
		p += n + (p[n] == ',');
	}
	return 0;
}

static int declared_all(const struct bench *b, const char *what, const char *const *names,
			char *err)
{
	for (; names && *names; names++)
		if (declared(b, what, *names, err))
			return -1;
	return 0;
}

/* Each of names declared, and of kind k (config: configuration, summary: metric). */
static int declared_as(const struct bench *b, const char *what, const char *const *names,
		       enum col_kind k, char *err)
{
	if (declared_all(b, what, names, err))
		return -1;
	for (; names && *names; names++) {
		enum col_kind got = bench_column(b, *names)->kind;
		if (got != k)
			return err_set(err, "bench %s: its %s names column '%s', declared %s, not "
					    "%s",
				       b->name, what, *names, col_kind_name(got), col_kind_name(k));
	}
	return 0;
}

static int view_ok(const struct bench *b, const struct bench_view *v, char *err)
{
	const char *cols[] = {v->implied_cols, v->x_cols,    v->row_col,
			      v->col_col,      v->facet_col, v->class_col};
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		if (declared(b, "view", cols[i], err))
			return -1;
	for (const struct view_metric *m = v->metrics; m && m->col; m++) {
		const struct col_decl *c = bench_column(b, m->col);
		if (!c)
			return declared(b, "view metric", m->col, err);
		enum col_better want = m->higher_better ? COL_HIGHER : COL_LOWER;
		if (c->better != want)
			return err_set(err,
				       "bench %s: view metric %s is drawn %s-is-better, declared "
				       "%s",
				       b->name, m->col, m->higher_better ? "higher" : "lower",
				       col_better_name(c->better));
	}
	return 0;
}

static const char *const placed_config[] = { "placement_requested", "mem_node_requested", NULL };
static const struct bench_resolved placed_resolved[] = { BENCH_RESOLVED_PLACEMENT,
	BENCH_RESOLVED_MEM_NODE, { 0 } };

const char *const *bench_config(const struct bench *b)
{
	return b->config || !(b->flags & BENCH_PLACED) ? b->config : placed_config;
}

const struct bench_resolved *bench_resolved(const struct bench *b)
{
	return b->resolved || !(b->flags & BENCH_PLACED) ? b->resolved : placed_resolved;
}

int bench_columns_check(const struct bench *b, char *err)
{
	if (!b->columns)
		return err_set(err, "bench %s declares no columns (.columns)", b->name);
	if (declared(b, "variant_col", b->variant_col, err) ||
	    declared_as(b, "config", bench_config(b), COL_CONFIG, err) ||
	    declared_as(b, "config", harness_config, COL_CONFIG, err) ||
	    declared_as(b, "summary", b->summary, COL_METRIC, err) ||
	    declared(b, "summary_by", b->summary_by, err) ||
	    declared(b, "split.cols", b->split.cols, err) ||
	    declared(b, "match_by", b->match.by, err) ||
	    declared_all(b, "match_loose", b->match.loose, err))
		return -1;
	char why[80] = "";
	int nsplit = b->split.cols ? list_count(b->split.cols, why, sizeof(why)) : 0;
	if (nsplit > DESC_SPLIT_COLS_MAX)
		snprintf(why, sizeof(why), "more than %d columns", DESC_SPLIT_COLS_MAX);
	if (!b->split.cols != !b->split.name || nsplit < 0 || nsplit > DESC_SPLIT_COLS_MAX)
		return err_set(err,
			       "bench %s: its split has %s; accepted: a comma list of at most %d "
			       "columns (split.cols) and what their value is (split.name), or "
			       "neither",
			       b->name,
			       *why			? why
			       : b->split.name ? "a name but no columns"
						: "no name",
			       DESC_SPLIT_COLS_MAX);
	for (const struct bench_resolved *r = bench_resolved(b); r && r->requested; r++)
		if (declared_as(b, "resolved", (const char *const[]){r->requested, NULL},
				COL_CONFIG, err) ||
		    declared(b, "resolved", r->resolved, err))
			return -1;
	for (const struct bench_view *v = b->views; v && v->kind != VIEW_END; v++)
		if (view_ok(b, v, err))
			return -1;
	for (const struct col_decl *c = b->columns; c->name; c++) {
		if (!c->kind || !c->unit || !c->desc || strpbrk(c->desc, "\r\n"))
			return err_set(err, "bench %s: column %s lacks a kind, unit or one-line "
					    "description",
				       b->name, c->name);
	}
	for (int i = 0; b->verdict && b->verdict[i]; i++) { /* a metric with a better side */
		char name[256];
		const struct col_decl *c = NULL;
		if (col_verdict_of(b->verdict[i], name, sizeof(name)) > 0)
			c = bench_column(b, name);
		if (!c || c->kind != COL_METRIC || c->better == COL_NOSIDE)
			return err_set(err, "bench %s: verdict item '%s' is not a declared metric "
					    "with a better side (accepted: NAME, NAME:lower, "
					    "NAME:higher)",
				       b->name, b->verdict[i]);
	}
	return 0;
}

static const char *row_value(const void *r, const char *col)
{
	return row_get(r, col);
}

long bench_split_attr(const struct bench *b, const struct row *r)
{
	return desc_split_attr(b->split.cols, row_value, r);
}

static void row_check(const struct bench *b, const struct col_decl *t, const char *table,
		      const struct row *r)
{
	if (!col_checking())
		return;
	for (int i = 0; i < r->n; i++)
		if (!col_find(t, b->validity.roles, r->key[i])) {
			fprintf(stderr,
				"c2cbench: internal error: bench %s writes column '%s'%s%s, which "
				"neither it (.columns) nor the harness (harness/columns_harness.c) "
				"declares\n",
				b->name, r->key[i], table ? " in its side table " : "",
				table ? table : "");
			abort();
		}
}

void bench_row_check(const struct bench *b, const struct row *r)
{
	row_check(b, b->columns, NULL, r);
}

void bench_side_row_check(const struct bench *b, const struct col_decl *t, const char *table,
			  const struct row *r)
{
	row_check(b, t, table, r);
}

static int write_decl(const struct bench *b, const struct col_decl *t, const char *path,
		      char *const *cols, int n, char *err)
{
	struct replace r;
	FILE *f = replace_open(&r, path);
	if (!f)
		return err_set(err, "cannot write the column declaration '%s': %s", path,
			       strerror(errno));
	if (col_write_csv(f, t, b->validity.roles, cols, n)) {
		replace_abort(&r);
		return err_set(err, "cannot write the column declaration '%s': %s", path,
			       strerror(errno));
	}
	if (replace_commit(&r, REPLACE_NEW)) /* one that appeared meanwhile is kept: EEXIST */
		return err_set(err, "cannot write the column declaration '%s': %s", path,
			       errno == EEXIST ? "it already exists (never overwritten)"
					       : strerror(errno));
	return 0;
}

int bench_columns_write(const struct bench *b, const char *path, char *const *cols, int n,
			char *err)
{
	return write_decl(b, b->columns, path, cols, n, err);
}

int bench_side_columns_write(const struct bench *b, const struct col_decl *t, const char *csv,
			     char *const *cols, int n, char *err)
{
	char meta[4200], path[4200];
	context_meta_path(csv, meta, sizeof(meta)); /* X.csv: X.meta, whose X.columns it is */
	bench_columns_path(meta, path, sizeof(path));
	return write_decl(b, t, path, cols, n, err);
}

int bench_direction(const struct bench *b, const char *col, const char **unit)
{
	size_t l = strlen(col);
	int dir = l > 6 && !strcmp(col + l - 6, "_per_s")                             ? 1
		  : l > 3 && (!strcmp(col + l - 3, "_ns") || strstr(col, "_ns_per_")) ? -1
										      : 0;
	if (unit)
		*unit = NULL;
	const struct col_decl *d = b ? bench_column(b, col) : NULL;
	if (d && d->better != COL_NOSIDE) /* the declaration first, then the views' word */
		dir = d->better == COL_HIGHER ? 1 : -1;
	for (const struct bench_view *v = b ? b->views : NULL; v && v->kind; v++)
		for (const struct view_metric *m = v->metrics; m && m->col; m++)
			if (!strcmp(m->col, col)) {
				dir = m->higher_better ? 1 : -1;
				if (unit)
					*unit = m->unit;
			}
	return dir;
}

int bench_in_verdict(const struct bench *b, const char *col, int *predict)
{
	return col_verdict_in(b->verdict, col, bench_direction(b, col, NULL), predict);
}

/* A file of the result set that must not be there yet: anything at path (a file, a directory, a
 * link, dangling or looping) is the user's, never overwritten nor written through. */
static int absent(const char *path, char *err)
{
	struct stat st;
	int there = lstat(path, &st) == 0;
	if (there || errno != ENOENT)
		return err_set(err,
			       "cannot create '%s': %s (a file of yours is never overwritten); "
			       "accepted: an --out whose side files do not exist yet",
			       path, there ? "it already exists" : strerror(errno));
	return 0;
}

int bench_sides_absent(const struct bench *b, const char *csv, const char *meta, char *err)
{
	char p[4200], side[4200], sm[4300];
	bench_columns_path(meta, p, sizeof(p));
	if (absent(p, err))
		return -1;
	bench_desc_path(meta, p, sizeof(p));
	if (absent(p, err))
		return -1;
	size_t len = strlen(csv);
	int ext = len > 4 && !strcmp(csv + len - 4, ".csv");
	for (const struct col_side *s = b->sides; s && s->name; s++) {
		snprintf(side, sizeof(side), "%.*s-%s.csv", (int)(ext ? len - 4 : len), csv,
			 s->name);
		context_meta_path(side, sm, sizeof(sm));
		bench_columns_path(sm, p, sizeof(p));
		if (absent(side, err) || absent(p, err))
			return -1;
	}
	return 0;
}

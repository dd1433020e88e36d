/* A result set's column declaration, read through the one CSV reader (groups_decl.h). */
#include "analysis/groups_decl.h"
#include "schema/columns.h"
#include "schema/meta.h"
#include "lib/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const want[] = { "column", "kind", "unit", "higher_better" };

static int by_name(const void *a, const void *b, void *arg)
{
	const struct grp_decl *d = arg;
	return strcmp(table_get(&d->t, *(const long *)a, "column"),
		      table_get(&d->t, *(const long *)b, "column"));
}

/* d->t as read from path: a declaration, or -1 (d->t freed) with a message. */
static int check(struct grp_decl *d, const char *path, char *err)
{
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (table_col(&d->t, want[i]) < 0) {
			table_free(&d->t);
			return err_set(
				err,
				"%s: not a column declaration (no '%s' column; accepted: the "
				"header " COL_CSV_HEADER ")",
				path, want[i]);
		}
	if (!d->t.nrows) {
		table_free(&d->t);
		return err_set(err, "%s: declares no column; accepted: a row per column of the CSV",
			       path);
	}
	for (long r = 0; r < d->t.nrows; r++) {
		const char *k = grp_decl_kind(d, r), *b = table_get(&d->t, r, "higher_better");

		if (col_kind_of(k) < 0 || col_better_of(b) < 0) {
			err_set(err,
				"%s:%ld: kind '%.64s' or higher_better '%.64s' is not one of "
				"configuration, metric, evidence, context, undeclared and higher, "
				"lower, n/a",
				path, d->t.line[r], k, b);
			table_free(&d->t);
			return -1;
		}
	}
	/* two declarations of one column (opposite directions, say): neither is taken */
	long *ix = xcalloc((size_t)d->t.nrows, sizeof(long)), dup = -1;
	for (long r = 0; r < d->t.nrows; r++)
		ix[r] = r;
	qsort_r(ix, (size_t)d->t.nrows, sizeof(long), by_name, d);
	for (long i = 1; i < d->t.nrows && dup < 0; i++)
		if (!by_name(&ix[i - 1], &ix[i], d))
			dup = i;
	if (dup >= 0) {
		/* the sort is not stable: the later line second */
		long a = ix[dup - 1], b = ix[dup];
		if (a > b) {
			long t = a;
			a = b;
			b = t;
		}
		err_set(err,
			"%s:%ld: column '%.64s' is declared again (first on line %ld); accepted: "
			"each column once",
			path, d->t.line[b], grp_decl_name(d, b), d->t.line[a]);
		free(ix);
		table_free(&d->t);
		return -1;
	}
	free(ix);
	d->present = 1;
	return 0;
}

int grp_decl_read(struct grp_decl *d, const char *csv_path, char *err)
{
	char meta[4200], path[4200];
	memset(d, 0, sizeof(*d));
	context_meta_path(csv_path, meta, sizeof(meta)); /* the names the harness wrote them by */
	bench_columns_path(meta, path, sizeof(path));
	struct stat st;
	if (lstat(path, &st) && errno == ENOENT)
		return 0; /* an older schema, or a CSV not written by c2cbench: no declaration */
	if (stat(path, &st)) /* a link that loops or leads nowhere is not "none" */
		return err_set(err, "%s: %s; accepted: the declaration a run wrote, or none", path,
			       strerror(errno));
	if (S_ISREG(st.st_mode) && st.st_size > DECL_BYTES_MAX)
		return err_set(err, "%s: larger than %ld bytes; accepted: a column declaration",
			       path, DECL_BYTES_MAX);
	if (table_read(&d->t, path, err))
		return -1;
	return check(d, path, err);
}

int grp_decl_parse(struct grp_decl *d, const char *name, const char *text, size_t len, char *err)
{
	memset(d, 0, sizeof(*d));
	if (table_parse(&d->t, name, text, len, err))
		return -1;
	return check(d, name, err);
}

void grp_decl_free(struct grp_decl *d)
{
	if (d->present)
		table_free(&d->t);
	d->present = 0;
}

const char *grp_decl_name(const struct grp_decl *d, long i)
{
	return table_get(&d->t, i, "column");
}

const char *grp_decl_kind(const struct grp_decl *d, long i)
{
	return table_get(&d->t, i, "kind");
}

const char *grp_decl_unit(const struct grp_decl *d, long i)
{
	return table_get(&d->t, i, "unit");
}

int grp_decl_direction(const struct grp_decl *d, long i)
{
	int b = col_better_of(table_get(&d->t, i, "higher_better"));
	return b == COL_HIGHER ? 1 : b == COL_LOWER ? -1 : 0;
}

long grp_decl_find(const struct grp_decl *d, const char *name)
{
	for (long r = 0; d->present && r < d->t.nrows; r++)
		if (!strcmp(grp_decl_name(d, r), name))
			return r;
	return -1;
}

#include "lib/csvread.h"
#include "lib/csvstream.h"
#include "lib/util.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory(0); /* one line, exit 1: not a core dump */
	return p;
}

/* The table from a stream's records (csvstream parses): the header, then rows of its width. */
static int table_from(struct table *t, struct csvs *s, char *err)
{
	long cap = 0;
	int rc;
	t->path = xstrdup(s->path);
	while ((rc = csvs_next(s, err)) == 1) {
		char **f = xrealloc(NULL, (size_t)s->nf * sizeof(char *));
		for (int i = 0; i < s->nf; i++)
			f[i] = xstrdup(csvs_field(s, i));
		if (!t->cols) {
			t->ncols = s->nf;
			t->cols = f;
			rc = 0;
			for (int i = 0; i < s->nf && !rc; i++) {
				if (!f[i][0])
					rc = err_set(err,
						     "%s:%ld: column %d of the header has no name",
						     s->path, s->line, i + 1);
				for (int j = 0; j < i && !rc; j++)
					if (!strcmp(f[i], f[j]))
						rc = err_set(err,
							     "%s:%ld: column '%s' appears twice in "
							     "the header",
							     s->path, s->line, f[i]);
			}
			if (rc)
				break;
			continue;
		}
		if (s->nf != t->ncols) {
			for (int i = 0; i < s->nf; i++)
				free(f[i]);
			free(f);
			rc = err_set(err, "%s:%ld: row has %d field(s) but the header has %d",
				     s->path, s->line, s->nf, t->ncols);
			break;
		}
		if (t->nrows == cap) {
			cap = cap ? 2 * cap : 64;
			t->cell = xrealloc(t->cell, (size_t)cap * sizeof(char **));
			t->line = xrealloc(t->line, (size_t)cap * sizeof(long));
		}
		t->line[t->nrows] = s->line;
		t->cell[t->nrows++] = f;
	}
	if (!rc && !t->cols)
		rc = err_set(
		    err,
		    "%s: empty file; accepted: a c2cbench result CSV (a header line, then rows)",
		    s->path);
	csvs_close(s);
	if (rc)
		table_free(t);
	return rc;
}

int table_parse(struct table *t, const char *path, const char *text, size_t len, char *err)
{
	struct csvs s;
	memset(t, 0, sizeof(*t));
	if (!len) /* fmemopen wants a buffer of one byte at least */
		return err_set(
		    err,
		    "%s: empty file; accepted: a c2cbench result CSV (a header line, then rows)",
		    path);
	FILE *f = fmemopen((void *)text, len, "r");
	if (!f)
		return err_set(err, "%s: cannot read: %s", path, strerror(errno));
	csvs_attach(&s, f, path);
	return table_from(t, &s, err);
}

int table_read(struct table *t, const char *path, char *err)
{
	struct csvs s;
	struct stat st;
	memset(t, 0, sizeof(*t));
	if (csvs_open(&s, path, err))
		return -1;
	if (!fstat(fileno(s.f), &st) && st.st_size > CSVR_MAX_BYTES) {
		csvs_close(&s);
		return err_set(err,
			       "%s: %lld bytes is more than the %ld bytes a result CSV may have",
			       path, (long long)st.st_size, CSVR_MAX_BYTES);
	}
	return table_from(t, &s, err);
}

void table_free(struct table *t)
{
	for (long r = 0; r < t->nrows; r++) {
		for (int c = 0; c < t->ncols; c++)
			free(t->cell[r][c]);
		free(t->cell[r]);
	}
	for (int c = 0; t->cols && c < t->ncols; c++)
		free(t->cols[c]);
	free(t->cols);
	free(t->cell);
	free(t->line);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

int table_col(const struct table *t, const char *name)
{
	for (int c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c], name))
			return c;
	return -1;
}

const char *table_get(const struct table *t, long r, const char *name)
{
	int c = table_col(t, name);
	return c < 0 || r < 0 || r >= t->nrows ? NULL : t->cell[r][c];
}

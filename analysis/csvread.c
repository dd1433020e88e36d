#include "analysis/csvread.h"
#include "harness/outfile.h"
#include "harness/util.h"
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

struct rec {
	char **f;
	int n, cap;
};

struct buf {
	char *s;
	size_t n, cap;
};

static void buf_put(struct buf *b, char c)
{
	if (b->n + 1 >= b->cap) {
		b->cap = b->cap ? 2 * b->cap : 64;
		b->s = xrealloc(b->s, b->cap);
	}
	b->s[b->n++] = c;
}

static void rec_free(struct rec *r)
{
	for (int i = 0; i < r->n; i++)
		free(r->f[i]);
	free(r->f);
	memset(r, 0, sizeof(*r));
}

/* Move the field buffer into the record; refuse records wider than any c2cbench CSV. */
static int rec_push(struct rec *r, struct buf *b, const char *path, long line, char *err)
{
	if (r->n >= CSVR_MAX_COLS)
		return err_set(err, "%s:%ld: more than %d fields in a row; accepted: a c2cbench result CSV", path, line, CSVR_MAX_COLS);
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 32;
		r->f = xrealloc(r->f, (size_t)r->cap * sizeof(char *));
	}
	char *s = xrealloc(NULL, b->n + 1);
	if (b->n) /* an empty field before any byte was buffered: b->s is still NULL */
		memcpy(s, b->s, b->n);
	s[b->n] = 0;
	r->f[r->n++] = s;
	b->n = 0;
	return 0;
}

/* Read one record starting at *pos; *line counts newlines consumed. Return 1 if a record was read,
 * 0 at end of input, -1 on malformed input. Blank lines yield a record of zero fields. */
static int next_record(const char *p, size_t len, size_t *pos, long *line, struct rec *r, struct buf *b,
		       const char *path, char *err)
{
	size_t i = *pos;
	long start = *line;
	if (i >= len)
		return 0;
	if (p[i] == '\n' || (p[i] == '\r' && i + 1 < len && p[i + 1] == '\n')) { /* blank line */
		*pos = i + (p[i] == '\r' ? 2 : 1);
		(*line)++;
		return 1;
	}
	for (;;) {
		b->n = 0;
		if (i < len && p[i] == '"') { /* quoted field: "" is a quote; newlines are data */
			i++;
			for (;;) {
				if (i >= len)
					return err_set(err, "%s:%ld: a quoted field is not closed before the end of the file", path, start);
				char c = p[i++];
				if (c == 0)
					return err_set(err, "%s:%ld: NUL byte in a field; accepted: text", path, *line);
				if (c == '"') {
					if (i < len && p[i] == '"') {
						buf_put(b, '"');
						i++;
						continue;
					}
					break;
				}
				if (c == '\n')
					(*line)++;
				buf_put(b, c);
				if (b->n > CSVR_MAX_FIELD)
					return err_set(err, "%s:%ld: a field is longer than %d bytes", path, *line, CSVR_MAX_FIELD);
			}
			if (i < len && p[i] != ',' && p[i] != '\n' && !(p[i] == '\r' && i + 1 < len && p[i + 1] == '\n'))
				return err_set(err, "%s:%ld: text after a closing quote; accepted: a quote is written \"\" inside a quoted field", path, *line);
		} else {
			while (i < len && p[i] != ',' && p[i] != '\n') {
				char c = p[i];
				if (c == '"')
					return err_set(err, "%s:%ld: a quote inside an unquoted field; accepted: RFC 4180 quoting (\"a \"\"b\"\"\")", path, *line);
				if (c == 0)
					return err_set(err, "%s:%ld: NUL byte in a field; accepted: text", path, *line);
				if (c == '\r') {
					if (i + 1 < len && p[i + 1] == '\n')
						break;
					return err_set(err, "%s:%ld: a carriage return outside quotes that does not end the line", path, *line);
				}
				buf_put(b, c);
				if (b->n > CSVR_MAX_FIELD)
					return err_set(err, "%s:%ld: a field is longer than %d bytes", path, *line, CSVR_MAX_FIELD);
				i++;
			}
		}
		if (rec_push(r, b, path, *line, err))
			return -1;
		if (i < len && p[i] == ',') {
			i++;
			continue;
		}
		if (i < len && p[i] == '\r')
			i++;
		if (i < len && p[i] == '\n') {
			i++;
			(*line)++;
		} else /* every row c2cbench writes ends with a newline: a file cut inside its last field is not whole */
			return err_set(err, "%s:%ld: the last row does not end with a newline (a file cut short?); accepted: whole rows, each ending with a newline", path, start);
		*pos = i;
		return 1;
	}
}

int table_parse(struct table *t, const char *path, const char *text, size_t len, char *err)
{
	struct rec r = { 0 };
	struct buf b = { 0 };
	size_t pos = 0;
	long line = 1, cap = 0;
	int rc = 0, got;
	memset(t, 0, sizeof(*t));
	t->path = xstrdup(path);
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		pos = 3; /* a UTF-8 byte order mark some editors add */
	while (!rc) {
		long at = line;
		rec_free(&r);
		got = next_record(text, len, &pos, &line, &r, &b, path, err);
		if (got <= 0) {
			rc = got;
			break;
		}
		if (r.n == 0)
			continue; /* blank line: no data */
		if (!t->cols) {
			for (int i = 0; i < r.n && !rc; i++) {
				if (!r.f[i][0])
					rc = err_set(err, "%s:%ld: column %d of the header has no name", path, at, i + 1);
				for (int j = 0; j < i && !rc; j++)
					if (!strcmp(r.f[i], r.f[j]))
						rc = err_set(err, "%s:%ld: column '%s' appears twice in the header", path, at, r.f[i]);
			}
			t->ncols = r.n;
			t->cols = r.f;
			memset(&r, 0, sizeof(r));
			continue;
		}
		if (r.n != t->ncols) {
			rc = err_set(err, "%s:%ld: row has %d field(s) but the header has %d", path, at, r.n, t->ncols);
			break;
		}
		if (t->nrows == cap) {
			cap = cap ? 2 * cap : 64;
			t->cell = xrealloc(t->cell, (size_t)cap * sizeof(char **));
			t->line = xrealloc(t->line, (size_t)cap * sizeof(long));
		}
		t->line[t->nrows] = at;
		t->cell[t->nrows++] = r.f;
		memset(&r, 0, sizeof(r));
	}
	rec_free(&r);
	free(b.s);
	if (!rc && !t->cols)
		rc = err_set(err, "%s: empty file; accepted: a c2cbench result CSV (a header line, then rows)", path);
	if (rc)
		table_free(t);
	return rc;
}

int table_read(struct table *t, const char *path, char *err)
{
	struct stat st;
	memset(t, 0, sizeof(*t));
	FILE *f = fopen_regular(path); /* a FIFO is not waited on, a device not read */
	if (!f && errno == EINVAL && !stat(path, &st))
		return err_set(
			err,
			"%s: %s, not a regular file; accepted: a CSV file or a result directory",
			path, file_kind(st.st_mode));
	if (!f || fstat(fileno(f), &st)) {
		if (f)
			fclose(f);
		return err_set(err, "%s: cannot open: %s", path, strerror(errno));
	}
	if (st.st_size > CSVR_MAX_BYTES) {
		fclose(f);
		return err_set(err, "%s: %lld bytes is more than the %ld bytes a result CSV may have", path, (long long)st.st_size, CSVR_MAX_BYTES);
	}
	size_t n = (size_t)st.st_size;
	char *text = xrealloc(NULL, n + 1);
	size_t got = fread(text, 1, n, f);
	int bad = ferror(f);
	fclose(f);
	if (bad || got != n) {
		free(text);
		return err_set(err, "%s: cannot read the whole file", path);
	}
	int rc = table_parse(t, path, text, n, err);
	free(text);
	return rc;
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

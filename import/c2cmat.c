#include "import/c2cmat.h"
#include "lib/infile.h"
#include "lib/util.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACCEPTED "accepted: core-to-core-latency --csv (N lines of N ns)"

/* The file's bytes, NUL-terminated; NULL with a message. */
static char *slurp(const char *path, size_t *len, char *err)
{
	FILE *f = fopen_regular(path);
	if (!f) {
		err_set(err, "import: cannot read '%s': %s", path,
			errno == EINVAL ? "not a regular file" : strerror(errno));
		return NULL;
	}
	size_t cap = 1 << 16, n = 0, got;
	char *buf = xcalloc(cap + 1, 1);
	while ((got = fread(buf + n, 1, cap - n, f)) > 0)
		if ((n += got) == cap) {
			char *more = realloc(buf, (cap *= 2) + 1);
			if (!more)
				out_of_memory(cap + 1);
			buf = more;
		}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		err_set(err, "import: cannot read '%s'", path);
		return NULL;
	}
	buf[n] = 0;
	*len = n;
	return buf;
}

/* Fields on the line [p, end): commas + 1. */
static int fields(const char *p, const char *end)
{
	int k = 1;
	for (; p < end; p++)
		k += *p == ',';
	return k;
}

/* One cell [p, q): empty, or a whole number strtod reads (nan and inf included); else -1. */
static int cell(const char *p, const char *q, double *v)
{
	char tmp[64];
	while (p < q && (*p == ' ' || *p == '\t'))
		p++;
	while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
		q--;
	if (p == q)
		return CELL_EMPTY;
	if ((size_t)(q - p) >= sizeof(tmp))
		return -1;
	memcpy(tmp, p, (size_t)(q - p));
	tmp[q - p] = 0;
	char *e;
	*v = strtod(tmp, &e);
	return *e || e == tmp ? -1 : CELL_VALUE;
}

static int parse(const char *path, char *buf, size_t len, struct c2cmat *m, char *err)
{
	char *end = buf + len;
	while (end > buf && (end[-1] == '\n' || end[-1] == '\r'))
		end--; /* the last line's newline, and blank lines after it */
	if (end == buf)
		return err_set(err, "import: '%s' is empty; %s", path, ACCEPTED);
	int lines = 1;
	for (char *p = buf; p < end; p++)
		lines += *p == '\n';
	char *eol = memchr(buf, '\n', (size_t)(end - buf));
	int n = fields(buf, eol ? eol : end);
	if (n > C2CMAT_MAX || lines > C2CMAT_MAX)
		return err_set(err, "import: '%s' has %d lines of %d cells; accepted: at most %d",
			       path, lines, n, C2CMAT_MAX);
	for (char *p = buf, *c; p < (eol ? eol : end); p = c + 1) { /* console text: line 1 */
		double v;
		c = memchr(p, ',', (size_t)((eol ? eol : end) - p));
		c = c ? c : (eol ? eol : end);
		if (cell(p, c, &v) < 0)
			return err_set(err, "import: '%s' line 1: '%.*s' is not a number; %s", path,
				       (int)(c - p > 40 ? 40 : c - p), p, ACCEPTED);
	}
	if (n != lines)
		return err_set(err, "import: '%s' is not square: %d lines of %d cells; %s", path,
			       lines, n, ACCEPTED);
	m->n = n;
	m->v = xcalloc((size_t)n * (size_t)n, sizeof(double));
	m->cell = xcalloc((size_t)n * (size_t)n, 1);
	char *p = buf;
	for (int i = 0; i < n; i++) {
		char *e = memchr(p, '\n', (size_t)(end - p));
		e = e ? e : end;
		if (fields(p, e) != n)
			return err_set(err,
				       "import: '%s' line %d has %d cells, line 1 %d: ragged; %s",
				       path, i + 1, fields(p, e), n, ACCEPTED);
		for (int j = 0; j < n; j++) {
			char *c = memchr(p, ',', (size_t)(e - p));
			c = c ? c : e;
			size_t k = (size_t)i * (size_t)n + (size_t)j;
			int got = cell(p, c, &m->v[k]);
			if (got < 0)
				return err_set(
					err,
					"import: '%s' line %d cell %d: '%.*s' is not a number; %s",
					path, i + 1, j + 1, (int)(c - p > 40 ? 40 : c - p), p,
					ACCEPTED);
			m->cell[k] = (unsigned char)got;
			p = c + (c < e);
		}
		p = e + 1;
	}
	return 0;
}

int c2cmat_read(const char *path, struct c2cmat *m, char *err)
{
	size_t len = 0;
	memset(m, 0, sizeof(*m));
	char *buf = slurp(path, &len, err);
	if (!buf)
		return -1;
	if (memchr(buf, 0, len)) {
		free(buf);
		return err_set(err, "import: '%s' holds a NUL byte: not a text file; %s", path,
			       ACCEPTED);
	}
	int rc = parse(path, buf, len, m, err);
	free(buf);
	if (rc)
		c2cmat_free(m);
	return rc;
}

int c2cmat_pair(const struct c2cmat *m, int i, int j, double *v)
{
	size_t n = (size_t)m->n, lo = i > j ? (size_t)i * n + (size_t)j : (size_t)j * n + (size_t)i,
	       hi = i > j ? (size_t)j * n + (size_t)i : (size_t)i * n + (size_t)j;
	size_t k = m->cell[lo] ? lo : hi;
	if (!m->cell[k])
		return 0;
	*v = m->v[k];
	return 1;
}

void c2cmat_free(struct c2cmat *m)
{
	free(m->v);
	free(m->cell);
	memset(m, 0, sizeof(*m));
}

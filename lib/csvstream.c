#include "lib/csvstream.h"
#include "lib/csvread.h"
#include "lib/infile.h"
#include "lib/util.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define IN_SIZE (1 << 16)

/* Grow a buffer, or exit 1 with one line (out_of_memory). */
static void *grow(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory(0);
	return p;
}

int csvs_open(struct csvs *s, const char *path, char *err)
{
	struct stat st;
	memset(s, 0, sizeof(*s));
	s->f = fopen_regular(path); /* a FIFO is not waited on, a device not read */
	if (!s->f && errno == EINVAL && !stat(path, &st))
		return err_set(
			err,
			"%s: %s, not a regular file; accepted: a CSV file or a result directory",
			path, file_kind(st.st_mode));
	if (!s->f)
		return err_set(err, "%s: cannot open: %s", path, strerror(errno));
	csvs_attach(s, s->f, path); /* fopen_regular checked it is a regular file */
	return 0;
}

void csvs_attach(struct csvs *s, FILE *f, const char *path)
{
	memset(s, 0, sizeof(*s));
	s->f = f;
	s->path = xstrdup(path);
	s->in = grow(NULL, IN_SIZE);
	s->next_line = 1;
}

/* The input buffer refilled: its first byte, or -1 at the end of the file (or on a read error,
 * reported by csvs_next). */
static int refill(struct csvs *s)
{
	if (s->eof)
		return -1;
	s->in_len = fread(s->in, 1, IN_SIZE, s->f);
	s->in_pos = 0;
	if (s->in_len == 0) {
		s->eof = 1;
		return -1;
	}
	return (unsigned char)s->in[0];
}

/* The next input byte, or -1 at the end of the file: inline, a few times a field. */
static inline int peek(struct csvs *s)
{
	if (s->in_pos != s->in_len)
		return (unsigned char)s->in[s->in_pos];
	return refill(s);
}

static int take(struct csvs *s)
{
	int c = peek(s);
	if (c >= 0)
		s->in_pos++;
	return c;
}

static void put(struct csvs *s, char c)
{
	if (s->fb_len + 1 >= s->fb_cap) {
		s->fb_cap = s->fb_cap ? 2 * s->fb_cap : 4096;
		s->fb = grow(s->fb, s->fb_cap);
	}
	s->fb[s->fb_len++] = c;
}

/* Start field number nf at the current end of the field buffer. */
static int field_start(struct csvs *s, char *err)
{
	if (s->nf >= CSVR_MAX_COLS)
		return err_set(
		    err, "%s:%ld: more than %d fields in a row; accepted: a c2cbench result CSV",
		    s->path, s->line, CSVR_MAX_COLS);
	if (s->nf == s->nf_cap) {
		s->nf_cap = s->nf_cap ? 2 * s->nf_cap : 64;
		s->off = grow(s->off, (size_t)s->nf_cap * sizeof(size_t));
	}
	s->off[s->nf++] = s->fb_len;
	return 0;
}

/* A quoted field, the opening quote consumed: "" is a quote, newlines are data. */
static int quoted(struct csvs *s, size_t start, char *err)
{
	for (;;) {
		int c = take(s);
		if (c < 0)
			return err_set(
			    err, "%s:%ld: a quoted field is not closed before the end of the file",
			    s->path, s->line);
		if (c == 0)
			return err_set(err, "%s:%ld: NUL byte in a field; accepted: text", s->path,
				       s->next_line);
		if (c == '"') {
			if (peek(s) != '"')
				break;
			take(s);
		}
		if (c == '\n')
			s->next_line++;
		put(s, (char)c);
		if (s->fb_len - start > CSVR_MAX_FIELD)
			return err_set(err, "%s:%ld: a field is longer than %d bytes", s->path,
				       s->next_line, CSVR_MAX_FIELD);
	}
	int c = peek(s);
	if (c >= 0 && c != ',' && c != '\n' && c != '\r')
		return err_set(err,
			       "%s:%ld: text after a closing quote; accepted: a quote is written "
			       "\"\" inside a quoted field",
			       s->path, s->next_line);
	return 0;
}

/* The bytes that end an unquoted field's run: a comma, a newline, a carriage return, a quote,
 * NUL. One look-up a byte, not five tests (a million rows of 170 bytes each). */
static const unsigned char plain_stop[256] = {
	[0] = 1, [','] = 1, ['\n'] = 1, ['\r'] = 1, ['"'] = 1,
};

/* An unquoted field up to a comma or the end of the line, copied a buffer run at a time. */
static int plain(struct csvs *s, size_t start, char *err)
{
	for (;;) {
		if (peek(s) < 0)
			return 0;
		const char *p = s->in + s->in_pos, *end = s->in + s->in_len, *q = p;
		while (q < end && !plain_stop[(unsigned char)*q])
			q++;
		size_t n = (size_t)(q - p);
		if (s->fb_len + n + 1 >= s->fb_cap) {
			while (s->fb_len + n + 1 >= s->fb_cap)
				s->fb_cap = s->fb_cap ? 2 * s->fb_cap : 4096;
			s->fb = grow(s->fb, s->fb_cap);
		}
		memcpy(s->fb + s->fb_len, p, n);
		s->fb_len += n;
		s->in_pos += n;
		if (s->fb_len - start > CSVR_MAX_FIELD)
			return err_set(err, "%s:%ld: a field is longer than %d bytes", s->path,
				       s->next_line, CSVR_MAX_FIELD);
		if (q == end)
			continue; /* the field goes on in the next buffer */
		if (*q == '"')
			return err_set(err,
				       "%s:%ld: a quote inside an unquoted field; accepted: RFC "
				       "4180 quoting (\"a \"\"b\"\"\")",
				       s->path, s->next_line);
		if (!*q)
			return err_set(err, "%s:%ld: NUL byte in a field; accepted: text", s->path,
				       s->next_line);
		return 0; /* a comma, a newline or a carriage return (checked by the caller) */
	}
}

/* One record (possibly blank: nf == 0). 1 read, 0 at the end, -1 malformed. */
static int record(struct csvs *s, char *err)
{
	s->nf = 0;
	s->fb_len = 0;
	s->line = s->next_line;
	int c = peek(s);
	if (c < 0)
		return 0;
	if (s->line == 1 && s->in_pos == 0 && s->in_len >= 3 && !memcmp(s->in, "\xef\xbb\xbf", 3)) {
		s->in_pos = 3; /* a UTF-8 byte order mark some editors add */
		c = peek(s);
	}
	if (c == '\n' || c == '\r') { /* blank line */
		take(s);
		if (c == '\r' && take(s) != '\n')
			return err_set(
			    err,
			    "%s:%ld: a carriage return outside quotes that does not end the line",
			    s->path, s->line);
		s->next_line++;
		return 1;
	}
	for (;;) {
		if (field_start(s, err))
			return -1;
		size_t start = s->fb_len;
		if (peek(s) == '"') {
			take(s);
			if (quoted(s, start, err))
				return -1;
		} else if (plain(s, start, err))
			return -1;
		put(s, 0);
		c = take(s);
		if (c == ',')
			continue;
		if (c == '\r' && take(s) != '\n')
			return err_set(
			    err,
			    "%s:%ld: a carriage return outside quotes that does not end the line",
			    s->path, s->next_line);
		if (c < 0) /* every row c2cbench writes ends with a newline: a file cut inside its
			      last field is not whole */
			return err_set(
			    err,
			    "%s:%ld: the last row does not end with a newline (a file cut short?); "
			    "accepted: whole rows, each ending with a newline",
			    s->path, s->line);
		s->next_line++;
		return 1;
	}
}

int csvs_next(struct csvs *s, char *err)
{
	for (;;) {
		int rc = record(s, err);
		if (rc <= 0 && ferror(s->f))
			return err_set(err, "%s: cannot read the whole file", s->path);
		if (rc <= 0 || s->nf)
			return rc;
	}
}

void csvs_close(struct csvs *s)
{
	if (s->f)
		fclose(s->f);
	free(s->path);
	free(s->in);
	free(s->fb);
	free(s->off);
	memset(s, 0, sizeof(*s));
}

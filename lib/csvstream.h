/* The RFC 4180 reader, the one CSV parser: one record at a time from a file, in a buffer reused for
 * every record, so reading a million rows costs the memory of one (compare and report at fleet
 * scale). Quotes, CRLF, NUL, field and width limits, each refused in a one-line message naming the
 * file and line. csvread builds whole tables from it. */
#ifndef C2C_CSVSTREAM_H
#define C2C_CSVSTREAM_H
#include <stddef.h>
#include <stdio.h>

struct csvs {
	FILE *f;
	char *path;
	long line;       /* line where the current record starts */
	long next_line;  /* line of the next byte */
	char *in;        /* read buffer */
	size_t in_pos, in_len;
	int eof;
	char *fb;        /* the record's fields, each NUL-terminated */
	size_t fb_len, fb_cap;
	size_t *off;     /* offset of field i in fb */
	int nf, nf_cap;
};

/* Open path (a regular file). Return 0, or -1 with a one-line message. */
int csvs_open(struct csvs *s, const char *path, char *err);
/* Read an open stream f (csvs_close closes it), named path in messages. */
void csvs_attach(struct csvs *s, FILE *f, const char *path);
/* Read the next non-blank record: 1, 0 at the end, -1 with a message naming path and line. */
int csvs_next(struct csvs *s, char *err);
/* Field i of the current record (0 <= i < s->nf). */
static inline const char *csvs_field(const struct csvs *s, int i)
{
	return s->fb + s->off[i];
}
void csvs_close(struct csvs *s);
#endif

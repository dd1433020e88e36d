/* Text broken at spaces to fit a number of columns (lib/wrap.h). */
#include "lib/wrap.h"
#include <string.h>

int text_cols(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xc0) != 0x80;
	return c;
}

/* Bytes of the first k columns of s. */
static size_t bytes_of(const char *s, int k)
{
	size_t i = 0;
	for (int c = 0; s[i] && c <= k; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80 && ++c > k)
			break;
	return i;
}

static void newline(FILE *f, int indent)
{
	fprintf(f, "\n%*s", indent, "");
}

/* text_wrap over the n bytes at text. */
static void wrap_n(FILE *f, int col, int indent, int width, const char *text, size_t n)
{
	const char *p = text, *end = text + n;
	int fresh = 1; /* no word of text on this line yet */
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		if (p == end)
			break;
		size_t wl = strcspn(p, " ");
		if (wl > (size_t)(end - p))
			wl = (size_t)(end - p);
		int w = text_cols(p, wl);
		if (col + w + !fresh > width && (!fresh || col > indent)) {
			newline(f, indent);
			col = indent;
			fresh = 1;
		}
		if (!fresh) {
			fputc(' ', f);
			col++;
		}
		while (col + w > width) { /* a word longer than a line: cut, after a comma or '|' */
			size_t b = bytes_of(p, width - col), c = b;
			while (c > 1 && p[c - 1] != ',' && p[c - 1] != '|')
				c--;
			if (c > 1)
				b = c;
			fwrite(p, 1, b, f);
			w -= text_cols(p, b);
			p += b;
			wl -= b;
			newline(f, indent);
			col = indent;
		}
		fwrite(p, 1, wl, f);
		col += w;
		p += wl;
		fresh = 0;
	}
	fputc('\n', f);
}

void text_wrap(FILE *f, int col, int indent, int width, const char *text)
{
	wrap_n(f, col, indent, width, text, strlen(text));
}

/* The column a line's continuation starts at. */
static int hang(const char *line, size_t n)
{
	size_t lead = strspn(line, " ");
	if (lead < n) {
		const char *gap = strstr(line + lead, "  ");
		if (gap && gap < line + n) {
			size_t at = (size_t)(gap - line) + strspn(gap, " ");
			if (at < n && at < 48)
				return text_cols(line, at);
		}
	}
	return (int)lead + 2;
}

void text_fit(FILE *f, int width, const char *text)
{
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		if (text_cols(p, n) <= width) {
			fwrite(p, 1, n, f);
			fputc('\n', f);
		} else {
			int h = hang(p, n);
			size_t head = bytes_of(p, h);
			fwrite(p, 1, head, f);
			wrap_n(f, h, h, width, p + head, n - head);
		}
		p += n + (p[n] == '\n');
	}
}

void text_lines(FILE *f, int width, int indent, const char *text)
{
	text_lines_from(f, 0, width, indent, text);
}

void text_lines_from(FILE *f, int col, int width, int indent, const char *text)
{
	int at = 0; /* spaces before the text: none on the first line, which holds col already */
	while (*text) {
		int room = width - col, n = (int)strlen(text), cut = n;
		if (n > room) { /* the last space that keeps the line in room, else the first */
			for (cut = room; cut > 0 && text[cut] != ' '; cut--)
				;
			if (!cut)
				cut = (int)strcspn(text, " ");
		}
		fprintf(f, "%*s%.*s\n", at, "", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
		at = col = indent;
	}
}

/* libFuzzer target: report's escapers for gnuplot, Markdown and HTML, and the table writer over
 * them. Any bytes from a result file must come out inert: one gnuplot string literal that ends
 * where it should (no command after it), one Markdown table row with its own cells only, HTML
 * with no tag or attribute break. A violation aborts. */
#include "analysis/report_doc.h"
#include "analysis/report_esc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A gnuplot single-quoted literal: opens with ', closes with the last byte, '' inside only,
 * no control byte (a newline would end the command). */
static void check_gp(const char *q)
{
	size_t n = strlen(q);
	if (n < 2 || q[0] != '\'' || q[n - 1] != '\'')
		abort();
	for (size_t i = 1; i + 1 < n; i++) {
		if ((unsigned char)q[i] < 0x20 || q[i] == 0x7f)
			abort();
		if (q[i] == '\'') {
			if (q[i + 1] != '\'' || i + 2 >= n)
				abort(); /* a lone quote closes the string early: what follows would
					    be a command */
			i++;
		}
	}
}

/* Markdown text: no raw control byte, <, > or unescaped |. */
static void check_md(const char *m)
{
	for (size_t i = 0; m[i]; i++) {
		unsigned char c = (unsigned char)m[i];
		if (c < 0x20 || c == 0x7f || c == '<' || c == '>')
			abort();
		if (c == '\\') {
			if (!m[i + 1] || !strchr("|\\`*_[]#!", m[i + 1]))
				abort(); /* a backslash only ever escapes the next byte */
			i++;
			continue;
		}
		if (c == '|' || c == '`' || c == '[' || c == ']')
			abort();
	}
}

/* HTML text: no tag, quote or control byte; & only as one of our entities. */
static void check_html(const char *h)
{
	static const char *const ent[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
	for (size_t i = 0; h[i]; i++) {
		unsigned char c = (unsigned char)h[i];
		if (c < 0x20 || c == 0x7f || c == '<' || c == '>' || c == '"' || c == '\'')
			abort();
		if (c == '&') {
			size_t k = 0;
			while (k < 5 && strncmp(h + i, ent[k], strlen(ent[k])))
				k++;
			if (k == 5)
				abort();
		}
	}
}

/* A table row written by the doc writer: one line of exactly 3 cells in Markdown. */
static void check_row(const char *text)
{
	char *buf = NULL, *hbuf = NULL;
	size_t len = 0, hlen = 0;
	FILE *md = open_memstream(&buf, &len), *html = open_memstream(&hbuf, &hlen);
	struct doc d;
	const char *hdr[] = { "a", "b", "c" }, *row[] = { text, "x", text };
	doc_open(&d, md, html);
	doc_table(&d, 3, hdr);
	fflush(md);
	size_t start = len;
	doc_row(&d, row);
	doc_table_end(&d);
	doc_end(&d);
	fclose(md);
	fclose(html);
	int pipes = 0, lines = 0;
	for (size_t i = start; i < len; i++) {
		if (buf[i] == '\\') {
			i++;
			continue;
		}
		pipes += buf[i] == '|';
		lines += buf[i] == '\n';
	}
	if (pipes != 4 || lines != 2) /* the row and the blank line after the table */
		abort();
	if (strstr(hbuf, "<script") || strstr(hbuf, "<img"))
		abort();
	free(buf);
	free(hbuf);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	if (size > 4096)
		return 0;
	char *s = malloc(size + 1), out[4096 * 6 + 8];
	memcpy(s, data, size);
	s[size] = 0; /* text up to the first NUL, as a CSV field holds it */
	size_t cap =
	    size ? 3 + data[0] % 64 : 3; /* small buffers: truncation must stay well-formed */
	esc_gp(out, cap, s);
	check_gp(out);
	esc_gp(out, sizeof(out), s);
	check_gp(out);
	esc_md(out, cap, s);
	check_md(out);
	esc_md(out, sizeof(out), s);
	check_md(out);
	esc_html(out, cap, s);
	check_html(out);
	esc_html(out, sizeof(out), s);
	check_html(out);
	check_row(s);
	free(s);
	return 0;
}

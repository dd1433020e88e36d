#include "analysis/report_doc.h"
#include "analysis/report_esc.h"
#include "lib/util.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define DOC_TEXT 8192

/* Escape s for Markdown and HTML into a buffer each; long text is cut at DOC_TEXT, never left raw.
 */
static void both(const char *s, char *md, char *html)
{
	esc_md(md, DOC_TEXT * 2, s);
	esc_html(html, DOC_TEXT * 6, s);
}

int doc_open(struct doc *d, FILE *md, FILE *html)
{
	d->md = md;
	d->html = html;
	d->ncols = 0;
	fprintf(html,
		"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
		"<meta charset=\"utf-8\">\n<title>c2cbench report</title>\n"
		/* A4-wide and narrower: the body at most 1,100 px, no table wider, cells wrap */
		"<style>body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em}"
		"table{border-collapse:collapse;margin:.5em 0;max-width:100%%}"
		"td,th{border:1px solid #bbb;padding:2px 6px;text-align:left;vertical-align:top;"
		"overflow-wrap:break-word}"
		"th{background:#eee}img{max-width:100%%;height:auto}figure{display:inline-block;"
		"margin:4px;max-width:100%%}"
		"@media print{body{max-width:none}}</style>\n</head>\n<body>\n");
	return 0;
}

void doc_end(struct doc *d)
{
	fprintf(d->html, "</body>\n</html>\n");
}

/* A heading at level (1..4) in both formats. */
static void heading(struct doc *d, int level, const char *text)
{
	char *md = xcalloc(DOC_TEXT * 2, 1), *html = xcalloc(DOC_TEXT * 6, 1);
	both(text, md, html);
	fprintf(d->md, "\n%.*s %s\n\n", level, "####", md);
	fprintf(d->html, "<h%d>%s</h%d>\n", level, html, level);
	free(md);
	free(html);
}

void doc_h(struct doc *d, int level, const char *fmt, ...)
{
	char text[DOC_TEXT];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	heading(d, level < 1 ? 1 : level > 4 ? 4 : level, text);
}

void doc_p(struct doc *d, const char *fmt, ...)
{
	char text[DOC_TEXT], *md = xcalloc(DOC_TEXT * 2, 1), *html = xcalloc(DOC_TEXT * 6, 1);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	both(text, md, html);
	fprintf(d->md, "%s\n\n", md);
	fprintf(d->html, "<p>%s</p>\n", html);
	free(md);
	free(html);
}

#define WORD_LONG 20 /* a word longer than this may break after , _ = / [ (a <wbr>) */

/* Write escaped HTML to f with a <wbr> after each , _ = / [ of a long word (column lists,
 * settings), so a table can wrap to the page. Entities (&amp;) hold none of those bytes. */
static void put_wrapping(FILE *f, const char *h)
{
	while (*h) {
		size_t n = strcspn(h, " ");
		for (size_t i = 0; i < n; i++) {
			fputc(h[i], f);
			if (n > WORD_LONG && i + 1 < n && strchr(",_=/[", h[i]))
				fputs("<wbr>", f);
		}
		h += n;
		for (; *h == ' '; h++)
			fputc(' ', f);
	}
}

/* One row of cells; th: header cells in HTML. */
static void cells(struct doc *d, const char *const *c, int th)
{
	char *md = xcalloc(DOC_TEXT * 2, 1), *html = xcalloc(DOC_TEXT * 6, 1);
	fprintf(d->md, "|");
	fprintf(d->html, "<tr>");
	for (int i = 0; i < d->ncols; i++) {
		both(c[i] ? c[i] : "", md, html);
		fprintf(d->md, " %s |", md);
		fputs(th ? "<th>" : "<td>", d->html);
		put_wrapping(d->html, html);
		fputs(th ? "</th>" : "</td>", d->html);
	}
	fprintf(d->md, "\n");
	fprintf(d->html, "</tr>\n");
	free(md);
	free(html);
}

void doc_table(struct doc *d, int n, const char *const *hdr)
{
	d->ncols = n;
	fprintf(d->html, "<table>\n");
	cells(d, hdr, 1);
	fprintf(d->md, "|");
	for (int i = 0; i < n; i++)
		fprintf(d->md, "---|");
	fprintf(d->md, "\n");
}

void doc_row(struct doc *d, const char *const *c)
{
	cells(d, c, 0);
}

void doc_table_end(struct doc *d)
{
	d->ncols = 0;
	fprintf(d->md, "\n");
	fprintf(d->html, "</table>\n");
}

void doc_images(struct doc *d, int n, const char *const *files, const char *const *captions)
{
	char *md = xcalloc(DOC_TEXT * 2, 1), *html = xcalloc(DOC_TEXT * 6, 1),
	     *f = xcalloc(DOC_TEXT * 6, 1);
	fprintf(d->html, "<div>\n");
	for (int i = 0; i < n; i++) {
		both(captions[i], md, html);
		esc_html(f, DOC_TEXT * 6, files[i]);
		fprintf(d->md, "![%s](%s)\n", md, files[i]);
		fprintf(d->html,
			"<figure><img src=\"%s\" alt=\"%s\"><figcaption>%s</figcaption></figure>\n",
			f, html, html);
	}
	fprintf(d->md, "\n");
	fprintf(d->html, "</div>\n");
	free(md);
	free(html);
	free(f);
}

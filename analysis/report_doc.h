/* The report's text, written once and rendered twice: Markdown (report.md) and HTML (report.html).
 * Every string passed in is text, escaped for each format here: callers never write markup. */
#ifndef C2C_REPORT_DOC_H
#define C2C_REPORT_DOC_H
#include <stdio.h>

struct doc {
	FILE *md, *html;
	int ncols; /* of the open table, 0: none */
};

/* Open both files (path without extension); the HTML head is written. -1 when one cannot be made.
 */
int doc_open(struct doc *d, FILE *md, FILE *html);
/* Close the HTML body (the files themselves are the caller's). */
void doc_end(struct doc *d);
void doc_h(struct doc *d, int level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void doc_p(struct doc *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A table: header cells, then rows of as many cells, then the end. */
void doc_table(struct doc *d, int n, const char *const *hdr);
void doc_row(struct doc *d, const char *const *cells);
void doc_table_end(struct doc *d);
/* A row of images with captions (files are report's own names; captions are text). */
void doc_images(struct doc *d, int n, const char *const *files, const char *const *captions);
#endif

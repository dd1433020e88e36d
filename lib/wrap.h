/* Text broken at spaces to fit a number of columns: compare's table, the summary's lines and every
 * --help. */
#ifndef C2C_WRAP_H
#define C2C_WRAP_H

#include <stdio.h>
#include <stddef.h>

#define TEXT_WIDTH 100 /* columns every printed line fits in */

/* Columns of n bytes of UTF-8 (continuation bytes take none). */
int text_cols(const char *s, size_t n);

/* Writes text from column col (what the line already holds), broken at spaces so that no line is
 * over width columns (a word longer than a line is cut, after a comma or a '|' where it has one:
 * a list, an event's alternative spellings); each further line starts with indent spaces. Ends
 * the line. */
void text_wrap(FILE *f, int col, int indent, int width, const char *text);

/* Writes text as lines of at most width bytes, each broken at the last space that keeps it in
 * width (a longer word stays whole), its further lines indented by indent; the spaces inside a
 * line are kept as they are (the run summary's lines). */
void text_lines(FILE *f, int width, int indent, const char *text);
/* The same from column col, what the line already holds (the first line has width - col). */
void text_lines_from(FILE *f, int col, int width, int indent, const char *text);

/* Writes each line of text within width columns: a line over it continues indented to where its
 * text starts after its first gap of two spaces ("  --name X   what it does"), else by two more
 * than its own indentation. */
void text_fit(FILE *f, int width, const char *text);

#endif

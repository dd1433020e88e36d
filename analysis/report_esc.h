/* Escapers for report: data read from result files reaches gnuplot, Markdown and HTML only
 * through these (untrusted text becomes inert text, never a command, a table cell break or a tag).
 */
#ifndef C2C_REPORT_ESC_H
#define C2C_REPORT_ESC_H
#include <stddef.h>

/* A gnuplot single-quoted string literal of s, quotes included: ' doubled, control bytes as a
 * space (a newline would end the command). Single quotes: no backquote, macro or backslash
 * processing. Writes at most cap bytes (NUL included), truncating inside the literal. */
void esc_gp(char *out, size_t cap, const char *s);
/* Markdown text (table cells too): | \ ` * _ [ ] # ! escaped with a backslash, & < > as HTML
 * entities, control bytes (newlines) as a space. */
void esc_md(char *out, size_t cap, const char *s);
/* HTML text or attribute value: & < > " ' as entities, control bytes as a space. */
void esc_html(char *out, size_t cap, const char *s);
#endif

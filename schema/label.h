/* Labels name a result set's machine ("xeon-a", "epyc-7763") in compare and report: host names
 * repeat ("vm", "localhost") and a CPU string is no name. Strict characters: a label reaches file
 * names, CSV cells, chart titles and HTML, so it carries nothing that needs quoting anywhere. */
#ifndef C2C_LABEL_H
#define C2C_LABEL_H
#include <stddef.h>

#define LABEL_MAX 64 /* characters */

/* 0 when s is 1 to LABEL_MAX letters, digits, '.', '_' or '-' starting with a letter or digit;
 * else -1 with a one-line message naming the value (what names the option: "--label"). */
int label_check(const char *what, const char *s, char *err);
/* The default label from a host name: the host name with any other character turned into '-',
 * cut at LABEL_MAX ("unknown" when nothing is left). */
void label_from_host(const char *host, char *out, size_t n);
#endif

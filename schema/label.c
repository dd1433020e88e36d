#include "schema/label.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>

/* The characters a label may hold: safe in a file name, a CSV cell, gnuplot and HTML unquoted. */
static int label_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

/* A leading letter or digit: no hidden file, no option-looking name. */
static int label_first(char c)
{
	return label_char(c) && c != '.' && c != '_' && c != '-';
}

int label_check(const char *what, const char *s, char *err)
{
	size_t n = strlen(s);
	int chars = n >= 1 && n <= LABEL_MAX; /* its length and letters: what the short form says */
	for (size_t i = 0; chars && i < n; i++)
		chars = label_char(s[i]);
	if (chars && label_first(s[0]))
		return 0;
	if (chars) /* the one rule the short form omits */
		return err_set(err, "%s '%.80s' is not accepted; accepted: a letter or digit first",
			       what, s);
	return err_set(err, "%s '%.80s%s' is not accepted; accepted: 1-%d letters, digits, . _ -",
		       what, s, n > 80 ? "..." : "", LABEL_MAX);
}

void label_from_host(const char *host, char *out, size_t n)
{
	size_t k = 0;
	if (!n)
		return;
	for (const char *p = host; *p && k + 1 < n && k < LABEL_MAX; p++)
		out[k++] = label_char(*p) ? *p : '-';
	out[k] = 0;
	if (!k || !label_first(out[0])) {
		char tmp[LABEL_MAX + 1];
		snprintf(tmp, sizeof(tmp), "h%s", out);
		snprintf(out, n, "%s", k ? tmp : "unknown");
	}
}

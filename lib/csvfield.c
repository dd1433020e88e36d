/* One CSV field quoted as RFC 4180 wants (csvfield.h). */
#include "lib/csvfield.h"
#include <string.h>

size_t csv_field(const char *in, char *out, size_t n)
{
	size_t k = 0;
	int quote =
	    strpbrk(in, ",\"\r\n") != NULL || (*in && (in[0] == ' ' || in[strlen(in) - 1] == ' '));
	if (n == 0)
		return 0;
#define PUT(ch) do { if (k + 1 < n) out[k++] = (ch); } while (0)
	if (quote)
		PUT('"');
	for (const char *p = in; *p; p++) {
		if (*p == '"')
			PUT('"');
		PUT(*p);
	}
	if (quote)
		PUT('"');
#undef PUT
	out[k] = 0;
	return k;
}

/* Where the result-set reader's warnings go: standard error, or nowhere while groups_quiet is on
 * (compare's within-side summaries read again the files compare has warned of once). */
#include "analysis/groups_int.h"
#include <stdio.h>

static int quiet;

void groups_quiet(int on)
{
	quiet = on;
}

FILE *grp_warn_to(void)
{
	static FILE *null;
	if (!quiet)
		return stderr;
	if (!null)
		null = fopen("/dev/null", "w");
	return null ? null : stderr;
}

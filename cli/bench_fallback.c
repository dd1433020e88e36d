/* This build's description of a bench, for result sets that carry none (bench_fallback.h). */
#include "cli/bench_fallback.h"
#include "harness/bench.h"
#include "harness/bench_desc_out.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>

int bench_fallback(const char *bench, const char *const *header, int ncols, char **desc,
		   char **columns)
{
	const struct bench *b = bench_find(bench);
	char err[ERRLEN];
	size_t len = 0;
	*desc = *columns = NULL;
	if (!b)
		return 0;
	if (!(*desc = bench_desc_text(b, err))) {
		fprintf(stderr, "c2cbench: warning: %s\n", err);
		return 0;
	}
	FILE *f = open_memstream(columns, &len);
	if (!f)
		out_of_memory(0);
	/* the declaration the harness writes beside a CSV of this header (FILE.columns) */
	int rc = col_write_csv(f, b->columns, b->validity.roles, (char *const *)header, ncols);
	if (fclose(f) || rc) {
		free(*columns);
		*columns = NULL;
	}
	return 1;
}

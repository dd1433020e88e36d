/* libFuzzer target: the CSV reader compare and report use, and the lookups they make on what it read.
 * Must never crash, hang, leak or read out of bounds; a bad file is a one-line error. */
#include "analysis/csvread.h"
#include "analysis/results_in.h"
#include "harness/util.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char err[ERRLEN] = "";
	struct table t;
	if (table_parse(&t, "fuzz.csv", (const char *)data, size, err)) {
		if (strchr(err, '\n'))
			abort(); /* errors are one line */
		return 0;
	}
	struct results res = { .schema = -1 };
	if (results_check_table(&res, &t, err)) {
		if (strchr(err, '\n'))
			abort();
		free(res.first);
		table_free(&t);
		return 0;
	}
	free(res.first);
	const char *cols[CONFIG_MAX];
	int declared, ok;
	for (long r = 0; r < t.nrows; r++) {
		const char *bench = t.ncols > 1 ? t.cell[r][1] : "";
		int n = config_cols(&t, bench, cols, CONFIG_MAX, &declared);
		for (int i = 0; i < n; i++)
			(void)table_get(&t, r, cols[i]);
		n = metric_cols(&t, bench, cols, CONFIG_MAX);
		for (int i = 0; i < n; i++)
			(void)cell_num(&t, r, cols[i], &ok);
	}
	table_free(&t);
	return 0;
}

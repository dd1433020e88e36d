/* libFuzzer target: the whole-file CSV reader (tests and tools parse output with it; compare and
 * report stream through csvstream, fuzzed by fuzz_groups) and the lookups by column name.
 * Must never crash, hang, leak or read out of bounds; a bad file is a one-line error. */
#include "lib/csvread.h"
#include "lib/util.h"
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
	for (long r = 0; r < t.nrows;
	     r++) /* every lookup by name, as the report's row hook makes them */
		for (int c = 0; c < t.ncols; c++)
			if (!table_get(&t, r, t.cols[c]))
				abort();
	table_free(&t);
	return 0;
}

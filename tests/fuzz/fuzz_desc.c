/* libFuzzer target: the bench description reader (schema/desc.h), FILE.bench of a result set
 * from another machine. Must never crash, hang, leak or read out of bounds; a bad file is a
 * one-line error; what it accepts is whole (every list terminated, every view with its metrics
 * and the columns its kind needs) and writes back out. */
#include "schema/desc.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char err[ERRLEN] = "", warn[ERRLEN];
	struct bench_desc d;
	if (bench_desc_parse(&d, "fuzz.bench", (const char *)data, size, err, warn, sizeof(warn))) {
		if (strchr(err, '\n'))
			abort(); /* errors are one line */
		return 0;
	}
	if (strchr(warn, '\n') || !d.name || !d.variant_col)
		abort();
	for (const struct bench_view *v = d.views; v && v->kind; v++) {
		if (!v->metrics || !v->metrics[0].col || !v->metrics[0].label ||
		    !v->metrics[0].unit)
			abort();
		if (v->kind == VIEW_LINES && !v->x_cols)
			abort();
		if (v->kind == VIEW_MATRIX && (!v->row_col || !v->class_col))
			abort();
	}
	FILE *f = fopen("/dev/null", "w");
	if (f) {
		bench_desc_write(f, &d, err); /* may refuse a value, never crash */
		fclose(f);
	}
	bench_desc_free(&d);
	return 0;
}

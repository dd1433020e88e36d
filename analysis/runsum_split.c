/* The run summary's groups that are two populations (stats/split.h, docs/report.md#classes-that-
 * split): a group of several variants (pingpong's mode/class: its pairs) whose values, each
 * variant's median over its repetitions, split at an empty gap. Its line's median is then a value
 * no variant has, so the summary marks it and gives each part with its median and count. */
#include "analysis/runsum_int.h"
#include "lib/util.h"
#include "stats/split.h"
#include "stats/stats.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct varval {
	int var;
	double v;
};

static int by_var(const void *x, const void *y)
{
	const struct varval *a = x, *b = y;
	return (a->var > b->var) - (a->var < b->var);
}

int summary_split_group(const int *var, const double *val, int n, const long *vattr,
			const char *attr_name, const char *unit, char *out, size_t cap)
{
	struct varval *vv = xcalloc((size_t)n + 1, sizeof(*vv));
	double *med = xcalloc((size_t)n + 1, sizeof(double)), *tmp = xcalloc((size_t)n + 1, 8);
	long *attr = xcalloc((size_t)n + 1, sizeof(long));
	int nv = 0;
	for (int i = 0; i < n; i++)
		vv[i] = (struct varval){var[i], val[i]};
	qsort(vv, (size_t)n, sizeof(*vv), by_var);
	for (int i = 0, j; i < n; i = j) { /* each variant's median over its repetitions */
		int nt = 0;
		for (j = i; j < n && vv[j].var == vv[i].var; j++)
			tmp[nt++] = vv[j].v;
		attr[nv] = vattr ? vattr[vv[i].var] : -1;
		med[nv++] = stats_of(tmp, (size_t)nt).median;
	}
	struct split sp;
	int g = split_values(med, vattr ? attr : NULL, nv, &sp);
	out[0] = 0;
	if (g > 1)
		split_text(&sp, attr_name ? attr_name : "group", unit ? unit : "", out, cap);
	free(vv);
	free(med);
	free(tmp);
	free(attr);
	return g > 1;
}

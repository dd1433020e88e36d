/* What every part of the run summary reads of the kept rows: the metrics shown, a group's
 * statistics over its repetitions, a value fixed by construction. */
#include "analysis/runsum_int.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

const char *rs_get(const struct table *r, const char *col)
{
	return table_get(r, 0, col);
}

double rs_num(const struct table *r, const char *col, int *ok)
{
	const char *v = table_get(r, 0, col);
	char *end;
	*ok = 0;
	if (!v || !*v || !strcmp(v, "NA"))
		return 0;
	double x = strtod(v, &end);
	*ok = !*end;
	return *ok ? x : 0;
}

int nmetrics(const struct rs_bench *b)
{
	int k = 0;
	while (b->summary[k] && k < SUMMARY_MAX)
		k++;
	return k;
}

/* Why group gi's value of metric k is fixed by construction (the bench's word), or NULL: measured.
 * Only where a line is one variant (no summary_by). */
const char *fixed_why(const struct rs_ctx *c, int gi, int k)
{
	if (c->b->summary_by || !c->rf)
		return NULL;
	for (int i = 0; i < c->rf->nfixed; i++)
		if (c->rf->fixed[i].var == gi && !strcmp(c->rf->fixed[i].metric, c->b->summary[k]))
			return c->rf->fixed[i].why;
	return NULL;
}

/* Records [i0, i0 + n) sorted by group and rep: per repetition the median of the group's rows,
 * then their stats. */
struct stats group_stats(const struct kept_rows *kr, int i0, int n, int m, double *per_rep,
			 double *tmp)
{
	int nr = 0;
	for (int i = i0; i < i0 + n;) {
		int j = i, nt = 0;
		for (; j < i0 + n && kr_at(kr, j)->rep == kr_at(kr, i)->rep; j++)
			if (ok_at(kr_at(kr, j), m))
				tmp[nt++] = kr_at(kr, j)->v[m];
		if (nt)
			per_rep[nr++] = stats_of(tmp, (size_t)nt).median;
		i = j;
	}
	return stats_of(per_rep, (size_t)nr);
}

/* What every part of the run summary reads of the kept rows: the metrics shown, a group's
 * statistics over its repetitions, a value fixed by construction. */
#include "analysis/runsum_int.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

/* Column indices by name, per header: a run's summary looks up a dozen columns in each of up to
 * millions of rows (a search of a 150-column header each time was most of its time). */
static struct {
	char *const *cols; /* the header it was found in */
	int ncols, ix;
	char name[48];
} col_cache[64];

void rs_cols_forget(void)
{
	memset(col_cache, 0, sizeof(col_cache));
}

const char *rs_get(const struct table *r, const char *col)
{
	size_t l = strlen(col), h = (l * 31 + (unsigned char)col[0] * 7 +
				     (unsigned char)col[l ? l - 1 : 0]) & 63;
	if (l >= sizeof(col_cache[h].name))
		return table_get(r, 0, col);
	if (col_cache[h].cols != r->cols || col_cache[h].ncols != r->ncols ||
	    strcmp(col_cache[h].name, col)) {
		col_cache[h].cols = r->cols;
		col_cache[h].ncols = r->ncols;
		col_cache[h].ix = table_col(r, col);
		memcpy(col_cache[h].name, col, l + 1);
	}
	return col_cache[h].ix >= 0 ? r->cell[0][col_cache[h].ix] : NULL;
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

int most_rows(const int *start, int ng)
{
	int most = 0;
	for (int gi = 0; gi < ng; gi++)
		if (start[gi + 1] - start[gi] > most)
			most = start[gi + 1] - start[gi];
	return most;
}

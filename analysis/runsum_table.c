/* The run summary's metric columns (analysis/runsum.c prints the table around them): each cell's
 * median, spread and ratio, the blocks they print in, and the values fixed by construction. */
#include "analysis/runsum_int.h"
#include "lib/util.h"
#include "analysis/runsum_parts.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A number for the table: from 10,000 up as integers (counts are never 1.3e+05), else 4 digits. */
static void fmt_num(char *buf, size_t n, double v)
{
	if (fabs(v) >= 1e4 && fabs(v) < 1e15)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
}

/* median [min..max] (CV); one value has no spread: CV NA, not 0.0%. */
static void fmt_cell(char *cell, size_t n, const struct stats *s, int flag)
{
	char med[24], lo[24], hi[24];
	fmt_num(med, sizeof(med), s->median);
	fmt_num(lo, sizeof(lo), s->min);
	fmt_num(hi, sizeof(hi), s->max);
	if (s->n < 2)
		snprintf(cell, n, "%s (CV NA)", med);
	else
		snprintf(cell, n, "%s [%s..%s] (%.1f%%)%s", med, lo, hi, 100 * s->cv,
			 flag ? "!" : "");
}

/* Fill a metric's column for every group (in print order); returns the number of flagged cells.
 * A value fixed by construction is a bound: "bound" in its ratio cell, and no ratio against it. */
int fill_column(const struct rs_ctx *c, const struct kept_rows *kr, const int *start,
		const int *order, int ng, int k, double thr, double *per_rep, double *tmp,
		const char *name, struct column *col)
{
	int base_fixed = fixed_why(c, order[0], k) != NULL;
	double base = 0;
	int flagged = 0;
	col->width = (int)strlen(name);
	for (int oi = 0; oi < ng; oi++) {
		int gi = order[oi];
		struct stats s =
		    group_stats(kr, start[gi], start[gi + 1] - start[gi], k, per_rep, tmp);
		int flag = s.n > 1 && s.cv > thr;
		flagged += flag;
		if (oi == 0)
			base = s.n ? s.median : 0;
		if (!s.n && c->b->absent[k])
			snprintf(col->cell[oi], sizeof(col->cell[oi]), "NA (%s)", c->b->absent_why);
		else if (!s.n)
			snprintf(col->cell[oi], sizeof(col->cell[oi]), "NA (no valid value)");
		else
			fmt_cell(col->cell[oi], sizeof(col->cell[oi]), &s, flag);
		if (fixed_why(c, gi, k))
			snprintf(col->ratio[oi], sizeof(col->ratio[oi]), "bound");
		else if (s.n && base > 0 && !base_fixed)
			snprintf(col->ratio[oi], sizeof(col->ratio[oi]), "%.3f", s.median / base);
		else
			snprintf(col->ratio[oi], sizeof(col->ratio[oi]), "NA");
		if ((int)strlen(col->cell[oi]) > col->width)
			col->width = (int)strlen(col->cell[oi]);
	}
	return flagged;
}

/* Metric columns side by side while the line fits SUMMARY_COLS, further metrics in blocks below. */
void print_blocks(FILE *f, const struct rs_ctx *c, const struct sum_lines *g, const int *order,
		  struct column *cols, int nm, int width, const char *col, char (*cnt)[32])
{
	for (int k0 = 0; k0 < nm;) {
		int k1 = k0, used = width + 14;
		while (k1 < nm && (k1 == k0 || used + 2 + cols[k1].width + 8 <= SUMMARY_COLS))
			used += 2 + cols[k1++].width + 8;
		fprintf(f, "%s%-*s  %-12s", k0 ? "\n" : "", width, col, "valid");
		for (int k = k0; k < k1; k++)
			fprintf(f, "  %*s %7s", cols[k].width, c->b->summary[k], "ratio");
		fprintf(f, "\n");
		for (int oi = 0; oi < g->n; oi++) {
			fprintf(f, "%-*s  %-12s", width, g->label[order[oi]], cnt[oi]);
			for (int k = k0; k < k1; k++)
				fprintf(f, "  %*s %7s", cols[k].width, cols[k].cell[oi],
					cols[k].ratio[oi]);
			fprintf(f, "\n");
		}
		k0 = k1;
	}
}

/* The values fixed by construction, a line each with its median and the bench's reason. */
void print_fixed(FILE *f, const struct rs_ctx *c, const struct sum_lines *g, const int *order,
		 const struct column *cols, int width)
{
	int any = 0;
	for (int oi = 0; oi < g->n; oi++)
		for (int k = 0; k < nmetrics(c->b); k++) {
			const char *why = fixed_why(c, order[oi], k);
			if (!why)
				continue;
			if (!any++)
				fprintf(f, "fixed by construction: a bound, not a measurement "
					   "(no ratio or change against it)\n");
			const char *cell = cols[k].cell[oi], *name = c->b->summary[k];
			const char *label = g->label[order[oi]];
			if (!strncmp(cell, "NA", 2)) /* no valid value: the reason alone */
				fprintf(f, "%-*s  %s: %s\n", width, label, name, why);
			else
				fprintf(f, "%-*s  %s = %.*s: %s\n", width, label, name,
					(int)strcspn(cell, " "), cell, why);
		}
}

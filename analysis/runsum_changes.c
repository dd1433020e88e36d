/* The run summary's change of each variant against the baseline (analysis/runsum.c prints the
 * table above it), decided by the one two-sample rule (stats/twosample.h). */
#include "analysis/runsum_int.h"
#include "lib/util.h"
#include "analysis/runsum.h"
#include "analysis/runsum_parts.h"
#include "stats/compare_stats.h"
#include "stats/twosample.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One variant's per-repetition values of metric m (records [i0, i0 + n) sorted by group and rep):
 * what the U-test ranks. */
static int rep_values(const struct kept_rows *kr, int i0, int n, int m, double *per_rep,
		      double *tmp)
{
	return (int)group_stats(kr, i0, n, m, per_rep, tmp).n;
}

/* Text from column col (already on this line), at most SUMMARY_COLS a line, continuation lines
 * indented by indent; ends the line. */
static void wrap_from(FILE *f, int col, int indent, const char *text)
{
	text_lines_from(f, col, SUMMARY_COLS, indent, text);
}

/* Change of each variant against the baseline, per metric: the ratio of medians as a change with
 * its bootstrap 95% CI, the two-sided Mann-Whitney p over repetitions, that p adjusted over the
 * table's tests, and the verdict: all from the one two-sample rule (stats/twosample.h), as
 * compare and report give them. One line per variant and metric, the verdict wrapped. */
void print_changes(FILE *f, const struct rs_ctx *c, const struct kept_rows *kr, const int *start,
		   const int *order, const struct sum_lines *g, int width, const char *note_instead)
{
	int nm = nmetrics(c->b), ncell = (g->n - 1) * nm, ntest = 0;
	size_t nv = (size_t)most_rows(start, g->n) + 1; /* a line's values are at most its rows */
	double *a = xcalloc(nv, sizeof(double)), *b = xcalloc(nv, sizeof(double));
	double *tmp = xcalloc((size_t)start[g->n] + 1, sizeof(double));
	struct ts_stat *st = xcalloc((size_t)ncell + 1, sizeof(*st));
	for (int oi = 1; oi < g->n; oi++)
		for (int k = 0; k < nm; k++) {
			int g0 = order[0], gi = order[oi];
			int na = rep_values(kr, start[g0], start[g0 + 1] - start[g0], k, a, tmp);
			int nb = rep_values(kr, start[gi], start[gi + 1] - start[gi], k, b, tmp);
			struct ts_stat *t = &st[(oi - 1) * nm + k];
			if (fixed_why(c, g0, k) || fixed_why(c, gi, k))
				continue; /* a bound: no test, no change against it */
			ts_compute(a, (size_t)na, b, (size_t)nb, t);
			t->descriptive = !c->b->in_verdict[k];
			t->predict = c->b->predict[k];
		}
	const char *method = ts_family(st, ncell, &ntest);
	int plan = ncell ? st[0].m_plan : 0;
	char over[64] = "family's", of[64] = ""; /* lines with too few repetitions are not run */
	if (plan > ntest) {
		snprintf(over, sizeof(over), "%d test(s) run", ntest);
		snprintf(of, sizeof(of), "of the family's %d; ", plan);
	} else
		snprintf(over, sizeof(over), "family's %d test(s)", ntest);
	fprintf(f,
		"\nchange against '%s', each line a variant: ratio of medians - 1, [95%% "
		"bootstrap CI],\np = two-sided Mann-Whitney U over repetitions, %s = p adjusted "
		"over the %s\n"
		"(%sthe verdict metrics: docs/validity.md, \"The verdict\")\n",
		g->label[order[0]], method, over, of);
	for (int oi = 1; oi < g->n; oi++) {
		for (int k = 0; k < nm; k++) {
			const struct ts_stat *t = &st[(oi - 1) * nm + k];
			const char *name = c->b->summary[k], *unit = c->b->unit[k];
			char cell[400], v[256];
			int dir = c->b->dir[k], col;
			const char *bound = fixed_why(c, order[0], k);
			bound = bound ? bound : fixed_why(c, order[oi], k);
			col = fprintf(f, "%-*s  ", width, k ? "" : g->label[order[oi]]);
			if (bound || c->b->absent[k] || !t->na || !t->nb) { /* no test: why */
				if (bound)
					snprintf(cell, sizeof(cell), "%s: not tested: %s", name,
						 bound);
				else if (c->b->absent[k])
					snprintf(cell, sizeof(cell), "%s: NA (%s)", name,
						 c->b->absent_why);
				else
					snprintf(cell, sizeof(cell),
						 "%s: NA (no valid value of %s)", name,
						 t->na	 ? "this variant"
						 : t->nb ? "the baseline"
							 : "either");
				wrap_from(f, col, width + 4, cell);
				continue;
			}
			if (!t->has_ratio) {
				snprintf(cell, sizeof(cell), "%s: NA", name);
			} else {
				int n = change_text(cell, sizeof(cell), name, t->ratio, t->has_ci,
						    t->lo, t->hi, t->p);
				if (ts_is_test(t) && n < (int)sizeof(cell))
					snprintf(cell + n, sizeof(cell) - (size_t)n, " %s=%.3g",
						 method, t->p_adj);
			}
			ts_verdict(t, dir, ts_is_time(name, unit), NULL, v, sizeof(v));
			if (col + 1 + (int)strlen(cell) >
			    SUMMARY_COLS) { /* a wide cell: wrapped too */
				size_t cl = strlen(cell);
				if (cl + 1 < sizeof(cell))
					cell[cl] = ':', cell[cl + 1] = 0;
				wrap_from(f, col, width + 4, cell);
				fprintf(f, "%*s", width + 4, "");
				wrap_from(f, width + 4, width + 4, v);
				continue;
			}
			col += fprintf(f, "%s:", cell);
			if (col + 1 + (int)strlen(v) >
			    SUMMARY_COLS) { /* the verdict on lines of its own */
				fprintf(f, "\n%*s", width + 4, "");
				col = width + 4;
			} else
				col += fprintf(f, " ");
			wrap_from(f, col, width + 4, v);
		}
	}
	if (note_instead)
		wrap_from(f, 0, 8, note_instead);
	else if (c->b->summary_note.text)
		fprintf(f, "%s\n", c->b->summary_note.text);
	free(a);
	free(b);
	free(tmp);
	free(st);
}

/* `c2cbench summary FILE...`: a result set's summary from its files, by the analysis compare and
 * report use (one grouping engine, one verdict rule, one family per run's table): each
 * configuration's valid rows and medians, then each variant against its bench's baseline with the
 * verdict. For the CSV of a run its verdict lines are the run's own (tests/test_power.c). */
#include "analysis/summary_files.h"
#include "analysis/compare.h"
#include "analysis/resultset.h"
#include "stats/stats.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A number for the table: integers from 10,000 up, else 4 digits (as the run's summary). */
static void num(char *buf, size_t n, double v)
{
	if (v >= 1e4 || v <= -1e4)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%.4g", v);
}

/* Each configuration: its valid rows, and per metric median [min..max] (CV). */
static void medians(FILE *f, const struct groups *g)
{
	char lab[512], line[2048];
	for (int i = 0; i < g->ngroup; i++) {
		int gi = g->order[i];
		const struct grp_cell *c = groups_cell(g, gi, 0);
		if (!c)
			continue;
		const struct grp_bench *b = &g->bench[g->group[gi].bench];
		groups_label(g, gi, lab, sizeof(lab));
		size_t k = (size_t)snprintf(line, sizeof(line), "%s: %ld of %ld rows valid", lab,
					    c->valid, c->rows);
		for (int m = 0; m < b->nmet && k < sizeof(line); m++) {
			if (!b->met_seen[m])
				continue;
			struct stats s = stats_of(c->met[m].v, c->met[m].n);
			char md[32], lo[32], hi[32];
			num(md, sizeof(md), s.median);
			num(lo, sizeof(lo), s.min);
			num(hi, sizeof(hi), s.max);
			if (!s.n)
				k += (size_t)snprintf(line + k, sizeof(line) - k, "; %s NA",
						      b->metric[m]);
			else if (s.n < 2)
				k += (size_t)snprintf(line + k, sizeof(line) - k, "; %s %s (CV NA)",
						      b->metric[m], md);
			else
				k += (size_t)snprintf(line + k, sizeof(line) - k,
						      "; %s %s [%s..%s] (%.1f%%)", b->metric[m], md,
						      lo, hi, 100 * s.cv);
		}
		cmp_wrap(f, 0, 4, line);
	}
}

int summary_files(FILE *f, char *const *files, int n, char *err)
{
	struct groups g;
	struct cmp c;
	if (groups_init(&g, NULL, err))
		return -1;
	for (int i = 0; i < n; i++)
		if (groups_add(&g, files[i], 0, err)) {
			groups_free(&g);
			return -1;
		}
	if (groups_finish(&g, err)) {
		groups_free(&g);
		return -1;
	}
	if (!g.rows) {
		groups_free(&g);
		return err_set(err, "the inputs hold no result rows; nothing to summarise");
	}
	const struct grp_side *sd = &g.side[0];
	fprintf(f, "%ld row(s), %ld valid\n", sd->rows, sd->valid);
	if (sd->rows && !sd->valid)
		cmp_wrap(f, 0, 4,
			 "the set measured nothing: none of its rows is valid (their "
			 "invalid_reason says why); no verdict below");
	fprintf(f, "median [min..max] (CV) over valid repetitions\n");
	medians(f, &g);
	cmp_pair(&c, &g, 0, 0);
	cmp_print_within_one(f, &c);
	cmp_pair_free(&c);
	groups_free(&g);
	fflush(f);
	return ferror(f) ? err_set(err, "cannot write the output") : 0;
}

/* compare's within-side table: on each side, each variant against its bench's baseline variant in the
 * same configuration (vmalloc: every layout against `shared`), the numbers a run's summary prints,
 * so two machines' layout effects read side by side, with the bench's note (seed 003's figures). */
#include "analysis/compare.h"
#include "harness/bench.h"
#include "harness/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The group holding gi's configuration with the bench's baseline variant instead; -1: gi is the
 * baseline, its bench declares none, or no input holds that configuration. */
static int baseline_of(struct groups *g, int gi)
{
	const struct grp_group *gr = &g->group[gi];
	const struct grp_bench *b = &g->bench[gr->bench];
	if (!b->b || !b->b->variant_order || !b->b->variant_order[0] || !gr->val[0] || !strcmp(gr->val[0], b->b->variant_order[0]))
		return -1;
	const char **v = xcalloc((size_t)b->nkey, sizeof(*v));
	memcpy(v, gr->val, (size_t)b->nkey * sizeof(*v));
	v[0] = b->b->variant_order[0];
	int r = groups_find(g, gr->bench, v);
	free(v);
	return r;
}

/* One side's cell: "A -6.12% [-16.37, +1.09] p=0.0309 (n 31/31)", or why there is none. */
static void side_cell(const struct groups *g, int g0, int gi, int s, int m, char *out, size_t n)
{
	const struct grp_cell *a = groups_cell(g, g0, s), *b = groups_cell(g, gi, s);
	struct cmp_stat st;
	const char *name = s ? "B" : "A";
	if (!a || !b) {
		snprintf(out, n, "%s: NA (no rows of %s)", name, a ? "this variant" : "the baseline");
		return;
	}
	cmp_stat(&a->met[m], &b->met[m], &st);
	if (!st.na || !st.nb)
		snprintf(out, n, "%s: NA (no valid value of %s)", name, st.na ? "this variant" : "the baseline");
	else if (!st.has_ratio)
		snprintf(out, n, "%s: NA (baseline median 0)", name);
	else if (!st.has_ci)
		snprintf(out, n, "%s %+.2f%% (CI NA: n<2) (n %zu/%zu)", name, 100 * (st.ratio - 1), st.na, st.nb);
	else
		snprintf(out, n, "%s %+.2f%% [%+.2f, %+.2f] p=%.3g (n %zu/%zu)", name, 100 * (st.ratio - 1), 100 * (st.lo - 1),
			 100 * (st.hi - 1), st.p, st.na, st.nb);
}

/* The bench's note once, after its last line. */
static void note(FILE *f, const struct groups *g, int bench)
{
	if (bench >= 0 && g->bench[bench].b && g->bench[bench].b->summary_note)
		fprintf(f, "%s\n", g->bench[bench].b->summary_note);
}

void cmp_print_within(FILE *f, struct cmp *c)
{
	struct groups *g = &c->g;
	int header = 0, bench = -1;
	char lab[512], ca[160], cb[160];
	for (int i = 0; i < g->ngroup; i++) {
		int gi = g->order[i], g0 = baseline_of(g, gi);
		if (g0 < 0)
			continue;
		const struct grp_bench *b = &g->bench[g->group[gi].bench];
		if (!header)
			fprintf(f, "\nwithin each side, each variant against its bench's baseline in the same configuration:\n"
				   "ratio of medians - 1, [95%% bootstrap CI], p = two-sided Mann-Whitney U (n baseline/variant)\n"
				   "%-22s %-8s %-14s %-48s %s\n", "configuration", "against", "metric", "A", "B");
		header = 1;
		if (bench != g->group[gi].bench)
			note(f, g, bench);
		bench = g->group[gi].bench;
		groups_label(g, gi, lab, sizeof(lab));
		for (int m = 0; m < b->nmet; m++) {
			if (!b->met_seen[m])
				continue;
			side_cell(g, g0, gi, 0, m, ca, sizeof(ca));
			side_cell(g, g0, gi, 1, m, cb, sizeof(cb));
			fprintf(f, "%-22s %-8s %-14s %-48s %s\n", lab, b->b->variant_order[0], b->metric[m], ca, cb);
		}
	}
	note(f, g, bench);
}

/* compare's within-side table: on each side, each variant against its bench's baseline variant in
 * the same configuration (vmalloc: every layout against `shared`), the numbers a run's summary
 * prints, so two machines' layout effects read side by side, with the bench's note (seed 003's
 * figures). */
#include "analysis/compare.h"
#include "schema/desc.h"
#include "stats/compare_stats.h"
#include "lib/parse.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does the variant set this key column (a layout's offset)? The bench's views declare it. */
static int implied(const struct bench_desc *b, const char *col)
{
	for (const struct bench_view *v = b->views; v && v->kind != VIEW_END; v++)
		if (list_has(v->implied_cols, col))
			return 1;
	return 0;
}

/* A configuration without its variant and the columns the variant sets (cmp_key_but). */
static char *rest_key(const struct groups *g, int gi)
{
	const struct grp_bench *b = &g->bench[g->group[gi].bench];
	unsigned char *skip = xcalloc((size_t)b->nkey + 1, 1);
	for (int i = 1; i < b->nkey; i++)
		skip[i] = b->b && implied(b->b, b->key_col[i]);
	char *k = cmp_key_but(g, gi, skip);
	free(skip);
	return k;
}

/* Is gi a configuration of its bench's declared baseline variant? */
static int is_baseline(const struct groups *g, int gi)
{
	const struct grp_group *gr = &g->group[gi];
	const struct bench_desc *b = g->bench[gr->bench].b;
	return b && b->variant_order && b->variant_order[0] && gr->val[0] &&
	       !strcmp(gr->val[0], b->variant_order[0]);
}

struct base_ix {
	char *key;
	int group;
};

static int ix_cmp(const void *x, const void *y)
{
	return strcmp(((const struct base_ix *)x)->key, ((const struct base_ix *)y)->key);
}

/* Every baseline configuration, sorted by rest_key: one sort, then a binary search per variant. */
static struct base_ix *index_baselines(const struct groups *g, int *n)
{
	struct base_ix *ix = xcalloc((size_t)g->ngroup + 1, sizeof(*ix));
	*n = 0;
	for (int gi = 0; gi < g->ngroup; gi++)
		if (is_baseline(g, gi))
			ix[(*n)++] = (struct base_ix){ rest_key(g, gi), gi };
	qsort(ix, (size_t)*n, sizeof(*ix), ix_cmp);
	return ix;
}

/* gi's baseline: -1 when none matches (or gi is one), -2 when two do (a column the variant sets
 * that its views do not declare). */
static int baseline_of(const struct groups *g, const struct base_ix *ix, int n, int gi)
{
	const struct grp_group *gr = &g->group[gi];
	const struct bench_desc *b = g->bench[gr->bench].b;
	if (!b || !b->variant_order || !b->variant_order[0] || !gr->val[0] || is_baseline(g, gi))
		return -1;
	struct base_ix want = { rest_key(g, gi), -1 };
	const struct base_ix *hit = bsearch(&want, ix, (size_t)n, sizeof(*ix), ix_cmp);
	int r = !hit ? -1
		: (hit > ix && !ix_cmp(hit - 1, hit)) || (hit + 1 < ix + n && !ix_cmp(hit + 1, hit))
		    ? -2
		    : hit->group;
	free(want.key);
	return r;
}

/* One side's line of variant gi against baseline g0 on metric m: its test, in its family. */
static void side_stat(const struct groups *g, int g0, int gi, int s, int m, struct ts_stat *st)
{
	const struct grp_cell *a = groups_cell(g, g0, s), *b = groups_cell(g, gi, s);
	const struct grp_bench *bn = &g->bench[g->group[gi].bench];
	memset(st, 0, sizeof(*st));
	if (a && b)
		cmp_stat(&a->met[m], &b->met[m], st);
	st->descriptive = !bn->in_verdict[m];
	st->disputed = bn->disputed[m];
	st->predict = bn->predict[m];
}

/* One side's cell: "A -6.12% [-16.37, +1.09] p=0.0309 Holm=0.0317 (n 31/31): faster by 1.07x
 * [...]", the verdict as the run's summary gives it, or why there is none. */
static void side_cell(const struct groups *g, int g0, int gi, int s, int m,
		      const struct ts_stat *stp, const char *name, char *out, size_t n)
{
	const struct grp_cell *a = groups_cell(g, g0, s), *b = groups_cell(g, gi, s);
	const struct grp_bench *bn = &g->bench[g->group[gi].bench];
	struct ts_stat st = *stp;
	if (!a || !b) {
		snprintf(out, n, "%s: NA (no rows of %s)", name,
			 a ? "this variant" : "the baseline");
		return;
	}
	if (!st.na || !st.nb)
		snprintf(out, n, "%s: NA (no valid value of %s)", name,
			 st.na   ? "this variant"
			 : st.nb ? "the baseline"
				 : "either");
	else if (!st.has_ratio)
		snprintf(out, n, "%s: NA (baseline median 0)", name);
	else {
		char v[320];
		int k = change_text(out, n, name, st.ratio, st.has_ci, st.lo, st.hi, st.p);
		if (ts_is_test(&st) && k < (int)n)
			k += snprintf(out + k, n - (size_t)k, " %s=%.3g", st.method, st.p_adj);
		ts_verdict(&st, bn->direction[m], ts_is_time(bn->metric[m], bn->unit[m]), NULL, v,
			   sizeof(v));
		snprintf(out + k, k < (int)n ? n - (size_t)k : 0, " (n %zu/%zu): %s", st.na, st.nb,
			 v);
	}
}

/* Each side's families: per baseline configuration (what one run's summary holds), the lines of
 * its variants against it, adjusted together as the run's summary adjusts them (ts_family). st:
 * per place in g->order, metric and side, [(i * nm + m) * 2 + s]. */
static void within_families(const struct groups *g, const int *base, int nm, struct ts_stat *st)
{
	struct ts_stat *fam = xcalloc((size_t)g->ngroup * (size_t)nm + 1, sizeof(*fam));
	int *at = xcalloc((size_t)g->ngroup * (size_t)nm + 1, sizeof(int));
	for (int i0 = 0; i0 < g->ngroup; i0++) {
		int first = base[i0] >= 0, g0 = base[i0];
		for (int j = 0; j < i0 && first; j++)
			first = base[j] != g0; /* each baseline's family once */
		for (int s = 0; first && s < 2; s++) {
			int n = 0;
			for (int i = i0; i < g->ngroup; i++) {
				if (base[i] != g0)
					continue;
				for (int m = 0; m < g->bench[g->group[g0].bench].nmet; m++) {
					at[n] = (i * nm + m) * 2 + s;
					fam[n] = st[at[n]];
					n++;
				}
			}
			ts_family(fam, n, NULL);
			for (int k = 0; k < n; k++)
				st[at[k]] = fam[k];
		}
	}
	free(fam);
	free(at);
}

/* Side s's rows of the bench as its summary_note_if column gives them (schema/desc.h
 * desc_note_instead): -1 when the side has no valid row of it, 0 when the note stands beside them,
 * 1 when it does not, with the line that replaces it in out. */
static int side_instead(const struct groups *g, int bench, int s, char *out, size_t n)
{
	const char *col = g->bench[bench].b->summary_note_if, *val = "yes";
	int rows = 0;
	for (int i = 0; i < g->ncell; i++) {
		const struct grp_cell *c = &g->cell[i];
		if (c->side != s || !c->valid || g->group[c->group].bench != bench)
			continue;
		rows = 1;
		if (c->note_absent || !c->note_val)
			val = NULL;
		else if (val && !strcmp(val, "yes"))
			val = c->note_val;
	}
	return !rows ? -1 : desc_note_instead(col, val, out, n) ? 1 : 0;
}

/* The bench's note once, after its last line, each of its lines within the table's width: where
 * a side's rows say they do not have the setting the note's figures are for, the why instead (a
 * line per side, A: and B:, when the sides' reasons differ); the note itself only when a side's
 * rows have that setting. */
static void note(FILE *f, const struct groups *g, int bench)
{
	if (bench < 0 || !g->bench[bench].b || !g->bench[bench].b->summary_note)
		return;
	char why[2][400], line[808]; /* a prefix and a why whole */
	int st[2] = { -1, -1 }, stands = 0;
	for (int s = 0; s < 2 && s < g->nside; s++) {
		st[s] = side_instead(g, bench, s, why[s], sizeof(why[s]));
		stands |= st[s] == 0;
	}
	int same = st[0] == 1 && st[1] == 1 && !strcmp(why[0], why[1]);
	for (int s = 0; s < 2; s++)
		if (st[s] == 1 && !(same && s)) {
			snprintf(line, sizeof(line), "%s%s",
				 same || g->nside < 2 ? "" :
				 s                    ? "B: " :
							"A: ",
				 why[s]);
			cmp_wrap(f, 0, 8, line);
		}
	if (!stands)
		return;
	for (const char *p = g->bench[bench].b->summary_note; *p;) {
		size_t n = strcspn(p, "\n");
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		int lead = (int)strspn(line, " ");
		fprintf(f, "%*s", lead, "");
		cmp_wrap(f, lead, lead ? lead : 8, line + lead);
		p += n + (p[n] == '\n');
	}
}

/* "  metric  A-cell  B-cell", B's on the next line, under A's, when both do not fit. */
static void cells(FILE *f, int wm, const char *metric, const char *ca, const char *cb)
{
	int col = fprintf(f, "  %-*s ", wm, metric);
	if (col + (int)strlen(ca) + 2 + (int)strlen(cb) <= CMP_WIDTH) {
		fprintf(f, "%s%s%s\n", ca, *cb ? "  " : "", cb);
		return;
	}
	cmp_wrap(f, col, col + 2, ca);
	if (!*cb)
		return;
	fprintf(f, "%*s", col, "");
	cmp_wrap(f, col, col + 2, cb);
}

/* The classes that split on a side (analysis/compare_split.c), each side's groups beside each
 * other (nsides 1: side A's alone, `c2cbench summary`); nothing when none splits. */
static void within_splits(FILE *f, struct cmp *c, int nsides)
{
	int header = 0, wm = 6;
	char lab[512], head[600], ca[1100], cb[1100];
	for (int i = 0; i < c->g.ngroup; i++) {
		int k = cmp_split_at(c, c->g.order[i]);
		if (k < 0)
			continue;
		const struct grp_bench *b = &c->g.bench[c->g.group[c->g.order[i]].bench];
		for (int m = 0; m < b->nmet; m++) /* the metric column, as wide as its longest */
			if (b->met_seen[m] && (int)strlen(b->metric[m]) > wm &&
			    strlen(b->metric[m]) < 30)
				wm = (int)strlen(b->metric[m]);
		if (!header && fputc('\n', f) != EOF)
			cmp_wrap(f, 0, 0,
				 nsides > 1 ? "within each side, the classes whose pairs split at "
					      "an empty gap (docs/report.md#classes-that-split): "
					      "each group's median and pair count, never the class "
					      "median alone"
					    : "the classes whose pairs split at an empty gap "
					      "(docs/report.md#classes-that-split): each group's "
					      "median and pair count, never the class "
					      "median alone");
		header = 1;
		cmp_split_label(c, k, lab, sizeof(lab));
		snprintf(head, sizeof(head), "%s, its pairs:", lab);
		cmp_wrap(f, 0, 4, head);
		for (int m = 0; m < b->nmet; m++) {
			if (!b->met_seen[m])
				continue;
			memcpy(ca, "A: ", 3);
			memcpy(cb, "B: ", 3);
			cmp_split_side(c, k, 0, m, ca + 3, sizeof(ca) - 3);
			if (nsides > 1)
				cmp_split_side(c, k, 1, m, cb + 3, sizeof(cb) - 3);
			cells(f, wm, b->metric[m], nsides > 1 ? ca : ca + 3, nsides > 1 ? cb : "");
		}
	}
}

/* The table for nsides sides (1: side A alone, the summary of a result set). */
static void within(FILE *f, struct cmp *c, int nsides)
{
	struct groups *g = &c->g;
	int header = 0, bench = -1, nix;
	char lab[512], ca[600], cb[600], head[700];
	struct base_ix *ix = index_baselines(g, &nix);
	int wm = 6; /* the longest metric printed */
	int *base = xcalloc((size_t)g->ngroup + 1,
			    sizeof(int)); /* per place in g->order: its baseline_of */
	for (int i = 0; i < g->ngroup; i++) {
		int gi = g->order[i];
		if ((base[i] = baseline_of(g, ix, nix, gi)) == -1)
			continue;
		const struct grp_bench *b = &g->bench[g->group[gi].bench];
		for (int m = 0; m < b->nmet; m++) {
			int l = (int)strlen(b->metric[m]);
			wm = b->met_seen[m] && l > wm && l < 30 ? l : wm;
		}
	}
	int nm = 1;
	for (int bi = 0; bi < g->nbench; bi++)
		nm = g->bench[bi].nmet > nm ? g->bench[bi].nmet : nm;
	struct ts_stat *st = xcalloc((size_t)g->ngroup * (size_t)nm * 2 + 1, sizeof(*st));
	for (int i = 0; i < g->ngroup; i++)
		for (int m = 0; base[i] >= 0 && m < g->bench[g->group[g->order[i]].bench].nmet; m++)
			for (int s = 0; s < 2; s++)
				side_stat(g, base[i], g->order[i], s, m, &st[(i * nm + m) * 2 + s]);
	within_families(g, base, nm, st);
	for (int i = 0; i < g->ngroup; i++) {
		int gi = g->order[i], g0 = base[i];
		if (g0 == -1)
			continue;
		const struct grp_bench *b = &g->bench[g->group[gi].bench];
		if (!header) {
			fputc('\n', f);
			cmp_wrap(
				f, 0, 0,
				nsides > 1 ?
					"within each side, each variant against its bench's "
					"baseline in the same configuration, as a run's summary "
					"gives it: ratio of medians - 1, [95% bootstrap CI], p = "
					"two-sided Mann-Whitney U, then adjusted over the family "
					"of that run's table (the bench's verdict metrics), (n "
					"baseline/variant): the verdict" :
					"each variant against its bench's baseline in the same "
					"configuration: ratio of medians - 1, [95% bootstrap CI], "
					"p = two-sided Mann-Whitney U, then adjusted over the "
					"family of that run's table (the bench's verdict metrics), "
					"(n baseline/variant): the verdict");
		}
		header = 1;
		if (bench != g->group[gi].bench)
			note(f, g, bench);
		bench = g->group[gi].bench;
		groups_label(g, gi, lab, sizeof(lab));
		snprintf(head, sizeof(head), "%s against %s:", lab, b->b->variant_order[0]);
		cmp_wrap(f, 0, 4, head);
		for (int m = 0; m < b->nmet; m++) {
			if (!b->met_seen[m])
				continue;
			if (g0 == -2) {
				cells(f, wm, b->metric[m], "NA: two baseline configurations match",
				      "");
				continue;
			}
			side_cell(g, g0, gi, 0, m, &st[(i * nm + m) * 2],
				  nsides > 1 ? "A" : "change", ca, sizeof(ca));
			if (nsides > 1)
				side_cell(g, g0, gi, 1, m, &st[(i * nm + m) * 2 + 1], "B", cb,
					  sizeof(cb));
			else
				cb[0] = 0;
			cells(f, wm, b->metric[m], ca, cb);
		}
	}
	note(f, g, bench);
	within_splits(f, c, nsides);
	free(st);
	free(base);
	for (int k = 0; k < nix; k++)
		free(ix[k].key);
	free(ix);
}

void cmp_print_within(FILE *f, struct cmp *c)
{
	within(f, c, 2);
}

void cmp_print_within_one(FILE *f, struct cmp *c)
{
	within(f, c, 1);
}

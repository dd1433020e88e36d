/* The Summary's baseline line for a pair of machines of any shape: each machine's nearest and
 * farthest pair class of the baseline view, with its median, whatever classes the two share. */
#include "analysis/report_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A class's distance rank: its place in the view's list, nearest first (unlisted: after). */
static int rank(const struct bench_view *v, const char *cls)
{
	int i = 0;
	while (v->classes[i] && strcmp(v->classes[i], cls))
		i++;
	return i;
}

static int same_cfg(const struct sample *x, const struct sample *y)
{
	return !strcmp(x->gkey, y->gkey) && !strcmp(x->facet, y->facet);
}

/* Machine m's nearest (far 0) or farthest (far 1) class among the samples like s in i0..i1, and
 * the median of its values pooled over its pairs; NULL when m has none. */
static const char *extreme(const struct rep *p, const struct bench_view *v, long i0, long i1,
			   const struct sample *s, int m, int far, double *med)
{
	const char *best = NULL;
	for (long j = i0; j < i1; j++) {
		const struct sample *t = &p->s[j];
		if (t->m != m || !t->val[0].n || !same_cfg(t, s))
			continue;
		int r = rank(v, t->cls);
		if (!best || (far ? r > rank(v, best) : r < rank(v, best)))
			best = t->cls;
	}
	struct vec all = { 0 };
	for (long j = i0; best && j < i1; j++) {
		const struct sample *t = &p->s[j];
		if (t->m == m && same_cfg(t, s) && !strcmp(t->cls, best))
			for (size_t q = 0; q < t->val[0].n; q++)
				vec_push(&all, t->val[0].v[q]);
	}
	if (best)
		*med = rpt_stat(&all).med;
	free(all.v);
	return best;
}

int rpt_baseline_pair(struct rep *p, int bi, int a, int b)
{
	const struct rbench *rb = &p->bench[bi];
	int any = 0;
	for (int vi = 0; rb->views[vi].kind; vi++) {
		const struct bench_view *v = &rb->views[vi];
		long i0, i1;
		if (v->kind != VIEW_MATRIX || !v->is_baseline || !v->classes || !v->metrics ||
		    !rpt_view_range(p, bi, vi, &i0, &i1))
			continue;
		for (long i = i0; i < i1; i++) {
			const struct sample *s = &p->s[i];
			int first = s->m == a || s->m == b;
			for (long j = i0; j < i && first; j++)
				first = !((p->s[j].m == a || p->s[j].m == b) &&
					  same_cfg(&p->s[j], s));
			if (!first)
				continue;
			double med[2][2];
			const char *cls[2][2];
			int ok = 1;
			for (int k = 0; k < 2; k++)
				for (int f = 0; f < 2; f++)
					ok &= (cls[k][f] = extreme(p, v, i0, i1, s, k ? b : a, f,
								   &med[k][f])) != NULL;
			if (!ok)
				continue;
			char n[2][2][48];
			for (int k = 0; k < 2; k++)
				for (int f = 0; f < 2; f++)
					rpt_fmt(n[k][f], sizeof(n[k][f]), "%.4g %s", med[k][f],
						v->metrics[0].unit ? v->metrics[0].unit : "");
			doc_p(&p->doc,
			      "Baseline, A = %s, B = %s (%s %s, %s %s): nearest: A %s %s, B %s %s; "
			      "farthest: A %s %s, B %s %s (each machine's own pair classes, "
			      "whatever classes the two share).",
			      p->mach[a].label, p->mach[b].label, rb->name, v->metrics[0].col,
			      v->facet_col ? v->facet_col : "", s->facet, cls[0][0], n[0][0],
			      cls[1][0], n[1][0], cls[0][1], n[0][1], cls[1][1], n[1][1]);
			any = 1;
		}
	}
	return any;
}

/* Classes of a matrix view that are two populations (stats/split.h): said in the per-class
 * tables, under each heat map and in the Summary, so that a class median no pair has is never
 * shown alone. The PUs' clusters by core and package (rpt_clusters) are here too: the heat maps
 * order their PUs by them. */
#include "analysis/report_int.h"
#include "lib/util.h"
#include "stats/split.h"
#include <stdlib.h>
#include <string.h>

/* Machine m's pairs in [f0, f1): their PUs, and which share a core (the first declared class)
 * and a package; the count. */
struct mpairs {
	int *a, *b;
	unsigned char *core, *pkg, *in;
	double *v;
	long n;
};

static void pairs_of(const struct rep *p, const struct bench_view *v, int m, long f0, long f1,
		     struct mpairs *q)
{
	size_t cap = (size_t)(f1 > f0 ? f1 - f0 : 0) + 1;
	q->a = xcalloc(cap, sizeof(int));
	q->b = xcalloc(cap, sizeof(int));
	q->core = xcalloc(cap, 1);
	q->pkg = xcalloc(cap, 1);
	q->in = xcalloc(cap, 1);
	q->v = xcalloc(cap, sizeof(double));
	q->n = 0;
	for (long i = f0; i < f1; i++) {
		const struct sample *s = &p->s[i];
		if (s->m != m)
			continue;
		q->a[q->n] = s->a;
		q->b[q->n] = s->b;
		q->core[q->n] = v->classes && v->classes[0] && !strcmp(s->cls, v->classes[0]);
		q->pkg[q->n++] = desc_class_in_package(v, s->cls);
	}
}

static void pairs_free(struct mpairs *q)
{
	free(q->a);
	free(q->b);
	free(q->core);
	free(q->pkg);
	free(q->in);
	free(q->v);
}

int rpt_class_split(const struct rep *p, const struct bench_view *v, int m, const char *cls,
		    int k, long f0, long f1, struct split *sp, char *text, size_t cap)
{
	struct mpairs q;
	pairs_of(p, v, m, f0, f1, &q);
	long j = 0;
	for (long i = f0; i < f1; i++) {
		const struct sample *s = &p->s[i];
		if (s->m != m)
			continue;
		q.in[j] = !strcmp(s->cls, cls) && s->val[k].n;
		q.v[j] = q.in[j] ? rpt_stat(&s->val[k]).med : 0;
		j++;
	}
	int g = split_class(q.a, q.b, q.pkg, q.in, q.v, q.n, sp);
	if (text && cap)
		text[0] = 0;
	if (text && g > 1)
		split_text(sp, "package", v->metrics[k].unit, text, cap);
	pairs_free(&q);
	return g;
}

int rpt_split_note(const struct rep *p, const struct bench_view *v, int ma, int mb,
		   const struct sample *s, long i0, long i1, char *out, size_t cap)
{
	long f0 = i0, f1;
	while (f0 < i1 && (strcmp(p->s[f0].gkey, s->gkey) || strcmp(p->s[f0].facet, s->facet)))
		f0++;
	for (f1 = f0; f1 < i1 && !strcmp(p->s[f1].gkey, s->gkey) &&
		      !strcmp(p->s[f1].facet, s->facet);
	     f1++)
		;
	size_t k = 0;
	out[0] = 0;
	for (int i = 0; i < 2 && f0 < f1; i++) {
		int m = i ? mb : ma;
		struct split sp;
		char brief[512];
		if (m < 0 || (i && mb == ma) ||
		    rpt_class_split(p, v, m, s->cls, 0, f0, f1, &sp, NULL, 0) < 2)
			continue;
		split_brief(&sp, "package", brief, sizeof(brief));
		k += (size_t)snprintf(out + k, k < cap ? cap - k : 0, "%s%s splits: %s %s",
				      k ? "; " : " (", p->mach[m].label, brief, v->metrics[0].unit);
	}
	if (k && k + 1 < cap)
		strcat(out, ")");
	return k > 0;
}

/* The facets of view v in [i0, i1), each machine and class: a sentence per split class. */
static int split_view(struct rep *p, const struct rbench *rb, const struct bench_view *v,
		      long i0, long i1)
{
	int said = 0;
	for (long f0 = i0; f0 < i1;) {
		long f1 = f0;
		while (f1 < i1 && !strcmp(p->s[f1].gkey, p->s[f0].gkey) &&
		       !strcmp(p->s[f1].facet, p->s[f0].facet))
			f1++;
		const char *cls[64];
		int ncls = 0;
		for (long i = f0; i < f1; i++) {
			int known = 0;
			for (int c = 0; c < ncls && !known; c++)
				known = !strcmp(cls[c], p->s[i].cls);
			if (!known && ncls < 64)
				cls[ncls++] = p->s[i].cls;
		}
		for (int m = 0; m < p->nm; m++)
			for (int c = 0; c < ncls; c++) {
				struct split sp;
				char text[1024];
				if (rpt_class_split(p, v, m, cls[c], 0, f0, f1, &sp, text,
						    sizeof(text)) < 2)
					continue;
				doc_p(&p->doc,
				      "Split class: %s, %s %s %s, %s %s: %s. Its median over pairs "
				      "lies where no pair is, and is not shown alone.",
				      p->mach[m].label, rb->name, v->facet_col, p->s[f0].facet,
				      v->class_col, cls[c], text);
				said = 1;
			}
		f0 = f1;
	}
	return said;
}

void rpt_split_summary(struct rep *p)
{
	for (int bi = 0; bi < p->nb; bi++)
		for (int vi = 0; p->bench[bi].views[vi].kind; vi++) {
			const struct bench_view *v = &p->bench[bi].views[vi];
			long i0, i1;
			if (v->kind == VIEW_MATRIX && rpt_view_range(p, bi, vi, &i0, &i1))
				split_view(p, &p->bench[bi], v, i0, i1);
		}
}

int rpt_clusters(const struct rep *p, const struct bench_view *v, int m, long f0, long f1,
		 int **core_out, int **pkg_out, int **present)
{
	struct mpairs q;
	pairs_of(p, v, m, f0, f1, &q);
	int top = 0;
	for (long i = 0; i < q.n; i++) {
		top = q.a[i] >= top ? q.a[i] + 1 : top;
		top = q.b[i] >= top ? q.b[i] + 1 : top;
	}
	int *core = xcalloc((size_t)top + 1, sizeof(int)),
	    *pkg = xcalloc((size_t)top + 1, sizeof(int)),
	    *in = xcalloc((size_t)top + 1, sizeof(int));
	for (long i = 0; i < q.n; i++)
		in[q.a[i]] = in[q.b[i]] = 1;
	split_clusters(q.a, q.b, q.core, q.n, top, core);
	split_clusters(q.a, q.b, q.pkg, q.n, top, pkg);
	pairs_free(&q);
	*core_out = core, *pkg_out = pkg, *present = in;
	return top;
}

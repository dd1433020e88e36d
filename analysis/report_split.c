/* Classes of a matrix view that are two populations (stats/split.h): said in the per-class
 * tables, under each heat map and in the Summary, so that a class median no pair has is never
 * shown alone. The PUs' clusters by core and package (rpt_clusters) are here too: the heat maps
 * order their PUs by them. */
#include "analysis/report_int.h"
#include "lib/util.h"
#include "stats/split.h"
#include <stdlib.h>
#include <string.h>

int rpt_class_split(const struct rep *p, const struct bench_view *v, int m, const char *cls,
		    int k, long f0, long f1, struct split *sp, char *text, size_t cap)
{
	int *core, *pkg, *in, top = rpt_clusters(p, v, m, f0, f1, &core, &pkg, &in);
	int *ord = xcalloc((size_t)top + 1, sizeof(int)), nord = 0;
	for (int i = 0; i < top; i++) /* packages numbered from 0 in the order of their first PU */
		ord[i] = in[i] && pkg[i] == i ? nord++ : -1;
	struct vec val = {0}, attr = {0};
	for (long i = f0; i < f1; i++) {
		const struct sample *s = &p->s[i];
		if (s->m != m || strcmp(s->cls, cls) || !s->val[k].n)
			continue;
		vec_push(&val, rpt_stat(&s->val[k]).med);
		vec_push(&attr, pkg[s->a] == pkg[s->b] ? ord[pkg[s->a]] : -1);
	}
	long *a = xcalloc(attr.n + 1, sizeof(long));
	for (size_t i = 0; i < attr.n; i++)
		a[i] = (long)attr.v[i];
	int g = split_values(val.v, a, (int)val.n, sp);
	if (text && cap)
		text[0] = 0;
	if (text && g > 1)
		split_text(sp, "package", v->metrics[k].unit, text, cap);
	free(a);
	free(val.v);
	free(attr.v);
	free(ord);
	free(core);
	free(pkg);
	free(in);
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

/* Union-find root with path halving: clusters of PUs that share a core or a package. */
static int root(int *up, int i)
{
	while (up[i] != i)
		i = up[i] = up[up[i]];
	return i;
}

static void join(int *up, int a, int b)
{
	a = root(up, a), b = root(up, b);
	if (a != b)
		up[a > b ? a : b] = a < b ? a : b; /* the smallest PU names the cluster */
}

int rpt_clusters(const struct rep *p, const struct bench_view *v, int m, long f0, long f1,
		 int **core_out, int **pkg_out, int **present)
{
	int ncls = 0, top = 0;
	while (v->classes && v->classes[ncls])
		ncls++;
	for (long i = f0; i < f1; i++)
		if (p->s[i].m == m) {
			top = p->s[i].a >= top ? p->s[i].a + 1 : top;
			top = p->s[i].b >= top ? p->s[i].b + 1 : top;
		}
	int *core = xcalloc((size_t)top + 1, sizeof(int)),
	    *pkg = xcalloc((size_t)top + 1, sizeof(int)),
	    *in = xcalloc((size_t)top + 1, sizeof(int));
	for (int i = 0; i < top; i++)
		core[i] = pkg[i] = i;
	for (long i = f0; i < f1; i++) {
		const struct sample *s = &p->s[i];
		if (s->m != m)
			continue;
		in[s->a] = in[s->b] = 1;
		if (ncls && !strcmp(s->cls, v->classes[0]))
			join(core, s->a, s->b);
		int same_pkg = 0; /* a declared class before the last: a class not declared says
				   * nothing of the package (pingpong's unknown-package) */
		for (int c = 0; c < ncls - 1; c++)
			same_pkg |= !strcmp(s->cls, v->classes[c]);
		if (same_pkg)
			join(pkg, s->a, s->b);
	}
	for (int i = 0; i < top; i++)
		core[i] = root(core, i), pkg[i] = root(pkg, i);
	*core_out = core, *pkg_out = pkg, *present = in;
	return top;
}

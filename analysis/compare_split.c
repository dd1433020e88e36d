/* compare's classes that split (stats/split.h, docs/report.md#classes-that-split): a class whose
 * pairs' values form groups with an empty gap between (the dual EPYC 7R13's same-package: 107.6 ns
 * inside package 0, 200.5 ns inside package 1, no pair between) has a median no pair has. Per side,
 * both of compare's tables and its --csv and --json give such a class group by group: each group's
 * median and pair count, and the package that separates the groups. */
#include "analysis/compare.h"
#include "schema/desc.h"
#include "stats/split.h"
#include "stats/stats.h"
#include "lib/util.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cmp_class {
	int group;        /* its first configuration in the table's order: its settings and class */
	int nmet;
	int splits;       /* it splits on a side in some metric */
	struct split *sp; /* [side * nmet + metric]; ngroups 0: no value of it on that side */
};

/* A configuration of a bench with a class view, filed by its settings and class. */
struct ent {
	char *facet;
	const char *cls;
	int pos, gi, a, b; /* its place in the table's order; its pair's PUs */
};

static int by_facet(const void *x, const void *y)
{
	const struct ent *p = x, *q = y;
	int d = strcmp(p->facet, q->facet);
	d = d ? d : strcmp(p->cls, q->cls);
	return d ? d : p->pos - q->pos;
}

/* Configuration gi's key without the variant and the key columns k with skip[k] set: bench
 * index, then each other key value (0x01 for an absent one), 0x1f between. Malloc'ed. */
static char *cmp_key_but(const struct groups *g, int gi, const unsigned char *skip)
{
	const struct grp_group *gr = &g->group[gi];
	const struct grp_bench *b = &g->bench[gr->bench];
	size_t n = 16;
	for (int i = 1; i < b->nkey; i++)
		n += (gr->val[i] ? strlen(gr->val[i]) : 1) + 1;
	char *k = xcalloc(n, 1);
	size_t len = (size_t)snprintf(k, n, "%d", gr->bench);
	for (int i = 1; i < b->nkey; i++)
		if (!skip[i])
			len += (size_t)snprintf(k + len, n - len, "\x1f%s",
						gr->val[i] ? gr->val[i] : "\x01");
	return k;
}

/* The settings of configuration gi: its key without the variant, the loose columns (the pair),
 * the class kc and the columns unrec marks (some configuration of the bench did not record them:
 * an imported matrix's samples, an older schema's column), so that a class meets its like on the
 * other side as the pairs' join does (groups_join.c). */
static char *facet_key(const struct groups *g, int gi, int kc, const unsigned char *unrec)
{
	const struct grp_bench *b = &g->bench[g->group[gi].bench];
	unsigned char *skip = xcalloc((size_t)b->nkey + 1, 1);
	for (int i = 1; i < b->nkey; i++) {
		skip[i] = i == kc || unrec[i];
		for (int j = 0; b->b->match_loose && b->b->match_loose[j]; j++)
			skip[i] |= !strcmp(b->b->match_loose[j], b->key_col[i]);
	}
	char *k = cmp_key_but(g, gi, skip);
	free(skip);
	return k;
}

/* A PU number as a key column holds it, or -1. */
static int pu_of(const char *v)
{
	char *end;
	long n = v ? strtol(v, &end, 10) : -1;
	return v && *v && !*end && n >= 0 && n < (1 << 20) ? (int)n : -1;
}

/* The pairs of one settings set e[0..n) (sorted by class): each class split on each side and
 * metric, the packages clustered over every class's pairs of that side. */
static void facet(struct cmp *c, const struct ent *e, int n)
{
	const struct grp_bench *b = &c->g.bench[c->g.group[e[0].gi].bench];
	const struct bench_view *v = cmp_class_view(b);
	int first = c->ncls, *a = xcalloc((size_t)n + 1, sizeof(int)),
	    *pb = xcalloc((size_t)n + 1, sizeof(int)), *at = xcalloc((size_t)n + 1, sizeof(int));
	unsigned char *same = xcalloc((size_t)n + 1, 1), *in = xcalloc((size_t)n + 1, 1);
	double *val = xcalloc((size_t)n + 1, sizeof(double));
	for (int k0 = 0, k1; k0 < n; k0 = k1) { /* a class a run of e */
		for (k1 = k0; k1 < n && !strcmp(e[k1].cls, e[k0].cls); k1++)
			c->cls_of[e[k1].gi] = c->ncls;
		c->cls = realloc(c->cls, (size_t)(c->ncls + 1) * sizeof(*c->cls));
		if (!c->cls)
			out_of_memory(0);
		c->cls[c->ncls++] = (struct cmp_class){
			.group = e[k0].gi, .nmet = b->nmet,
			.sp = xcalloc((size_t)b->nmet * 2 + 1, sizeof(struct split)) };
	}
	for (int s = 0; s < 2; s++)
		for (int m = 0; m < b->nmet; m++) {
			int cnt = 0;
			for (int k = 0; k < n && b->met_seen[m]; k++) {
				const struct grp_cell *cell;
				if (!(cell = groups_cell(&c->g, e[k].gi, c->side[s])))
					continue;
				const struct grp_vals *x = &cell->met[m];
				a[cnt] = e[k].a;
				pb[cnt] = e[k].b;
				same[cnt] = (unsigned char)desc_class_in_package(v, e[k].cls);
				val[cnt] = x->n ? stats_of(x->v, x->n).median : NAN;
				at[cnt++] = c->cls_of[e[k].gi];
			}
			for (int k = first; k < c->ncls && cnt; k++) {
				struct cmp_class *cl = &c->cls[k];
				for (int j = 0; j < cnt; j++)
					in[j] = at[j] == k;
				struct split *sp = &cl->sp[s * b->nmet + m];
				cl->splits |= split_class(a, pb, same, in, val, cnt, sp) > 1;
			}
		}
	free(a);
	free(pb);
	free(at);
	free(same);
	free(in);
	free(val);
}

void cmp_splits(struct cmp *c)
{
	if (c->cls_of)
		return;
	const struct groups *g = &c->g;
	c->cls_of = xcalloc((size_t)g->ngroup + 1, sizeof(int));
	struct ent *e = xcalloc((size_t)g->ngroup + 1, sizeof(*e));
	int ne = 0;
	unsigned char **unrec = xcalloc((size_t)g->nbench + 1, sizeof(*unrec));
	for (int bi = 0; bi < g->nbench; bi++)
		unrec[bi] = xcalloc((size_t)g->bench[bi].nkey + 1, 1);
	for (int gi = 0; gi < g->ngroup; gi++)
		for (int k = 0; g->group[gi].nrec && k < g->bench[g->group[gi].bench].nkey; k++)
			unrec[g->group[gi].bench][k] |= g->group[gi].nrec[k] != 0;
	for (int i = 0; i < g->ngroup; i++) {
		int gi = g->order[i];
		const struct grp_group *gr = &g->group[gi];
		const struct grp_bench *b = &g->bench[gr->bench];
		const struct bench_view *v = cmp_class_view(b);
		int kc = v ? cmp_key_of(b, v->class_col) : -1,
		    ka = v && v->row_col ? cmp_key_of(b, v->row_col) : -1,
		    kb = v && v->col_col ? cmp_key_of(b, v->col_col) : -1;
		c->cls_of[gi] = -1;
		if (kc < 0 || ka < 0 || kb < 0 || !gr->val[kc] || pu_of(gr->val[ka]) < 0 ||
		    pu_of(gr->val[kb]) < 0)
			continue;
		e[ne++] = (struct ent){ facet_key(g, gi, kc, unrec[gr->bench]), gr->val[kc], i, gi,
					pu_of(gr->val[ka]), pu_of(gr->val[kb]) };
	}
	qsort(e, (size_t)ne, sizeof(*e), by_facet);
	for (int f0 = 0, f1; f0 < ne; f0 = f1) {
		for (f1 = f0; f1 < ne && !strcmp(e[f1].facet, e[f0].facet); f1++)
			;
		facet(c, e + f0, f1 - f0);
	}
	for (int i = 0; i < ne; i++)
		free(e[i].facet);
	free(e);
	for (int bi = 0; bi < g->nbench; bi++)
		free(unrec[bi]);
	free(unrec);
}

void cmp_splits_free(struct cmp *c)
{
	for (int k = 0; k < c->ncls; k++)
		free(c->cls[k].sp);
	free(c->cls);
	free(c->cls_of);
	c->cls = NULL;
	c->cls_of = NULL;
	c->ncls = 0;
}

/* The class whose first configuration in the table's order is gi, where it splits on a side in
 * some metric; else -1. */
static int cmp_split_at(struct cmp *c, int gi)
{
	cmp_splits(c);
	int k = c->cls_of[gi];
	return k >= 0 && c->cls[k].group == gi && c->cls[k].splits ? k : -1;
}

/* Class k named by its settings and class: "pingpong class=same-package mode=cas". */
static void cmp_split_label(const struct cmp *c, int k, char *out, size_t n)
{
	const struct grp_group *gr = &c->g.group[c->cls[k].group];
	const struct grp_bench *b = &c->g.bench[gr->bench];
	const struct bench_view *v = cmp_class_view(b);
	size_t len = (size_t)snprintf(out, n, "%s", b->name);
	for (int i = 1; i < b->nkey && len < n; i++) {
		int loose = 0;
		for (int j = 0; b->b->match_loose && b->b->match_loose[j]; j++)
			loose |= !strcmp(b->b->match_loose[j], b->key_col[i]);
		if (!loose && (!strcmp(b->key_col[i], v->class_col) ||
			       (v->facet_col && !strcmp(b->key_col[i], v->facet_col)) ||
			       (b->varies && b->varies[i])))
			len += (size_t)snprintf(out + len, n - len, " %s=%s", b->key_col[i],
						gr->val[i] ? gr->val[i] : "(absent)");
	}
}

/* Class k on side s (0 A, 1 B) and metric m: its groups ("package 0: 107.6 ns (3,840 pairs),
 * package 1: 200.5 ns (3,840); no value between 115.9 and 185.6 ns"), or one group's median and
 * pair count, or "no value of this class". Returns 1 when it splits. */
static int cmp_split_side(const struct cmp *c, int k, int s, int m, char *out, size_t n)
{
	const struct cmp_class *cl = &c->cls[k];
	const struct split *sp = &cl->sp[s * cl->nmet + m];
	const char *unit = c->g.bench[c->g.group[cl->group].bench].unit[m];
	if (!sp->ngroups)
		snprintf(out, n, "no value of this class");
	else if (sp->ngroups == 1)
		snprintf(out, n, "one group, %.4g %s over %d pair(s)", sp->g[0].median,
			 unit ? unit : "", sp->g[0].n);
	else
		split_text(sp, "package", unit ? unit : "", out, n);
	return sp->ngroups > 1;
}

/* Class k's value of the class column, or NULL (k < 0). */
static const char *class_name(const struct cmp *c, int k)
{
	if (k < 0)
		return NULL;
	const struct grp_group *gr = &c->g.group[c->cls[k].group];
	const struct grp_bench *b = &c->g.bench[gr->bench];
	return gr->val[cmp_key_of(b, cmp_class_view(b)->class_col)];
}

int cmp_split_words(const struct cmp *c, const struct cmp_line *l, char *out, size_t n)
{
	char side[2][1024];
	out[0] = 0;
	if (!c->cls_of)
		return 0;
	int k = c->cls_of[l->group], kb = c->cls_of[l->group_b], any = 0;
	if (k < 0 && kb < 0)
		return 0;
	for (int s = 0; s < 2; s++) {
		int ks = s ? kb : k;
		snprintf(side[s], sizeof(side[s]), "no pair of it");
		if (ks >= 0)
			any |= cmp_split_side(c, ks, s, l->metric, side[s], sizeof(side[s]));
	}
	if (any) {
		const char *ca = class_name(c, k), *cb = class_name(c, kb);
		if (ca && cb && !strcmp(ca, cb))
			snprintf(out, n, "class %s splits. A: %s. B: %s.", ca, side[0], side[1]);
		else /* the baseline across classes: each side's own class */
			snprintf(out, n, "classes split. A (%s): %s. B (%s): %s.", ca ? ca : "none",
				 side[0], cb ? cb : "none", side[1]);
	}
	return any;
}

/* "B/A by package: package 0 1.000, package 1 1.000" where both sides split by the same
 * packages, else "". */
static void by_group(const struct cmp_class *cl, int m, char *out, size_t n)
{
	const struct split *x = &cl->sp[m], *y = &cl->sp[cl->nmet + m];
	int same = x->ngroups > 1 && x->ngroups == y->ngroups && x->by_attr && y->by_attr;
	for (int i = 0; same && i < x->ngroups; i++)
		same = x->g[i].attr == y->g[i].attr && x->g[i].median > 0;
	size_t k = 0;
	out[0] = 0;
	for (int i = 0; same && i < x->ngroups && k < n; i++)
		k += (size_t)snprintf(out + k, n - k, "%s package %ld %.3f",
				      i ? "," : "B/A by package:", x->g[i].attr,
				      y->g[i].median / x->g[i].median);
}

void cmp_print_splits(FILE *f, struct cmp *c)
{
	int header = 0;
	cmp_splits(c);
	for (int i = 0; i < c->g.ngroup; i++) {
		int k = cmp_split_at(c, c->g.order[i]);
		if (k < 0)
			continue;
		const struct grp_bench *b = &c->g.bench[c->g.group[c->cls[k].group].bench];
		char lab[512], side[2][1024], ratio[200], line[2900];
		if (!header && fputc('\n', f) != EOF)
			cmp_wrap(f, 0, 0,
				 "classes that split: their pairs' values form groups with no "
				 "value between (docs/report.md#classes-that-split), so a class "
				 "is given group by group, each with its median and pair count, "
				 "never by its median alone:");
		header = 1;
		cmp_split_label(c, k, lab, sizeof(lab));
		for (int m = 0; m < b->nmet; m++) {
			if (!b->met_seen[m])
				continue;
			for (int s = 0; s < 2; s++)
				cmp_split_side(c, k, s, m, side[s], sizeof(side[s]));
			by_group(&c->cls[k], m, ratio, sizeof(ratio));
			snprintf(line, sizeof(line), "  %s %s: A: %s. B: %s.%s%s", lab,
				 b->metric[m], side[0], side[1], ratio[0] ? " " : "", ratio);
			fputs("  ", f);
			cmp_wrap(f, 2, 4, line + 2);
		}
	}
}

/* Do class k's configurations differ between the sides: one holds a pair the other has not? */
static int pairs_differ(const struct cmp *c, int k)
{
	for (int gi = 0; gi < c->g.ngroup; gi++)
		if (c->cls_of[gi] == k &&
		    !groups_cell(&c->g, gi, c->side[0]) != !groups_cell(&c->g, gi, c->side[1]))
			return 1;
	return 0;
}

void cmp_print_classes(FILE *f, struct cmp *c)
{
	int header = 0;
	cmp_splits(c);
	for (int k = 0; k < c->ncls; k++) {
		const struct cmp_class *cl = &c->cls[k];
		const struct grp_bench *b = &c->g.bench[c->g.group[cl->group].bench];
		int both = 0;
		for (int m = 0; m < b->nmet; m++)
			both |= b->met_seen[m] && cl->sp[m].ngroups && cl->sp[b->nmet + m].ngroups;
		if (cl->splits || !both || !pairs_differ(c, k))
			continue; /* a class that splits: in the block of those */
		if (!header && fputc('\n', f) != EOF)
			cmp_wrap(f, 0, 0,
				 "each class whose pairs differ between the sides (they do not "
				 "join one by one), its pairs pooled: each side's median over the "
				 "class's pairs (a pair's value: its median over its valid "
				 "repetitions), its pair count and B/A; descriptive, no verdict "
				 "(pairs are not repetitions); an imported side's values are its "
				 "tool's statistic, as its configurations' lines say:");
		header = 1;
		char lab[512], side[2][1024], line[2700];
		cmp_split_label(c, k, lab, sizeof(lab));
		for (int m = 0; m < b->nmet; m++) {
			const struct split *x = &cl->sp[m], *y = &cl->sp[b->nmet + m];
			if (!b->met_seen[m])
				continue;
			for (int sd = 0; sd < 2; sd++)
				cmp_split_side(c, k, sd, m, side[sd], sizeof(side[sd]));
			size_t len = (size_t)snprintf(line, sizeof(line), "%s %s: A: %s. B: %s.",
						      lab, b->metric[m], side[0], side[1]);
			if (x->ngroups == 1 && y->ngroups == 1 && x->g[0].median > 0 &&
			    len < sizeof(line))
				snprintf(line + len, sizeof(line) - len, " B/A %.3f",
					 y->g[0].median / x->g[0].median);
			fputs("  ", f);
			cmp_wrap(f, 2, 4, line);
		}
	}
}


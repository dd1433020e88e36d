/* The baseline between machines of any shape: beside the classes both have (joined by match_by),
 * each side's nearest and farthest class join, labelled with each side's class. */
#include "analysis/compare.h"
#include "schema/desc.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

const struct bench_view *cmp_class_view(const struct grp_bench *b)
{
	for (const struct bench_view *v = b->b ? b->b->views : NULL; v && v->kind; v++)
		if (v->kind == VIEW_MATRIX && v->is_baseline && v->class_col && v->classes &&
		    b->b->match_by && !strcmp(v->class_col, b->b->match_by))
			return v;
	return NULL;
}

int cmp_key_of(const struct grp_bench *b, const char *col)
{
	for (int k = 0; k < b->nkey; k++)
		if (!strcmp(b->key_col[k], col))
			return k;
	return -1;
}

/* A class's distance rank: its place in the view's list, nearest first (unlisted: after). */
static int rank(const struct bench_view *v, const char *cls)
{
	int i = 0;
	while (cls && v->classes[i] && strcmp(v->classes[i], cls))
		i++;
	return cls ? i : 1 << 20;
}

/* Do groups x and y have the same settings but for the variant, the loose columns and the class
 * (the same mode, samples, lines...), where an older side's effective value stands in for what it
 * did not record (groups_join.c)? */
static int same_rest(const struct cmp *c, int x, int y, int kc)
{
	const struct grp_group *gx = &c->g.group[x], *gy = &c->g.group[y];
	const struct grp_bench *b = &c->g.bench[gx->bench];
	unsigned char skip[256] = { 1 };
	if (gx->bench != gy->bench || b->nkey > (int)sizeof(skip))
		return 0;
	for (int k = 1; k < b->nkey; k++) {
		skip[k] = k == kc;
		for (int i = 0; b->b->match_loose && b->b->match_loose[i]; i++)
			skip[k] |= !strcmp(b->b->match_loose[i], b->key_col[k]);
	}
	return grp_agree(&c->g, x, y, skip);
}

static void add(struct cmp *c, int ga, int gb, const char *what)
{
	c->extra = realloc(c->extra, (size_t)(c->nextra + 1) * sizeof(*c->extra));
	if (!c->extra)
		out_of_memory(0);
	c->extra[c->nextra++] = (struct cmp_extra){ .ga = ga, .gb = gb, .what = what };
}

void cmp_baseline_pairs(struct cmp *c)
{
	for (int i = 0; i < c->g.ngroup; i++) { /* each settings set, at its first group */
		int x = c->g.order[i];
		const struct grp_bench *b = &c->g.bench[c->g.group[x].bench];
		const struct bench_view *v = cmp_class_view(b);
		int kc = v ? cmp_key_of(b, v->class_col) : -1, first = 1;
		if (kc < 0)
			continue;
		for (int j = 0; j < i && first; j++)
			first = !same_rest(c, c->g.order[j], x, kc);
		if (!first)
			continue;
		int near[2] = { -1, -1 }, far[2] = { -1, -1 };
		for (int j = i; j < c->g.ngroup; j++) {
			int y = c->g.order[j];
			if (!same_rest(c, x, y, kc))
				continue;
			int r = rank(v, c->g.group[y].val[kc]);
			for (int s = 0; s < 2; s++) {
				if (!groups_cell(&c->g, y, c->side[s]))
					continue;
				if (near[s] < 0 || r < rank(v, c->g.group[near[s]].val[kc]))
					near[s] = y;
				if (far[s] < 0 || r > rank(v, c->g.group[far[s]].val[kc]))
					far[s] = y;
			}
		}
		if (near[0] < 0 || near[1] < 0)
			continue;
		const char *na = c->g.group[near[0]].val[kc], *nb = c->g.group[near[1]].val[kc];
		const char *fa = c->g.group[far[0]].val[kc], *fb = c->g.group[far[1]].val[kc];
		int dn = !na || !nb || strcmp(na, nb), df = !fa || !fb || strcmp(fa, fb);
		if (dn && df && near[0] == far[0] && near[1] == far[1])
			add(c, near[0], near[1], "nearest and farthest");
		else {
			if (dn) /* the same class on both sides is joined by class already */
				add(c, near[0], near[1], "nearest");
			if (df)
				add(c, far[0], far[1], "farthest");
		}
	}
}

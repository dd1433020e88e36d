/* Configurations whose rows did not record a column (an older schema): joined on the effective
 * value with the one configuration that agrees with them (resultset.h, groups_schema.h). */
#include "analysis/groups_int.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "schema/meta.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A measured duration stands in for a requested one within 10% (a window is timed, not exact). */
static int same_value(const struct grp_bench *b, int k, const char *x, const char *y)
{
	double dx, dy;
	if (!strcmp(x, y))
		return 1;
	return !strcmp(b->key_col[k], harness_config[0]) && !parse_double(x, &dx) &&
	       !parse_double(y, &dy) && dx > 0 && dy > 0 && fabs(dx - dy) <= 0.1 * fmax(dx, dy);
}

/* The effective value of key column k in group h where its rows recorded it: what every cell's
 * rows resolved it to (its first resolved column), else the value asked; NULL when the cells
 * resolved it differently. */
static const char *effective(const struct groups *g, int h, int k)
{
	const struct grp_group *gr = &g->group[h];
	const struct grp_bench *b = &g->bench[gr->bench];
	int r = 0;
	while (r < b->nres && b->res_key[r] != k)
		r++;
	if (r == b->nres)
		return gr->val[k];
	const char *v = NULL;
	for (int sd = 0; sd < g->nside; sd++) { /* its cells, one a side: hashed, not scanned */
		const struct grp_cell *cl = groups_cell(g, h, sd);
		if (!cl || !cl->res[r])
			continue;
		if (v && strcmp(v, cl->res[r]))
			return NULL;
		v = cl->res[r];
	}
	return v;
}

int grp_agree(const struct groups *g, int x, int y, const unsigned char *skip)
{
	const struct grp_group *gx = &g->group[x], *gy = &g->group[y];
	const struct grp_bench *b = &g->bench[gx->bench];
	if (gx->bench != gy->bench)
		return 0;
	for (int k = 0; k < b->nkey; k++) { /* the recorded columns first: cheap */
		const char *p = gx->val[k], *q = gy->val[k];
		if (skip && skip[k])
			continue;
		if (!gx->nrec[k] && !gy->nrec[k] && (!p || !q ? p != q : strcmp(p, q)))
			return 0;
	}
	for (int k = 0; k < b->nkey; k++) {
		if ((skip && skip[k]) || (!gx->nrec[k] && !gy->nrec[k]))
			continue;
		const char *p = gx->nrec[k] ? gx->eff[k] : effective(g, x, k);
		const char *q = gy->nrec[k] ? gy->eff[k] : effective(g, y, k);
		if ((gx->nrec[k] && !p) || (gy->nrec[k] && !q))
			continue; /* nothing stands in: the line says so */
		if (!p || !q || !same_value(b, k, p, q))
			return 0;
	}
	return 1;
}

/* Do groups x and y have a cell on one side (has: per group and side, the group's own cells and
 * those of the groups joined into it so far)? */
static int overlap(const struct groups *g, const unsigned char *has, int x, int y)
{
	for (int s = 0; s < g->nside; s++)
		if (has[(size_t)x * (size_t)g->nside + (size_t)s] &&
		    has[(size_t)y * (size_t)g->nside + (size_t)s])
			return 1;
	return 0;
}

uint64_t grp_bucket(const struct groups *g, int x, const unsigned char *use)
{
	const struct grp_group *gr = &g->group[x];
	const struct grp_bench *b = &g->bench[gr->bench];
	uint64_t h = 1469598103934665603ULL ^ (uint64_t)gr->bench;
	h *= 1099511628211ULL;
	for (int k = 0; k < b->nkey; k++) {
		if (!use[k])
			continue;
		for (const char *c = gr->val[k] ? gr->val[k] : "\001absent"; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
		h = (h ^ 0xff) * 1099511628211ULL;
	}
	return h;
}

int grp_by_bucket(const void *x, const void *y)
{
	const struct grp_bucketed *a = x, *b = y;
	if (a->h != b->h)
		return (a->h > b->h) - (a->h < b->h);
	return (a->group > b->group) - (a->group < b->group);
}

void grp_join_unrecorded(struct groups *g)
{
	int merged = 0, any_nrec = 0;
	unsigned char **allrec = xcalloc((size_t)g->nbench + 1, sizeof(*allrec));
	for (int bi = 0; bi < g->nbench; bi++) {
		allrec[bi] = xcalloc((size_t)g->bench[bi].nkey + 1, 1);
		memset(allrec[bi], 1, (size_t)g->bench[bi].nkey);
	}
	for (int x = 0; x < g->ngroup; x++) {
		const struct grp_group *gr = &g->group[x];
		for (int k = 0; k < g->bench[gr->bench].nkey; k++)
			if (gr->nrec[k]) {
				allrec[gr->bench][k] = 0;
				any_nrec = 1;
			}
	}
	if (!any_nrec) {
		for (int bi = 0; bi < g->nbench; bi++)
			free(allrec[bi]);
		free(allrec);
		return;
	}
	/* Candidates are looked for in the group's bucket (the key columns every group of its bench
	 * recorded, which any two groups that agree hold equal) only: linear, not square */
	struct grp_bucketed *bk = xcalloc((size_t)g->ngroup + 1, sizeof(*bk));
	for (int x = 0; x < g->ngroup; x++)
		bk[x] = (struct grp_bucketed){ grp_bucket(g, x, allrec[g->group[x].bench]), x };
	qsort(bk, (size_t)g->ngroup, sizeof(*bk), grp_by_bucket);
	int *at = xcalloc((size_t)g->ngroup + 1, sizeof(int)); /* group -> its place in bk */
	for (int i = 0; i < g->ngroup; i++)
		at[bk[i].group] = i;
	int *into = xcalloc((size_t)g->ngroup + 1, sizeof(int));
	for (int i = 0; i < g->ngroup; i++)
		into[i] = -1;
	size_t ns = (size_t)g->nside;
	unsigned char *has = xcalloc((size_t)g->ngroup * ns + 1, 1);
	for (int c = 0; c < g->ncell; c++)
		has[(size_t)g->cell[c].group * ns + (size_t)g->cell[c].side] = 1;
	for (int x = 0; x < g->ngroup; x++) {
		const struct grp_bench *b = &g->bench[g->group[x].bench];
		int any = 0, y = -1, n = 0;
		for (int k = 0; k < b->nkey; k++)
			any |= g->group[x].nrec[k] != 0;
		if (!any)
			continue;
		int lo = at[x], hi = at[x];
		while (lo > 0 && bk[lo - 1].h == bk[at[x]].h)
			lo--;
		while (hi + 1 < g->ngroup && bk[hi + 1].h == bk[at[x]].h)
			hi++;
		for (int i = lo; i <= hi && n < 2; i++) {
			int j = bk[i].group;
			if (j != x && into[j] < 0 && grp_agree(g, x, j, NULL) &&
			    !overlap(g, has, x, j))
				y = j, n++;
		}
		if (n != 1)
			continue; /* none, or more than one: which is unknown */
		into[x] = y;
		merged = 1;
		for (int k = 0; k < b->nkey; k++) /* y's heading says that some rows did not */
			if (g->group[x].nrec[k] && !g->group[y].nrec[k] && !g->group[y].joined[k])
				g->group[y].joined[k] = g->group[x].nrec[k];
		for (size_t sd = 0; sd < ns; sd++) /* its cells are y's from now on */
			has[(size_t)y * ns + sd] |= has[(size_t)x * ns + sd];
	}
	for (int i = 0; i < g->ngroup; i++) /* x into y into z: x into z */
		while (into[i] >= 0 && into[into[i]] >= 0)
			into[i] = into[into[i]];
	if (merged) /* the cells moved and both tables filed again, once */
		grp_merge_groups(g, into);
	free(has);
	free(into);
	free(at);
	free(bk);
	for (int bi = 0; bi < g->nbench; bi++)
		free(allrec[bi]);
	free(allrec);
}

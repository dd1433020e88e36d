/* Configurations whose rows did not record a column (an older schema): joined on the effective
 * value with the one configuration that agrees with them (groups.h, groups_schema.h). */
#include "analysis/groups.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "schema/meta.h"
#include <math.h>
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
	for (int c = 0; c < g->ncell; c++) {
		const struct grp_cell *cl = &g->cell[c];
		if (cl->group != h || !cl->res[r])
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

/* Do groups x and y have a cell on one side? */
static int overlap(const struct groups *g, int x, int y)
{
	for (int s = 0; s < g->nside; s++)
		if (groups_cell(g, x, s) && groups_cell(g, y, s))
			return 1;
	return 0;
}

void grp_join_unrecorded(struct groups *g)
{
	int *into = xcalloc((size_t)g->ngroup + 1, sizeof(int)), merged = 0;
	for (int i = 0; i < g->ngroup; i++)
		into[i] = -1;
	for (int x = 0; x < g->ngroup; x++) {
		const struct grp_bench *b = &g->bench[g->group[x].bench];
		int any = 0, y = -1, n = 0;
		for (int k = 0; k < b->nkey; k++)
			any |= g->group[x].nrec[k] != 0;
		if (!any)
			continue;
		for (int j = 0; j < g->ngroup && n < 2; j++)
			if (j != x && into[j] < 0 && grp_agree(g, x, j, NULL) && !overlap(g, x, j))
				y = j, n++;
		if (n != 1)
			continue; /* none, or more than one: which is unknown */
		into[x] = y;
		merged = 1;
		for (int k = 0; k < b->nkey; k++) /* y's heading says that some rows did not */
			if (g->group[x].nrec[k] && !g->group[y].nrec[k] && !g->group[y].joined[k])
				g->group[y].joined[k] = g->group[x].nrec[k];
		for (int c = 0; c < g->ncell; c++) /* its cells are y's from now on */
			if (g->cell[c].group == x)
				g->cell[c].group = y;
		grp_merge_groups(g, NULL); /* the cell table, filed again */
	}
	if (merged)
		grp_merge_groups(g, into);
	free(into);
}

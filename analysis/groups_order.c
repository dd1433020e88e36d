/* The grouping engine's last steps: order the groups as a person reads them, name them, free them.
 */
#include "analysis/groups_int.h"
#include "schema/desc.h"
#include "lib/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct groups *sort_g; /* qsort has no context argument */

/* Absent values sort before present ones, numbers in numeric order ("8" < "16"). */
static int cmp_val(const char *a, const char *b)
{
	if (!a || !b)
		return a ? 1 : b ? -1 : 0;
	if (!strcmp(a, b)) /* most keys of two groups are the same: strverscmp is slow to say so */
		return 0;
	return strverscmp(a, b);
}

/* Bench by name, then the variant in declared order (baseline first), then the other key values. */
static int cmp_group(const void *x, const void *y)
{
	const struct grp_group *a = &sort_g->group[*(const int *)x],
			       *b = &sort_g->group[*(const int *)y];
	int c = strcmp(sort_g->bench[a->bench].name, sort_g->bench[b->bench].name);
	if (c)
		return c;
	if (a->variant_rank != b->variant_rank)
		return a->variant_rank < b->variant_rank ? -1 : 1;
	int nkey = sort_g->bench[a->bench].nkey;
	for (int i = 0; i < nkey; i++)
		if ((c = cmp_val(a->val[i], b->val[i])) || (c = cmp_val(a->eff[i], b->eff[i])))
			return c;
	return 0;
}

static void mark_varying(struct groups *g);

int groups_finish(struct groups *g, char *err)
{
	if (grp_relabel_unused())
		return err_set(err,
			       "--label '%.200s' names none of the inputs; accepted: DIR=NAME, DIR "
			       "an input or a file or directory in one",
			       grp_relabel_unused());
	grp_join_unrecorded(g);
	for (int w = 0; w < g->nwant; w++) {
		int seen = 0;
		for (int b = 0; b < g->nbench; b++)
			for (int m = 0; m < g->bench[b].nmet; m++)
				seen |= !strcmp(g->bench[b].metric[m], g->want[w]) &&
					g->bench[b].met_seen[m];
		if (!seen) {
			char avail[400];
			groups_available(g, avail, sizeof(avail));
			return err_set(err, "--metric %s: no input has this column; accepted: %s",
				       g->want[w], avail);
		}
	}
	for (int b = 0; b < g->nbench && !g->nwant; b++) { /* said, never an empty table alone */
		int any = 0;
		for (int m = 0; m < g->bench[b].nmet; m++)
			any |= g->bench[b].met_seen[m];
		if (any || g->bench[b].b) /* a described bench names its own metrics */
			continue;
		g->warnings++;
		fprintf(grp_warn_to(),
			"c2cbench: warning: bench '%s' has no metric to compare: this build does "
			"not know it and its CSVs declare none (no X.bench or X.columns beside "
			"them: an older schema?); name one with compare --metric (its numeric "
			"columns: %.300s)\n",
			g->bench[b].name, g->bench[b].avail[0] ? g->bench[b].avail : "none");
	}
	free(g->order);
	g->order = xcalloc((size_t)g->ngroup + 1, sizeof(int));
	for (int i = 0; i < g->ngroup; i++)
		g->order[i] = i;
	mark_varying(g);
	sort_g = g;
	qsort(g->order, (size_t)g->ngroup, sizeof(int), cmp_group);
	sort_g = NULL;
	return 0;
}

void groups_available(const struct groups *g, char *out, size_t n)
{
	size_t k = 0;
	out[0] = 0;
	for (int b = 0; b < g->nbench && k < n; b++)
		k += (size_t)snprintf(out + k, n - k, "%s%s: %s", b ? "; " : "", g->bench[b].name,
				      g->bench[b].avail[0] ? g->bench[b].avail : "(none)");
	if (!g->nbench)
		snprintf(out, n, "(no rows)");
	if (k >= n && n > 4)
		memcpy(out + n - 4, "...", 4);
}

/* Which key columns take more than one value among a bench's groups: one pass over the groups. */
static void mark_varying(struct groups *g)
{
	const char ***first = xcalloc((size_t)g->nbench + 1, sizeof(*first));
	int *seen = xcalloc((size_t)g->nbench + 1, sizeof(int));
	for (int b = 0; b < g->nbench; b++) {
		free(g->bench[b].varies);
		g->bench[b].varies = xcalloc((size_t)g->bench[b].nkey, sizeof(int));
	}
	for (int i = 0; i < g->ngroup; i++) {
		const struct grp_group *gr = &g->group[i];
		struct grp_bench *b = &g->bench[gr->bench];
		if (!seen[gr->bench]++) {
			first[gr->bench] = gr->val;
			continue;
		}
		for (int k = 0; k < b->nkey; k++)
			b->varies[k] |= cmp_val(gr->val[k], first[gr->bench][k]) != 0;
	}
	free(first);
	free(seen);
}

void groups_label(const struct groups *g, int gi, char *out, size_t n)
{
	const struct grp_group *gr = &g->group[gi];
	const struct grp_bench *b = &g->bench[gr->bench];
	size_t k = (size_t)snprintf(out, n, "%s %s", b->name, gr->val[0] ? gr->val[0] : "(absent)");
	for (int i = 1; i < b->nkey && k < n; i++)
		if (b->varies && b->varies[i])
			k += (size_t)snprintf(out + k, n - k, " %s=%s", b->key_col[i],
					      gr->val[i] ? gr->val[i] : "(absent)");
}

static void free_bench(struct grp_bench *b)
{
	for (int i = 0; i < b->nkey; i++)
		free(b->key_col[i]);
	for (int i = 0; i < b->nmet; i++) {
		free(b->metric[i]);
		free(b->decl_unit ? b->decl_unit[i] : NULL);
	}
	free(b->decl_unit);
	free(b->key_col);
	free(b->metric);
	free(b->direction);
	free(b->unit);
	free(b->met_seen);
	free(b->in_verdict);
	free(b->disputed);
	free(b->predict);
	grp_desc_free(b->verdict_desc, NULL);
	free(b->avail);
	free(b->varies);
	free(b->res_key);
	free(b->res_col);
	free(b->res_unit);
	free(b->name);
	grp_desc_free(b->b, b->fb_decl);
}

void groups_free(struct groups *g)
{
	grp_once_free(g);
	for (int i = 0; i < g->ncell; i++) {
		int nmet = g->bench[g->group[g->cell[i].group].bench].nmet;
		for (int m = 0; m < nmet; m++)
			free(g->cell[i].met[m].v), free(g->cell[i].met[m].row);
		free(g->cell[i].met);
		for (int r = 0; r < g->bench[g->group[g->cell[i].group].bench].nres; r++)
			free(g->cell[i].res[r]);
		free(g->cell[i].res);
		free(g->cell[i].res_mixed);
		for (int k = 0; k < g->bench[g->group[g->cell[i].group].bench].nkey; k++)
			free(g->cell[i].why[k]);
		free(g->cell[i].why);
		free(g->cell[i].note_val);
		free(g->cell[i].source);
	}
	for (int i = 0; i < g->ngroup; i++) {
		free(g->key_blob[i]);
		free((void *)g->group[i].val);
		free(g->group[i].nrec);
		free(g->group[i].joined);
		free((void *)g->group[i].eff);
	}
	for (int i = 0; i < g->nbench; i++)
		free_bench(&g->bench[i]);
	for (int i = 0; i < g->nside; i++) {
		free(g->side[i].name);
		free(g->side[i].mach);
	}
	for (int i = 0; i < g->nmach; i++) {
		free(g->mach[i].label);
		free(g->mach[i].host);
		free(g->mach[i].cpu_model);
		free(g->mach[i].file);
		free(g->mach[i].raw);
		grp_fp_free(&g->mach[i].fp);
	}
	for (int i = 0; i < g->nwant; i++)
		free(g->want[i]);
	struct grp_hash *h[] = { &g->gh, &g->ch, &g->mh };
	for (size_t i = 0; i < ARRAY_SIZE(h); i++) {
		free(h[i]->h);
		free(h[i]->idx);
	}
	free(g->want);
	free(g->key_blob);
	free(g->bench);
	free(g->group);
	free(g->cell);
	free(g->side);
	free(g->mach);
	free(g->order);
	free(g->kbuf);
	memset(g, 0, sizeof(*g));
}

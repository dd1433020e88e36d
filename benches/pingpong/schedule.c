#include "benches/pingpong/schedule.h"
#include "lib/util.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_GROUPS 64 /* core-disjoint groups per circle round: one bit each in a core's mask */

/* A bye per round when n is odd: the circle method runs on n+1 positions. */
int circle_rounds(int n)
{
	return n < 2 ? 0 : n % 2 ? n : n - 1;
}

/* Position m-1 stays put; round r pairs r with m-1 and r+k with r-k (mod m-1), so a pair's
 * round is fixed by i+j = 2r (mod m-1), and m-1 is odd, so 2 has the inverse m/2. */
int circle_round(int n, int i, int j)
{
	long m = n % 2 ? n + 1 : n, last = m - 1;
	if (i == last)
		return j;
	if (j == last)
		return i;
	return (int)(((long)(i + j) * (m / 2)) % last);
}

/* Each pair needs two cores (an SMT pair one): distinct cores / 2 pairs never share a core. */
int schedule_auto_cap(const struct topo *t, const int *set, int n, int by_pu)
{
	if (by_pu)
		return n / 2 > 1 ? n / 2 : 1;
	char *seen = xcalloc((size_t)t->ncores + 1, 1);
	int cores = 0;
	for (int i = 0; i < n; i++) {
		const struct pu *u = topo_pu(t, set[i]);
		if (u && u->core >= 0 && u->core < t->ncores && !seen[u->core]++)
			cores++;
	}
	free(seen);
	return cores / 2 > 1 ? cores / 2 : 1;
}

/* Position of each OS CPU number of set (-1 elsewhere): a table as large as the largest number. */
static int *positions(const int *set, int n, int *max_os)
{
	int hi = 0;
	for (int i = 0; i < n; i++)
		hi = set[i] > hi ? set[i] : hi;
	int *pos = xcalloc((size_t)hi + 1, sizeof(int));
	for (int i = 0; i <= hi; i++)
		pos[i] = -1;
	for (int i = 0; i < n; i++)
		pos[set[i]] = i;
	*max_os = hi;
	return pos;
}

/* Core of each OS CPU number up to max_os, from one pass over the PUs (topo_pu scans them all);
 * by_pu: its position in the set instead, so only the PU itself conflicts. */
static int *cores_by_os(const struct topo *t, const int *pos, int max_os, int by_pu)
{
	int *core = xcalloc((size_t)max_os + 1, sizeof(int));
	for (int i = 0; i < t->npus; i++)
		if (t->pu[i].os >= 0 && t->pu[i].os <= max_os)
			core[t->pu[i].os] =
			    t->pu[i].core >= 0 && t->pu[i].core < t->ncores ? t->pu[i].core : 0;
	for (int os = 0; by_pu && os <= max_os; os++)
		core[os] = pos[os] >= 0 ? pos[os] : 0;
	return core;
}

/* Pairs k in order[from..to) (one circle round) into core-disjoint groups, first fit. */
static int split_by_core(const struct topo *t, const int *core, const struct pu_pair *pair,
			 const int *order, int from, int to, uint64_t *mask, int *group, char *err)
{
	int ngroups = 0;
	for (int x = from; x < to; x++) {
		const struct pu_pair *p = &pair[order[x]];
		int ca = core[p->a], cb = core[p->b];
		uint64_t free_bits = ~(mask[ca] | mask[cb]);
		if (!free_bits)
			return err_set(err,
				       "pingpong schedule: more than %d pairs share a core in one "
				       "round (PUs per core: %d)",
				       MAX_GROUPS, t->pus_per_core);
		int g = __builtin_ctzll(free_bits);
		mask[ca] |= 1ull << g;
		mask[cb] |= 1ull << g;
		group[x] = g;
		ngroups = g + 1 > ngroups ? g + 1 : ngroups;
	}
	for (int x = from; x < to; x++) /* clear only what this round set */
		mask[core[pair[order[x]].a]] = mask[core[pair[order[x]].b]] = 0;
	return ngroups;
}

/* Emit one core-disjoint group as rounds of at most cap pairs, sizes as even as they come. */
static void emit_group(struct schedule *s, const int *order, const int *group, int from, int to,
		       int g, int cap)
{
	int size = 0;
	for (int x = from; x < to; x++)
		size += group[x] == g;
	if (!size)
		return;
	int chunks = (size + cap - 1) / cap, done = 0, base = s->nrounds;
	for (int x = from; x < to; x++)
		if (group[x] == g) {
			int r = base + (int)((long)done * chunks / size);
			s->round[order[x]] = r;
			done++;
		}
	s->nrounds += chunks;
}

/* Members listed round by round, and each round's size, from s->round. */
static void index_rounds(struct schedule *s)
{
	s->size = xcalloc((size_t)s->nrounds + 1, sizeof(int));
	s->first = xcalloc((size_t)s->nrounds + 1, sizeof(int));
	s->member = xcalloc((size_t)s->npairs + 1, sizeof(int));
	for (int k = 0; k < s->npairs; k++)
		s->size[s->round[k]]++;
	for (int r = 0; r < s->nrounds; r++)
		s->first[r + 1] = s->first[r] + s->size[r];
	int *fill = xcalloc((size_t)s->nrounds + 1, sizeof(int));
	for (int k = 0; k < s->npairs; k++) {
		int r = s->round[k];
		s->member[s->first[r] + fill[r]++] = k;
	}
	free(fill);
}

int schedule_build(const struct topo *t, const int *set, int n, const struct pu_pair *pair,
		   int npairs, int cap, int by_pu, struct schedule *s, char *err)
{
	int max_os, nc = circle_rounds(n), rc = 0;
	int *pos = positions(set, n, &max_os), *cr = xcalloc((size_t)npairs + 1, sizeof(int));
	int *start = xcalloc((size_t)nc + 2, sizeof(int)),
	    *order = xcalloc((size_t)npairs + 1, sizeof(int));
	int *group = xcalloc((size_t)npairs + 1, sizeof(int)),
	    *core = cores_by_os(t, pos, max_os, by_pu);
	uint64_t *mask = xcalloc((size_t)(t->ncores > n ? t->ncores : n) + 1, sizeof(uint64_t));
	memset(s, 0, sizeof(*s));
	s->npairs = npairs;
	s->by_pu = by_pu;
	s->cap = cap < 1 ? 1 : cap;
	s->round = xcalloc((size_t)npairs + 1, sizeof(int));
	for (int k = 0; k < npairs && !rc; k++) {
		int a = pair[k].a, b = pair[k].b;
		if (a < 0 || b < 0 || a > max_os || b > max_os || pos[a] < 0 || pos[b] < 0 ||
		    a == b)
			rc = err_set(err, "pingpong schedule: pair %d-%d is not two PUs of the set",
				     a, b);
		else
			start[(cr[k] = circle_round(n, pos[a], pos[b])) + 1]++;
	}
	for (int r = 0; r < nc && !rc;
	     r++) /* counting sort by circle round, selection order kept */
		start[r + 1] += start[r];
	int *fill = xcalloc((size_t)nc + 1, sizeof(int));
	for (int k = 0; k < npairs && !rc; k++)
		order[start[cr[k]] + fill[cr[k]]++] = k;
	free(fill);
	for (int r = 0; r < nc && !rc; r++) {
		int ng =
		    split_by_core(t, core, pair, order, start[r], start[r + 1], mask, group, err);
		if (ng < 0)
			rc = -1;
		for (int g = 0; g < ng; g++)
			emit_group(s, order, group, start[r], start[r + 1], g, s->cap);
	}
	free(pos);
	free(cr);
	free(start);
	free(order);
	free(group);
	free(mask);
	free(core);
	if (rc) {
		schedule_free(s);
		return -1;
	}
	index_rounds(s);
	return 0;
}

void schedule_free(struct schedule *s)
{
	free(s->round);
	free(s->size);
	free(s->first);
	free(s->member);
	memset(s, 0, sizeof(*s));
}

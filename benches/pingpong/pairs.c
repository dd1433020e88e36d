#include "benches/pingpong/pairs.h"
#include "benches/pingpong/places.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

/* Parse a CPU list (the strict grammar of lib/parse.h) into a bitmap of PUs that exist and are
 * allowed. Pairs are unordered, so the order written does not matter here; a CPU named twice still
 * fails. */
static int parse_cpus(const struct topo *t, const char *list, hwloc_bitmap_t set, char *err)
{
	int *cpus = xcalloc((size_t)t->npus + 2, sizeof(int)), rc = 0;
	char why[120];
	int n = parse_cpulist(list, cpus, t->npus + 1, why, sizeof(why));
	if (n < 0)
		rc = err_set(err, "--placement cpus:'%s': %s; accepted: a list such as 0,2 or 0-3",
			     list, why);
	for (int k = 0; !rc && k < n; k++) {
		const struct pu *u = topo_pu(t, cpus[k]);
		if (!u)
			rc = err_set(
			    err, "--placement cpus:%s: CPU %d does not exist on %s (it has %d PUs)",
			    list, cpus[k], t->source, t->npus);
		else if (!u->allowed)
			rc = err_set(err, "--placement cpus:%s: CPU %d is outside %s", list,
				     cpus[k], t->allowed_what);
		else
			hwloc_bitmap_set(set, (unsigned)cpus[k]);
	}
	free(cpus);
	return rc;
}

int pairs_pu_set(const struct topo *t, const char *placement, int **set, char *err)
{
	hwloc_bitmap_t want = hwloc_bitmap_alloc();
	int n = 0, rc = 0;
	if (!strncmp(placement, "cpus:", 5))
		rc = parse_cpus(t, placement + 5, want, err);
	else if (strcmp(placement, "auto"))
		rc = err_set(err,
			     "--placement: '%s' is not accepted here; accepted: auto or cpus:LIST",
			     placement);
	*set = xcalloc((size_t)t->npus, sizeof(int));
	for (int i = 0; i < t->npus && !rc; i++) {
		const struct pu *u = &t->pu[i];
		if (u->allowed &&
		    (!strcmp(placement, "auto") || hwloc_bitmap_isset(want, (unsigned)u->os)))
			(*set)[n++] = u->os;
	}
	hwloc_bitmap_free(want);
	if (!rc && n < 2)
		rc = err_set(err, "--placement %s gives %d PU; accepted: 2 or more PUs to pair up",
			     placement, n);
	if (rc) {
		free(*set);
		*set = NULL;
		return -1;
	}
	return n;
}

/* Pair k of the n*(n-1)/2 unordered pairs i < j, in row-major order. */
static void pair_at(int n, long k, int *i, int *j)
{
	int a = 0;
	while (k >= n - 1 - a) {
		k -= n - 1 - a;
		a++;
	}
	*i = a;
	*j = a + 1 + (int)k;
}

static unsigned long long xorshift(unsigned long long *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static int cmp_long(const void *x, const void *y)
{
	long a = *(const long *)x, b = *(const long *)y;
	return (a > b) - (a < b);
}

/* N distinct pairs drawn with a partial Fisher-Yates shuffle, then put back in matrix order. */
static int sample_pairs(const int *set, int n, long want, unsigned long long seed,
			struct pu_pair *out)
{
	long total = (long)n * (n - 1) / 2;
	long *idx = xcalloc((size_t)total, sizeof(long));
	unsigned long long s = seed | 1;
	for (long k = 0; k < total; k++)
		idx[k] = k;
	for (long k = 0; k < want; k++) {
		long r = k + (long)(xorshift(&s) % (unsigned long long)(total - k)), tmp = idx[k];
		idx[k] = idx[r];
		idx[r] = tmp;
	}
	qsort(idx, (size_t)want, sizeof(long), cmp_long);
	for (long k = 0; k < want; k++) {
		int i, j;
		pair_at(n, idx[k], &i, &j);
		out[k] = (struct pu_pair){ set[i], set[j], PC_COUNT };
	}
	free(idx);
	return (int)want;
}

static int in_set(const int *set, int n, long cpu)
{
	for (int i = 0; i < n; i++)
		if (set[i] == cpu)
			return 1;
	return 0;
}

/* Fill out (room for every pair) for spec; the classes are set by the caller. */
static int select_into(const struct topo *t, const int *set, int n, const char *spec,
		       unsigned long long seed, struct pu_pair *out, char *err)
{
	long total = (long)n * (n - 1) / 2, v, k = 0;
	if (!strcmp(spec, "all")) {
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				out[k++] = (struct pu_pair){ set[i], set[j], PC_COUNT };
		return (int)k;
	}
	if (!strncmp(spec, "vs:", 3)) {
		if (parse_long(spec + 3, &v) || !in_set(set, n, v))
			return err_set(err,
				       "--pairs: '%s' is not accepted; accepted: vs:CPU, a PU "
				       "measured",
				       spec);
		for (int i = 0; i < n; i++)
			if (set[i] != v)
				out[k++] = (struct pu_pair){ (int)v, set[i], PC_COUNT };
		return (int)k;
	}
	if (!strncmp(spec, "sample:", 7)) {
		if (parse_long(spec + 7, &v) || v < 1 || v > total)
			return err_set(err,
				       "--pairs: '%s' is not accepted; accepted: sample:1..%ld",
				       spec, total);
		return sample_pairs(set, n, v, seed, out);
	}
	if (!strcmp(spec, "classes")) { /* a pair per class and pair of CPU kinds (hybrid parts) */
		int nk = t->nkinds + 1, room = PC_COUNT * nk * nk;
		char *seen = xcalloc((size_t)room, 1);
		struct places pl;
		places_build(t, &pl);
		for (int i = 0; i < n && k < room; i++) /* stop once every class has its pair */
			for (int j = i + 1; j < n && k < room; j++) {
				enum pair_class c = places_classify(&pl, set[i], set[j]);
				int ka = topo_pu(t, set[i])->kind + 1,
				    kb = topo_pu(t, set[j])->kind + 1;
				int key =
				    ((int)c * nk + (ka < kb ? ka : kb)) * nk + (ka < kb ? kb : ka);
				if (!seen[key]) {
					seen[key] = 1;
					out[k++] = (struct pu_pair){ set[i], set[j], c };
				}
			}
		places_free(&pl);
		free(seen);
		return (int)k;
	}
	return err_set(err, "--pairs: '%s' is not accepted; accepted: %s", spec, PAIR_SELECTIONS);
}

/* Room the selection needs: every pair only for all and sample:N, a row for vs:CPU, one per class
 * and pair of CPU kinds. */
static size_t pairs_room(const struct topo *t, int n, const char *spec)
{
	if (!strncmp(spec, "vs:", 3))
		return (size_t)n;
	if (!strcmp(spec, "classes"))
		return (size_t)PC_COUNT * (size_t)(t->nkinds + 1) * (size_t)(t->nkinds + 1);
	if (!strcmp(spec, "all") || !strncmp(spec, "sample:", 7))
		return (size_t)n * (size_t)(n - 1) / 2;
	return 1;
}

int pairs_select(const struct topo *t, const int *set, int n, const char *spec,
		 unsigned long long seed, struct pu_pair **out, char *err)
{
	if (!strcmp(spec, "all") && (long)n * (n - 1) / 2 > PAIRS_MAX)
		return err_set(err,
			       "--pairs all: %d PUs make %ld pairs; accepted: at most %d pairs "
			       "(use sample:N, vs:CPU or classes)",
			       n, (long)n * (n - 1) / 2, PAIRS_MAX);
	*out = xcalloc(pairs_room(t, n, spec), sizeof(struct pu_pair));
	int k = select_into(t, set, n, spec, seed, *out, err);
	if (k < 1) {
		free(*out);
		*out = NULL;
		return -1;
	}
	struct places pl;
	places_build(t, &pl);
	for (int i = 0; i < k; i++)
		(*out)[i].cls = places_classify(&pl, (*out)[i].a, (*out)[i].b);
	places_free(&pl);
	return k;
}

/* Lists and their sorted copies, kept by content (stats/sort_cache.h). */
#include "stats/sort_cache.h"
#include "lib/util.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SORT_CACHE_ENTRIES 8192

struct sc_entry {
	uint64_t h;
	size_t n;
	double *key, *sorted; /* the list as given, and sorted */
};

/* A ring of entries, the oldest at first. */
struct sc {
	struct sc_entry e[SORT_CACHE_ENTRIES];
	int first, n;
	size_t bytes;
};

static __thread struct sc *cache;

/* The list's bits, hashed eight bytes at a time (equal hashes are then compared in full). */
static uint64_t hash_of(const double *v, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
	for (size_t i = 0; i < n; i++) {
		uint64_t w;
		memcpy(&w, &v[i], sizeof(w));
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 29;
	}
	return h;
}

static const struct sc_entry *find(const double *v, size_t n, uint64_t h)
{
	for (int i = 0; cache && i < cache->n; i++) {
		const struct sc_entry *e = &cache->e[(cache->first + i) % SORT_CACHE_ENTRIES];
		if (e->h == h && e->n == n && !memcmp(e->key, v, n * sizeof(double)))
			return e;
	}
	return NULL;
}

static void drop_oldest(void)
{
	struct sc_entry *e = &cache->e[cache->first];
	cache->bytes -= 2 * e->n * sizeof(double);
	free(e->key);
	free(e->sorted);
	*e = (struct sc_entry){ 0 };
	cache->first = (cache->first + 1) % SORT_CACHE_ENTRIES;
	cache->n--;
}

/* Keep v[0..n) and its sorted copy s. */
static void keep(const double *v, size_t n, uint64_t h, const double *s)
{
	size_t bytes = 2 * n * sizeof(double);
	if (bytes > SORT_CACHE_BYTES / 4)
		return;
	if (!cache)
		cache = xcalloc(1, sizeof(*cache));
	while (cache->n &&
	       (cache->n == SORT_CACHE_ENTRIES || cache->bytes + bytes > SORT_CACHE_BYTES))
		drop_oldest();
	struct sc_entry *e = &cache->e[(cache->first + cache->n++) % SORT_CACHE_ENTRIES];
	*e = (struct sc_entry){ h, n, xcalloc(n, sizeof(double)), xcalloc(n, sizeof(double)) };
	memcpy(e->key, v, n * sizeof(double));
	memcpy(e->sorted, s, n * sizeof(double));
	cache->bytes += bytes;
}

static int by_value(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

void sort_cache_sorted(const double *v, size_t n, double *out)
{
	uint64_t h = n >= SORT_CACHE_MIN ? hash_of(v, n) : 0;
	const struct sc_entry *e = n >= SORT_CACHE_MIN ? find(v, n, h) : NULL;
	if (e) {
		memcpy(out, e->sorted, n * sizeof(double));
		return;
	}
	memcpy(out, v, n * sizeof(double));
	if (n >= SORT_CACHE_MIN) {
		qsort(out, n, sizeof(double), by_value);
		keep(v, n, h, out);
		return;
	}
	for (size_t k = 1; k < n; k++) { /* insertion: stable, so the order qsort's merge gives */
		double t = out[k];
		size_t j = k;
		for (; j > 0 && out[j - 1] > t; j--)
			out[j] = out[j - 1];
		out[j] = t;
	}
}

void sort_cache_clear(void)
{
	while (cache && cache->n)
		drop_oldest();
	free(cache);
	cache = NULL;
}

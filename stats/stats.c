#include "stats/stats.h"
#include "lib/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

struct stats stats_of(const double *v, size_t n)
{
	struct stats s = { 0 };
	if (!n)
		return s;
	double *c = malloc(n * sizeof(*c));
	if (!c)
		out_of_memory(0);
	memcpy(c, v, n * sizeof(*c));
	size_t k = 1;
	while (k < n && c[k - 1] <= c[k]) /* a caller's sorted copy is not sorted again */
		k++;
	if (k < n)
		qsort(c, n, sizeof(*c), cmp_double);
	s.n = n;
	s.min = c[0];
	s.max = c[n - 1];
	s.median = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	double sum = 0, sq = 0;
	for (size_t i = 0; i < n; i++)
		sum += c[i];
	s.mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (c[i] - s.mean) * (c[i] - s.mean);
	s.cv = n > 1 && s.mean != 0 ? sqrt(sq / (double)(n - 1)) / fabs(s.mean) : 0;
	free(c);
	return s;
}

#include "benches/pingpong/check.h"
#include "stats/stats.h"
#include "lib/util.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

int check_sample(const struct pu_pair *pair, int npairs, int per_class, int *idx)
{
	int count[PC_COUNT] = { 0 }, taken[PC_COUNT] = { 0 }, seen[PC_COUNT] = { 0 }, n = 0;
	for (int k = 0; k < npairs; k++)
		count[pair[k].cls < PC_COUNT ? pair[k].cls : 0]++;
	for (int k = 0; k < npairs; k++) {
		int c = pair[k].cls < PC_COUNT ? (int)pair[k].cls : 0,
		    want = count[c] < per_class ? count[c] : per_class;
		/* the j-th pick of a class is its pair number j * count / want: evenly spread,
		 * first included */
		if (taken[c] < want && (long)seen[c] * want >= (long)taken[c] * count[c]) {
			idx[n++] = k;
			taken[c]++;
		}
		seen[c]++;
	}
	return n;
}

int check_classes(const enum pair_class *cls, const double *alone, const double *conc, int n,
		  double tol, struct check_class out[PC_COUNT])
{
	double *r = xcalloc((size_t)n + 1, sizeof(double));
	int bad = 0;
	memset(out, 0, sizeof(struct check_class) * PC_COUNT);
	for (int c = 0; c < PC_COUNT; c++) {
		int m = 0;
		for (int k = 0; k < n; k++)
			if ((int)cls[k] == c && alone[k] > 0)
				r[m++] = conc[k] / alone[k];
		if (!m)
			continue;
		struct stats s = stats_of(r, (size_t)m);
		out[c] =
		    (struct check_class){m, s.median, s.min, s.max, fabs(s.median - 1.0) > tol};
		bad += out[c].outside;
	}
	free(r);
	return bad;
}

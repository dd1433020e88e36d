/* The exact null laws of U, the last used kept (stats/u_law.h). */
#include "stats/u_law.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

/* Number of orderings of m a's and n b's giving each U (pairs a > b), as doubles: f[m][n][u]
 * satisfies f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u), computed row by row. */
static double *u_counts(int m, int n)
{
	int umax = m * n;
	double *prev = xcalloc((size_t)(n + 1) * (size_t)(umax + 1), sizeof(double));
	double *cur = xcalloc((size_t)(n + 1) * (size_t)(umax + 1), sizeof(double));
#define AT(t, j, u) ((t)[(size_t)(j) * (size_t)(umax + 1) + (size_t)(u)])
	for (int j = 0; j <= n; j++)
		AT(prev, j, 0) = 1; /* no a's: one ordering, U = 0 */
	for (int i = 1; i <= m; i++) {
		memset(cur, 0, (size_t)(n + 1) * (size_t)(umax + 1) * sizeof(double));
		AT(cur, 0, 0) = 1;
		for (int j = 1; j <= n; j++)
			for (int u = 0; u <= i * j;
			     u++) /* last element an a (beats all j b's) or a b */
				AT(cur, j, u) =
				    (u >= j ? AT(prev, j, u - j) : 0) + AT(cur, j - 1, u);
		double *t = prev;
		prev = cur;
		cur = t;
	}
	double *out = xcalloc((size_t)umax + 1, sizeof(double));
	for (int u = 0; u <= umax; u++)
		out[u] = AT(prev, n, u);
#undef AT
	free(prev);
	free(cur);
	return out;
}

/* The kept laws, the least recently used first. */
struct u_law {
	int m, n;
	double *f;
};
static __thread struct u_law kept[U_LAWS];
static __thread int nkept;

const double *u_law_of(int m, int n)
{
	struct u_law l;
	int i = 0;
	while (i < nkept && (kept[i].m != m || kept[i].n != n))
		i++;
	if (i < nkept) {
		l = kept[i];
	} else {
		l = (struct u_law){ m, n, u_counts(m, n) };
		if (nkept == U_LAWS) { /* the least recently used goes */
			free(kept[0].f);
			i = 0;
		} else
			i = nkept++;
	}
	memmove(&kept[i], &kept[i + 1], (size_t)(nkept - 1 - i) * sizeof(*kept));
	kept[nkept - 1] = l;
	return l.f;
}

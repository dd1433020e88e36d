#include "benches/pingpong/matrix.h"
#include "lib/util.h"
#include "lib/replace.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* qsort order for OS CPU numbers: the matrix lists PUs as the kernel numbers them. */
static int cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	return (a > b) - (a < b);
}

/* Row-major n x n cells, NAN where nothing was measured. */
static double *fill_cells(const int *os, int n, const struct pu_pair *pair, const double *val,
			  int npairs)
{
	int hi = os[n - 1];
	int *pos = xcalloc((size_t)hi + 1, sizeof(int));
	double *cell = xcalloc((size_t)n * (size_t)n, sizeof(double));
	for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
		cell[i] = NAN;
	for (int i = 0; i < n; i++)
		pos[os[i]] = i;
	for (int k = 0; k < npairs; k++) {
		if (isnan(val[k]) || pair[k].a > hi || pair[k].b > hi)
			continue;
		int i = pos[pair[k].a], j = pos[pair[k].b];
		cell[(size_t)i * (size_t)n + (size_t)j] = cell[(size_t)j * (size_t)n + (size_t)i] =
		    val[k];
	}
	free(pos);
	return cell;
}

int matrix_probe(const char *path, char *err)
{
	struct replace r;
	if (!replace_open(&r, path))
		return err_set(err, "--matrix %s: cannot create a file next to it: %s", path,
			       strerror(errno));
	replace_abort(&r);
	return 0;
}

int matrix_write(const char *path, const int *set, int n, const struct pu_pair *pair,
		 const double *val, int npairs, int replace, char *err)
{
	int *os = xcalloc((size_t)n, sizeof(int)), rc = 0;
	memcpy(os, set, (size_t)n * sizeof(int));
	qsort(os, (size_t)n, sizeof(int), cmp_int);
	double *cell = fill_cells(os, n, pair, val, npairs);
	struct replace r;
	FILE *f = replace_open(&r, path);
	if (!f)
		rc = err_set(err, "--matrix %s: cannot create a file next to it: %s", path,
			     strerror(errno));
	for (int i = 0; i < n && !rc; i++)
		for (int j = 0; j < n; j++) {
			double v = cell[(size_t)i * (size_t)n + (size_t)j];
			if (!isnan(v) && i != j)
				fprintf(f, "%.2f", v);
			fputc(j + 1 < n ? ',' : '\n', f);
		}
	/* replace: over this run's own earlier snapshot; new: a link, not a rename, so a file that
	 * appeared at path meanwhile is kept */
	if (f && replace_commit(&r, replace ? REPLACE_OVER : REPLACE_NEW))
		rc = err_set(err, "--matrix %s: %s%s", path,
			     errno == EEXIST ? "already exists" : strerror(errno),
			     errno == EEXIST ? "; accepted: a new file" : "");
	else if (!f)
		replace_abort(&r);
	free(cell);
	free(os);
	return rc;
}

#include "benches/pingpong/matrix.h"
#include "harness/util.h"
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
static double *fill_cells(const int *os, int n, const struct pu_pair *pair, const double *val, int npairs)
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
		cell[(size_t)i * (size_t)n + (size_t)j] = cell[(size_t)j * (size_t)n + (size_t)i] = val[k];
	}
	free(pos);
	return cell;
}

int matrix_probe(const char *path, char *err)
{
	size_t len = strlen(path) + 8;
	char *tmp = xcalloc(len, 1);
	snprintf(tmp, len, "%s.XXXXXX", path); /* mkstemp: a FILE.tmp of the user's is never opened or removed */
	int fd = mkstemp(tmp);
	int rc = fd >= 0 ? 0 : err_set(err, "--matrix %s: cannot create a file next to it: %s", path, strerror(errno));
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

int matrix_write(const char *path, const int *set, int n, const struct pu_pair *pair, const double *val, int npairs,
		 int replace, char *err)
{
	int *os = xcalloc((size_t)n, sizeof(int)), rc = 0;
	memcpy(os, set, (size_t)n * sizeof(int));
	qsort(os, (size_t)n, sizeof(int), cmp_int);
	double *cell = fill_cells(os, n, pair, val, npairs);
	size_t len = strlen(path) + 8;
	char *tmp = xcalloc(len, 1);
	snprintf(tmp, len, "%s.XXXXXX", path); /* a name of our own (mkstemp): never a file of the user's */
	int fd = mkstemp(tmp);
	FILE *f = fd >= 0 && !fchmod(fd, 0644) ? fdopen(fd, "w") : NULL;
	if (!f) {
		rc = err_set(err, "--matrix %s: cannot create a file next to it: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
	}
	for (int i = 0; i < n && !rc; i++)
		for (int j = 0; j < n; j++) {
			double v = cell[(size_t)i * (size_t)n + (size_t)j];
			if (!isnan(v) && i != j)
				fprintf(f, "%.2f", v);
			fputc(j + 1 < n ? ',' : '\n', f);
		}
	if (f && (ferror(f) | fclose(f)) && !rc)
		rc = err_set(err, "--matrix %s: write failed: %s", path, strerror(errno));
	if (!rc && replace && rename(tmp, path)) /* over this run's own earlier snapshot */
		rc = err_set(err, "--matrix %s: %s", path, strerror(errno));
	else if (!rc && !replace && link(tmp, path)) /* link, not rename: a file that appeared at path meanwhile is kept */
		rc = err_set(err, "--matrix %s: %s; accepted: a new file", path, errno == EEXIST ? "already exists" : strerror(errno));
	if (f && (rc || !replace))
		unlink(tmp);
	free(tmp);
	free(cell);
	free(os);
	return rc;
}

#include "analysis/results_in.h"
#include "analysis/csvstream.h"
#include "analysis/groups.h"
#include "harness/bench.h"
#include "harness/util.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static const char *const front[] = { "schema_version", "bench", NULL, "rep" }; /* [2]: the variant column */

/* A metric cell is NA, empty or a number in the one strict grammar (harness/parse.h): hex, spaces,
 * inf or nan in a result file are refused with the place, never read as a value or silently as NA. */
static int check_metrics(const struct table *t, long k, char *err)
{
	const char *mc[64];
	int nm = metric_cols(t, t->cell[k][1], mc, 64);
	for (int m = 0; m < nm; m++) {
		const char *v = table_get(t, k, mc[m]);
		double d;
		if (v && *v && strcmp(v, "NA") && parse_double(v, &d))
			return err_set(err, "%s:%ld: %s = '%.60s' is not accepted; accepted: a decimal number such as 12.5 or 1e-3 (no hex, spaces, inf or nan), or NA",
				       t->path, t->line[k], mc[m], v);
	}
	return 0;
}

/* The driver writes schema_version, bench, VARIANT, rep first: anything else is not our CSV. */
int results_check_table(struct results *r, const struct table *t, char *err)
{
	if (t->ncols < 4)
		return err_set(err, "%s: not a c2cbench result CSV (it has %d column(s); the first are schema_version,bench,VARIANT,rep)", t->path, t->ncols);
	for (int i = 0; i < 4; i++)
		if (front[i] && strcmp(t->cols[i], front[i]))
			return err_set(err, "%s: not a c2cbench result CSV (column %d is '%s', expected '%s')", t->path, i + 1, t->cols[i], front[i]);
	for (long k = 0; k < t->nrows; k++) {
		long v;
		if (parse_long(t->cell[k][0], &v) || v < 1)
			return err_set(err, "%s:%ld: schema_version '%s' is not accepted; accepted: a whole number >= 1", t->path, t->line[k], t->cell[k][0]);
		if (r->schema < 0) {
			r->schema = (int)v;
			free(r->first);
			r->first = xstrdup(t->path);
		} else if (v != r->schema)
			return err_set(err, "%s:%ld: schema_version %ld, but %s has schema_version %d; results of different schema versions cannot be read together", t->path, t->line[k], v, r->first, r->schema);
		if (!t->cell[k][1][0])
			return err_set(err, "%s:%ld: empty bench name", t->path, t->line[k]);
		if (check_metrics(t, k, err))
			return -1;
	}
	return 0;
}

/* Side tables (a bench's gap histogram) say so in a side_table column; they hold no result rows. */
static int is_side_table(const struct table *t)
{
	for (int c = 0; c < t->ncols; c++)
		if (!strcmp(t->cols[c], "side_table"))
			return 1;
	return 0;
}

/* Stream a file row by row to r->row, each row as a one-row table with the header. */
static int stream_file(struct results *r, const char *path, int in_dir, char *err)
{
	struct csvs s;
	struct table one = { 0 };
	long line = 0;
	char **cells = NULL;
	if (csvs_open(&s, path, err))
		return -1;
	int got = csvs_next(&s, err), rc = got < 0 ? -1 : got == 0 ? err_set(err, "%s: empty file", path) : 0;
	if (!rc) {
		one.path = (char *)path;
		one.ncols = s.nf;
		one.cols = xcalloc((size_t)s.nf, sizeof(char *));
		cells = xcalloc((size_t)s.nf, sizeof(char *));
		for (int c = 0; c < s.nf; c++) {
			one.cols[c] = xstrdup(csvs_field(&s, c));
			if (!one.cols[c][0] && !rc)
				rc = err_set(err, "%s:1: column %d of the header has no name", path, c + 1);
		}
		one.cell = &cells;
		one.line = &line;
		if (!rc && is_side_table(&one)) /* skipped in a directory, refused by name */
			rc = in_dir ? 1 : err_set(err, "%s: a side table (side_table column, e.g. a gap histogram), not a result CSV; accepted: the main CSV of a run", path);
		if (!rc)
			rc = results_check_table(r, &one, err); /* the header (no rows yet) */
	}
	while (!rc && (got = csvs_next(&s, err)) != 0) {
		if (got < 0 || (s.nf != one.ncols && err_set(err, "%s:%ld: row has %d field(s) but the header has %d", path, s.line, s.nf, one.ncols))) {
			rc = -1;
			break;
		}
		for (int c = 0; c < s.nf; c++)
			cells[c] = (char *)csvs_field(&s, c);
		line = s.line;
		one.nrows = 1;
		rc = results_check_table(r, &one, err) || r->row(r->row_arg, &one, err) ? -1 : 0;
	}
	for (int c = 0; one.cols && c < one.ncols; c++)
		free(one.cols[c]);
	free(one.cols);
	free(cells);
	csvs_close(&s);
	return rc > 0 ? 0 : rc;
}

static int add_file(struct results *r, const char *path, int in_dir, char *err)
{
	struct table t;
	if (r->row) {
		int rc = stream_file(r, path, in_dir, err);
		r->unfinished += !rc && groups_warn_file(path);
		return rc;
	}
	if (table_read(&t, path, err))
		return -1;
	if (is_side_table(&t)) { /* skipped in a directory, refused by name */
		table_free(&t);
		if (in_dir)
			return 0;
		return err_set(err, "%s: a side table (side_table column, e.g. a gap histogram), not a result CSV; accepted: the main CSV of a run", path);
	}
	if (results_check_table(r, &t, err)) {
		table_free(&t);
		return -1;
	}
	r->t = realloc(r->t, (size_t)(r->n + 1) * sizeof(struct table));
	if (!r->t)
		out_of_memory(0);
	r->t[r->n++] = t;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_path(struct results *r, const char *path, int depth, char *err);

/* A directory of result directories (a fleet run's DIR, or copies from several machines): each
 * subdirectory that holds a metadata.txt is one result set; slurm/ and interrupted/ are not. */
static int add_result_dirs(struct results *r, const char *path, char *err)
{
	struct dirent **e;
	int n = scandir(path, &e, NULL, alphasort), found = 0, rc = 0;
	for (int i = 0; i < n; i++) {
		char sub[4096], meta[4200];
		snprintf(sub, sizeof(sub), "%s/%s", path, e[i]->d_name);
		snprintf(meta, sizeof(meta), "%s/metadata.txt", sub);
		if (!rc && e[i]->d_name[0] != '.' && !access(meta, R_OK)) {
			found++;
			rc = add_path(r, sub, 1, err);
		}
		free(e[i]);
	}
	free(n > 0 ? e : NULL);
	if (!rc && !found)
		rc = err_set(err, "%s: no .csv files and no result directories in this directory; accepted: a CSV file, a result directory, or a directory of result directories", path);
	return rc;
}

int results_add(struct results *r, const char *path, char *err)
{
	return add_path(r, path, 0, err);
}

static int add_path(struct results *r, const char *path, int depth, char *err)
{
	struct stat st;
	if (r->n == 0 && !r->t)
		r->schema = -1;
	if (stat(path, &st))
		return err_set(err, "%s: cannot open: %s; accepted: a CSV file or a result directory", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return add_file(r, path, 0, err);
	DIR *d = opendir(path);
	if (!d)
		return err_set(err, "%s: cannot open the directory: %s", path, strerror(errno));
	char **names = NULL;
	int n = 0, rc = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == '.' || l < 5 || strcmp(e->d_name + l - 4, ".csv"))
			continue;
		names = realloc(names, (size_t)(n + 1) * sizeof(char *));
		if (!names)
			out_of_memory(0);
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (!n && depth == 0)
		return add_result_dirs(r, path, err);
	r->unfinished += groups_warn_dir(path);
	if (!n)
		rc = err_set(err, "%s: no .csv files in this directory; accepted: a CSV file or a result directory", path);
	qsort(names, (size_t)n, sizeof(char *), cmp_str);
	for (int i = 0; i < n; i++) {
		char full[4096];
		snprintf(full, sizeof(full), "%s/%s", path, names[i]);
		if (!rc)
			rc = add_file(r, full, 1, err);
		free(names[i]);
	}
	free(names);
	return rc;
}

void results_free(struct results *r)
{
	for (int i = 0; i < r->n; i++)
		table_free(&r->t[i]);
	free(r->t);
	free(r->first);
	memset(r, 0, sizeof(*r));
}

int config_cols(const struct table *t, const char *bench, const char **cols, int max, int *declared)
{
	const struct bench *b = bench_find(bench);
	int n = 0;
	cols[n++] = "bench";
	cols[n++] = t->cols[2];
	*declared = b && b->config;
	for (int i = 0; *declared && b->config[i] && n < max; i++)
		cols[n++] = b->config[i];
	return n;
}

int metric_cols(const struct table *t, const char *bench, const char **cols, int max)
{
	const struct bench *b = bench_find(bench);
	int n = 0;
	if (b && b->summary) {
		for (int i = 0; b->summary[i] && n < max; i++)
			cols[n++] = b->summary[i];
		return n;
	}
	for (int c = 0; c < t->ncols && n < max; c++) {
		size_t l = strlen(t->cols[c]);
		if (l > 10 && !strcmp(t->cols[c] + l - 10, "_ns_per_op"))
			cols[n++] = t->cols[c];
	}
	return n;
}

double cell_num(const struct table *t, long row, const char *col, int *ok)
{
	const char *s = table_get(t, row, col);
	double v = 0;
	*ok = s && strcmp(s, "NA") && !parse_double(s, &v);
	return *ok ? v : 0;
}

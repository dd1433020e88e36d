/* The grouping engine's walk of a path given to groups_add: a CSV file, or a directory's CSVs in
 * name order (each read by groups_read.c), then its result subdirectories; a preset's mark of an
 * unfinished run warned. */
#include "analysis/groups_int.h"
#include "lib/infile.h"
#include "lib/util.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A preset directory's metadata.txt state: warn unless it finished. */
static int warn_dir(const char *dir)
{
	char p[4200], line[256], state[128] = "";
	snprintf(p, sizeof(p), "%s/metadata.txt", dir);
	FILE *m = fopen_regular(p);
	if (!m)
		return 0;
	while (fgets(line, sizeof(line), m) && strncmp(line, "preset_text:", 12))
		if (!strncmp(line, "state: ", 7))
			snprintf(state, sizeof(state), "%.*s", (int)strcspn(line + 7, "\n"),
				 line + 7);
	fclose(m);
	if (!state[0] || !strcmp(state, "finished"))
		return 0;
	fprintf(grp_warn_to(),
		"c2cbench: warning: %s is marked '%s' in its metadata.txt: %s\n", dir,
		state,
		!strcmp(state, "finished with failed runs")
		    ? "some runs failed, their configurations are missing"
		    : "the preset did not finish; runs are missing or cut short");
	return 1;
}

/* A subdirectory that is a result set of its own: it has a metadata.txt (slurm/ and interrupted/
 * are not). */
static int result_subdir(const char *dir, const char *name)
{
	char p[4200];
	struct stat st;
	if (!strcmp(name, "slurm") || !strcmp(name, "interrupted"))
		return 0;
	snprintf(p, sizeof(p), "%s/%s/metadata.txt", dir, name);
	return !stat(p, &st) && S_ISREG(st.st_mode);
}

static void push_name(char ***names, int *n, const char *name)
{
	*names = realloc(*names, (size_t)(*n + 1) * sizeof(char *));
	if (!*names)
		out_of_memory(0);
	(*names)[(*n)++] = xstrdup(name);
}

static int add_path(struct groups *g, const char *path, int side, int depth, char *err);

/* A directory: its *.csv files in name order, then each result subdirectory (a fleet directory). */
static int add_dir(struct groups *g, const char *path, int side, int depth, char *err)
{
	DIR *d = opendir(path);
	if (!d)
		return err_set(err, "%s: cannot open the directory: %s", path, strerror(errno));
	char **csv = NULL, **sub = NULL;
	int ncsv = 0, nsub = 0, rc = 0, marked = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		if (l >= 5 && !strcmp(e->d_name + l - 4, ".csv"))
			push_name(&csv, &ncsv, e->d_name);
		else if (depth < 2 && result_subdir(path, e->d_name))
			push_name(&sub, &nsub, e->d_name);
	}
	closedir(d);
	if (!ncsv && !nsub)
		rc = err_set(
		    err,
		    "%s: no .csv files and no result directories in this directory; accepted: a "
		    "CSV file, a result directory or a directory of result directories",
		    path);
	if (!rc && ncsv && warn_dir(path)) {
		g->warnings++;
		marked = 1;
	}
	sort_n(csv, (size_t)ncsv, sizeof(char *), cmp_name);
	sort_n(sub, (size_t)nsub, sizeof(char *), cmp_name);
	char full[4200];
	for (int i = 0; i < ncsv; i++) {
		snprintf(full, sizeof(full), "%s/%s", path, csv[i]);
		if (!rc)
			rc = grp_add_file(g, full, side, 1, &marked, err);
		free(csv[i]);
	}
	for (int i = 0; i < nsub; i++) {
		snprintf(full, sizeof(full), "%s/%s", path, sub[i]);
		if (!rc)
			rc = add_path(g, full, side, depth + 1, err);
		free(sub[i]);
	}
	free(csv);
	free(sub);
	return rc;
}

static int add_path(struct groups *g, const char *path, int side, int depth, char *err)
{
	struct stat st;
	int marked = 0;
	if (stat(path, &st))
		return err_set(err,
			       "'%s': %s; accepted: a result CSV or directory",
			       path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return grp_add_file(g, path, side, 0, &marked, err);
	return add_dir(g, path, side, depth, err);
}

int groups_add(struct groups *g, const char *path, int side, char *err)
{
	g->by_label |= side == GROUPS_BY_LABEL;
	int rc = add_path(g, path, side, 0, err);
	if (!rc && side >= 0) { /* the side is named by the input given, not its last file */
		grp_side_of(g, side, path);
		free(g->side[side].name);
		g->side[side].name = xstrdup(path);
	}
	return rc;
}


int groups_warn_dir(const char *dir)
{
	return warn_dir(dir);
}

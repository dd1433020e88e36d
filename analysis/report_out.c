#define _XOPEN_SOURCE 700
#include "analysis/report_out.h"
#include "lib/util.h"
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 1 when dir exists and holds nothing, 0 when it holds something, -1 when it does not exist. */
static int dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int empty = 1;
	for (struct dirent *e; empty && (e = readdir(d));)
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

/* nftw callback: remove each entry, children first. */
static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	return remove(path);
}

/* Remove a directory tree report made (its own temporary or replaced directories only). */
static void rm_tree(const char *dir)
{
	nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

int out_begin(struct outdir *o, const char *dir, int force, int *status, char *err)
{
	struct stat st;
	char parent[PATH_MAX], base[PATH_MAX];
	memset(o, 0, sizeof(*o));
	*status = 2;
	if (!*dir || strlen(dir) >= sizeof(o->dir) - 32)
		return err_set(err, "--out: '%.200s' is not a usable directory name", dir);
	snprintf(o->dir, sizeof(o->dir), "%s", dir);
	while (strlen(o->dir) > 1 && o->dir[strlen(o->dir) - 1] == '/')
		o->dir[strlen(o->dir) - 1] = 0;
	o->force = force;
	if (!stat(o->dir, &st) && !S_ISDIR(st.st_mode))
		return err_set(err,
			       "--out: '%.200s' exists and is not a directory; accepted: a new or "
			       "empty directory",
			       o->dir);
	if (!stat(o->dir, &st) && !dir_empty(o->dir) && !force)
		return err_set(err,
			       "--out: '%.200s' already exists and is not empty; accepted: a new "
			       "or empty directory, or --force to replace it",
			       o->dir);
	snprintf(parent, sizeof(parent), "%s", o->dir);
	snprintf(base, sizeof(base), "%s", o->dir);
	snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.tmp-XXXXXX", dirname(parent), basename(base));
	*status = 1;
	if (!mkdtemp(o->tmp))
		return err_set(err, "--out: cannot create a directory beside '%.200s': %s", o->dir,
			       strerror(errno));
	char data[PATH_MAX + 8];
	snprintf(data, sizeof(data), "%s/data", o->tmp);
	if (mkdir(data, 0755)) {
		err_set(err, "--out: cannot create '%.200s/data': %s", o->dir, strerror(errno));
		out_abort(o);
		return -1;
	}
	return 0;
}

void out_path(const struct outdir *o, const char *name, char *buf, size_t cap)
{
	snprintf(buf, cap, "%s/%s", o->tmp, name);
}

void out_fail(struct outdir *o, const char *name, const char *why)
{
	if (!o->failed)
		snprintf(o->err, sizeof(o->err), "cannot write %.250s/%.100s: %.140s", o->dir, name,
			 why);
	o->failed = 1;
}

FILE *out_open(struct outdir *o, const char *name)
{
	char path[PATH_MAX + 256];
	out_path(o, name, path, sizeof(path));
	FILE *f = fopen(path, "wx");
	if (!f)
		out_fail(o, name, strerror(errno));
	return f;
}

void out_close(struct outdir *o, FILE *f, const char *name)
{
	if (!f)
		return;
	int bad = fflush(f) || ferror(f);
	int e = errno;
	if (fclose(f) && !bad)
		bad = 1, e = errno;
	if (bad)
		out_fail(o, name, e ? strerror(e) : "write error");
}

int out_commit(struct outdir *o, char *err)
{
	char old[PATH_MAX + 32] = "";
	int empty = dir_empty(o->dir);
	if (empty == 1 && rmdir(o->dir))
		return err_set(err, "cannot replace the empty directory %.300s: %s", o->dir,
			       strerror(errno));
	if (empty == 0) {
		if (!o->force)
			return err_set(err,
				       "--out: '%.300s' appeared while the report was written; "
				       "nothing replaced",
				       o->dir);
		snprintf(old, sizeof(old), "%s.old-XXXXXX", o->tmp);
		if (!mkdtemp(old) || rename(o->dir, old))
			return err_set(err, "cannot set aside %.300s to replace it: %s", o->dir,
				       strerror(errno));
	}
	if (rename(o->tmp, o->dir)) {
		int e = errno;
		if (*old) /* put the old one back */
			(void)!rename(old, o->dir);
		return err_set(err, "cannot rename the report into %.300s: %s", o->dir,
			       strerror(e));
	}
	if (*old)
		rm_tree(old);
	o->tmp[0] = 0;
	return 0;
}

void out_abort(struct outdir *o)
{
	if (o->tmp[0])
		rm_tree(o->tmp);
	o->tmp[0] = 0;
}

#include "runner/preset_resume.h"
#include "schema/meta.h"
#include "runner/preset_config.h"
#include "harness/bench.h"
#include "lib/csvread.h"
#include "lib/csvstream.h"
#include "lib/infile.h"
#include "lib/util.h"
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* Same machine: the facts that decide how threads can be placed and what the numbers mean. */
static int same_machine(const char *dir, const struct meta_read *m, const struct context *c,
			char *err)
{
	static const char *const keys[] = META_MACHINE_KEYS;
	char num[7][32];
	const char *now[7] = { c->host, c->cpu_model };
	const int ints[] = { c->packages, c->cores, c->pus, c->nodes, c->line_size };
	for (int i = 2; i < 7; i++) {
		snprintf(num[i], sizeof(num[i]), "%d", ints[i - 2]);
		now[i] = num[i];
	}
	for (int i = 0; i < 7; i++)
		if (strcmp(m->machine[i], now[i]))
			return err_set(err,
				       "--resume %s: made on another machine (%s '%s', here '%s'); "
				       "accepted: a run directory of this preset made on this "
				       "machine",
				       dir, keys[i], m->machine[i][0] ? m->machine[i] : "missing",
				       now[i]);
	return 0;
}

/* DIR/preset.ini holds the preset text the directory was made with, verbatim. */
static int same_text(const char *dir, const char *text)
{
	char path[PATH_MAX + 16];
	snprintf(path, sizeof(path), "%s/preset.ini", dir);
	char *stored = file_text(path, SIZE_MAX);
	int same = stored && !strcmp(stored, text);
	free(stored);
	return same;
}

int resume_check(const char *dir, const struct preset *p, const struct context *ctx,
		 struct resumed *r, char *err)
{
	struct meta_read m;
	char want[32];
	int rc = 0;
	if (meta_read(dir, &m))
		return err_set(err,
			       "--resume %s: not a preset run directory (cannot read "
			       "%s/metadata.txt: %s)",
			       dir, dir, strerror(errno));
	snprintf(want, sizeof(want), "%d", SCHEMA_VERSION);
	if (!m.is_ini)
		rc = err_set(err,
			     "--resume %s: made by an older c2cbench (its metadata.txt is not "
			     "INI); accepted: a run directory made by this version",
			     dir);
	else if (strcmp(m.preset, p->name))
		rc = err_set(err,
			     "--resume %s: made by preset '%s', not '%s'; accepted: a run "
			     "directory of preset %s",
			     dir, m.preset[0] ? m.preset : "(none)", p->name, p->name);
	else if (strcmp(m.schema, want))
		rc = err_set(err,
			     "--resume %s: made with CSV schema_version %s, this c2cbench writes "
			     "%s; accepted: a run directory of this schema version",
			     dir, m.schema[0] ? m.schema : "(none)", want);
	else if (same_machine(dir, &m, ctx, err))
		rc = -1;
	else if (m.label[0] && strcmp(m.label, ctx->label))
		rc = err_set(err,
			     "--resume %s: made under --label %s, not %s; accepted: the "
			     "directory's label (leave --label out to keep it)",
			     dir, m.label, ctx->label);
	else if (!same_text(dir, p->text))
		rc = err_set(err,
			     "--resume %s: preset %s (%s) has changed since the directory was made "
			     "(%s/preset.ini); accepted: the same preset text",
			     dir, p->name, p->path, dir);
	else if (strcmp(m.validity, p->validity)) /* its runs would be judged by other rules */
		rc = err_set(
		    err,
		    "--resume %s: its runs were given '%s', this invocation '%s'; accepted: "
		    "the same --max-attempts and --valid-* options ([preset] validity)",
		    dir, m.validity[0] ? m.validity : "no validity option",
		    p->validity[0] ? p->validity : "no validity option");
	if (!rc) {
		snprintf(r->started, sizeof(r->started), "%s",
			 m.started[0] ? m.started : "unknown");
		snprintf(r->resumed, sizeof(r->resumed), "%s", m.resumed);
	}
	return rc;
}

void resume_label(const char *dir, struct context *ctx)
{
	struct meta_read m;
	if (!meta_read(dir, &m) && m.label[0] && strlen(m.label) < sizeof(ctx->label))
		memcpy(ctx->label, m.label,
		       strlen(m.label) + 1); /* length checked: snprintf's truncation warning broke
						make asan */
}

struct meta_run {
	int complete;
	long rows; /* -1: no rows key */
};

static int status_cb(void *user, const char *section, const char *name, const char *value)
{
	struct meta_run *m = user;
	long v;
	if (!strcmp(section, "run") && !strcmp(name, "status"))
		m->complete = !strcmp(value, "complete");
	if (!strcmp(section, "run") && !strcmp(name, "rows") &&
	    !parse_long_in(value, 0, LONG_MAX, &v))
		m->rows = v;
	return 1;
}

static void meta_of(const char *dir, const char *csv, char *out, size_t n)
{
	char c[PATH_MAX + 100];
	snprintf(c, sizeof(c), "%s/%s", dir, csv);
	context_meta_path(c, out, n);
}

long csv_whole_rows(const char *path, const char *name, char *err)
{
	struct csvs s;
	FILE *f = fopen_regular(path); /* never a FIFO that blocks */
	long n = -1;
	err[0] = 0;
	if (!f)
		return err_set(err, "%s cannot be read", name);
	csvs_attach(&s, f, name);
	while (csvs_next(&s, err) == 1) /* to the end, or to the first record it refuses */
		n++;
	csvs_close(&s);
	if (n < 0 && !err[0])
		err_set(err, "%s has no header", name);
	return n;
}

int resume_run_complete(const char *dir, const char *csv, char *why, size_t n)
{
	char meta[PATH_MAX + 100], path[PATH_MAX + 100];
	struct meta_run m = { 0, -1 };
	why[0] = 0;
	meta_of(dir, csv, meta, sizeof(meta));
	snprintf(path, sizeof(path), "%s/%s", dir, csv);
	FILE *mf = fopen_regular(meta);
	int bad = !mf || ini_parse_file(mf, status_cb, &m);
	if (mf)
		fclose(mf);
	if (bad || !m.complete)
		return 0;
	char err[ERRLEN];
	long rows = csv_whole_rows(path, csv, err);
	if (rows != m.rows || err[0]) { /* the .meta's word is checked against the CSV: lost or
					   cut rows are not a whole run */
		snprintf(why, n,
			 "its .meta says complete with %ld row(s) but %s has %ld whole row(s)%s%s",
			 m.rows, csv, rows < 0 ? 0 : rows, err[0] ? ", then: " : "", err);
		return 0;
	}
	return 1;
}

int resume_set_aside(const char *dir, const char *csv, char *err)
{
	char from[PATH_MAX + 100], to[PATH_MAX + 200], sub[PATH_MAX + 20], base[128];
	snprintf(sub, sizeof(sub), "%s/interrupted", dir);
	snprintf(base, sizeof(base), "%.*s", (int)(strlen(csv) > 4 ? strlen(csv) - 4 : strlen(csv)),
		 csv);
	if (mkdir(sub, 0755) && errno != EEXIST)
		return err_set(err, "--resume: cannot create '%s': %s", sub, strerror(errno));
	for (int k = 1; k < 1000; k++) {
		snprintf(to, sizeof(to), "%s/%s-%d.csv", sub, base, k);
		if (!access(to, F_OK))
			continue;
		snprintf(from, sizeof(from), "%s/%s", dir, csv);
		if (!access(from, F_OK) && rename(from, to))
			return err_set(err, "--resume: cannot move '%s' to '%s': %s", from, to,
				       strerror(errno));
		meta_of(dir, csv, from, sizeof(from));
		char cols[sizeof(from) + 16];
		bench_columns_path(from, cols, sizeof(cols));
		snprintf(to, sizeof(to), "%s/%s-%d.meta", sub, base, k);
		if (!access(from, F_OK) && rename(from, to))
			return err_set(err, "--resume: cannot move '%s' to '%s': %s", from, to,
				       strerror(errno));
		snprintf(to, sizeof(to), "%s/%s-%d.columns", sub, base, k);
		if (!access(cols, F_OK) && rename(cols, to))
			return err_set(err, "--resume: cannot move '%s' to '%s': %s", cols, to,
				       strerror(errno));
		bench_desc_path(from, cols, sizeof(cols)); /* from: the .meta's name */
		snprintf(to, sizeof(to), "%s/%s-%d.bench", sub, base, k);
		if (!access(cols, F_OK) && rename(cols, to))
			return err_set(err, "--resume: cannot move '%s' to '%s': %s", cols, to,
				       strerror(errno));
		return 0;
	}
	return err_set(err, "--resume: too many files in '%s'", sub);
}

struct kept_ctx {
	char label[128], host[128], fingerprint[64], started[64];
};

static int kept_cb(void *user, const char *section, const char *name, const char *value)
{
	struct kept_ctx *k = user;
	char *dst = !strcmp(name, "label")         ? k->label
		    : !strcmp(name, "host")        ? k->host
		    : !strcmp(name, "fingerprint") ? k->fingerprint
		    : !strcmp(name, "started")     ? k->started
						   : NULL;
	if (!strcmp(section, "context") && dst)
		snprintf(dst, 64, "%.63s", value);
	return 1;
}

int resume_kept_ours(const char *dir, const char *csv, const char *bench, const struct context *ctx,
		     const char *started, char *why, size_t n)
{
	char meta[PATH_MAX + 100], path[PATH_MAX + 100];
	struct kept_ctx k = { "", "", "", "" };
	meta_of(dir, csv, meta, sizeof(meta));
	snprintf(path, sizeof(path), "%s/%s", dir, csv);
	FILE *m = fopen_regular(meta);
	if (!m || ini_parse_file(m, kept_cb, &k)) {
		if (m)
			fclose(m);
		snprintf(why, n, "its .meta cannot be read as this run's");
		return 0;
	}
	fclose(m);
	const char *const key[] = { "label", "host", "fingerprint" };
	const char *const was[] = { k.label, k.host, k.fingerprint }, *const now[] = {
		ctx->label, ctx->host, ctx->fingerprint
	};
	for (int i = 0; i < 3; i++)
		if (strcmp(was[i], now[i])) {
			snprintf(why, n,
				 "%s is another machine's or run's (.meta %s '%s', here '%s')", csv,
				 key[i], was[i], now[i]);
			return 0;
		}
	if (started[0] && strcmp(started, "unknown") && k.started[0] &&
	    strcmp(k.started, started) < 0) {
		snprintf(why, n, "%s was made at %s, before this directory (%s)", csv, k.started,
			 started);
		return 0;
	}
	char *text = file_text(path, 64u << 20), err[ERRLEN];
	struct table t;
	if (!text) {
		snprintf(why, n, "%s cannot be read", csv);
		return 0;
	}
	int rc = table_parse(&t, csv, text, strlen(text), err); /* the one reader: file and line */
	free(text);
	if (rc) {
		snprintf(why, n, "%s", err);
		return 0;
	}
	const char *const col[] = { "bench", key[0], key[1], key[2] };
	const char *const want[] = { bench, ctx->label, ctx->host, ctx->fingerprint };
	int bad = 0;
	for (int j = 0; j < 4 && !bad; j++) {
		int c = table_col(&t, col[j]);
		if (c < 0 && !j) { /* every c2cbench row names its bench */
			snprintf(why, n, "%s has no bench column", csv);
			bad = 1;
		}
		for (long row = 0; c >= 0 && row < t.nrows && !bad; row++)
			if (strcmp(t.cell[row][c], want[j])) {
				snprintf(why, n, "%s:%ld is another %s's ('%.60s', here '%s')", csv,
					 t.line[row], j ? "machine" : "bench", t.cell[row][c],
					 want[j]);
				bad = 1;
			}
	}
	table_free(&t);
	return !bad;
}

int resume_lock(const char *dir, char *err)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, "%s: cannot open the directory to lock it: %s", dir,
			       strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) { /* held until this process ends: its fd stays open */
		int e = errno;
		close(fd);
		return err_set(
			err, "%s: %s; accepted: one c2cbench preset at a time in a directory", dir,
			e == EWOULDBLOCK ? "another c2cbench preset is running in it (it is locked)"
					 : strerror(e));
	}
	return 0;
}

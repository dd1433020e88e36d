#include "runner/preset_resume.h"
#include "harness/bench.h"
#include "harness/util.h"
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The value of "key: " in metadata.txt's key lines (before preset_text), or NULL. */
static const char *meta_get(const char *text, const char *key, char *val, size_t n)
{
	size_t kl = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, "preset_text:", 12))
			break;
		if (!strncmp(l, key, kl) && l[kl] == ':' && l[kl + 1] == ' ') {
			snprintf(val, n, "%.*s", (int)strcspn(l + kl + 2, "\n"), l + kl + 2);
			return val;
		}
	}
	return NULL;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *t = xcalloc(cap + 1, 1);
	for (size_t got; (got = fread(t + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			t = realloc(t, 2 * cap + 1);
			if (!t)
				out_of_memory(0);
			cap *= 2;
		}
	}
	t[n] = 0;
	fclose(f);
	return t;
}

/* Same machine: the facts that decide how threads can be placed and what the numbers mean. */
static int same_machine(const char *dir, const char *m, const struct context *c, char *err)
{
	char num[7][32], v[256];
	const char *keys[] = { "host", "cpu_model", "packages", "cores", "pus", "numa_nodes", "line_size" };
	const char *now[7] = { c->host, c->cpu_model };
	const int ints[] = { c->packages, c->cores, c->pus, c->nodes, c->line_size };
	for (int i = 2; i < 7; i++) {
		snprintf(num[i], sizeof(num[i]), "%d", ints[i - 2]);
		now[i] = num[i];
	}
	for (int i = 0; i < 7; i++)
		if (!meta_get(m, keys[i], v, sizeof(v)) || strcmp(v, now[i]))
			return err_set(err, "--resume %s: made on another machine (%s '%s', here '%s'); accepted: a run directory of this preset made on this machine", dir, keys[i],
				       meta_get(m, keys[i], v, sizeof(v)) ? v : "missing", now[i]);
	return 0;
}

/* metadata.txt ends with the preset text verbatim, plus a newline when it lacked one. */
static int same_text(const char *stored, const char *text)
{
	size_t n = strlen(text);
	if (strncmp(stored, text, n))
		return 0;
	return !strcmp(stored + n, n && text[n - 1] != '\n' ? "\n" : "");
}

int resume_check(const char *dir, const struct preset *p, const struct context *ctx, struct resumed *r, char *err)
{
	char path[PATH_MAX], v[256], want[32];
	snprintf(path, sizeof(path), "%s/metadata.txt", dir);
	char *m = read_all(path);
	int rc = 0;
	if (!m)
		return err_set(err, "--resume %s: not a preset run directory (cannot read %s: %s)", dir, path, strerror(errno));
	snprintf(want, sizeof(want), "%d", SCHEMA_VERSION);
	const char *text = strstr(m, "\npreset_text:\n");
	if (!meta_get(m, "preset", v, sizeof(v)) || strcmp(v, p->name))
		rc = err_set(err, "--resume %s: made by preset '%s', not '%s'; accepted: a run directory of preset %s", dir,
			     meta_get(m, "preset", v, sizeof(v)) ? v : "(none)", p->name, p->name);
	else if (!meta_get(m, "schema_version", v, sizeof(v)) || strcmp(v, want))
		rc = err_set(err, "--resume %s: made with CSV schema_version %s, this c2cbench writes %s; accepted: a run directory of this schema version", dir,
			     meta_get(m, "schema_version", v, sizeof(v)) ? v : "(none)", want);
	else if (same_machine(dir, m, ctx, err))
		rc = -1;
	else if (strcmp(meta_get(m, "label", v, sizeof(v)) ? v : ctx->label, ctx->label))
		rc = err_set(err, "--resume %s: made under --label %s, not %s; accepted: the directory's label (leave --label out to keep it)", dir, v, ctx->label);
	else if (!text || !same_text(text + 14, p->text))
		rc = err_set(err, "--resume %s: preset %s (%s) has changed since the directory was made; accepted: the same preset text", dir, p->name, p->path);
	if (!rc) {
		snprintf(r->started, sizeof(r->started), "%s", meta_get(m, "started", v, sizeof(v)) ? v : "unknown");
		snprintf(r->resumed, sizeof(r->resumed), "%s", meta_get(m, "resumed", v, sizeof(v)) ? v : "");
	}
	free(m);
	return rc;
}

void resume_label(const char *dir, struct context *ctx)
{
	char path[PATH_MAX], v[256];
	snprintf(path, sizeof(path), "%s/metadata.txt", dir);
	char *m = read_all(path);
	if (m && meta_get(m, "label", v, sizeof(v)) && strlen(v) < sizeof(ctx->label))
		memcpy(ctx->label, v, strlen(v) + 1); /* length checked: snprintf's truncation warning broke make asan */
	free(m);
}

static int status_cb(void *user, const char *section, const char *name, const char *value)
{
	if (!strcmp(section, "run") && !strcmp(name, "status"))
		*(int *)user = !strcmp(value, "complete");
	return 1;
}

static void meta_of(const char *dir, const char *csv, char *out, size_t n)
{
	char c[PATH_MAX + 100];
	snprintf(c, sizeof(c), "%s/%s", dir, csv);
	context_meta_path(c, out, n);
}

int resume_run_complete(const char *dir, const char *csv)
{
	char meta[PATH_MAX + 100];
	int complete = 0;
	meta_of(dir, csv, meta, sizeof(meta));
	if (ini_parse(meta, status_cb, &complete))
		return 0;
	return complete;
}

int resume_set_aside(const char *dir, const char *csv, char *err)
{
	char from[PATH_MAX + 100], to[PATH_MAX + 200], sub[PATH_MAX + 20], base[128];
	snprintf(sub, sizeof(sub), "%s/interrupted", dir);
	snprintf(base, sizeof(base), "%.*s", (int)(strlen(csv) > 4 ? strlen(csv) - 4 : strlen(csv)), csv);
	if (mkdir(sub, 0755) && errno != EEXIST)
		return err_set(err, "--resume: cannot create '%s': %s", sub, strerror(errno));
	for (int k = 1; k < 1000; k++) {
		snprintf(to, sizeof(to), "%s/%s-%d.csv", sub, base, k);
		if (!access(to, F_OK))
			continue;
		snprintf(from, sizeof(from), "%s/%s", dir, csv);
		if (!access(from, F_OK) && rename(from, to))
			return err_set(err, "--resume: cannot move '%s' to '%s': %s", from, to, strerror(errno));
		meta_of(dir, csv, from, sizeof(from));
		snprintf(to, sizeof(to), "%s/%s-%d.meta", sub, base, k);
		if (!access(from, F_OK) && rename(from, to))
			return err_set(err, "--resume: cannot move '%s' to '%s': %s", from, to, strerror(errno));
		return 0;
	}
	return err_set(err, "--resume: too many files in '%s'", sub);
}

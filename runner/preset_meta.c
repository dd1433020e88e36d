#include "runner/preset_meta.h"
#include "harness/bench.h"
#include "schema/meta.h"
#include "schema/version.h"
#include "runner/preset_child.h"
#include "runner/slurm.h"
#include "lib/util.h"
#include "lib/replace.h"
#include "lib/infile.h"
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

void meta_args_text(const struct preset_run *r, char *b, size_t n)
{
	size_t k = (size_t)snprintf(b, n, "%s", r->bench);
	for (int i = 0; i < r->nargs && k < n; i++)
		k += (size_t)snprintf(b + k, n - k, " %s", r->argv[i]);
}

/* INI values end at a newline, and inih cuts them at " ;": keep both out (as the .meta writer
 * does). Other control bytes (ESC, BEL, C1) are escaped: the values come from the environment
 * (SLURM_*), the machine and the command line, and a cat of the file runs no terminal escape. */
static void put(FILE *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void put(FILE *f, const char *key, const char *fmt, ...)
{
	char v[4096], e[4 * sizeof(v)];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	for (char *c = v; *c; c++)
		*c = *c == '\n' || *c == '\r' ? ' ' : *c == ';' ? ',' : *c;
	text_escape(v, e, sizeof(e));
	fprintf(f, "%s = %s\n", key, e);
}

/* One [run NAME] section: the command, its file, and how it ended. */
static void run_section(FILE *f, const struct preset_run *r, const struct planned *pl)
{
	char a[2048];
	meta_args_text(r, a, sizeof(a));
	fprintf(f, "\n[run %s]\n", r->name);
	put(f, "command", "c2cbench run %s", a);
	put(f, "csv", "%s", pl->csv);
	if (pl->skip) {
		put(f, "status", "skipped");
		put(f, "reason", "%s", pl->skip);
		return;
	}
	if (pl->status < 0) {
		put(f, "status", "not run yet");
		return;
	}
	const char *st = pl->status == EXIT_NOVALID ? "measured nothing" : "failed";
	st = pl->status ? st : "complete";
	put(f, "status", "%s", pl->sig ? "interrupted" : pl->done ? "complete" : st);
	put(f, "exit", "%d", pl->status);
	put(f, "rows", "%ld", pl->rows);
	if (pl->sig)
		put(f, "reason", "SIG%s", sigabbrev_np(pl->sig));
	if (pl->done)
		put(f, "note", "complete before --resume");
	else
		put(f, "seconds", "%.1f", pl->took);
}

/* One line per failed write (a full disk): the caller goes on and exits 1 at the end. */
static int write_failed(const char *path, int e)
{
	fprintf(stderr, "c2cbench: error: cannot write %s: %s\n", path, strerror(e));
	return -1;
}

/* The preset text, verbatim, beside the metadata: --resume compares it byte for byte. */
static int write_text(const char *dir, const struct preset *p)
{
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/preset.ini", dir);
	if (!access(path, F_OK))
		return 0;
	struct replace r;
	FILE *f = replace_open(&r, path);
	if (!f)
		return write_failed(path, errno);
	fputs(p->text, f);
	if (replace_commit(&r,
			   REPLACE_NEW)) /* whole, or none: --resume never reads half a preset */
		return write_failed(path, errno);
	return 0;
}

int meta_write(const char *dir, const struct preset *p, const struct planned *pl,
	       const struct context *ctx, const struct resumed *rs, const char *state)
{
	char fin[PATH_MAX + 32];
	struct replace r;
	snprintf(fin, sizeof(fin), "%s/metadata.txt", dir);
	if (write_text(dir, p))
		return -1;
	FILE *f = replace_open(&r, fin);
	if (!f)
		return write_failed(fin, errno);
	fprintf(f,
		"; c2cbench preset run directory (INI, as every .meta). The preset text is in "
		"preset.ini.\n[c2cbench]\n");
	put(f, "version", "%s", C2C_VERSION);
	put(f, "rev", "%s", ctx->git_rev);
	put(f, "schema_version", "%d", SCHEMA_VERSION);
	put(f, "binary", "%s", self_exe());
	fprintf(f, "\n[preset]\n");
	put(f, "name", "%s", p->name);
	put(f, "file", "%s", p->path);
	put(f, "text", "preset.ini");
	put(f, "state", "%s", state);
	put(f, "validity", "%s",
	    p->validity[0] ? p->validity : "as each run sets it (no option given to preset)");
	put(f, "started", "%s", rs->started);
	if (rs->resumed[0])
		put(f, "resumed", "%s", rs->resumed);
	fprintf(f, "\n[machine]\n");
	put(f, "label", "%s", ctx->label);
	put(f, "host", "%s", ctx->host);
	put(f, "cpu_model", "%s", ctx->cpu_model);
	put(f, "packages", "%d", ctx->packages);
	put(f, "cores", "%d", ctx->cores);
	put(f, "pus", "%d", ctx->pus);
	put(f, "numa_nodes", "%d", ctx->nodes);
	put(f, "line_size", "%d", ctx->line_size);
	put(f, "kernel", "%s", ctx->kernel);
	put(f, "compiler", "%s", ctx->compiler);
	put(f, "fingerprint", "%s", ctx->fingerprint);
	for (int i = 0; fp_keys[i]; i++) { /* the fields it hashes that are not above */
		const struct ctx_fact *x = context_fact(ctx, fp_keys[i]);
		if (x)
			put(f, fp_keys[i], "%s", x->val);
	}
	static const char *const more[] = { "mem_per_node", "allowed_pus", "allowed_mem_nodes" };
	for (size_t i = 0; i < ARRAY_SIZE(more); i++) {
		const struct ctx_fact *x = context_fact(ctx, more[i]);
		if (x)
			put(f, more[i], "%s", x->val);
	}
	const char *sk[8], *sv[8];
	int ns = slurm_task_env(sk, sv, 8);
	if (ns)
		fprintf(f, "\n[slurm]\n");
	for (int i = 0; i < ns; i++)
		put(f, sk[i], "%s", sv[i]); /* one line per key, whatever the environment holds */
	for (int i = 0; i < p->n; i++)
		run_section(f, &p->run[i], &pl[i]);
	if (replace_commit(&r, REPLACE_OVER)) /* the previous metadata.txt stays whole */
		return write_failed(fin, errno);
	return 0;
}

static void set(char *dst, size_t n, const char *v)
{
	snprintf(dst, n, "%s", v);
}

/* inih callback: keep the keys --resume checks. */
static int on_key(void *user, const char *section, const char *name, const char *value)
{
	static const char *const mk[] = META_MACHINE_KEYS;
	struct meta_read *m = user;
	if (!strcmp(section, "c2cbench") && !strcmp(name, "schema_version"))
		set(m->schema, sizeof(m->schema), value);
	else if (!strcmp(section, "preset") && !strcmp(name, "name"))
		set(m->preset, sizeof(m->preset), value);
	else if (!strcmp(section, "preset") && !strcmp(name, "started"))
		set(m->started, sizeof(m->started), value);
	else if (!strcmp(section, "preset") && !strcmp(name, "resumed"))
		set(m->resumed, sizeof(m->resumed), value);
	else if (!strcmp(section, "preset") && !strcmp(name, "validity"))
		set(m->validity, sizeof(m->validity), strncmp(value, "--", 2) ? "" : value);
	else if (!strcmp(section, "machine") && !strcmp(name, "label"))
		set(m->label, sizeof(m->label), value);
	else if (!strcmp(section, "machine"))
		for (int i = 0; i < 7; i++)
			if (!strcmp(name, mk[i]))
				set(m->machine[i], sizeof(m->machine[i]), value);
	return 1;
}

int meta_read(const char *dir, struct meta_read *m)
{
	char path[PATH_MAX + 32], first[512] = "";
	memset(m, 0, sizeof(*m));
	snprintf(path, sizeof(path), "%s/metadata.txt", dir);
	FILE *f = fopen_regular(path);
	if (!f)
		return -1;
	while (fgets(first, sizeof(first), f) && (first[0] == ';' || first[0] == '\n'))
		; /* the first line that is not a comment: an INI file starts with a [section] */
	m->is_ini = first[0] == '[';
	rewind(f);
	if (m->is_ini)
		ini_parse_file(f, on_key, m);
	fclose(f);
	return 0;
}

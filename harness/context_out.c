/* Where the run context goes: key columns in every CSV row, the full set in FILE.meta, warnings. */
#include "harness/context.h"
#include "schema/runfacts.h"
#include "lib/util.h"
#include "lib/replace.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Facts that also go into every CSV row: what users filter on when comparing platforms. */
static const char *const row_facts[] = {"cpu_vendor", "microcode", "hypervisor",    "governor",
					"boost",      "smt",       "numa_balancing"};

void context_to_row(const struct context *c, struct row *r)
{
	row_set(r, "label", "%s", c->label);
	row_set(r, "host", "%s", c->host);
	row_set(r, "cpu_model", "%s", c->cpu_model);
	row_set(r, "packages", "%d", c->packages);
	row_set(r, "cores", "%d", c->cores);
	row_set(r, "pus", "%d", c->pus);
	row_set(r, "numa_nodes", "%d", c->nodes);
	row_set(r, "line_size", "%d", c->line_size);
	row_set(r, "kernel", "%s", c->kernel);
	row_set(r, "compiler", "%s", c->compiler);
	row_set(r, "c2cbench_rev", "%s", c->git_rev);
	row_set(r, "started", "%s", c->started);
	row_set(r, "fingerprint", "%s", c->fingerprint);
	for (size_t i = 0; i < ARRAY_SIZE(row_facts); i++) {
		const struct ctx_fact *f = context_fact(c, row_facts[i]);
		if (!f)
			row_na(r, row_facts[i], "not collected");
		else if (f->why[0])
			row_na(r, row_facts[i], f->why);
		else
			row_set(r, row_facts[i], "%s", f->val);
	}
}

static int known(const struct ctx_fact *f)
{
	return f && !f->why[0];
}

int context_warn(const struct context *c, FILE *f)
{
	const struct ctx_fact *g = context_fact(c, "governor"),
			      *nb = context_fact(c, "numa_balancing"),
			      *hv = context_fact(c, "hypervisor");
	int n = 0;
	if (known(g) && strcmp(g->val, "performance"))
		n += fprintf(f,
			     "c2cbench: warning: CPU frequency governor is '%s', not "
			     "'performance': frequency changes add noise\n",
			     g->val) > 0;
	if (known(nb) && strcmp(nb->val, "off"))
		n += fprintf(f,
			     "c2cbench: warning: automatic NUMA balancing is '%s': pages may "
			     "migrate during the run (sysctl kernel.numa_balancing=0)\n",
			     nb->val) > 0;
	if (known(hv) && strcmp(hv->val, "none"))
		n += fprintf(
			 f,
			 "c2cbench: warning: running under a hypervisor (%s): vCPUs share and move "
			 "between physical cores, so topology and latencies are the host's\n",
			 hv->val) > 0;
	return n;
}

/* INI values end at a newline, and inih cuts them at " ;": keep both out. */
static void ini_value(FILE *f, const char *v)
{
	for (; *v; v++)
		fputc(*v == '\n' || *v == '\r' ? ' ' : *v == ';' ? ',' : *v, f);
	fputc('\n', f);
}

static void put(FILE *f, const char *key, const char *val)
{
	fprintf(f, "%s = ", key);
	ini_value(f, val);
}

/* The [context] and [na_reason] sections: everything known about the machine and the build; then
 * [validity], the rules the run judged its attempts by. */
static void meta_body(FILE *f, const struct context *c)
{
	char num[32];
	fprintf(f, "; c2cbench run context (INI). Unknown facts are NA; [na_reason] says "
		   "why.\n[context]\n");
	put(f, "label", c->label);
	put(f, "host", c->host);
	put(f, "started", c->started);
	put(f, "cpu_model", c->cpu_model);
	const int ints[] = { c->packages, c->cores, c->pus, c->nodes, c->line_size };
	const char *const ikeys[] = { "packages", "cores", "pus", "numa_nodes", "line_size" };
	for (size_t i = 0; i < ARRAY_SIZE(ints); i++) {
		snprintf(num, sizeof(num), "%d", ints[i]);
		put(f, ikeys[i], num);
	}
	put(f, "kernel", c->kernel);
	put(f, "compiler", c->compiler);
	put(f, "c2cbench_rev", c->git_rev);
	for (int i = 0; i < c->nfacts; i++)
		put(f, c->fact[i].key, c->fact[i].val);
	put(f, "fingerprint", c->fingerprint);
	fprintf(f, "\n[na_reason]\n");
	for (int i = 0; i < c->nfacts; i++)
		if (c->fact[i].why[0])
			put(f, c->fact[i].key, c->fact[i].why);
	if (c->nvalidity)
		fprintf(f, "\n[validity]\n");
	for (int i = 0; i < c->nvalidity; i++)
		put(f, c->validity[i].key, c->validity[i].val);
}

int context_write_meta(const struct context *c, const char *path, char *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(
		    err,
		    "cannot create metadata file '%s': %s; accepted: a new file next to the CSV",
		    path, errno == EEXIST ? "it already exists" : strerror(errno));
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(path);
		return err_set(err, "cannot write metadata file '%s': %s", path, strerror(errno));
	}
	meta_body(f, c);
	/* until the run ends and says otherwise: a run killed outright (SIGKILL, a second Ctrl-C)
	 * stays "running" */
	fprintf(f, "\n[run]\nstatus = running\n");
	if (ferror(f) | fclose(f)) { /* a write that failed early (a full disk) is an error too */
		unlink(path);
		return err_set(err, "cannot write metadata file '%s': %s", path, strerror(errno));
	}
	return 0;
}

int context_meta_status(const struct context *c, const char *path, const char *status, long rows,
			const char *reason, const struct run_facts *rf, char *err)
{
	char num[32], ended[32];
	time_t now = time(NULL);
	struct tm tm;
	struct replace r;
	FILE *f = replace_open(&r, path);
	if (!f)
		return err_set(err, "cannot update metadata file '%s': %s", path, strerror(errno));
	meta_body(f, c);
	fprintf(f, "\n[run]\n");
	put(f, "status", status);
	snprintf(num, sizeof(num), "%ld", rows);
	put(f, "rows", num);
	strftime(ended, sizeof(ended), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
	put(f, "ended", ended);
	if (reason && *reason)
		put(f, "reason", reason);
	if (rf)
		run_facts_put(f, rf);
	if (replace_commit(
		&r, REPLACE_OVER)) /* the old file stays whole if the new one cannot be had */
		return err_set(err, "cannot update metadata file '%s': %s", path, strerror(errno));
	return 0;
}

int context_set_label(struct context *c, const char *label, char *err)
{
	if (!label)
		return 0;
	if (label_check("--label", label, err))
		return -1;
	snprintf(c->label, sizeof(c->label), "%s", label);
	return 0;
}

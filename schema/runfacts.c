/* The run's settings in its .meta's [run] section (schema/runfacts.h). */
#include "schema/runfacts.h"
#include "lib/parse.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

/* A value on one line: no newline, and no ';' (the INI comment) nor leading space to lose. */
static void value(FILE *f, const char *v)
{
	for (; *v; v++)
		fputc(*v == '\n' || *v == '\r' ? ' ' : *v == ';' ? ',' : *v, f);
	fputc('\n', f);
}

const char *const run_stop_names[4] = { "running", "ci", "max-reps", "time" };

void run_facts_stop(struct run_facts *r, int v, int how, double width, int rounds)
{
	snprintf(r->stop[v].how, sizeof(r->stop[v].how), "%s", run_stop_names[how]);
	r->stop[v].width = width;
	r->stop[v].rounds = rounds;
}

void run_facts_put(FILE *f, const struct run_facts *r)
{
	fprintf(f, "reps = %d\nreps_auto = %s\n", r->reps, r->reps_auto ? "yes" : "no");
	if (r->reps_auto)
		fprintf(f, "reps_auto_rule = %.17g %d %.17g\n", r->ci_width, r->max_reps,
			r->max_s);
	fprintf(f, "max_attempts = %d\ncv_warn = %.17g\nkeep_invalid = %s\n", r->attempts,
		r->cv_warn, r->keep_invalid ? "yes" : "no");
	for (int v = 0; v < r->nvar; v++) {
		fprintf(f, "variant = ");
		value(f, r->var[v]);
	}
	for (int v = 0; r->reps_auto && r->stop && v < r->nvar; v++)
		if (r->stop[v].how[0])
			fprintf(f, "stop = %d %s %d %.17g\n", v, r->stop[v].how, r->stop[v].rounds,
				r->stop[v].width);
	for (int i = 0; i < r->nfixed; i++) {
		fprintf(f, "by_construction = %d %s ", r->fixed[i].var, r->fixed[i].metric);
		value(f, r->fixed[i].why);
	}
}

/* FNV-1a: a 768-PU matrix names 589,056 variants, each row looked up by name. */
static unsigned long hash(const char *s)
{
	unsigned long h = 1469598103934665603ul;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ul;
	return h;
}

static void hash_put(struct run_facts *r, int v)
{
	unsigned long i = hash(r->var[v]) & (unsigned long)(r->hcap - 1);
	while (r->hix[i])
		i = (i + 1) & (unsigned long)(r->hcap - 1);
	r->hix[i] = v + 1;
}

int run_facts_var(const struct run_facts *r, const char *name)
{
	if (!r->hcap)
		return -1;
	unsigned long i = hash(name) & (unsigned long)(r->hcap - 1);
	for (; r->hix[i]; i = (i + 1) & (unsigned long)(r->hcap - 1))
		if (!strcmp(r->var[r->hix[i] - 1], name))
			return r->hix[i] - 1;
	return -1;
}

void run_facts_reindex(struct run_facts *r)
{
	memset(r->hix, 0, (size_t)r->hcap * sizeof(int));
	for (int v = 0; v < r->nvar; v++)
		hash_put(r, v);
}

int run_facts_add_var(struct run_facts *r, const char *name)
{
	if (2 * (r->nvar + 1) > r->hcap) { /* at most half full */
		free(r->hix);
		r->hcap = r->hcap ? 2 * r->hcap : 64;
		r->hix = xcalloc((size_t)r->hcap, sizeof(int));
		for (int v = 0; v < r->nvar; v++)
			hash_put(r, v);
	}
	if (r->nvar == r->vcap) { /* doubled: 589,056 names are never copied one by one */
		r->vcap = r->vcap ? 2 * r->vcap : 16;
		r->var = realloc(r->var, (size_t)r->vcap * sizeof(char *));
		if (!r->var)
			out_of_memory(0);
		if (r->reps_auto) {
			r->stop = realloc(r->stop, (size_t)r->vcap * sizeof(*r->stop));
			if (!r->stop)
				out_of_memory(0);
		}
	}
	r->var[r->nvar] = xstrdup(name);
	if (r->reps_auto) { /* how each stopped: only --reps auto's */
		memset(&r->stop[r->nvar], 0, sizeof(*r->stop));
		r->stop[r->nvar].width = -1;
	}
	hash_put(r, r->nvar);
	return r->nvar++;
}

static int bad(char *err, const char *meta, long line, const char *key, const char *v)
{
	return err_set(err,
		       "%s:%ld: [run] %s = '%.40s' is not accepted; accepted: what a run writes "
		       "(results/README.md)",
		       meta, line, key, v);
}

static int num_int(const char *v, int lo, int *out)
{
	char *end;
	long x = strtol(v, &end, 10);
	if (end == v || *end || x < lo || x > RUN_COUNT_MAX)
		return -1;
	*out = (int)x;
	return 0;
}

static int num_dbl(const char *v, double *out)
{
	char *end;
	double x = strtod(v, &end);
	if (end == v || *end || !(x >= 0) || x > 1e12)
		return -1;
	*out = x;
	return 0;
}

static int yes_no(const char *v, int *out)
{
	if (strcmp(v, "yes") && strcmp(v, "no"))
		return 1;
	*out = !strcmp(v, "yes");
	return 0;
}

/* One [run] key. 0, 1 when the value is not one a run writes. */
static int take(struct run_facts *r, const char *k, char *v)
{
	char a[64], b[64], c[64];
	int n, i;
	if (!strcmp(k, "reps"))
		return num_int(v, 1, &r->reps) ? 1 : (r->known = 1, 0);
	if (!strcmp(k, "reps_auto"))
		return r->nvar || yes_no(v, &r->reps_auto); /* before the variants, as written */
	if (!strcmp(k, "reps_auto_rule"))
		return sscanf(v, "%63s %63s %63s%n", a, b, c, &n) != 3 || v[n] ||
		       num_dbl(a, &r->ci_width) || num_int(b, 1, &r->max_reps) ||
		       num_dbl(c, &r->max_s);
	if (!strcmp(k, "max_attempts"))
		return num_int(v, 1, &r->attempts) != 0;
	if (!strcmp(k, "cv_warn"))
		return num_dbl(v, &r->cv_warn) != 0;
	if (!strcmp(k, "keep_invalid"))
		return yes_no(v, &r->keep_invalid);
	if (!strcmp(k, "variant")) {
		if (!*v || run_facts_var(r, v) >= 0)
			return 1;
		run_facts_add_var(r, v);
		return 0;
	}
	if (!strcmp(k, "stop")) {
		struct run_stop s;
		if (sscanf(v, "%63s %15s %63s %63s%n", a, s.how, b, c, &n) != 4 || v[n] ||
		    num_int(a, 0, &i) || i >= r->nvar || !r->stop || num_int(b, 0, &s.rounds))
			return 1;
		s.width = strtod(c, NULL);
		r->stop[i] = s;
		return 0;
	}
	if (!strcmp(k, "by_construction")) {
		if (sscanf(v, "%63s %63s %n", a, b, &n) != 2 || num_int(a, 0, &i) || i >= r->nvar ||
		    !v[n])
			return 1;
		r->fixed = realloc(r->fixed, (size_t)(r->nfixed + 1) * sizeof(*r->fixed));
		if (!r->fixed)
			out_of_memory(0);
		r->fixed[r->nfixed++] = (struct run_fixed){ i, xstrdup(b), xstrdup(v + n) };
		return 0;
	}
	return 0; /* status, rows, ended, reason, and keys of a newer writer */
}

int run_facts_read(struct run_facts *r, const char *meta, char *err)
{
	memset(r, 0, sizeof(*r));
	FILE *f = meta && *meta ? fopen(meta, "r") : NULL;
	if (!f)
		return 0;
	char line[4096];
	long no = 0;
	int in = 0, rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		no++;
		line[strcspn(line, "\r\n")] = 0;
		if (line[0] == '[') {
			in = !strcmp(line, "[run]");
			continue;
		}
		char *eq = strstr(line, " = ");
		if (!in || !eq)
			continue;
		*eq = 0;
		if (take(r, line, eq + 3))
			rc = bad(err, meta, no, line, eq + 3);
	}
	fclose(f);
	if (rc)
		run_facts_free(r);
	return rc;
}

void run_facts_free(struct run_facts *r)
{
	for (int v = 0; v < r->nvar; v++)
		free(r->var[v]);
	for (int i = 0; i < r->nfixed; i++) {
		free(r->fixed[i].metric);
		free(r->fixed[i].why);
	}
	free(r->var);
	free(r->stop);
	free(r->hix);
	free(r->fixed);
	memset(r, 0, sizeof(*r));
}

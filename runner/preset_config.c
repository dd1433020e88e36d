/* A kept CSV's configuration against its run's options now: a CSV that passes every other check of
 * --resume (complete, this machine's, made after the directory) may still have been made by another
 * command (a `c2cbench run ... --out DIR/01-a.csv` of other options): its rows say so. */
#include "runner/preset_config.h"
#include "harness/bench.h"
#include "schema/meta.h"
#include "harness/bench_columns.h"
#include "harness/context.h"
#include "lib/csvread.h"
#include "lib/infile.h"
#include "lib/opts.h"
#include "lib/parse.h"
#include "lib/util.h"
#include <ini.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CFG_CHECKS 48 /* options one run gives that the rows can record */
#define CFG_SEEN 200  /* characters of a column's distinct values kept for the message */

/* The validity options: the .meta's [validity] records each as the run used it. */
static const char *const validity_keys[] = { "valid-window", "valid-oncpu",   "valid-overlap",
					     "valid-steal",  "valid-probe",   "valid-setting",
					     "max-attempts", NULL };

static const struct opt_spec *spec_of(const struct bench *b, const char *name)
{
	const struct opt_spec *const t[] = { b->opts, harness_opts };
	for (int i = 0; i < 2; i++)
		for (const struct opt_spec *s = t[i]; s && s->name; s++)
			if (!strcmp(s->name, name))
				return s;
	return NULL;
}

/* The value run r gives option name (without "--"), or NULL when it gives none. */
static const char *given(const struct bench *b, const struct preset_run *r, const char *name)
{
	const char *v = NULL;
	for (int a = 0; a < r->nargs; a++) {
		if (strncmp(r->argv[a], "--", 2))
			continue;
		const struct opt_spec *s = spec_of(b, r->argv[a] + 2);
		int flag = s && s->type == OPT_FLAG;
		if (!strcmp(r->argv[a] + 2, name))
			v = flag ? "" : a + 1 < r->nargs ? r->argv[a + 1] : NULL;
		a += !flag;
	}
	return v;
}

static int number(const char *s, double *v)
{
	char *e;
	if (!*s)
		return 0;
	*v = strtod(s, &e);
	return !*e && isfinite(*v);
}

/* Equal as numbers (the CSV writes %g: six significant digits) or as text; -1 when one is a
 * number and the other is not (a setting the run resolved: "writer" is node 0). */
static int same_value(const char *want, const char *got)
{
	double a, b;
	int na = number(want, &a), nb = number(got, &b);
	if (na && nb)
		return fabs(a - b) <= 1e-5 * fmax(fabs(a), fabs(b));
	if (na != nb)
		return -1;
	return !strcmp(want, got);
}

struct vmeta {
	char key[8][32], val[8][64];
	int n;
};

static int validity_cb(void *user, const char *section, const char *name, const char *value)
{
	struct vmeta *m = user;
	if (!strcmp(section, "validity") && m->n < 8) {
		snprintf(m->key[m->n], sizeof(m->key[0]), "%s", name);
		snprintf(m->val[m->n++], sizeof(m->val[0]), "%s", value);
	}
	return 1;
}

/* The .meta's [validity] against the run's validity options, given or default. */
static int same_validity(const char *dir, const char *csv, const struct bench *b,
			 const struct preset_run *r, char *why, size_t n)
{
	char path[PATH_MAX + 100], meta[PATH_MAX + 120];
	struct vmeta m = { .n = 0 };
	snprintf(path, sizeof(path), "%s/%s", dir, csv);
	context_meta_path(path, meta, sizeof(meta));
	FILE *f = fopen_regular(meta);
	if (!f)
		/* resume_run_complete has read it: gone since, the CSV's rows still tell */
		return 1;
	ini_parse_file(f, validity_cb, &m);
	fclose(f);
	for (int k = 0; validity_keys[k]; k++) {
		const struct opt_spec *s = spec_of(b, validity_keys[k]);
		const char *want = given(b, r, validity_keys[k]);
		want = want ? want : s ? s->def : NULL;
		for (int i = 0; want && i < m.n; i++)
			if (!strcmp(m.key[i], validity_keys[k]) &&
			    same_value(want, m.val[i]) == 0) {
				snprintf(why, n,
					 "%s was made with other options (--%s is '%s' in the "
					 "preset, '%s' in its .meta)",
					 csv, validity_keys[k], want, m.val[i]);
				return 0;
			}
	}
	return 1;
}

static int listed(const char *const *cols, const char *c)
{
	for (int i = 0; cols && cols[i]; i++)
		if (!strcmp(cols[i], c))
			return 1;
	return 0;
}

/* One option compared with one column. */
struct check {
	const char *opt, *want;
	int col, list, skip;
	long line;          /* line of the first row that differs (0: none) */
	char got[CFG_SEEN]; /* that row's value, or every distinct value (lists) */
	unsigned long long seen; /* list items seen, by position */
	long reps;               /* --reps: the highest rep + 1 */
};

/* The column that records option name as requested, by the naming the benches follow. */
static int column_of(const struct bench *b, char **cols, int ncols, const char *name)
{
	char base[64], c[80];
	snprintf(base, sizeof(base), "%s", name);
	for (char *p = base; *p; p++)
		*p = *p == '-' ? '_' : *p;
	const char *const suffix[] = { "_requested", "_requested_s", "" };
	for (int k = 0; k < 3; k++) {
		snprintf(c, sizeof(c), "%s%s", base, suffix[k]);
		if (!*suffix[k] && !listed(bench_config(b), c) && !listed(harness_config, c) &&
		    strcmp(c, b->variant_col ? b->variant_col : "") && strcmp(c, "seed"))
			/* a column of that name that is not configuration: a measurement */
			continue;
		for (int i = 0; i < ncols; i++)
			if (!strcmp(cols[i], c))
				return i;
	}
	return -1;
}

static void seen_add(struct check *k, const char *v)
{
	size_t len = strlen(k->got), n = strlen(v);
	if (list_has(k->got, v) || len + n + 2 >= sizeof(k->got))
		return; /* a value seen, or no room: the first ones are what the message names */
	if (len)
		k->got[len++] = ',';
	memcpy(k->got + len, v, n + 1);
}

static void row_value(struct check *k, const char *v, long line)
{
	if (k->skip || !strcmp(v, "NA") || !*v)
		return;
	if (k->list) {
		seen_add(k, v);
		char *items[64];
		int n = list_split(k->want, items, 64), hit = 0;
		for (int i = 0; i < n; i++) {
			if (!strcmp(items[i], v)) {
				k->seen |= 1ull << i;
				hit = 1;
			}
			free(items[i]);
		}
		if (!hit && !k->line)
			k->line = line;
		return;
	}
	int s = same_value(k->want, v);
	if (s < 0)
		k->skip = 1;
	else if (!s && !k->line) {
		k->line = line;
		snprintf(k->got, sizeof(k->got), "%.*s", (int)sizeof(k->got) - 1, v);
	}
}

/* A row's rep (from 0): the repetitions are the highest + 1; one that is not a count (a hostile
 * 9999999999999999999) is the row that differs. */
static void rep_value(struct check *k, const char *v, long line)
{
	long rep;
	if (parse_long_in(v, 0, INT_MAX - 1, &rep)) {
		if (!k->line) {
			k->line = line;
			snprintf(k->got, sizeof(k->got), "%.*s", (int)sizeof(k->got) - 1, v);
		}
	} else if (rep + 1 > k->reps)
		k->reps = rep + 1;
}

/* The checks of run r against the header: options given with a column that records them. */
static int plan_checks(const struct bench *b, const struct preset_run *r, char **cols, int ncols,
		       struct check *ck)
{
	int n = 0;
	for (int a = 0; a < r->nargs && n < CFG_CHECKS - 1; a++) {
		if (strncmp(r->argv[a], "--", 2))
			continue;
		const char *name = r->argv[a] + 2;
		const struct opt_spec *s = spec_of(b, name);
		if (!s || s->type == OPT_FLAG || a + 1 >= r->nargs)
			continue;
		const char *v = r->argv[++a];
		int c = column_of(b, cols, ncols, name);
		/* given again later: the last counts; seed 0: from the clock */
		if (c < 0 || given(b, r, name) != v || (!strcmp(name, "seed") && !strcmp(v, "0")))
			continue;
		ck[n++] = (struct check){ .opt = name, .want = v, .col = c,
					  .list = s->type == OPT_CHOICES };
	}
	const char *reps = given(b, r, "reps"); /* repetitions: distinct values of rep */
	const struct opt_spec *s = spec_of(b, "reps");
	reps = reps ? reps : s ? s->def : NULL;
	for (int i = 0; reps && strcmp(reps, "auto") && i < ncols; i++)
		if (!strcmp(cols[i], "rep")) { /* the reader refuses a column named twice */
			ck[n++] = (struct check){ .opt = "reps", .want = reps, .col = i };
			break;
		}
	return n;
}

/* The check's verdict, into why: 1 when the rows agree. */
static int judge(const char *csv, struct check *k, char *why, size_t n)
{
	if (!strcmp(k->opt, "reps") && k->line) {
		snprintf(why, n,
			 "%s:%ld was made with other options (--reps is '%s' in the preset, rep "
			 "'%s' in the file)",
			 csv, k->line, k->want, k->got);
		return 0;
	}
	if (!strcmp(k->opt, "reps")) {
		if (k->reps == atol(k->want))
			return 1;
		snprintf(why, n,
			 "%s was made with other options (--reps is '%s' in the preset, %ld "
			 "repetition(s) in the file)",
			 csv, k->want, k->reps);
		return 0;
	}
	if (k->skip)
		return 1;
	if (k->list) {
		char *items[64];
		int items_n = list_split(k->want, items, 64), all = 1;
		for (int i = 0; i < items_n; i++) {
			all &= !!(k->seen & 1ull << i);
			free(items[i]);
		}
		if (all && !k->line)
			return 1;
		snprintf(why, n,
			 "%s was made with other options (--%s is '%s' in the preset, '%s' in the "
			 "file)",
			 csv, k->opt, k->want, k->got);
		return 0;
	}
	if (!k->line)
		return 1;
	snprintf(
		why, n,
		"%s:%ld was made with other options (--%s is '%s' in the preset, '%s' in the file)",
		csv, k->line, k->opt, k->want, k->got);
	return 0;
}

int resume_same_rows(const char *text, const char *csv, const struct preset_run *r, char *why,
		     size_t n)
{
	const struct bench *b = bench_find(r->bench);
	struct table t;
	char err[ERRLEN];
	if (!b)
		return 1;
	if (table_parse(&t, csv, text, strlen(text), err)) { /* the one reader: file and line */
		snprintf(why, n, "%s", err);
		return 0;
	}
	struct check ck[CFG_CHECKS];
	int nck = plan_checks(b, r, t.cols, t.ncols, ck), ok = 1;
	for (long row = 0; row < t.nrows; row++)
		for (int k = 0; k < nck; k++)
			if (!strcmp(ck[k].opt, "reps"))
				rep_value(&ck[k], t.cell[row][ck[k].col], t.line[row]);
			else
				row_value(&ck[k], t.cell[row][ck[k].col], t.line[row]);
	for (int k = 0; k < nck && ok; k++)
		ok = judge(csv, &ck[k], why, n);
	table_free(&t);
	return ok;
}

int resume_same_config(const char *dir, const char *csv, const struct preset_run *r, char *why,
		       size_t n)
{
	const struct bench *b = bench_find(r->bench);
	char path[PATH_MAX + 100];
	if (!b) /* a bench this build lacks is skipped, never kept */
		return 1;
	if (!same_validity(dir, csv, b, r, why, n))
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, csv);
	char *text = file_text(path, 64u << 20);
	if (!text) {
		snprintf(why, n, "%s cannot be read", csv);
		return 0;
	}
	int ok = resume_same_rows(text, csv, r, why, n);
	free(text);
	return ok;
}

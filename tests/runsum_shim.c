/* Made-up rows through the run summary's own path (tests/runsum_shim.h). */
#include "tests/runsum_shim.h"
#include "analysis/resultset.h"
#include "analysis/runsum.h"
#include "cli/bench_fallback.h"
#include "harness/bench_columns.h"
#include "harness/driver_facts.h"
#include "lib/csvfield.h"
#include "lib/util.h"
#include "schema/meta.h"
#include "schema/runfacts.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct summary {
	const struct bench_ctx *c;
	struct run_facts rf;
	char dir[32], csv[64], meta[64], cols[80];
	FILE *out; /* the CSV, its header fixed by the first row (as the harness's writer) */
	int nh;
	char **h;  /* the header */
	char **v;  /* the row being written, per header column */
	long rows;
};

struct summary *summary_new(const struct bench_ctx *c)
{
	struct summary *s = xcalloc(1, sizeof(*s));
	s->c = c;
	driver_facts(c, &s->rf);
	snprintf(s->dir, sizeof(s->dir), "/tmp/c2c-shim.XXXXXX");
	if (!mkdtemp(s->dir))
		abort();
	snprintf(s->csv, sizeof(s->csv), "%s/run.csv", s->dir);
	context_meta_path(s->csv, s->meta, sizeof(s->meta));
	bench_columns_path(s->meta, s->cols, sizeof(s->cols));
	s->out = fopen(s->csv, "w");
	if (!s->out)
		abort();
	return s;
}

static void field(FILE *o, const char *v)
{
	size_t n = 2 * strlen(v) + 3;
	char *q = xcalloc(n, 1);
	csv_field(v, q, n);
	fputs(q, o);
	free(q);
}

/* Column k of the row: its place in the header, taken into the header while the first row is
 * written; a later row with a column the first had not is a test's mistake. */
static void put(struct summary *s, const char *k, const char *v)
{
	int j = 0;
	while (j < s->nh && strcmp(s->h[j], k))
		j++;
	if (j == s->nh) {
		if (s->rows) {
			fprintf(stderr, "runsum_shim: column %s not in the first row\n", k);
			abort();
		}
		s->h = realloc(s->h, (size_t)(s->nh + 1) * sizeof(char *));
		s->v = realloc(s->v, (size_t)(s->nh + 1) * sizeof(char *));
		if (!s->h || !s->v)
			out_of_memory(0);
		s->h[s->nh] = xstrdup(k);
		s->v[s->nh++] = NULL;
	}
	free(s->v[j]);
	s->v[j] = xstrdup(v);
}

void summary_add(struct summary *s, const struct row *r, int var, int rep, int attempt, int valid,
		 int final)
{
	char num[32];
	(void)final; /* the summary tells it from attempt and valid, as from a run's files */
	snprintf(num, sizeof(num), "%d", SCHEMA_VERSION);
	put(s, "schema_version", num);
	put(s, "bench", s->c->b->name);
	put(s, s->c->b->variant_col, s->c->var[var].name);
	snprintf(num, sizeof(num), "%d", rep);
	put(s, "rep", num);
	snprintf(num, sizeof(num), "%d", attempt);
	put(s, "attempt", num);
	put(s, "valid", valid ? "yes" : "no");
	put(s, "invalid_reason", valid ? "" : "made up");
	snprintf(num, sizeof(num), "%ld", s->rows); /* each row its own: never a duplicate */
	put(s, "thread_window_ns", num);
	for (int i = 0; i < r->n; i++)
		put(s, r->key[i], r->val[i]);
	if (r->na_reason[0])
		put(s, "na_reason", r->na_reason);
	for (int j = 0; !s->rows && j < s->nh; j++) {
		fputs(j ? "," : "", s->out);
		field(s->out, s->h[j]);
	}
	if (!s->rows)
		fputc('\n', s->out);
	for (int j = 0; j < s->nh; j++) {
		fputs(j ? "," : "", s->out);
		field(s->out, s->v[j] ? s->v[j] : "NA");
		free(s->v[j]);
		s->v[j] = NULL;
	}
	fputc('\n', s->out);
	s->rows++;
}

void summary_print(struct summary *s, FILE *f)
{
	char err[ERRLEN];
	FILE *m = fopen(s->meta, "w");
	if (!m || fflush(s->out))
		abort();
	fprintf(m, "[run]\nstatus = complete\nrows = %ld\n", s->rows);
	run_facts_put(m, &s->rf);
	fclose(m);
	/* the declaration as the run writes it; FILE.bench left to this build's fallback, which
	 * does not ask for the config columns made-up rows leave out */
	if (bench_columns_write(s->c->b, s->cols, s->h, s->nh, err))
		fprintf(f, "summary failed: %s\n", err);
	groups_set_desc_fallback(bench_fallback);
	if (runsum_print(f, s->csv, err))
		fprintf(f, "summary failed: %s\n", err);
}

void summary_free(struct summary *s)
{
	fclose(s->out);
	unlink(s->csv);
	unlink(s->meta);
	unlink(s->cols);
	rmdir(s->dir);
	for (int j = 0; j < s->nh; j++) {
		free(s->h[j]);
		free(s->v[j]);
	}
	free(s->h);
	free(s->v);
	run_facts_free(&s->rf);
	free(s);
}

/* Runs a bench: options, topology, plan, repetitions in shuffled order, CSV rows, summary table. */
#include "bench.h"
#include "csv.h"
#include "stats.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const struct opt_spec harness_opts[] = {
	{ "duration", OPT_SECONDS, "1", "SECONDS", "measured time per configuration and repetition", NULL, NULL },
	{ "warmup", OPT_SECONDS, "0.2", "SECONDS", "unmeasured time before each measurement", NULL, NULL },
	{ "reps", OPT_COUNT, "5", "N", "repetitions; variants run in a new shuffled order in each", NULL, NULL },
	{ "placement", OPT_TEXT, "auto", "POLICY", "thread placement: " PLACEMENTS " (auto: cross-socket on 2+ packages, else same-socket)", NULL, NULL },
	{ "mem-node", OPT_TEXT, "writer", "N|writer|reader", "NUMA node for the contended memory", NULL, NULL },
	{ "out", OPT_TEXT, NULL, "FILE", "CSV file to create (default results/BENCH-HOST-TIMESTAMP.csv)", NULL, NULL },
	{ "seed", OPT_UINT, "0", "N", "seed for the shuffled order (0: from the clock; the CSV records it)", NULL, NULL },
	{ "topology", OPT_TEXT, NULL, "SPEC", "plan on a foreign topology: synthetic:\"pack:2 numa:1 core:8 pu:2\" or xml:FILE", NULL, NULL },
	{ "dry-run", OPT_FLAG, NULL, NULL, "print the plan and exit without running", NULL, NULL },
	{ "quiet", OPT_FLAG, NULL, NULL, "no summary table", NULL, NULL },
	{ 0 },
};

void bench_variant(struct bench_ctx *c, const char *name, long param)
{
	if (c->nvar >= VARIANTS_MAX)
		abort();
	snprintf(c->var[c->nvar].name, sizeof(c->var[0].name), "%s", name);
	c->var[c->nvar++].param = param;
}

int bench_plan(struct bench_ctx *c, const struct role_req *roles, int nroles, char *err)
{
	if (plan_make(c->topo, opt_str(c->o, "placement"), roles, nroles, &c->plan, err))
		return -1;
	return plan_mem_node(c->topo, &c->plan, opt_str(c->o, "mem-node"), err);
}

/* xorshift64*: a reproducible shuffle from the recorded seed. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static void shuffle(int *a, int n, uint64_t *s)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(next_rand(s) % (uint64_t)(i + 1)), t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

static int default_out(const struct bench_ctx *c, char *path, size_t n, char *err)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", localtime_r(&now, &tm));
	if (mkdir("results", 0755) && errno != EEXIST)
		return fail(err, "cannot create directory 'results': %s; use --out FILE", strerror(errno));
	for (int k = 1; k < 100; k++) {
		if (k == 1)
			snprintf(path, n, "results/%s-%s-%s.csv", c->b->name, c->ctx.host, stamp);
		else
			snprintf(path, n, "results/%s-%s-%s-%d.csv", c->b->name, c->ctx.host, stamp, k);
		if (access(path, F_OK))
			return 0;
	}
	return fail(err, "too many result files named results/%s-%s-%s*.csv", c->b->name, c->ctx.host, stamp);
}

static void print_summary(const struct bench_ctx *c, struct row *rows, int nrows)
{
	const char *const *m = c->b->summary;
	const char *col = c->b->variant_col;
	if (!m || !nrows)
		return;
	printf("\n%s: %d repetition(s); median over repetitions, (CV), and ratio to '%s'\n", c->b->name, c->reps,
	       c->var[0].name);
	printf("%-16s", col);
	for (int k = 0; m[k]; k++)
		printf("  %24s %9s", m[k], "ratio");
	printf("\n");
	double *vals = xcalloc((size_t)nrows, sizeof(double));
	double base[32] = { 0 };
	for (int v = 0; v < c->nvar; v++) {
		printf("%-16s", c->var[v].name);
		for (int k = 0; m[k] && k < 32; k++) {
			size_t n = 0;
			int ok;
			for (int i = 0; i < nrows; i++) {
				double x = row_num(&rows[i], m[k], &ok);
				const char *vn = row_get(&rows[i], "variant_key");
				if (ok && vn && atoi(vn) == v)
					vals[n++] = x;
			}
			struct stats s = stats_of(vals, n);
			if (v == 0)
				base[k] = s.median;
			char cell[64];
			if (!n)
				snprintf(cell, sizeof(cell), "NA");
			else
				snprintf(cell, sizeof(cell), "%.4g (%.1f%%)", s.median, 100 * s.cv);
			if (n && base[k] > 0)
				printf("  %24s %9.3f", cell, s.median / base[k]);
			else
				printf("  %24s %9s", cell, "NA");
		}
		printf("\n");
	}
	free(vals);
}

static int usage_error(const struct bench *b, const char *msg)
{
	if (!strcmp(msg, "help")) {
		printf("usage: c2cbench run %s [options]\n%s\n\nharness options:\n", b->name, b->desc);
		opts_help(stdout, harness_opts);
		if (b->opts && b->opts[0].name) {
			printf("\n%s options:\n", b->name);
			opts_help(stdout, b->opts);
		}
		return 0;
	}
	fprintf(stderr, "c2cbench: error: %s\n", msg);
	return EXIT_BADINPUT;
}

static void fill_front(const struct bench_ctx *c, struct row *r, int rep, int vi)
{
	row_set(r, "schema_version", "%d", SCHEMA_VERSION);
	row_set(r, "bench", "%s", c->b->name);
	row_set(r, c->b->variant_col, "%s", c->var[vi].name);
	row_set(r, "rep", "%d", rep);
}

static void fill_back(const struct bench_ctx *c, struct row *r)
{
	context_to_row(&c->ctx, r);
	row_set(r, "seed", "%llu", (unsigned long long)c->seed);
	row_set(r, "na_reason", "%s", r->na_reason);
}

static int run_all(struct bench_ctx *c, struct csv *out, char *err)
{
	int order[VARIANTS_MAX], nrows = 0, rc = 0;
	struct row *rows = xcalloc((size_t)(c->reps * c->nvar), sizeof(struct row));
	uint64_t rng = c->seed;
	for (int rep = 0; rep < c->reps && !rc; rep++) {
		for (int i = 0; i < c->nvar; i++)
			order[i] = i;
		shuffle(order, c->nvar, &rng);
		for (int k = 0; k < c->nvar && !rc; k++) {
			struct row r = { 0 };
			fill_front(c, &r, rep, order[k]);
			rc = c->b->run(c, &c->var[order[k]], rep, &r, err);
			if (!rc) {
				fill_back(c, &r);
				rc = csv_write(out, &r, err);
			}
			if (!rc) {
				row_copy(&rows[nrows], &r);
				row_set(&rows[nrows++], "variant_key", "%d", order[k]);
			}
			row_clear(&r);
		}
	}
	if (!opt_flag(c->o, "quiet"))
		print_summary(c, rows, nrows);
	for (int i = 0; i < nrows; i++)
		row_clear(&rows[i]);
	free(rows);
	return rc;
}

static void print_dry_run(const struct bench_ctx *c)
{
	printf("bench %s: %d variant(s) x %d repetition(s), %.3g s warm-up + %.3g s each: about %.0f s\n", c->b->name,
	       c->nvar, c->reps, c->warmup, c->duration, c->nvar * c->reps * (c->warmup + c->duration));
	printf("%s:", c->b->variant_col);
	for (int i = 0; i < c->nvar; i++)
		printf(" %s", c->var[i].name);
	printf("\n");
	if (c->plan.n)
		plan_print(&c->plan, c->topo, stdout);
}

int bench_main(const struct bench *b, int argc, char **argv)
{
	const struct opt_spec *tables[] = { harness_opts, b->opts, NULL };
	struct opts o;
	struct topo topo;
	struct csv out = { .fd = -1 };
	char err[ERRLEN] = "", path[1024];
	struct bench_ctx *c = xcalloc(1, sizeof(*c));
	int rc = 0;

	if (opts_parse(&o, tables, argc, argv, err)) {
		opts_free(&o);
		free(c);
		return usage_error(b, err);
	}
	if (o.nargs)
		rc = fail(err, "unexpected argument '%s'; options start with --", o.args[0]);
	if (!rc && !(b->flags & BENCH_PLACED) && (opt_given(&o, "placement") || opt_given(&o, "mem-node")))
		rc = fail(err, "bench %s does not take --placement or --mem-node (it places its own threads; see --help)", b->name);
	if (!rc && topo_load(&topo, opt_str(&o, "topology"), err))
		rc = -1;
	if (rc) {
		opts_free(&o);
		free(c);
		return usage_error(b, err);
	}
	c->b = b;
	c->o = &o;
	c->topo = &topo;
	c->duration = opt_double(&o, "duration");
	c->warmup = opt_double(&o, "warmup");
	c->reps = (int)opt_long(&o, "reps");
	c->seed = (uint64_t)opt_long(&o, "seed");
	if (!c->seed)
		c->seed = (now_ns() ^ (uint64_t)getpid()) | 1;
	context_collect(&c->ctx, &topo);

	if (b->prepare(c, err))
		rc = EXIT_BADINPUT;
	else if (topo.foreign && !opt_flag(&o, "dry-run"))
		rc = fail(err, "--topology %s can only plan: add --dry-run (nothing runs on a foreign topology)", topo.source) ? EXIT_BADINPUT : 0;
	else if (opt_flag(&o, "dry-run"))
		print_dry_run(c);
	else if (opt_str(&o, "out") ? csv_open(&out, opt_str(&o, "out"), err)
				    : (default_out(c, path, sizeof(path), err) || csv_open(&out, path, err)))
		rc = EXIT_BADINPUT;
	else {
		c->out_path = out.path;
		if (run_all(c, &out, err))
			rc = 1;
		if (out.rows)
			fprintf(stderr, "c2cbench: %ld row(s) written to %s\n", out.rows, out.path);
		char cerr[ERRLEN], *made = out.rows ? NULL : xstrdup(out.path);
		c->out_path = NULL; /* freed by csv_close */
		if (csv_close(&out, cerr) && !rc) {
			snprintf(err, ERRLEN, "%s", cerr);
			rc = 1;
		}
		if (made) /* nothing measured: leave no empty file behind */
			unlink(made);
		free(made);
	}
	if (rc)
		fprintf(stderr, "c2cbench: error: %s\n", err);
	if (b->cleanup)
		b->cleanup(c);
	topo_free(&topo);
	opts_free(&o);
	free(c);
	return rc;
}

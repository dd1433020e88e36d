/* Verdicts that can see (docs/validity.md, "The verdict"): every entry of every shipped preset, at
 * its own repetition count, as the fixture writer below makes its result set.
 * - Its plan, printed before it runs (--dry-run, on a two-package topology that can give every
 *   entry), states the smallest change its verdict can call: never "cannot reach".
 * - Between two machines, x10 and x2 changes whose repetitions all separate are called on every
 *   line of a verdict metric, by compare and in the report's Summary, in compare's words.
 * - An identical copy labelled as another machine is never called: "no change beyond" instead.
 * - Within a run, a variant x10 or x2 against the baseline is called by the run's summary and by
 *   compare's within-side table, in the same words; identical variants are not called. */
#include "runner/preset.h"
#include "harness/bench.h"
#include "harness/bench_columns.h"
#include "lib/opts.h"
#include "harness/row.h"
#include "tests/runsum_shim.h"
#include "lib/csvread.h"
#include "lib/util.h" /* before cmocka, whose fail() macro would rename util.h's fail() */
#include "tests/testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define VARS_MAX 64
#define TOPO "synthetic:pack:2 numa:1 l3:1 core:8 pu:2" /* gives every entry of two-socket */

/* One preset entry as its dry run plans it. */
struct entry {
	char name[64], bench[64];
	const struct bench *b;
	int reps, nvar;
	char var[VARS_MAX][48];
	char cols[16][64], vals[16][128]; /* its configuration columns as the run writes them */
	int ncol;
};

/* The column a preset key becomes, when the bench declares it configuration: --drain-us is
 * drain_us, --placement is placement_requested. "" when none. */
static void config_col(const struct bench *b, const char *key, char *out, size_t n)
{
	char c[64];
	snprintf(c, sizeof(c), "%s", key);
	for (char *p = c; *p; p++)
		*p = *p == '-' ? '_' : *p;
	out[0] = 0;
	const char *const *cfg = bench_config(b);
	for (int i = 0; cfg && cfg[i]; i++)
		if (!strcmp(cfg[i], c) || (!strncmp(cfg[i], c, strlen(c)) &&
					    !strcmp(cfg[i] + strlen(c), "_requested")))
			snprintf(out, n, "%s", cfg[i]);
}

/* The entry's dry run: its repetitions and variants, and the plan's words on its verdict. */
static void plan_entry(const struct preset_run *r, struct entry *e)
{
	const char *args[PRESET_ARGS_MAX + 8];
	int n = 0;
	struct cmd_result res;
	args[n++] = "run";
	args[n++] = r->bench;
	for (int i = 0; i < r->nargs; i++)
		args[n++] = r->argv[i];
	args[n++] = "--topology";
	args[n++] = TOPO;
	args[n++] = "--dry-run";
	args[n] = NULL;
	run_c2cv(&res, args);
	if (res.status)
		fail_msg("%s: the dry run exited %d: %s", r->name, res.status, res.err);
	snprintf(e->name, sizeof(e->name), "%s", r->name);
	snprintf(e->bench, sizeof(e->bench), "%s", r->bench);
	e->b = bench_find(r->bench);
	assert_non_null(e->b);
	const char *l = strstr(res.out, " variant(s) x ");
	assert_non_null(l);
	e->reps = atoi(l + strlen(" variant(s) x "));
	char head[80];
	snprintf(head, sizeof(head), "\n%s:", e->b->variant_col);
	const char *v = strstr(res.out, head);
	assert_non_null(v);
	v += strlen(head);
	e->nvar = 0;
	while (*v == ' ' && e->nvar < VARS_MAX) {
		size_t k = strcspn(++v, " \n");
		snprintf(e->var[e->nvar++], sizeof(e->var[0]), "%.*s", (int)k, v);
		v += k;
	}
	char plan[200];
	snprintf(plan, sizeof(plan), "%s plan: ", r->bench);
	const char *p = strstr(res.out, plan);
	if (!p)
		fail_msg("%s: no plan line in its dry run:\n%s", r->name, res.out);
	if (strstr(p, "cannot reach"))
		fail_msg("%s: its verdict cannot call a change at its repetitions:\n%s", r->name,
			 p);
	if (!e->b->summary_by && !strstr(p, "it calls a change of"))
		fail_msg("%s: the plan does not state the smallest change it calls:\n%s", r->name,
			 p);
	e->ncol = 0;
	for (int i = 0; i + 1 < r->nargs && e->ncol < 16; i++) {
		if (strncmp(r->argv[i], "--", 2) || !strncmp(r->argv[i + 1], "--", 2))
			continue;
		config_col(e->b, r->argv[i] + 2, e->cols[e->ncol], sizeof(e->cols[0]));
		if (!e->cols[e->ncol][0] || !strcmp(e->cols[e->ncol], e->b->variant_col))
			continue;
		snprintf(e->vals[e->ncol++], sizeof(e->vals[0]), "%s", r->argv[i + 1]);
	}
}

/* A repetition's value of n: every variant and side the same values, no two equal (no ties for the
 * U test), spread +-4%, so a factor of 2 or more separates them completely and the ratio of
 * medians is the factor. */
static double value(int rep, int n, int metric)
{
	return (100 + 10 * metric) * (1 + 0.08 * ((double)rep / (n > 1 ? n - 1 : 1) - 0.5));
}

/* The fixture writer: entry e's rows into dir/NAME.csv, machine label, each verdict metric of its
 * bench at value() times factor (vfactor: for variants after the first, the planted effect within
 * the run). */
static void write_entry(const char *dir, const struct entry *e, const char *label, double factor,
			double vfactor)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/%s.csv", dir, e->name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "schema_version,bench,%s,rep", e->b->variant_col);
	for (int c = 0; c < e->ncol; c++)
		fprintf(f, ",%s", e->cols[c]);
	int nv = 0;
	for (; e->b->verdict && e->b->verdict[nv]; nv++) {
		char name[128];
		assert_true(col_verdict_of(e->b->verdict[nv], name, sizeof(name)) > 0);
		fprintf(f, ",%s", name);
	}
	fprintf(f, ",label,host,cpu_model,valid\n");
	for (int v = 0; v < e->nvar; v++)
		for (int r = 0; r < e->reps; r++) {
			fprintf(f, "9,%s,%s,%d", e->bench, e->var[v], r);
			for (int c = 0; c < e->ncol; c++)
				fprintf(f, ",%s", e->vals[c]);
			for (int m = 0; m < nv; m++)
				fprintf(f, ",%.6g",
					value(r, e->reps, m) * factor * (v ? vfactor : 1));
			fprintf(f, ",%s,host-%s,Made-up CPU,yes\n", label, label);
		}
	fclose(f);
}

struct preset_sets {
	struct entry *e;
	int n;
};

static void load_entries(const char *name, struct preset_sets *s)
{
	struct preset p;
	char path[600], err[ERRLEN];
	snprintf(path, sizeof(path), "presets/%s.ini", name);
	if (preset_load(&p, path, err))
		fail_msg("%s", err);
	s->e = calloc((size_t)p.n + 1, sizeof(*s->e));
	s->n = 0;
	for (int i = 0; i < p.n; i++)
		if (!p.run[i].skip && strcmp(p.run[i].bench, "pingpong"))
			plan_entry(&p.run[i], &s->e[s->n++]);
	preset_free(&p);
}

static void write_sets(const struct preset_sets *s, const char *dir, const char *label,
		       double factor, double vfactor)
{
	mkdir(dir, 0755);
	for (int i = 0; i < s->n; i++)
		write_entry(dir, &s->e[i], label, factor, vfactor);
}

/* compare's CSV of a and b into t. */
static void compare_csv(const char *a, const char *b, struct table *t)
{
	char cmd[2000], out[700];
	snprintf(out, sizeof(out), "%s/compare.csv", test_dir);
	snprintf(cmd, sizeof(cmd), "'%s' compare '%s' '%s' --csv > '%s' 2>/dev/null",
		 getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench", a, b, out);
	assert_int_equal(system(cmd), 0);
	csv_load(t, out);
}

/* Every line of a verdict metric with values on both sides: called with want (a factor's words),
 * or, want NULL, not called. Returns the lines judged. */
static int check_lines(const struct table *t, const char *want, const char *tag)
{
	int n = 0;
	for (long r = 0; r < t->nrows; r++) {
		const char *v = csv_cell(t, r, "verdict"), *sig = csv_cell(t, r, "significant");
		if (!strncmp(v, "descriptive", 11) || !strncmp(v, "NA", 2))
			continue;
		n++;
		if (want && (strcmp(sig, "yes") || !strstr(v, want)))
			fail_msg("%s: line %ld is not called '%s': %s", tag, r, want, v);
		if (!want && (strcmp(sig, "no") || (strncmp(v, "no change beyond", 16) &&
						     strncmp(v, "inconclusive: p ", 16))))
			fail_msg("%s: identical data, line %ld says: %s", tag, r, v);
	}
	return n;
}

/* The report's Summary section of a against b. */
static char *summary_of(const char *a, const char *b, const char *tag)
{
	char out[700], cmd[2000];
	snprintf(out, sizeof(out), "%s/report-%s", test_dir, tag);
	snprintf(cmd, sizeof(cmd), "'%s' report '%s' '%s' --out '%s' > /dev/null 2>&1",
		 getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench", a, b, out);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/report.md", out);
	char *md = slurp(cmd), *s = strstr(md, "## Summary"), *e = s ? strstr(s, "### Details") : 0;
	assert_non_null(e);
	*e = 0;
	char *r = xstrdup(s);
	free(md);
	return r;
}


/* The run's summary of entry e with variants after the first at vfactor, through summary_add and
 * summary_print as the driver calls them. */
static char *run_summary(const struct entry *e, double vfactor)
{
	struct opt_spec htab[HARNESS_OPTS_MAX];
	const struct opt_spec *tables[] = {bench_harness_opts(e->b, htab, HARNESS_OPTS_MAX),
					   e->b->opts, NULL};
	struct opts o = {0};
	char err[ERRLEN], *argv[] = {"run", NULL};
	assert_int_equal(opts_parse(&o, tables, 1, argv, err), 0);
	struct variant var[VARS_MAX];
	for (int v = 0; v < e->nvar; v++)
		snprintf(var[v].name, sizeof(var[v].name), "%s", e->var[v]);
	struct bench_ctx c = {.b = e->b, .o = &o, .var = var, .nvar = e->nvar, .reps = e->reps,
			      .attempts = 1};
	struct summary *s = summary_new(&c);
	for (int r = 0; r < e->reps; r++)
		for (int v = 0; v < e->nvar; v++) {
			struct row row = {0};
			row_set(&row, e->b->variant_col, "%s", e->var[v]);
			for (int m = 0; e->b->summary && e->b->summary[m]; m++) {
				int k = -1;
				for (int q = 0; e->b->verdict && e->b->verdict[q]; q++) {
					char name[128];
					col_verdict_of(e->b->verdict[q], name, sizeof(name));
					if (!strcmp(name, e->b->summary[m]))
						k = q;
				}
				if (k >= 0)
					row_set(&row, e->b->summary[m], "%.6g",
						value(r, e->reps, k) * (v ? vfactor : 1));
				else
					row_na(&row, e->b->summary[m], "not planted");
			}
			summary_add(s, &row, v, r, 1, 1, 1);
			row_clear(&row);
		}
	char *buf = summary_printed(s, &o);
	text_unwrap(buf);
	return buf;
}

/* compare's within-side part (each input file's run summary), its wrapped lines joined. The whole
 * output goes through a file: two summaries of a sweep entry outgrow a pipe's 64 KiB buffer. */
static void within_words(const char *a, const char *b, char *out, size_t n)
{
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	char cmd[2400], path[700];
	snprintf(path, sizeof(path), "%s/within.txt", test_dir);
	snprintf(cmd, sizeof(cmd), "'%s' compare '%s' '%s' >'%s'", bin, a, b, path);
	assert_int_equal(system(cmd), 0);
	char *text = slurp(path);
	assert_non_null(text);
	const char *w = strstr(text, "\nwithin each side, each input file's own run summary");
	if (!w)
		fail_msg("compare %s %s: no within-side part", a, b);
	snprintf(out, n, "%s", w);
	free(text);
	text_unwrap(out);
}

static void planted(const char *preset)
{
	struct preset_sets s;
	char a[600], b[600], tag[64];
	struct table t;
	load_entries(preset, &s);
	assert_true(s.n > 0);
	snprintf(a, sizeof(a), "%s/%s-A", test_dir, preset);
	write_sets(&s, a, "ma", 1, 1);
	const double factors[] = {10, 2, 1};
	const char *words[] = {" by 10.00x [", " by 2.00x [", NULL}; /* slower, or worse */
	for (int k = 0; k < 3; k++) {
		snprintf(b, sizeof(b), "%s/%s-B%g", test_dir, preset, factors[k]);
		snprintf(tag, sizeof(tag), "%s x%g", preset, factors[k]);
		write_sets(&s, b, "mb", factors[k], 1);
		compare_csv(a, b, &t);
		int n = check_lines(&t, words[k], tag);
		table_free(&t);
		assert_true(n > 0);
		char *sum = summary_of(a, b, tag);
		if (words[k] && !strstr(sum, "test(s) changed"))
			fail_msg("%s: the report's Summary calls no change:\n%s", tag, sum);
		if (words[k] && strstr(sum, ": inconclusive,"))
			fail_msg("%s: the report's Summary is inconclusive:\n%s", tag, sum);
		if (!words[k] && strstr(sum, "test(s) changed,"))
			fail_msg("%s: the report's Summary calls identical data:\n%s", tag, sum);
		free(sum);
	}
	/* within a run: every entry's variants against its baseline, in the run's summary and in
	 * compare's within-side table, with the same words */
	for (int i = 0; i < s.n; i++) {
		const struct entry *e = &s.e[i];
		if (e->nvar < 2 || e->b->summary_by)
			continue;
		for (int k = 0; k < 3; k++) {
			char d[700], dd[700];
			static char within[1 << 20];
			double vf = k == 2 ? 1 : 1 / factors[k];
			snprintf(d, sizeof(d), "%s/%s-%s-in%d", test_dir, preset, e->name, k);
			snprintf(dd, sizeof(dd), "%s/%s-%s-copy%d", test_dir, preset, e->name, k);
			mkdir(d, 0755);
			mkdir(dd, 0755);
			write_entry(d, e, "ma", 1, vf);
			write_entry(dd, e, "mb", 1, vf);
			char *run = run_summary(e, vf);
			within_words(d, dd, within, sizeof(within));
			const char *want = k == 0 ? " by 10.00x [" : k == 1 ? " by 2.00x [" : NULL;
			if (want && !strstr(run, want))
				fail_msg("%s %s: the run's summary does not call %s:\n%s", preset,
					 e->name, want, run);
			if (want && !strstr(within, want))
				fail_msg("%s %s: compare's within table does not call %s:\n%s",
					 preset, e->name, want, within);
			if (!want && (strstr(run, " by ") || strstr(within, " by ")))
				fail_msg("%s %s: identical variants called:\n%s\n%s", preset,
					 e->name, run, within);
			/* the same words: the run's first verdict, wrapped or not, is in the table
			 */
			const char *v = strstr(run, want ? want : "inconclusive: p ");
			if (!v)
				v = strstr(run, "no change beyond");
			if (!v)
				fail_msg("%s %s: no verdict in the run's summary:\n%s", preset,
					 e->name, run);
			char first[64];
			snprintf(first, sizeof(first), "%.*s", (int)strcspn(v, "\n,"), v);
			if (!strstr(within, first))
				fail_msg("%s %s: '%s' of the run's summary not in compare's:\n%s",
					 preset, e->name, first, within);
			free(run);
		}
	}
	free(s.e);
}

/* `c2cbench summary` of a run's CSV gives the verdicts the run printed, from the files alone. A
 * loaded machine may make every attempt invalid (exit 4): then the summary must say the set
 * measured nothing, and give no verdict. */
static void summary_of_a_run_is_the_runs(void **state)
{
	(void)state;
	char csv[700];
	struct cmd_result run, sum;
	const char *cpus = two_cpus();
	if (!cpus)
		skip();
	snprintf(csv, sizeof(csv), "%s/run.csv", test_dir);
	/* relaxed rules, so that a loaded machine still gives rows: the subject is the words */
	run_c2c(&run, "run", "pending-bit", "--layout", "shared,aligned,padded", "--reps", "5",
		"--duration", "0.05", "--warmup", "0.02", "--placement", cpus, "--valid-oncpu", "0",
		"--valid-window", "1000", "--valid-overlap", "0", "--valid-steal", "100",
		"--valid-probe", "1000", "--out", csv, NULL);
	if (run.status != 0 && run.status != 4)
		fail_msg("run exited %d: %s", run.status, run.err);
	run_c2c(&sum, "summary", csv, NULL);
	assert_int_equal(sum.status, 0);
	text_unwrap(run.out);
	text_unwrap(sum.out);
	if (!strstr(run.out, "change against 'shared'")) { /* nothing valid: no verdict anywhere */
		assert_int_equal(run.status, 4);
		assert_non_null(strstr(sum.out, "measured nothing"));
		return;
	}
	const char *marks[] = {"faster by ", "slower by ", "inconclusive: ", "no change beyond "};
	int n = 0;
	for (int k = 0; k < 4; k++)
		for (const char *v = run.out; (v = strstr(v, marks[k])); v++) {
			char phrase[200];
			/* the verdict ends at its interval, or at its count, whichever comes
			 * first: an unwrapped line may go on to the next metric's interval */
			size_t len = strcspn(v, "\n");
			const char *br = memchr(v, ']', len), *can = strstr(v, " a side can");
			while (can && can[strlen(" a side can")] == 'n') /* "a side cannot" */
				can = strstr(can + 1, " a side can");
			if (can && can < v + len && (!br || can < br))
				len = (size_t)(can - v) + strlen(" a side can");
			else if (br)
				len = (size_t)(br - v) + 1 + (br[1] == '%');
			snprintf(phrase, sizeof(phrase), "%.*s", (int)len, v);
			if (!strstr(sum.out, phrase))
				fail_msg("the run's verdict '%s' is not in its "
					 "summary:\n%s\n---\n%s",
					 phrase, sum.out, run.out);
			n++;
		}
	assert_true(n > 0);
}

static void planted_quick(void **state)
{
	(void)state;
	planted("quick");
}

static void planted_seeds(void **state)
{
	(void)state;
	planted("seeds");
}

static void planted_sweep(void **state)
{
	(void)state;
	planted("sweep");
}

static void planted_two_socket(void **state)
{
	(void)state;
	planted("two-socket");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(planted_quick),
	    cmocka_unit_test(planted_seeds),
	    cmocka_unit_test(planted_sweep),
	    cmocka_unit_test(planted_two_socket),
	    cmocka_unit_test(summary_of_a_run_is_the_runs),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}

#include "import/c2cimport.h"
#include "import/c2cmat.h"
#include "import/topospec.h"
#include "harness/bench.h"
#include "harness/bench_columns.h"
#include "harness/bench_desc_out.h"
#include "harness/context.h"
#include "harness/pairclass.h"
#include "harness/row.h"
#include "lib/csvfield.h"
#include "lib/replace.h"
#include "lib/util.h"
#include "schema/label.h"
#include "schema/meta.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The columns that change from pair to pair; every other one is the same in each row. */
enum var { V_CONST, V_CONFIG, V_VALID, V_WHY, V_CPU_A, V_CPU_B, V_CLASS, V_MIN, V_MEDIAN,
	   V_PKG_A, V_CORE_A, V_SMT_A, V_NODE_A, V_PKG_B, V_CORE_B, V_SMT_B, V_NODE_B, V_NA };
static const char *const var_col[] = { NULL,     "config", "valid",  "invalid_reason",
				       "cpu_a",  "cpu_b",  "class",  "min_ns", "median_ns",
				       "pkg_a",  "core_a", "smt_a",  "node_a", "pkg_b",
				       "core_b", "smt_b",  "node_b", "na_reason" };

struct layout {
	signed char *cls; /* pair_classify by the two PUs' cores (-1: not yet), ncores x ncores */
	int ncores;
	char *na_text;    /* na_reason quoted, for a row whose value is a number */
	int ncols;
	char *cols[ROW_MAX];
	enum var var[ROW_MAX];
	char *text[ROW_MAX]; /* a constant column's field, quoted */
	char na_common[sizeof(((struct row *)0)->na_reason)];
};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* Every row's columns in order, the pair's own as placeholders. */
static void template_row(struct row *r, const struct import_req *q, const struct context *ctx)
{
	const char *no = "the imported matrix records no settings";
	row_set(r, "schema_version", "%d", SCHEMA_VERSION);
	row_set(r, "bench", "pingpong");
	row_set(r, "config", "-");
	row_set(r, "rep", "0");
	row_set(r, "attempt", "1");
	row_set(r, "valid", "yes");
	row_set(r, "invalid_reason", "%s", "");
	row_set(r, "cpu_a", "0");
	row_set(r, "cpu_b", "0");
	row_set(r, "class", "-");
	row_set(r, "placement_requested", "imported");
	row_set(r, "pairs_requested", "all");
	row_set(r, "mode", "cas");
	row_na(r, "samples", no);
	row_na(r, "round_trips", no);
	row_na(r, "preheat_ms", no);
	row_set(r, "min_ns", "0");
	row_set(r, "median_ns", "0");
	row_na(r, "mem_node_requested", "the source's line was first touched by its main thread");
	row_na(r, "mem_node", "the source's line was first touched by its main thread, not bound");
	row_na(r, "mem_node_actual", "the imported matrix records no NUMA node");
	row_na(r, "home", "the imported matrix records no NUMA node");
	row_set(r, "lines", "1");
	static const char *const pu_cols[] = { "pkg_a", "core_a", "smt_a", "node_a",
					       "pkg_b", "core_b", "smt_b", "node_b" };
	for (size_t i = 0; i < ARRAY_SIZE(pu_cols); i++) {
		row_set(r, pu_cols[i], "0");
		if (i == 3)
			row_na(r, "kind_a", "no CPU kinds in the imported topology");
	}
	row_na(r, "kind_b", "no CPU kinds in the imported topology");
	row_set(r, "placement", "imported");
	row_set(r, "source_tool", C2CIMPORT_TOOL);
	row_set(r, "source_file", "%s", base_name(q->file));
	row_set(r, "source_statistic", C2CIMPORT_STATISTIC);
	row_set(r, "source_topology", "%s", q->topo);
	context_to_row(ctx, r);
	row_na(r, "host", "the imported matrix names no host");
	row_na(r, "cpu_model", "the imported matrix names no CPU (see --label)");
	row_na(r, "kernel", "the imported matrix names no kernel");
	row_set(r, "duration_requested_s", "0");
	row_set(r, "warmup_requested_s", "0");
}

static void layout_of(struct layout *l, const struct row *r)
{
	memset(l, 0, sizeof(*l));
	for (int i = 0; i < r->n; i++) {
		l->cols[l->ncols] = r->key[i];
		for (size_t v = 1; v < ARRAY_SIZE(var_col); v++)
			if (!strcmp(r->key[i], var_col[v]))
				l->var[l->ncols] = (enum var)v;
		size_t cap = 2 * strlen(r->val[i]) + 3;
		l->text[l->ncols] = xcalloc(cap, 1);
		csv_field(r->val[i], l->text[l->ncols], cap);
		l->ncols++;
	}
	l->cols[l->ncols] = "na_reason";
	l->var[l->ncols++] = V_NA;
	snprintf(l->na_common, sizeof(l->na_common), "%s", r->na_reason);
	l->na_text = xcalloc(2 * sizeof(l->na_common) + 3, 1);
	csv_field(l->na_common, l->na_text, 2 * sizeof(l->na_common) + 3);
}

static void layout_free(struct layout *l)
{
	free(l->na_text);
	free(l->cls);
	for (int i = 0; i < l->ncols; i++)
		free(l->text[i]);
}

/* Why a value is no latency, or NULL. */
static const char *impossible(double v)
{
	return isnan(v)	   ? "NaN, not a number"
	       : v == 0    ? "0 ns: no transfer takes no time"
	       : v < 0     ? "negative: no latency is"
	       : isinf(v)  ? "infinite"
			   : NULL;
}

static void put_field(FILE *f, const char *s)
{
	char buf[2 * 16384 + 3];
	csv_field(s, buf, sizeof(buf));
	fputs(buf, f);
}

/* The pair's class: two PUs on two cores are classified once per pair of cores. */
static const char *class_of(const struct layout *l, const struct topo *t, const struct pu *pa,
			    const struct pu *pb, int a, int b)
{
	if (pa->core < 0 || pb->core < 0 || pa->core >= l->ncores || pb->core >= l->ncores)
		return pair_class_name(pair_classify(t, a, b));
	signed char *c = &l->cls[(size_t)pa->core * (size_t)l->ncores + (size_t)pb->core];
	if (*c < 0)
		*c = (signed char)pair_classify(t, a, b);
	return pair_class_name((enum pair_class)*c);
}

static void write_row(FILE *f, const struct layout *l, const struct topo *t, const int *at,
		      int a, int b, double v)
{
	const struct pu *pa = &t->pu[at[a]], *pb = &t->pu[at[b]];
	const char *bad = impossible(v);
	for (int i = 0; i < l->ncols; i++) {
		if (i)
			fputc(',', f);
		switch (l->var[i]) {
		case V_CONST: fputs(l->text[i], f); break;
		case V_CONFIG: fprintf(f, "%d-%d/cas", a, b); break;
		case V_VALID: fputs(bad ? "no" : "yes", f); break;
		case V_WHY:
			if (bad)
				fprintf(f, "\"the source's value is %s\"", bad);
			break;
		case V_CPU_A: fprintf(f, "%d", a); break;
		case V_CPU_B: fprintf(f, "%d", b); break;
		case V_CLASS: fputs(class_of(l, t, pa, pb, a, b), f); break;
		case V_MIN:
		case V_MEDIAN:
			if (isnan(v) || isinf(v))
				fputs("NA", f);
			else
				fprintf(f, "%.4f", v);
			break;
		case V_PKG_A: fprintf(f, "%d", pa->pkg); break;
		case V_CORE_A: fprintf(f, "%d", pa->core); break;
		case V_SMT_A: fprintf(f, "%d", pa->smt); break;
		case V_NODE_A: fprintf(f, "%d", pa->node); break;
		case V_PKG_B: fprintf(f, "%d", pb->pkg); break;
		case V_CORE_B: fprintf(f, "%d", pb->core); break;
		case V_SMT_B: fprintf(f, "%d", pb->smt); break;
		case V_NODE_B: fprintf(f, "%d", pb->node); break;
		case V_NA: {
			if (!isnan(v) && !isinf(v)) {
				fputs(l->na_text, f);
				break;
			}
			char na[sizeof(l->na_common) + 128];
			snprintf(na, sizeof(na), "%s%s", l->na_common,
				 "; min_ns: the source's value is not a number; median_ns: the "
				 "source's value is not a number");
			put_field(f, na);
			break;
		}
		}
	}
	fputc('\n', f);
}

/* Check everything that can be wrong with the input before anything is written. */
static int check_input(const struct import_req *q, struct c2cmat *m, struct topo *t, char *label,
		       char *err)
{
	if (q->label && label_check("--label", q->label, err))
		return -1;
	if (q->label)
		snprintf(label, LABEL_MAX + 1, "%s", q->label);
	else {
		char stem[LABEL_MAX + 8];
		snprintf(stem, sizeof(stem), "%s", base_name(q->file));
		char *dot = strrchr(stem, '.');
		if (dot && dot != stem)
			*dot = 0;
		label_from_host(stem, label, LABEL_MAX + 1);
	}
	if (c2cmat_read(q->file, m, err))
		return -1;
	if (topospec_load(t, q->topo, err))
		return -1;
	if (t->npus != m->n)
		return err_set(err,
			       "import: '%s' is a %d x %d matrix, --topology %s has %d PUs; "
			       "accepted: the topology of the machine that measured it, as many "
			       "PUs as the matrix has lines",
			       q->file, m->n, m->n, q->topo, t->npus);
	for (int i = 0; i < m->n; i++)
		if (!topo_pu(t, i))
			return err_set(
				err,
				"import: --topology %s has no CPU %d: the matrix's lines are CPUs "
				"0 to %d; accepted: a topology numbering its PUs so",
				q->topo, i, m->n - 1);
	return 0;
}

static int out_path(const struct import_req *q, const char *label, char *csv, size_t n,
		    char *err)
{
	const char *dir = q->dir ? q->dir : "results";
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", localtime_r(&now, &tm));
	if (mkdir(dir, 0755) && errno != EEXIST)
		return err_set(err, "import: cannot create directory '%s': %s", dir,
			       strerror(errno));
	for (int k = 1; k < 100; k++) {
		char meta[4200];
		if (k == 1)
			snprintf(csv, n, "%s/pingpong-%s-%s.csv", dir, label, stamp);
		else
			snprintf(csv, n, "%s/pingpong-%s-%s-%d.csv", dir, label, stamp, k);
		context_meta_path(csv, meta, sizeof(meta));
		if (access(csv, F_OK) && access(meta, F_OK))
			return 0;
	}
	return err_set(err, "import: too many result sets named %s/pingpong-%s-%s*.csv", dir,
		       label, stamp);
}

/* The CSV, written whole: header, then a row per pair of the lower triangle. */
static long write_csv(FILE *f, const struct layout *l, const struct topo *t,
		      const struct c2cmat *m, long *invalid)
{
	int *at = xcalloc((size_t)m->n, sizeof(int)); /* OS number -> index in t->pu */
	long rows = 0;
	for (int i = 0; i < t->npus; i++)
		at[t->pu[i].os] = i;
	for (int i = 0; i < l->ncols; i++)
		fprintf(f, "%s%s", i ? "," : "", l->cols[i]);
	fputc('\n', f);
	for (int i = 0; i < m->n; i++)
		for (int j = 0; j < i; j++) {
			double v;
			if (!c2cmat_pair(m, i, j, &v))
				continue;
			/* cpu_a first in topological order, as pingpong pairs them */
			int a = at[i] < at[j] ? i : j, b = a == i ? j : i;
			write_row(f, l, t, at, a, b, v);
			rows++;
			*invalid += impossible(v) != NULL;
		}
	free(at);
	return rows;
}

int import_c2c(const struct import_req *q, char *csv, size_t n, long *rows, long *invalid,
	       char *err)
{
	struct c2cmat m;
	struct topo t;
	struct context ctx;
	char label[LABEL_MAX + 1], meta[4200], cols[4200];
	const struct bench *b = bench_find("pingpong");
	memset(&t, 0, sizeof(t));
	memset(&m, 0, sizeof(m));
	*rows = *invalid = 0;
	if (check_input(q, &m, &t, label, err) || out_path(q, label, csv, n, err)) {
		c2cmat_free(&m);
		if (t.h)
			topo_free(&t);
		return EXIT_BADINPUT;
	}
	context_foreign(&ctx, &t, "the imported matrix records no machine facts");
	snprintf(ctx.label, sizeof(ctx.label), "%s", label);
	struct row *r = xcalloc(1, sizeof(*r));
	struct layout *l = xcalloc(1, sizeof(*l));
	template_row(r, q, &ctx);
	layout_of(l, r);
	l->ncores = t.ncores;
	l->cls = xcalloc((size_t)t.ncores * (size_t)t.ncores + 1, 1);
	memset(l->cls, -1, (size_t)t.ncores * (size_t)t.ncores + 1);
	context_meta_path(csv, meta, sizeof(meta));
	bench_columns_path(meta, cols, sizeof(cols));
	struct replace rep;
	/* every file of the set new, so that a failure removes only files of ours */
	int bad = bench_sides_absent(b, csv, meta, err) != 0, rc = bad ? -1 : 0;
	FILE *f = rc ? NULL : replace_open(&rep, csv);
	if (!rc && !f)
		rc = err_set(err, "import: cannot write '%s': %s", csv, strerror(errno));
	if (f)
		*rows = write_csv(f, l, &t, &m, invalid);
	if (!rc && replace_commit(&rep, REPLACE_NEW))
		rc = err_set(err, "import: cannot write '%s': %s", csv, strerror(errno));
	if (!rc && (context_write_meta(&ctx, meta, err) ||
		    context_meta_status(&ctx, meta, "complete", *rows, NULL, NULL, err) ||
		    bench_columns_write(b, cols, l->cols, l->ncols, err) ||
		    bench_desc_out(b, cols, err))) {
		unlink(csv);
		unlink(meta);
		unlink(cols);
		rc = -1;
	}
	layout_free(l);
	free(l);
	row_clear(r);
	free(r);
	c2cmat_free(&m);
	topo_free(&t);
	return bad ? EXIT_BADINPUT : rc ? 1 : 0;
}

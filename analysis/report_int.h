/* report's insides, shared by its files: the machines, the samples (one per machine, bench view,
 * configuration, variant and x), the output files. Not for use outside analysis/report*.c. */
#ifndef C2C_REPORT_INT_H
#define C2C_REPORT_INT_H
#include "analysis/report_doc.h"
#include "analysis/report_out.h"
#include "lib/csvread.h"
#include "analysis/resultset.h"
#include "schema/desc.h"
#include "stats/twosample.h"
#include <stdio.h>

#define RPT_METRICS 16 /* metrics of one view */

#define RPT_CTX 9 /* context columns shown per machine */
extern const char *const rpt_ctx_cols[RPT_CTX];

/* A machine: a label (the label column, else the host), the host and CPU it stands for. */
struct rmachine {
	char *label, *host, *cpu;
	char *ctx[RPT_CTX]; /* rpt_ctx_cols of its first row */
	long rows, valid;
	char relaxed[200]; /* the relaxed validity rules of a file of its rows, "" strict */
	char *last_file;   /* the last file whose .meta was read for that */
};

/* A growable list of values. */
struct vec {
	double *v;
	size_t n, cap;
};

/* One point of a chart or one cell of a matrix: the values of each view metric over repetitions. */
struct sample {
	char *key;         /* the hash key: every field below that tells samples apart */
	int m;             /* machine */
	int bench;         /* index in rep.bench */
	int view;          /* index in that bench's views */
	char *gkey; /* configuration without variant, x and matrix columns: "col=val\x1f..." */
	char *variant;     /* "" when the variant names the x */
	double x;          /* VIEW_LINES: the x value; VIEW_MATRIX: unused */
	char *xlabel;      /* "1+4" */
	int a, b;          /* VIEW_MATRIX: the pair */
	char *facet, *cls; /* VIEW_MATRIX */
	long rows, valid;
	char *resolved; /* what its rows resolved the bench's resolved settings to
			   ("placement=cross-llc"), or NULL */
	struct vec val[RPT_METRICS];
	struct vec lat[RPT_METRICS]; /* per value of val: its row's probe latency (-1: none) */
	struct vec rowlat;           /* per valid row: its probe latency (-1: none) */
};

/* A bench as the inputs name it, with the views to draw it by (declared, or the fallback). */
struct rbench {
	char *name;
	const struct bench_desc *b;    /* NULL: not described (resultset.h) */
	const struct bench_view *views; /* { VIEW_END }-terminated */
	struct bench_view *own;         /* the fallback's storage */
	struct view_metric *own_met;
	char **own_cols;
};

/* A reason a value is NA, or a row was not used, counted per machine. */
struct reason {
	int m;
	char *what; /* the whole reason text */
	char *cols; /* the columns it covers, comma-separated (NA reasons); a row's whole reason
		    * (rows not used: what names the rules broken) */
	long rows;  /* rows giving it */
};

/* report_probe.c: a configuration's probe latencies per machine, for the probe classes. */
struct rprobe_m {
	int m;
	char pair[24];  /* the first probed pair ("0-1") */
	struct vec lat; /* per valid row: probe_latency of that pair */
};
struct rprobe {
	struct rprobe_m *m;
	int nm;
};

struct rep {
	struct groups g; /* the grouping engine, shared with compare */
	struct rprobe *probe; /* per group */
	int nprobe;
	int unfinished;  /* inputs marked interrupted or unfinished (each warned about on stderr) */
	char **inputs;   /* as given (not owned) */
	int ninputs;
	struct rmachine *mach;
	int nm;
	struct rbench *bench;
	int nb;
	struct sample *s;
	long ns, scap;
	long *hash; /* open addressing over s: index + 1, 0 = empty */
	long hcap;
	struct reason *na, *unused;
	long nna, nunused;
	long *nahash, nahcap;
	struct doc doc;
	struct outdir out;
	FILE *gp;
	int plots;
	char **pngs; /* every PNG plots.gp draws, to check it was written */
};

/* report_load.c: read the inputs through the grouping engine into machines and samples; -1 with
 * err (exit 2) on bad input. */
int rpt_load(struct rep *p, char **inputs, int ninputs, char *err);
void rpt_free(struct rep *p);
/* Sort samples by bench, view, configuration, variant (declared order), x and machine. */
void rpt_sort(struct rep *p);
/* A configuration key as text: "col=val, col=val" (only the columns in mask when mask is set). */
void rpt_gkey_text(const char *gkey, char *out, size_t cap);
/* The columns whose values differ between the gkeys of samples [i0, i1): "a\x1fb\x1f". */
char *rpt_varying(const struct rep *p, long i0, long i1);
/* gkey restricted to the columns listed in varying: "col=val, ...". */
void rpt_gkey_only(const char *gkey, const char *varying, char *out, size_t cap);

/* report_probe.c: keep a row's probe latency; in the summary, a line per machine and
 * configuration whose valid repetitions fall in more than one probe class; free. */
void rpt_probe_row(struct rep *p, int m, const struct grp_row *r);
/* The probe latency of valid row `row` (0: the first) of group g on machine m; -1 for none. */
double rpt_probe_lat(const struct rep *p, int g, int m, long row);
/* A sample's probe classes (schema/probeclass.h) over its valid rows: class c spans latencies
 * lo[c]..hi[c] and holds count[c] rows; unmeasured: rows without a probe latency. */
struct rclasses {
	int n;
	double *lo, *hi;
	long *count, unmeasured;
};
void rpt_classes(const struct sample *s, struct rclasses *c);
void rpt_classes_free(struct rclasses *c);
/* The parts a sample's metric k is judged in: with two or more classes, one per class (then one
 * for the values without a probe latency, if any), else one, all its values. part and label hold
 * c->n + 1; returns the count of parts, each a copy (free them), labelled by its class and count of
 * values, "30-31 ns (3)" ("" for the one part; "probe not measured (2)"). A part may be empty
 * (every value of the class NA). */
int rpt_class_parts(const struct sample *s, int k, const struct rclasses *c, struct vec *part,
		    char (*label)[64]);
void rpt_probe_summary(struct rep *p);
void rpt_probe_free(struct rep *p);
/* report_lines.c: the Summary's lines. compare's lines of one pair of machines (cmp_pair), kept
 * once for the Summary and the details; what each machine's set is, said first (returns how many
 * were named); the line of bench gi of the grouping engine for machines a and b. */
struct cmp;
struct cmp_line;
struct rpt_plines {
	struct cmp_line *l;
	int n, cap;
};
void rpt_pair_lines(struct cmp *c, struct rpt_plines *pl);
int rpt_sets_first(struct rep *p);
void rpt_bench_line(struct rep *p, struct cmp *c, int gi, int a, int b,
		    const struct rpt_plines *pl);
/* report_summary.c: the first section, per bench and pair of machines, verdicts and intervals. */
void rpt_summary(struct rep *p);
/* report_views.c: the bar and line views, chart group by chart group, all machines together. */
void rpt_views(struct rep *p);
/* One chart group laid out: slots on the x-axis (variants for bars, x values for lines), and for
 * lines a series per variant; cell[slot][machine][series] is a sample or NULL. */
struct rgrid {
	const struct bench_view *v;
	const struct rbench *rb;
	int nslot, nser, nm, nmet, lines;
	const char **slot_name; /* variant, or x label */
	double *slot_x;
	const char **ser_name;  /* lines: the variant ("" when the variant names the x) */
	struct sample **cell;
};
static inline struct sample **rpt_cell_at(const struct rgrid *g, int slot, int m, int ser)
{
	return &g->cell[((size_t)slot * (size_t)g->nm + (size_t)m) * (size_t)g->nser + (size_t)ser];
}
/* report_tables.c: a chart group's table (every machine's medians, a row per probe class where
 * they fall in two or more) and its ratios to the first machine. */
void rpt_group_table(struct rep *p, const struct rgrid *g);
void rpt_group_ratios(struct rep *p, const struct rgrid *g);
/* The ratio of machine B's values over A's as the tables print it: medians, ratio, bootstrap 95%
 * CI, U-test p and the verdict in words (the metric's better side), from stats/twosample.h. */
struct rratio {
	char med_a[32], med_b[32], ratio[32], ci[64], p[32], verdict[256];
	int significant;
};
/* report_ratios.c: the ratio from a computed (and, in a table, decided) test; method: the table's
 * adjustment ("Holm"), shown beside p, or NULL for a line judged alone. */
void rpt_ratio_of(const struct view_metric *mt, const struct ts_stat *s, const char *method,
		  struct rratio *o);
/* report_ratios.c: a ratios-to-the-first-machine table, its lines collected, then written at once
 * with their p values adjusted together (the table's count of tests said above it). */
struct rtab_line {
	char *what;
	const struct view_metric *mt;
	int m; /* the machine against machine 0 */
};
struct rtab {
	struct rep *p;
	struct rtab_line *line;
	struct ts_stat *st; /* per line: its test */
	int n, cap, ntest;
};
/* The n tests of one table adjusted together (ts_adjust: Holm, BH over 20), each decided on its
 * adjusted p; *ntest: how many are tests (ts_is_test). The method's name, or NULL for a table of
 * fewer than two tests (each p alone, as ts_compute decided it). Summary and ratio tables. */
const char *rpt_decide(struct ts_stat *st, int n, int *ntest);
/* A line: what (the first column), the metric, machine m's values b against machine 0's a. */
void rtab_add(struct rtab *t, const char *what, const struct view_metric *mt, int m,
	      const struct vec *a, const struct vec *b);
/* The count of tests, the table (first_col: the first column's header), and the lines freed. */
void rtab_write(struct rtab *t, const char *first_col);
/* The samples of bench bi's view vi: [*i0, *i1) (samples are sorted by bench, then view); 0 when
 * none. */
int rpt_view_range(const struct rep *p, int bi, int vi, long *i0, long *i1);
/* report_matrix.c: the line-transfer baseline (a matrix view declared is_baseline), per machine,
 * facet and class, for a view declared with_baseline; nothing when no input holds one. */
void rpt_baseline(struct rep *p);
/* report_classes.c: the Summary's baseline line for machines a and b of bench bi: each one's
 * nearest and farthest class of the baseline view with its median. Returns 1 when written. */
int rpt_baseline_pair(struct rep *p, int bi, int a, int b);
/* report_presets.c: the Summary's line per preset entry two inputs ran differently. */
void rpt_preset_diffs(struct rep *p);
/* report_matrix.c: matrix views (pingpong): a per-class table and a heat map per machine. */
void rpt_matrix(struct rep *p, long i0, long i1);
/* report_matrix.c: machine m's PUs in samples [f0, f1) of matrix view v, clustered by the pair
 * classes: core[pu] and pkg[pu] the smallest PU of its core and package, present[pu] 1 for a PU
 * of some pair (all malloc'ed, indexed up to the return value, the highest PU + 1). */
int rpt_clusters(const struct rep *p, const struct bench_view *v, int m, long f0, long f1,
		 int **core, int **pkg, int **present);
struct split;
/* report_split.c: machine m's class cls of facet [f0, f1), metric k, split at empty gaps
 * (stats/split.h) by the pairs' medians, each pair's package its attribute (packages numbered from
 * 0 in PU order, -1 for a pair across two); the number of groups (1: not split). text (may be
 * NULL) gets split_text's words. */
int rpt_class_split(const struct rep *p, const struct bench_view *v, int m, const char *cls,
		    int k, long f0, long f1, struct split *sp, char *text, size_t cap);
/* report_split.c: " (dual-epyc-7r13 splits: package 0 107.6, package 1 200.5 ns)" for a line
 * that shows the class median of sample s's configuration, facet and class on machines ma and mb
 * (-1: one machine), samples [i0, i1) of its view holding them; 0 (out "") when neither splits. */
int rpt_split_note(const struct rep *p, const struct bench_view *v, int ma, int mb,
		   const struct sample *s, long i0, long i1, char *out, size_t cap);
/* report_split.c: under the Summary, every split class of every matrix view, machine by machine
 * (docs/report.md#classes-that-split); nothing when none splits. */
void rpt_split_summary(struct rep *p);
/* report_na.c: the title and inputs, the machines table, rows not used, values not measured. */
void rpt_machines(struct rep *p, char **inputs, int ninputs);
void rpt_machines_table(struct rep *p);
void rpt_unused(struct rep *p);
void rpt_na(struct rep *p);
/* Called by rpt_row for every row: NA cells by reason, and rows not used (valid=no). */
void rpt_na_row(struct rep *p, int m, const struct table *t, long r);
void rpt_unused_row(struct rep *p, int m, const struct table *t, long r);
void rpt_reasons_free(struct rep *p);

/* report_plot.c: gnuplot output, every string through esc_gp, every number from our own data. */
/* Open data/NAME for writing; NULL on failure (recorded in p->out). */
FILE *rpt_data(struct rep *p, const char *name);
/* Start a chart: terminal, output PNG (our own name), title (any text). */
void rpt_chart(struct rep *p, const char *png, const char *title, const char *xlabel,
	       const char *ylabel);
/* Write a quoted, escaped gnuplot string of s to the script. */
void rpt_gpstr(struct rep *p, const char *s);
/* The y-axis for values in [lo, hi]: log when all positive and spanning two decades or more. */
void rpt_yaxis(struct rep *p, double lo, double hi);

/* The axis unit for values up to top: a unit in ns ("ns per operation") becomes µs, ms or s by
 * magnitude, *div what to divide by; any other unit is kept (*div = 1). */
void rpt_unit(const char *unit, double top, double *div, char *label, size_t cap);

/* A value as a person reads it: %.4g below 10,000; above, a time in ns (unit "ns...") as
 * "12.26 ms", anything else with an SI prefix ("130.6k"): never "1.306e+05". */
void rpt_num(double v, const char *unit, char *out, size_t cap);

/* Basic statistics of a list: median, min, max (n = 0: none). */
struct rstat {
	double med, lo, hi;
	size_t n;
};
struct rstat rpt_stat(const struct vec *v);
/* snprintf for text that may be cut at cap (labels, titles: their buffers hold any real one). */
void rpt_fmt(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void vec_push(struct vec *v, double x);
/* The metrics of a view, and how many. */
int rpt_nmet(const struct bench_view *v);
#endif

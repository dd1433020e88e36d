/* What the run summary's files share: analysis/runsum.c (the kept rows, the table's frame),
 * runsum_table.c (its metric columns), runsum_changes.c (the change against the baseline) and
 * runsum_stats.c (what they all read of the kept rows). The summary is the analysis of a result
 * set's files: the bench as its FILE.bench and FILE.columns describe it (through the grouping
 * engine, resultset.h, as compare reads it), the run's settings from its .meta
 * (schema/runfacts.h), and its rows. */
#ifndef C2C_RUNSUM_INT_H
#define C2C_RUNSUM_INT_H
#include "lib/csvread.h"
#include "schema/runfacts.h"
#include "stats/stats.h"
#include <stdio.h>

#define SUMMARY_MAX 8 /* summary columns per bench (a kept row's ok bits) */

/* A row as the grouping engine hands it: a one-row table. */
const char *rs_get(const struct table *r, const char *col);
/* Forget the column indices found so far (a file's header may reuse a freed one's memory). */
void rs_cols_forget(void);
/* The column's value as a number; *ok 0 when absent, NA or not a number. */
double rs_num(const struct table *r, const char *col, int *ok);

/* The bench as the summary reads it from the files. */
struct rs_bench {
	const char *name, *variant_col, *summary_by;
	const char *summary[SUMMARY_MAX + 1];
	int dir[SUMMARY_MAX];            /* 1 higher is better, -1 lower, 0 neither */
	const char *unit[SUMMARY_MAX];   /* the view's unit, else NULL */
	const char *decl_unit[SUMMARY_MAX]; /* X.columns' unit, else NULL */
	int in_verdict[SUMMARY_MAX], predict[SUMMARY_MAX];
	struct {
		const char *cols, *name; /* what may split a line (its columns' shared value) */
	} split;
	struct {
		const char *text, *only_if;
	} summary_note;
	/* a summary metric the CSV has no column for (an older schema): why it has no value */
	int absent[SUMMARY_MAX];
	char absent_why[64];
};

struct rs_var {
	const char *name;
};

struct rs_auto {
	double ci_width;
	int max_reps;
	double max_s;
};

/* What the summary's parts read of the run (as the harness's bench_ctx did). */
struct rs_ctx {
	const struct rs_bench *b;
	struct rs_var *var;
	int nvar, reps, attempts, reps_auto, keep_invalid;
	double cv_warn; /* percent */
	const struct rs_auto *autocfg;
	const struct run_facts *rf;
};

/* What the summary keeps of a written row: its group and metrics, never the whole row. A record
 * holds only the bench's own summary metrics (pingpong's 2 of SUMMARY_MAX: 40 bytes a row, not 96:
 * a 768-PU full matrix writes 2.9 million rows). */
struct kept {
	int var, rep, group;
	unsigned char valid, ok; /* ok: bit m set when v[m] is a value */
	double probe;		 /* the first probed pair's latency (probe_latency), -1 none */
	double v[];		 /* nmetrics of them */
};

/* The kept records (analysis/runsum.c), each size bytes (struct kept and its metrics). */
struct kept_rows {
	char *at;
	size_t size;
	int n;
};

static inline struct kept *kr_at(const struct kept_rows *kr, int i)
{
	return (struct kept *)(kr->at + (size_t)i * kr->size);
}

static inline int ok_at(const struct kept *k, int m)
{
	return (k->ok >> m) & 1;
}

/* Summary lines: one per variant, or one per distinct value of the bench's summary_by columns.
 * Not analysis/resultset.h's struct groups (CSV rows in configuration x side cells, which harness/
 * may not include): a label and its lowest variant per line. */
struct sum_lines {
	char **label;
	int *first_var; /* lowest variant in the group: groups print in the bench's variant order */
	int n, cap;
};

/* analysis/runsum_by.c: summary_by's columns, "COL?" (optional) in the labels only where its
 * value varies between lines. */
/* summary_by's columns as a header ("mode,class,home?" -> "mode,class,home"). */
void summary_by_name(const char *by, char *out, size_t n);
/* The labels to print, in *out (freed with summary_by_free; its other fields are g's), and the
 * header of the columns kept in col. */
void summary_by_shown(const char *by, const struct sum_lines *g, struct sum_lines *out,
		      char *col, size_t ncol);
void summary_by_free(struct sum_lines *shown);

/* analysis/runsum_split.c: a group's n values (var[i]: the variant of val[i]) as each variant's
 * median, split at an empty gap (stats/split.h); vattr (NULL: none) gives each variant the
 * attribute that may separate the parts, named attr_name. 1 and the parts in out, else 0. */
int summary_split_group(const int *var, const double *val, int n, const long *vattr,
			const char *attr_name, const char *unit, char *out, size_t cap);

/* The cells of one metric column: text per group and its ratio to the first group. */
struct column {
	char (*cell)[96], (*ratio)[16];
	int width;
};

/* analysis/runsum.c */
int nmetrics(const struct rs_bench *b);
const char *fixed_why(const struct rs_ctx *c, int gi, int k);
struct stats group_stats(const struct kept_rows *kr, int i0, int n, int m, double *per_rep,
			 double *tmp);

/* analysis/runsum_table.c */
/* The most kept rows of one line (start[]: each line's first, start[ng] the end). */
int most_rows(const int *start, int ng);
int fill_column(const struct rs_ctx *c, const struct kept_rows *kr, const int *start,
		const int *order, int ng, int k, double thr, double *per_rep, double *tmp,
		const char *name, struct column *col);
void print_blocks(FILE *f, const struct rs_ctx *c, const struct sum_lines *g, const int *order,
		  struct column *cols, int nm, int width, const char *col, char (*cnt)[32]);
void print_fixed(FILE *f, const struct rs_ctx *c, const struct sum_lines *g, const int *order,
		 const struct column *cols, int width);

/* analysis/runsum_changes.c */
/* note_instead: the line printed instead of the bench's summary_note, NULL to print the note. */
void print_changes(FILE *f, const struct rs_ctx *c, const struct kept_rows *kr,
		   const int *start, const int *order, const struct sum_lines *g, int width,
		   const char *note_instead);
#endif

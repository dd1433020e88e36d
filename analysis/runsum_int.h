/* What the run summary's files share: harness/summary.c (the kept rows, the table's frame),
 * summary_table.c (its metric columns), summary_changes.c (the change against the baseline) and
 * summary_stats.c (what they all read of the kept rows). */
#ifndef C2C_SUMMARY_INT_H
#define C2C_SUMMARY_INT_H
#include "harness/bench.h"
#include "stats/stats.h"
#include <stdio.h>

/* What the summary keeps of a written row: its group and metrics, never the whole row. A record
 * holds only the bench's own summary metrics (pingpong's 2 of SUMMARY_MAX: 40 bytes a row, not 96:
 * a 768-PU full matrix writes 2.9 million rows). */
struct kept {
	int var, rep, group;
	unsigned char valid, ok; /* ok: bit m set when v[m] is a value */
	double probe;		 /* the first probed pair's latency (probe_latency), -1 none */
	double v[];		 /* nmetrics of them */
};

/* The kept records (harness/summary.c), each size bytes (struct kept and its metrics). */
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

/* harness/summary_by.c: summary_by's columns, "COL?" (optional) in the labels only where its
 * value varies between lines. */
/* summary_by's columns as a header ("mode,class,home?" -> "mode,class,home"). */
void summary_by_name(const char *by, char *out, size_t n);
/* The labels to print, in *out (freed with summary_by_free; its other fields are g's), and the
 * header of the columns kept in col. */
void summary_by_shown(const char *by, const struct sum_lines *g, struct sum_lines *out,
		      char *col, size_t ncol);
void summary_by_free(struct sum_lines *shown);

/* harness/summary_split.c: a group's n values (var[i]: the variant of val[i]) as each variant's
 * median, split at an empty gap (stats/split.h); vattr (NULL: none) gives each variant the
 * attribute that may separate the parts, named attr_name. 1 and the parts in out, else 0. */
int summary_split_group(const int *var, const double *val, int n, const long *vattr,
			const char *attr_name, const char *unit, char *out, size_t cap);

/* The cells of one metric column: text per group and its ratio to the first group. */
struct column {
	char (*cell)[96], (*ratio)[16];
	int width;
};

/* harness/summary.c */
int nmetrics(const struct bench *b);
const char *fixed_why(const struct bench_ctx *c, int gi, int k);
struct stats group_stats(const struct kept_rows *kr, int i0, int n, int m, double *per_rep,
			 double *tmp);

/* harness/summary_table.c */
int fill_column(const struct bench_ctx *c, const struct kept_rows *kr, const int *start,
		const int *order, int ng, int k, double thr, double *per_rep, double *tmp,
		const char *name, struct column *col);
void print_blocks(FILE *f, const struct bench_ctx *c, const struct sum_lines *g, const int *order,
		  struct column *cols, int nm, int width, const char *col, char (*cnt)[32]);
void print_fixed(FILE *f, const struct bench_ctx *c, const struct sum_lines *g, const int *order,
		 const struct column *cols, int width);

/* harness/summary_changes.c */
/* note_instead: the line printed instead of the bench's summary_note, NULL to print the note. */
void print_changes(FILE *f, const struct bench_ctx *c, const struct kept_rows *kr,
		   const int *start, const int *order, const struct sum_lines *g, int width,
		   const char *note_instead);
#endif

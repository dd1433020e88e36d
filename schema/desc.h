/* A bench described as data: what compare and report need to know of a bench (its variant column,
 * its configuration, the settings it resolves, how its rows match, its summary and split, its
 * views and its variants' order), written by the harness beside every result set as FILE.bench
 * and read back from it, so a result set compares as its own build declared it
 * (results/README.md).
 *
 * The text is INI with repeated keys: a [bench] section, then a [resolved] section per resolved
 * setting and a [view] section per view, each view's metrics in [metric] sections after it. A value
 * is the rest of its line after "KEY = "; a key left out is unset (NULL); summary_note, the one
 * text of several lines, is a key per line. Read from another machine's file, every
 * line is bounded and checked: an error is one line naming the file and line; a section or key
 * this version does not know is skipped with a warning (a newer writer's addition). */
#ifndef C2C_DESC_H
#define C2C_DESC_H
#include <stddef.h>
#include <stdio.h>

/* How `report` draws a bench: declared by the bench as data, read by analysis/ from FILE.bench.
 * A metric is one CSV column; metrics with the same axis share one chart (and so one unit). */
struct view_metric {
	const char *col;   /* CSV column */
	const char *label; /* legend text: "writer", "runs per interval" */
	const char *unit;  /* y-axis text: "ns per operation", "count" */
	const char *axis;  /* metrics with equal axis share a chart; NULL: the metric has its own */
	int higher_better; /* 0: lower is better (the usual: ns, misses) */
};

enum view_kind {
	VIEW_END = 0, /* ends a bench's views */
	VIEW_BARS,    /* x: the variants in declared order, baseline first; one chart per axis */
	VIEW_LINES,   /* x: the numeric x columns (a sweep, thread counts); one line per series */
	VIEW_MATRIX,  /* a value per (row_col, col_col) pair: a heat map and a per-class table */
};

struct bench_view {
	enum view_kind kind;
	const char *title;             /* section title: "Offset sweep", "Core-to-core latency" */
	const char *variant_prefix; /* rows whose variant starts with this (NULL: all rows not taken
				     * by an earlier view of the bench) */
	const struct view_metric *metrics; /* { 0 }-terminated */
	const char
	    *implied_cols; /* comma list of config columns the variant sets (a layout's offset):
			    * left out of the chart key, so they do not split a chart */
	/* VIEW_LINES: x is the sum of these comma-listed numeric columns ("offset",
	 * "writers,readers"), labelled "a+b" when several; lines per variant unless the variant
	 * names the x (x_is_variant). */
	const char *x_cols;
	const char *x_label;
	int x_is_variant;
	const double
	    *marks; /* VIEW_LINES: x values drawn as labelled vertical lines, 0-terminated */
	const char *const *mark_labels; /* their labels */
	/* VIEW_MATRIX: the pair's two columns, the facet (one map per value), the class column and
	 * its values nearest first; pairs of the first class share a core, pairs of the last cross
	 * packages, pairs of a class not declared here may be either. */
	const char *row_col, *col_col, *facet_col, *class_col;
	const char *const *classes;
	/* VIEW_MATRIX: its per-class table is the machine's line-transfer baseline (pingpong). A
	 * view with with_baseline (pending-bit's layouts) shows that baseline, every machine,
	 * beside it. */
	int is_baseline;
	int with_baseline;
};

/* A setting as requested and the column of what the run resolved it to. */
struct bench_resolved {
	const char *requested, *resolved;
	const char *unit; /* the resolved value's unit in words ("pages"), or NULL */
};

#define DESC_LINE_MAX 1024      /* bytes a line may hold */
#define DESC_BYTES_MAX (1L << 20) /* a bigger file is refused */
#define DESC_LIST_MAX 256        /* config, summary, verdict, match_loose, variant_order items */
#define DESC_VIEWS_MAX 16
#define DESC_METRICS_MAX 16      /* metrics per view */
#define DESC_ITEMS_MAX 32        /* classes, marks per view; resolved settings */
#define DESC_NOTE_MAX 4096       /* summary_note's bytes: a line per summary_note key */
#define DESC_SPLIT_COLS_MAX 8    /* split_cols' columns */

struct desc_own;

/* The fields of struct bench (harness/bench.h) that describe it, by the same names and types. */
struct bench_desc {
	const char *name;
	const char *variant_col;
	const char *const *config;              /* NULL-terminated, or NULL */
	const struct bench_resolved *resolved;  /* { 0 }-terminated, or NULL */
	const char *match_by;
	const char *const *match_loose;
	const char *const *summary;
	const char *summary_by;
	/* Its split (harness/bench.h): the comma list of columns whose shared integer value is a
	 * row's attribute (desc_split_attr), at most DESC_SPLIT_COLS_MAX, and what that is
	 * ("package"): both or neither. NULL: none (or a set written before them). */
	const char *split_cols;
	const char *split_name;
	/* Its verdict metrics, "metric" or "metric:lower"/"metric:higher" (schema/columns.h,
	 * col_verdict_item); NULL: not recorded (a set written before the families). */
	const char *const *verdict;
	const struct bench_view *views;         /* { VIEW_END }-terminated, or NULL */
	const char *const *variant_order;
	const char *summary_note;
	const char *summary_note_if;            /* the column that says whether the note stands */
	struct desc_own *own;                   /* parsed: the memory it holds (bench_desc_free) */
};

/* Write d as text to f. Returns 0, or -1 with a message naming the field whose value cannot be
 * written (a control byte, a newline outside summary_note, too long for a line; split_cols
 * without split_name or the reverse) or a failed write. */
int bench_desc_write(FILE *f, const struct bench_desc *d, char *err);
/* Parse len bytes of text (may hold any byte), named path in messages. 0, or -1 with a one-line
 * message naming path and line (d is then empty). warn (size wn, may be NULL): the first line
 * skipped as unknown, "" when none. */
int bench_desc_parse(struct bench_desc *d, const char *path, const char *text, size_t len,
		     char *err, char *warn, size_t wn);
/* Read and parse the file path: 1, 0 when there is none (d empty), -1 with a message. */
int bench_desc_read(struct bench_desc *d, const char *path, char *err, char *warn, size_t wn);
void bench_desc_free(struct bench_desc *d);
/* Whether a bench's summary_note (a seed's figures) stands under a table, from its summary_note_if
 * column: NULL when it does (no such column declared, or value is "yes"), else the line printed
 * instead, in out: "the seed's figures are left out, the setting differs: WHY" (value's "no:
 * WHY"; NULL value: rows without the column). The one rule the run summary and compare share. */
const char *desc_note_instead(const char *note_if, const char *value, char *out, size_t n);
/* A row's attribute by a bench's split (split_cols; harness/bench.h's split.cols): the integer
 * value (lib/parse.h's parse_long) that all its columns hold, else -1: values that differ, or
 * one that is missing (NULL), NA or not an integer; no columns (n 0): -1. vals: the n columns'
 * values in the row. The one rule the run summary and analysis/ share. */
long desc_split_attr_of(const char *const *vals, int n);
/* The same with cols, the comma list, and get(row, col), row's value of col (NULL: none). A list
 * of more than DESC_SPLIT_COLS_MAX columns, or a name over 127 bytes: -1. */
long desc_split_attr(const char *cols, const char *(*get)(const void *row, const char *col),
		     const void *row);
/* A VIEW_MATRIX view's class cls is inside one package: a declared class before the last (a class
 * not declared says nothing of the package: pingpong's unknown-package). */
int desc_class_in_package(const struct bench_view *v, const char *cls);
#endif

/* Column declarations: every CSV column a bench's rows may hold, as data (name, kind, unit,
 * which way is better, a line of meaning), and their words in FILE.columns (results/README.md),
 * which the harness writes and compare and report read. A declared name may hold placeholders,
 * upper-case words: ROLE stands for one of the bench's roles (bench.roles), any other (EVENT,
 * NAME) for one or more characters. */
#ifndef C2C_SCHEMA_COLUMNS_H
#define C2C_SCHEMA_COLUMNS_H

/* FILE.columns's header */
#define COL_CSV_HEADER "column,declared_as,kind,unit,higher_better,description"

enum col_kind {
	COL_CONFIG = 1, /* a setting: compare joins rows on it (or shows it beside) */
	COL_METRIC,     /* a measurement */
	COL_EVIDENCE,   /* what says whether the measurement holds (validity, settings achieved) */
	COL_CONTEXT,    /* the machine, the build, the row's identity, where things ran */
};

enum col_better {
	COL_NOSIDE = 0, /* neither: a count that describes, a setting, a text */
	COL_HIGHER,
	COL_LOWER,
};

/* Does a metric carry its bench's verdict (docs/validity.md, "The verdict")? The verdict's family
 * is its bench's verdict metrics: only they are tested, and their p values are adjusted over one
 * another alone. Every other metric is descriptive: its interval is shown, never a test. Where
 * the seed predicts which way the metric moves from the baseline variant, the verdict says whether
 * it did. A bench lists them beside its columns (struct bench's verdict), as "metric",
 * "metric:lower" or "metric:higher". */
enum col_verdict {
	COL_DESCRIBES = 0,  /* descriptive (the default): constants, bounds, invariants, counts */
	COL_VERDICT,        /* tested; no predicted direction */
	COL_VERDICT_LOWER,  /* tested; the seed predicts the variants lower than the baseline */
	COL_VERDICT_HIGHER, /* tested; the seed predicts them higher */
};

struct col_decl {
	const char *name;
	enum col_kind kind;
	const char *unit; /* "ns", "count", "text", ... */
	enum col_better better;
	const char *desc; /* one line */
};

/* A side table: a CSV a bench writes beside its main one (X.csv: X-NAME.csv), with a declaration
 * of its own columns (those of the harness's it holds are the harness's). */
struct col_side {
	const char *name;  /* NAME, in X-NAME.csv and `list --columns BENCH/NAME` */
	const char *about; /* one line */
	const struct col_decl *columns;
};

const char *col_kind_name(enum col_kind k);
/* A verdict item, "metric", "metric:lower" or "metric:higher": its verdict, the name into name
 * (size nn); -1 when the suffix is none of those or the name is empty. */
int col_verdict_of(const char *item, char *name, unsigned nn);
/* Is metric col in the verdict family that list declares (NULL-terminated items as above)? A
 * list that is NULL or empty declares none: then every metric with a direction (direction != 0)
 * is. *predict (may be NULL): the seed's direction, -1 lower, 1 higher, 0 none. The one rule of
 * the run's summary (harness/) and of compare and report (analysis/). */
int col_verdict_in(const char *const *list, const char *col, int direction, int *predict);
const char *col_better_name(enum col_better b);
/* 1 when column name matches the declared name decl (placeholders expanded; ROLE to an item of
 * the comma list roles, or to any name when roles is NULL). */
int col_match(const char *decl, const char *name, const char *roles);
/* The kind named by word (col_kind_name's words, "undeclared": 0), or -1 when it names none. */
int col_kind_of(const char *word);
/* The side named by word (col_better_name's words, and "NA" for an undeclared column's), or -1. */
int col_better_of(const char *word);
#endif

/* Result inputs for compare and report: CSV files or result directories, checked before use. */
#ifndef C2C_RESULTS_IN_H
#define C2C_RESULTS_IN_H
#include "analysis/csvread.h"

#define CONFIG_MAX 32

struct results {
	int n;
	struct table *t;
	int schema;     /* the schema_version all rows share (-1: no rows yet) */
	char *first;    /* the file that set it, for messages */
	/* Optional: stream instead of keeping tables. Each row is passed as a one-row table (header and
	 * that row, valid during the call only) and nothing is kept: memory stays that of one row. */
	int (*row)(void *arg, const struct table *one, char *err);
	void *row_arg;
	int unfinished; /* inputs marked interrupted or unfinished (each warned about on stderr) */
};

/* Add a CSV file, or every *.csv directly in a directory (sorted by name). Each must be a c2cbench
 * result: schema_version, bench, the variant column, rep first; one schema_version throughout. */
int results_add(struct results *r, const char *path, char *err);
/* The check results_add makes of each table (first columns, one schema_version); r->schema starts at -1. */
int results_check_table(struct results *r, const struct table *t, char *err);
void results_free(struct results *r);

/* The configuration columns of rows of bench in table t: bench, the variant column, then what the
 * bench declares (struct bench.config) when this build has it. Return the count; *declared = 0
 * when the bench is unknown here or declares none (then only bench and the variant column). */
int config_cols(const struct table *t, const char *bench, const char **cols, int max, int *declared);

/* The measured metric columns of a bench: its summary columns when known here, else every
 * column ending in _ns_per_op. Return the count. */
int metric_cols(const struct table *t, const char *bench, const char **cols, int max);

/* A row's value of col as a number: 0 and *ok = 0 when absent, NA or not a number. */
double cell_num(const struct table *t, long row, const char *col, int *ok);
#endif

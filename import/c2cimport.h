/* `c2cbench import core-to-core-latency`: a published matrix of nviennot/core-to-core-latency
 * (or `pingpong --matrix`) written as a pingpong result set (X.csv, X.meta, X.columns, X.bench),
 * one row per pair, that compare, report and summary read like a pingpong run
 * (docs/import.md). */
#ifndef C2C_C2CIMPORT_H
#define C2C_C2CIMPORT_H
#include <stddef.h>

/* What the source measured, in every row's source_statistic. */
#define C2CIMPORT_TOOL "core-to-core-latency"
#define C2CIMPORT_STATISTIC "mean of round trip / 2"

struct import_req {
	const char *file;  /* the matrix */
	const char *topo;  /* TOPO (import/topospec.h) */
	const char *label; /* NULL: from the file's name */
	const char *dir;   /* NULL: results */
};

/* Write the result set; csv (size n) gets its path. 0; EXIT_BADINPUT with a one-line message and
 * nothing written (a bad file, TOPO, label, or a matrix whose size is not TOPO's PUs); 1 when a
 * write failed (nothing left behind). rows/invalid: the rows written and those marked invalid. */
int import_c2c(const struct import_req *q, char *csv, size_t n, long *rows, long *invalid,
	       char *err);
#endif

/* pingpong --matrix FILE: the square latency table in core-to-core-latency's --csv form. */
#ifndef C2C_PP_MATRIX_H
#define C2C_PP_MATRIX_H
#include "benches/pingpong/pairs.h"

/* Write the n x n table of set's PUs in OS CPU order: comma-separated, no header, val[k] in both
 * cells of pair k (symmetric), empty cells on the diagonal and where val[k] is NAN. Written to
 * a temporary name next to it, then linked into place (an existing FILE is kept: -1), or with
 * replace renamed over it (a snapshot of this run's replaces its earlier one), so a reader never
 * sees half a table. 0 or -1 with a message. */
int matrix_write(const char *path, const int *set, int n, const struct pu_pair *pair,
		 const double *val, int npairs, int replace, char *err);
/* Before anything runs: can a file be created where FILE goes? 0 or -1 with a message. */
int matrix_probe(const char *path, char *err);
#endif

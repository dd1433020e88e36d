/* The run summary of made-up rows, as a run prints it: the rows are written as a result set (CSV
 * and .meta with the run's settings, the bench's description from this build) in a private
 * directory and summarised from the files by analysis/runsum.c, the run's own path. */
#ifndef C2C_RUNSUM_SHIM_H
#define C2C_RUNSUM_SHIM_H
#include "harness/bench.h"
#include <stdio.h>

struct summary;

struct summary *summary_new(const struct bench_ctx *c);
/* A row of variant var (its variant column is added), repetition rep, attempt, valid or not. */
void summary_add(struct summary *s, const struct row *r, int var, int rep, int attempt, int valid,
		 int final);
void summary_print(struct summary *s, FILE *f);
void summary_free(struct summary *s);
#endif

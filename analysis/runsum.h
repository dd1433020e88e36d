/* The run summary: the analysis of the result set a run has just written, from its files alone
 * (rows, FILE.bench, FILE.columns, the run's settings in its .meta: schema/runfacts.h). The run
 * prints it (harness/ calls it through bench_set_summary's hook) and `c2cbench summary FILE`
 * prints the same from the files: medians, spread and ratios per variant (or per group of them),
 * CV flags, the change of each variant against the baseline with the verdict, the counters' HITM
 * line. */
#ifndef C2C_RUNSUM_H
#define C2C_RUNSUM_H
#include <stdio.h>

/* The summary of the run whose CSV is csv (its .meta beside it) to f. 0, or -1 with a one-line
 * message. */
int runsum_print(FILE *f, const char *csv, char *err);
#endif

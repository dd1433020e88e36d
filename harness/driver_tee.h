/* The run's summary is the analysis of the result set it has just written (analysis/runsum.c,
 * through bench_set_summary's hook). A CSV that is no result set of its own (standard output, a
 * pipe, --meta elsewhere) gets a whole copy for it: rows, .meta and side files in a private
 * directory, removed after the summary. */
#ifndef C2C_DRIVER_TEE_H
#define C2C_DRIVER_TEE_H
#include "harness/bench.h"
#include "harness/csv.h"

struct tee {
	int on;
	char dir[4096], csv[4200], meta[4200], columns[4300];
	struct csv out;
};

/* Open the copy when csv (with its .meta at meta, "" for none) is no result set of its own. */
int tee_open(struct bench_ctx *c, const char *csv, const char *meta, struct tee *t, char *err);
/* The CSV the summary reads: the copy's, else csv. */
const char *tee_csv(const struct tee *t, const char *csv);
/* Close the copy and remove its files. */
void tee_close(struct tee *t);
/* Print the run summary of csv to f (the hook's; none set: nothing). */
int driver_summary(FILE *f, const char *csv, char *err);
#endif

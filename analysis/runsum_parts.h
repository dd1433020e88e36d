/* Parts of the run summary kept apart from its table (harness/summary.c): the counters' HITM input
 * and the --reps auto report. */
#ifndef C2C_SUMMARY_PARTS_H
#define C2C_SUMMARY_PARTS_H
#include "harness/bench.h"
#include "harness/counters/counters.h"
#include "lib/wrap.h"
#include "harness/repsauto.h"
#include <stdio.h>

/* A summary line fits a 100-column terminal (one wide metric may exceed it). */
#define SUMMARY_COLS 100

/* Print text as lines of at most SUMMARY_COLS, broken at spaces, continuation lines indented by
 * two (a single word wider than that stays whole). */
static inline void summary_wrap(FILE *f, const char *text)
{
	text_lines(f, SUMMARY_COLS, 2, text);
}

/* What the counter summary needs of the written rows: the HITM values there are (a row without
 * one adds nothing but its status), and the rows' counter status. */
struct hitm_seen {
	int n, *var;
	double *val;
	unsigned char *ok;
	char src[128], why[256];
	struct counters_seen cs;
};

/* Keep what the counter summary needs of a written row. */
void hitm_seen_add(struct hitm_seen *h, const struct row *r, int var);
void hitm_seen_free(struct hitm_seen *h);
/* --reps auto: how each configuration stopped, per variant. */
void print_auto(FILE *f, const struct bench_ctx *c, const enum reps_stop *stop, const double *width,
		const int *rounds);
#endif

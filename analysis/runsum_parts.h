/* Parts of the run summary kept apart from its table (analysis/runsum.c): the counters' HITM input
 * and the --reps auto report. */
#ifndef C2C_SUMMARY_PARTS_H
#define C2C_SUMMARY_PARTS_H
#include "analysis/runsum_int.h"
#include "lib/wrap.h"
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
	struct counters_seen {
		int rows, passes, mux_yes, mux_no;
		double min_pct; /* lowest counters_running_pct of the multiplexed rows */
	} cs;
};

/* Keep what the counter summary needs of a written row. */
void hitm_seen_add(struct hitm_seen *h, const struct table *r, int var);
void hitm_seen_free(struct hitm_seen *h);
/* --reps auto: how each configuration stopped, per variant. */
void print_auto(FILE *f, const struct rs_ctx *c);
/* HITM per 1,000 ops per variant and the change against the first: one value per written row. */
void counters_summary(FILE *f, const char *src, const char *why, const struct rs_ctx *c,
		      const int *var, const double *hitm, const unsigned char *ok, int n);
/* How the counters ran over the rows (counter_passes, counters_multiplexed), in words. */
void counters_seen_add(struct counters_seen *s, const struct table *r);
void counters_seen_print(FILE *f, const struct counters_seen *s);
#endif

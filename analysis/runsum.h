/* The summary table after a run: medians, spread and ratios per variant (or per group of them),
 * CV flags, and the counters' HITM line. It keeps a few numbers per written row, never the rows. */
#ifndef C2C_SUMMARY_H
#define C2C_SUMMARY_H
#include "harness/bench.h"
#include "harness/repsauto.h"
#include <stdio.h>

struct summary;

struct summary *summary_new(const struct bench_ctx *c);
/* A row that was written: variant var, repetition rep, attempt (1-based); valid: it passed the
 * rules (only valid rows count unless --keep-invalid); final: the repetition's last attempt. */
void summary_add(struct summary *s, const struct row *r, int var, int rep, int attempt, int valid,
		 int final);
/* --reps auto: the primary metric's valid values of a variant (at most max); how it stopped. */
int summary_primary(const struct summary *s, int var, double *out, int max);
void summary_stopped(struct summary *s, int var, enum reps_stop why, double width, int rounds);
/* The verdict's plan, before the run: its family's tests (the verdict metrics against the
 * baseline), and the smallest change it can call at the run's repetitions and --cv-warn's CV. */
void summary_plan(const struct bench_ctx *c, FILE *f);
/* To f: stdout, or stderr when the CSV goes to stdout (--out -). */
void summary_print(struct summary *s, FILE *f);
void summary_free(struct summary *s);
#endif

/* pingpong's private state, shared by pingpong.c (options, rows), prepare.c (the plan) and
 * concurrent.c (rounds, the accuracy check, the row columns). */
#ifndef C2C_PINGPONG_H
#define C2C_PINGPONG_H
#include <sys/types.h>
#include "benches/pingpong/check.h"
#include "benches/pingpong/measure.h"
#include "benches/pingpong/resume.h"
#include "benches/pingpong/schedule.h"
#include "harness/bench.h"

#define PP_LAST_COL "expected_transfers_per_handoff" /* the last column pp_fill_row sets */

struct pp_priv {
	struct pu_pair *pair;
	int npairs, nset;
	int *set;
	int modes[NMODES], nmodes;
	char conc_req[16], mem_req[16]; /* "auto", "4"; --home canonical: "first", "node:1" */
	int conc_auto, conc_n, cap;     /* cap: most pairs at once now (after any fallback) */
	int by_pu; /* rounds may put two pairs on one core's SMT siblings (auto) */
	struct schedule sched;
	struct pp_setup su;
	double tol;                     /* --check-tolerance as a fraction */
	int *sample, nsample;           /* accuracy-check pairs (indices into pair) */
	int *sample_slot;               /* pair -> its index in sample, or -1 */
	double *chk_alone, *chk_conc;   /* nsample x NMODES median ns */
	struct check_class cls[NMODES][PC_COUNT];
	int outside[NMODES], checked, fallbacks;
	struct pp_meas *meas; /* the round last measured, in member order (room: meas_room) */
	int meas_room, meas_round, meas_mode,
	    meas_rep;    /* which round, mode, repetition (-1: none) */
	int meas_hooked; /* its member whose threads were counted (measured again if asked) */
	int last_counted;               /* the last result pp_measure_pair gave was counted */
	float *matrix_val;              /* --matrix: npairs x reps min_ns (NAN: not measured) */
	int matrix_written; /* a snapshot of the matrix is in place (later ones replace it) */
	int matrix_failed;              /* FILE could not be had: no later snapshot tries again */
	dev_t matrix_dev; /* the snapshot in place: replaced only while FILE is still it */
	ino_t matrix_ino;
	uint8_t *done; /* --resume: bit (k * NMODES + mode) * reps + rep: a row is there */
	char same_val[8][48];           /* --resume: this run's settings, as its rows write them */
	struct pp_same same[9];
};

/* The bench's prepare (prepare.c): the pairs, modes and rounds, the plan, --resume's rows. */
int pp_prepare(struct bench_ctx *c, char *err);
/* --concurrent 1: every pair alone, no accuracy check. */
int pp_alone_only(const struct pp_priv *p);
int pp_state_alloc(struct pp_priv *p);
void pp_state_free(struct pp_priv *p);
/* The accuracy check before the first row; with auto, first keep pairs off each other's cores,
 * then halve the pairs at once while a class is off. */
int pp_check_run(struct bench_ctx *c, struct pp_priv *p, char *err);
/* Pair k's result for mode and rep: from its round, measured now unless this repetition already
 * did. */
const struct pp_meas *pp_measure_pair(struct bench_ctx *c, struct pp_priv *p, int k, int mode,
				      int rep, char *err);
/* A row measured by another pair's round: its counter columns (added after pp_run) become NA. */
void pp_mark_uncounted(const struct pp_priv *p, struct row *r);
void pp_fill_row(const struct bench_ctx *c, const struct pp_priv *p, int k, int mode,
		 const struct pp_meas *m, struct row *r);
#endif

/* Rounds of disjoint pairs for pingpong --concurrent: the circle method (round-robin tournament)
 * over the PU set, each of its rounds split so no two pairs of a round touch the same core (or,
 * with by_pu, the same PU: SMT siblings may then run two pairs) and at most N pairs run at once.
 * The full matrix of P PUs takes P-1 circle rounds (P even), P (P odd). */
#ifndef C2C_SCHEDULE_H
#define C2C_SCHEDULE_H
#include "benches/pingpong/pairs.h"

/* Circle-method round of the pair of positions i != j among n PUs: 0 .. circle_rounds(n)-1.
 * Every pair of n positions gets exactly one round; no position appears twice in a round. */
int circle_round(int n, int i, int j);
/* Rounds of the circle method for n positions: n-1 for even n, n for odd n (one bye per round). */
int circle_rounds(int n);

struct schedule {
	int npairs, nrounds, cap;   /* cap: most pairs at once that was asked for */
	int by_pu; /* 1: pairs of a round are PU-disjoint only (may share a core) */
	int *round;                 /* npairs entries: the round of pair k, 0-based, in run order */
	int *size;                  /* nrounds entries: pairs in round r (measured at once) */
	int *first; /* nrounds + 1 entries: members of round r are member[first[r] .. first[r+1]) */
	int *member;                /* npairs entries: pair indices, round by round */
};

/* Schedule pairs (OS CPU numbers among set[0..n)) so each round holds at most cap pairs on disjoint
 * cores (core ids from t), or on disjoint PUs when by_pu. Returns 0, or -1 with a message (a pair
 * whose PU is not in set). */
int schedule_build(const struct topo *t, const int *set, int n, const struct pu_pair *pair,
		   int npairs, int cap, int by_pu, struct schedule *s, char *err);
void schedule_free(struct schedule *s);
/* Most pairs at once that fit the PU set on disjoint cores: distinct cores / 2, at least 1; with
 * by_pu on disjoint PUs: n / 2. */
int schedule_auto_cap(const struct topo *t, const int *set, int n, int by_pu);
#endif

/* pingpong --resume CSV: continue an interrupted run of the same plan. The CSV's rows stay where
 * they are; this run measures only the pair, mode and repetition rows it lacks (into its own
 * --out), and its --matrix holds the values of both. */
#ifndef C2C_PP_RESUME_H
#define C2C_PP_RESUME_H
#include "benches/pingpong/pairs.h"
#include <stdint.h>

/* The settings a resumed run must share with the CSV's: the CSV column, this run's value. */
struct pp_same {
	const char *col, *want;
};

/* Before the pairs are chosen: the CSV is a pingpong run's, its first row's settings in same[]
 * (NULL col ends it) equal this run's, and its seed (sample:N and the order depend on it) goes to
 * *seed, or equals it when seed_given; a CSV of a header only leaves *seed. 0, or -1 with a
 * one-line message. */
int pp_resume_check(const char *path, const struct pp_same *same, uint64_t *seed, int seed_given,
		    char *err);

/* The rows already there: done gets bit (k * nmodes_all + mode) * reps + rep for each pair k of
 * pair[0..npairs) whose mode and repetition has a valid row or max_attempts of them; for the
 * first mode, val[k * reps + rep] = its min_ns (val may be NULL). Returns the rows it counted, or
 * -1 with a message (other settings than same[], a pair not in this plan, a repetition past reps).
 */
long pp_resume_load(const char *path, const struct pp_same *same, const struct pu_pair *pair,
		    int npairs, int nmodes_all, int reps, int max_attempts,
		    const char *const *mode_names, int first_mode, uint8_t *done, float *val,
		    char *err);

static inline int pp_done(const uint8_t *done, long bit)
{
	return done && (done[bit / 8] >> (bit % 8) & 1);
}
#endif

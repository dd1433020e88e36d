/* --reps auto: repeat each configuration until the 95% confidence interval of its median is narrow
 * enough, or a cap is reached (docs/validity.md). The interval is distribution-free: order
 * statistics of the valid values, so it needs at least REPS_AUTO_MIN of them. */
#ifndef C2C_REPSAUTO_H
#define C2C_REPSAUTO_H
#include "schema/runfacts.h" /* REPS_AUTO_MIN */


enum reps_stop { REPS_GO, REPS_CI, REPS_MAX, REPS_TIME };

struct reps_auto {
	double ci_width; /* relative width (hi - lo) / median to reach */
	int max_reps;    /* repetitions per configuration at most */
	double max_s;    /* seconds of the whole run at most */
};

/* The 95% interval [lo, hi] of the median of v[0..n); -1 when n is too small for one. */
int median_ci95(const double *v, int n, double *lo, double *hi);
/* After a round: stop this configuration? reps done so far (valid or not), n valid values in v,
 * elapsed seconds of the run. *width: the relative interval width (-1 when there is none). */
enum reps_stop reps_auto_stop(const double *v, int n, int reps, double elapsed_s,
			      const struct reps_auto *a, double *width);
/* The design's stop: a bench's variants of one configuration stop together, so that each keeps its
 * place in every shuffled round (drift then falls on all of them alike). nvar variants, variant i
 * with n[i] valid values at v[i]; reps rounds done. Stops on the interval (REPS_CI) only when every
 * variant has one and the widest is within the target, else at the cap or the time. width[i]:
 * each variant's own relative width (-1: none); *widest: the widest (-1 when some has none). */
enum reps_stop reps_auto_stop_all(const double *const *v, const int *n, int nvar, int reps,
				  double elapsed_s, const struct reps_auto *a, double *width,
				  double *widest);
const char *reps_stop_name(enum reps_stop s);
#endif

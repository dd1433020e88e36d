/* `compare A B`: two result sets joined on the full configuration (analysis/groups.h), and per
 * configuration and metric what changed: medians, ratio B/A with its 95% bootstrap interval, the
 * Mann-Whitney p-value and a plain verdict; a geometric mean per bench and metric over the joined
 * configurations. The front end is cli/cmd_compare.c; report uses cmp_stat and cmp_verdict too. */
#ifndef C2C_ANALYSIS_COMPARE_H
#define C2C_ANALYSIS_COMPARE_H
#include "analysis/groups.h"
#include <stdio.h>

#define CMP_MIN_REPS 5 /* fewer valid repetitions a side: the U test cannot reach p < 0.05 reliably */

/* Medians, ratio, interval and test of two samples. */
struct cmp_stat {
	size_t na, nb;
	double ma, mb, ratio, lo, hi, u, p, p_floor; /* p_floor: the smallest p the exact test can give */
	int has_ratio, has_ci, has_p, exact;
	int small;       /* a side has fewer than CMP_MIN_REPS values */
	int significant; /* p < 0.05 and the interval excludes 1, with enough repetitions */
};

void cmp_stat(const struct grp_vals *a, const struct grp_vals *b, struct cmp_stat *s);
/* "B faster by 1.23x [1.18, 1.29]", "no significant change", "too few repetitions (n<5)...".
 * direction: 1 higher is better, -1 lower is better, 0 unknown; time: the metric is a duration. */
void cmp_verdict(const struct cmp_stat *s, int direction, int time, char *out, size_t n);
/* Is the metric a duration (lower: faster)? From its unit or its name. */
int cmp_is_time(const char *metric, const char *unit);

/* One configuration and metric. */
struct cmp_line {
	int group, metric;
	const struct grp_cell *a, *b; /* NULL: no row of it on that side */
	struct cmp_stat s;
	char verdict[128];
};

/* A geometric mean of ratios over the joined configurations of one bench and metric. */
struct cmp_geo {
	int bench, metric, n;
	int sig; /* of the n, the configurations with a significant change */
	double ratio;
	char verdict[128];
};

struct cmp {
	struct groups g;
	int joined;        /* configurations on both sides */
	int only[2];       /* configurations on one side only */
	/* filled by cmp_walk: */
	int nline, small;  /* lines; lines with fewer than CMP_MIN_REPS values on a side */
	struct cmp_geo *geo;
	int ngeo;
};

/* Read A and B and join them. Error (exit 2): unreadable input, unknown --metric, no configuration
 * in common (the message says what each side holds and where their configurations differ). */
int cmp_run(struct cmp *c, const char *a, const char *b, const char *metrics, char *err);
/* Compute each line in output order (configurations as groups.order, then metrics) and hand it to
 * fn (a nonzero return stops); lines are not kept, so memory stays with the groups. Afterwards
 * c->nline, c->small and the geometric means are set. Return what fn returned last. */
int cmp_walk(struct cmp *c, int (*fn)(void *u, const struct cmp *c, const struct cmp_line *l), void *u);
void cmp_free(struct cmp *c);

/* The outputs; each returns 0, or -1 when writing failed (full device). */
int cmp_print_text(FILE *f, const struct cmp *c);
int cmp_print_csv(FILE *f, const struct cmp *c);
int cmp_print_json(FILE *f, const struct cmp *c);
/* The text output's last table (analysis/compare_within.c): on each side, each variant's change
 * against its bench's baseline variant (the first of the bench's declared order) in the same
 * configuration, as a run's summary prints it, and the bench's note beside (the figures it
 * reproduces). Prints nothing when no bench declares a baseline or no side holds one. */
void cmp_print_within(FILE *f, struct cmp *c);
#endif

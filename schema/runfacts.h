/* What a run records of its own settings in its .meta's [run] section, so that the run summary is
 * the analysis of the files alone (analysis/runsum.c, the same for the run and for `c2cbench
 * summary FILE`): the repetitions asked for, --max-attempts, --cv-warn, --keep-invalid, --reps
 * auto's rule and how each variant stopped, the variants in the run's order, and the values its
 * bench fixes by construction under the run's settings. The harness writes them
 * (run_facts_put), analysis/ reads them back (run_facts_read). A set written before has none:
 * known is then 0 and the reader derives what it can from the rows (results/README.md). */
#ifndef C2C_RUNFACTS_H
#define C2C_RUNFACTS_H
#include <stdio.h>

/* The most repetitions, attempts or rounds a run takes (lib/opts.c, a count's 1..1000000): more
 * in a .meta is refused. */
#define RUN_COUNT_MAX 1000000
#define REPS_AUTO_MIN 6 /* the fewest values with a 95% order-statistic interval of the median */

struct run_fixed {
	int var;      /* index in var[] */
	char *metric; /* a summary metric */
	char *why;    /* the bench's reason, a few words */
};

/* How a variant stopped under --reps auto, by harness/repsauto.h's enum reps_stop (REPS_GO,
 * REPS_CI, REPS_MAX, REPS_TIME): the words the .meta records. */
extern const char *const run_stop_names[4];

struct run_stop {
	char how[16]; /* one of run_stop_names ("running": cut short); "" unknown */
	int rounds;
	double width; /* the CI's relative width, -1 none */
};

struct run_facts {
	int known;        /* the .meta held them */
	int reps;         /* repetitions requested (under --reps auto: its cap) */
	int reps_auto;    /* --reps auto: ci_width, max_reps, max_s its rule */
	double ci_width, max_s;
	int max_reps;
	int attempts;     /* --max-attempts */
	double cv_warn;   /* --cv-warn, percent */
	int keep_invalid; /* --keep-invalid */
	int nvar;
	char **var;       /* the variants in the run's order */
	/* per variant under --reps auto (reps_auto set before the variants), else NULL */
	struct run_stop *stop;
	int *hix, hcap;        /* variant index + 1 by hash of its name (0: free) */
	int vcap;              /* room in var[] (and stop[]) */
	int nfixed;
	struct run_fixed *fixed;
};

/* Record how variant v stopped: run_stop_names[how], after rounds, its CI's width (-1 none). */
void run_facts_stop(struct run_facts *r, int v, int how, double width, int rounds);
/* The [run] lines of r ("key = value"), for the writer of the .meta. */
void run_facts_put(FILE *f, const struct run_facts *r);
/* Read them from the .meta at path: 0 (r->known 0 when it has none, or no .meta is there), or -1
 * with a one-line message naming the file, line and value that no run writes. */
int run_facts_read(struct run_facts *r, const char *meta, char *err);
/* Variant name's index, or -1. */
int run_facts_var(const struct run_facts *r, const char *name);
/* Add a variant (the reader of an older set: in the order the rows name them); its index. */
int run_facts_add_var(struct run_facts *r, const char *name);
/* After var[] was reordered: its names found at their new places. */
void run_facts_reindex(struct run_facts *r);
void run_facts_free(struct run_facts *r);
#endif

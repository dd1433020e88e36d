/* Hardware and software counters through PAPI, per measured thread, summed per role.
 * Each measured thread registers with PAPI, builds its own event set, starts it when its measured
 * phase begins and stops it when it ends; nothing is read in the hot loop. Events that do not fit
 * the counters together run as extra passes of the same configuration (never silent multiplexing).
 */
#ifndef C2C_COUNTERS_H
#define C2C_COUNTERS_H
#include "harness/placement.h"
#include "harness/row.h"
#include "harness/threads.h"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#define CTR_MAX 32
#define CTR_PASSES 8
#define CTR_ROLES 8

enum ctr_kind { CK_HW, CK_SDE };

struct ctr_event {
	char label[64];   /* CSV column stem: the metric, or the raw name in snake_case */
	char native[192]; /* the name PAPI is given */
	int kind;
	int metric;       /* index into metric_defs, or -1 for a raw name */
	int pass;         /* HW: pass group, -1 when not counted */
	char na[192];     /* why it is not counted ("" when it is) */
	char adv[192]; /* Arm: does the kernel's PMU advertise it, and how told ("" elsewhere); as
			  na */
};

struct counters {
	int nev, npasses, cur_pass, auto_mode, hw_usable, nroles, sde_es;
	int hooks_hw; /* the current pass counts hardware events in each thread */
	struct ctr_event ev[CTR_MAX];
	char pmu[64];      /* libpfm4 PMU in use ("" when none) */
	char pmu_table[64]; /* whose platform-table rows feed the metrics (a fallback: emr rows on
			       spr) */
	char pmu_detected[64]; /* what libpfm4 detected by itself ("" when nothing) */
	char pmu_how[320]; /* "detected by libpfm4", "forced with --pmu", the fallback and why, or
			      why there is none */
	char status[512];  /* counters_status: "ok" or the reasons in a few words */
	char detail[512];  /* the long form of a global reason (PAPI's own words) */
	const struct role_req *roles;
	struct thr_hooks hooks;
	/* one configuration's totals, reset by counters_run_begin */
	pthread_mutex_t mu;
	uint64_t ops[CTR_PASSES][CTR_ROLES];
	long long val[CTR_ROLES][CTR_MAX];
	long long sde_val[CTR_MAX];            /* SDE: the run's total (read around it) */
	long long sde_role[CTR_ROLES][CTR_MAX]; /* SDE: each role's threads' own tallies (read in
						   each thread) */
	char thread_err[256];
	/* multiplexing probe: one perf event per measuring thread beside its PAPI set (time enabled
	 * vs running) */
	int mux_probes, mux_short;
	double mux_min_pct;
	char mux_err[160];
};

/* Parse --events (auto or a comma list), set up libpfm4 (--pmu) and PAPI, group events into passes.
 * plan may be NULL (no roles: `c2cbench events`). Returns 0, or -1 with a one-line message for bad
 * input. */
int counters_open(struct counters *k, const char *events, const char *force_pmu,
		  const struct plan *p, char *err);
/* Is every requested event countable? (--require-counters) */
int counters_ok(const struct counters *k);
/* Runs per configuration: 1, or more when the events need several groups. */
int counters_passes(const struct counters *k);
/* Hooks for threads_run during the current pass (NULL when nothing is counted per thread). */
const struct thr_hooks *counters_hooks(struct counters *k);
void counters_run_begin(struct counters *k);
void counters_pass_begin(struct counters *k, int pass);
void counters_pass_end(struct counters *k, int pass);
/* Add the counter columns of the configuration just run. */
void counters_to_row(struct counters *k, struct row *r);
/* One line per event: what is counted, in which pass, or why not; one line in all when none can be.
 */
void counters_describe(const struct counters *k, FILE *f);
void counters_close(struct counters *k);
/* Before planning: tell auto placement (t->auto_cross_llc) that the target's HITM stand-in only
 * sees lines from another last-level cache (AMD Zen 3+), so it picks cross-llc where the home
 * package has two. The target is this machine's PMU (force: --pmu), or a foreign topology's CPU
 * info, never the planning host's; t->auto_why says which and why. */
void counters_auto_hint(const char *force, struct topo *t);
#endif

/* What a shepherd model run measured: run rate per interval, gap histograms, queues, zone-lock
 * figures. Computed from the model's run records after the threads stopped (pure: testable on
 * made-up records). */
#ifndef C2C_SHEPHERD_STATS_H
#define C2C_SHEPHERD_STATS_H
#include "benches/shepherd/model.h"

/* Gap bins in ticks (HZ=1000, interval 1 s): 0 | 1-9 | 10-99 | 100-499 | 500-750 | 751-1000 |
 * 1001-1500 | >1500. The sixth bin starts at the shortest legitimate gap. */
#define SW_BINS 8
enum { SW_GAP_START, SW_GAP_END, SW_GAP_KINDS };

struct sw_result {
	int no_window; /* the workload threads shared no whole tick: nothing below was measured */
	long window_ticks;         /* measured window */
	long min_legit;            /* interval - HZ/4 + 1 */
	uint64_t runs;             /* runs that started in the window */
	uint64_t full_intervals;   /* (CPU, interval) pairs wholly inside the window */
	uint64_t runs_in_full;     /* runs that started in those */
	uint64_t double_intervals; /* of those, pairs with two or more runs */
	uint64_t back_to_back;     /* runs queued while the previous run was executing */
	uint64_t gaps[SW_GAP_KINDS], short_gaps[SW_GAP_KINDS];
	long min_gap[SW_GAP_KINDS]; /* -1: no gap */
	int cpus_with_short_gaps;
	long edges[SW_BINS];
	uint64_t hist[SW_GAP_KINDS][SW_BINS];
	double run_ticks_mean;
	long run_ticks_max;
	struct sw_shepstat shep;
	uint64_t rearm_failed, decays, workload_ops;
	struct sw_lockstat lock_total, lock_site[SW_NSITES];
};

/* Bin lower edges for an interval of `interval` ticks at `hz`, strictly increasing. */
void sw_gap_edges(long interval, long hz, long edges[SW_BINS]);
int sw_gap_bin(const long edges[SW_BINS], long gap);
/* Everything above, for the window [m0, m1) in ticks. */
void sw_collect(const struct sw_model *m, long m0, long m1, struct sw_result *r);
#endif

/* shepherd's columns (harness/columns.h): its README's column table is generated from this
 * (scripts/bench-columns.sh). */
#include "harness/columns.h"
#include <stddef.h>

#define COUNT(n, d) {n, COL_METRIC, "count", COL_NOSIDE, d}

const struct col_decl shepherd_columns[] = {
    {"check", COL_CONFIG, "text", COL_NOSIDE,
     "the shepherd's check: pending (delayed_work_pending), busy (work_busy), atomic (state "
     "word)"},
    {"cpus_requested", COL_CONFIG, "text", COL_NOSIDE,
     "--cpus as given, or all (the default: every allowed CPU)"},
    {"cpus", COL_CONTEXT, "count", COL_NOSIDE,
     "modelled CPUs (one kworker and one workload thread each): cpus_requested, all resolved to "
     "the allowed CPUs' count"},
    {"cpu_list", COL_CONTEXT, "CPU list", COL_NOSIDE,
     "the OS CPU each modelled CPU's threads were bound to, in modelled-CPU order"},
    {"shepherd_cpu", COL_CONTEXT, "CPU", COL_NOSIDE,
     "the OS CPU of the shepherd thread (modelled CPU 0's)"},
    {"hz", COL_CONFIG, "ticks/s", COL_NOSIDE, "ticks per modelled second"},
    {"tick_us", COL_CONFIG, "us", COL_NOSIDE, "wall-clock microseconds per tick"},
    {"interval_ticks", COL_CONFIG, "ticks", COL_NOSIDE,
     "vm.stat_interval in ticks (--interval x hz)"},
    {"min_legit_gap_ticks", COL_CONTEXT, "ticks", COL_NOSIDE,
     "shortest gap a self re-arm can produce: interval_ticks - hz/4 + 1"},
    {"zones", COL_CONFIG, "count", COL_NOSIDE, "zones per CPU"},
    {"zone_work_us", COL_CONFIG, "us", COL_NOSIDE, "CPU work per zone in vmstat_update"},
    {"op_ns", COL_CONFIG, "ns", COL_NOSIDE, "private work per workload page operation"},
    {"yield", COL_CONFIG, "0/1", COL_NOSIDE,
     "1 if cond_resched() yields (sched_yield), 0 under --no-yield"},
    {"threshold", COL_CONFIG, "count", COL_NOSIDE,
     "per-CPU counter fold threshold (--threshold)"},
    {"pcp_batch", COL_CONFIG, "count", COL_NOSIDE, "per-CPU page set batch (--pcp-batch)"},
    {"tick_us_achieved", COL_EVIDENCE, "us", COL_NOSIDE,
     "the tick as the shepherd achieved it: tick_us x (1 + the whole ticks it woke late, "
     "mean per wake-up in the window); NA when it did not wake in the window"},
    {"zone_work_us_achieved", COL_EVIDENCE, "us", COL_NOSIDE,
     "what the kworkers' calibrated zone work took, timed on each one's CPU after its window "
     "(mean); NA with --zone-work-us 0"},
    {"op_ns_achieved", COL_EVIDENCE, "ns", COL_NOSIDE,
     "what the workloads' work per page operation took, timed on each one's CPU after its "
     "window (mean); NA with --op-ns 0"},
    {"duration_s", COL_EVIDENCE, "s", COL_NOSIDE, "measured window"},
    COUNT("intervals", "(CPU, interval) pairs wholly inside the window; CPU c's intervals start "
		       "at whole modelled seconds minus 3c ticks"),
    COUNT("runs", "vmstat_update runs that started in the window, all CPUs"),
    {"runs_per_interval", COL_METRIC, "ratio", COL_LOWER,
     "runs in whole intervals / intervals (1 is the design, more: double runs); NA if the window "
     "holds no whole interval"},
    {"double_intervals", COL_METRIC, "count", COL_LOWER,
     "whole intervals with two or more runs on the CPU"},
    {"back_to_back_runs", COL_METRIC, "count", COL_LOWER,
     "runs that started because they were queued while the previous run was executing"},
    COUNT("gaps", "start-to-start gaps counted (one per run that has a previous run on its CPU)"),
    {"short_gaps", COL_METRIC, "count", COL_LOWER,
     "start-to-start gaps below min_legit_gap_ticks"},
    {"short_end_gaps", COL_METRIC, "count", COL_LOWER,
     "end-to-start gaps (previous run's end to this run's start) below min_legit_gap_ticks"},
    {"min_gap_ticks", COL_METRIC, "ticks", COL_NOSIDE,
     "smallest start-to-start gap; NA if no gap"},
    {"min_end_gap_ticks", COL_METRIC, "ticks", COL_NOSIDE,
     "smallest end-to-start gap; NA if no gap"},
    {"cpus_with_short_gaps", COL_METRIC, "count", COL_LOWER,
     "modelled CPUs with at least one short gap of either kind"},
    {"run_ticks_mean", COL_METRIC, "ticks", COL_NOSIDE,
     "mean vmstat_update run time; NA if no run"},
    {"run_ticks_max", COL_METRIC, "ticks", COL_NOSIDE,
     "longest vmstat_update run time; NA if no run"},
    COUNT("shepherd_passes", "shepherd sweeps over all CPUs"),
    COUNT("shepherd_visits", "CPU visits (passes x cpus)"),
    COUNT("shepherd_skipped_busy", "visits where the check said busy"),
    COUNT("shepherd_skipped_clean", "visits where need_update() was false"),
    COUNT("shepherd_queues", "visits that queued the work"),
    {"queued_while_running", COL_METRIC, "count", COL_LOWER,
     "of shepherd_queues, those that found the work executing (a back-to-back double run "
     "follows)"},
    COUNT("queued_while_idle",
	  "of shepherd_queues, those of a work neither running nor armed (legitimate restarts)"),
    COUNT("shepherd_lost_races",
	  "the check said idle and need_update() was true, but the queue found PENDING (or, "
	  "atomic, the state) already taken"),
    COUNT("rearm_failed",
	  "vmstat_update re-arms that found PENDING set, so armed no timer (step 4 of the race)"),
    COUNT("decay_calls", "decay_pcp_high calls (zones x runs)"),
    {"zone_lock_acquisitions", COL_METRIC, "count", COL_LOWER,
     "zone lock acquisitions, all zones and call sites"},
    {"zone_lock_contended", COL_METRIC, "count", COL_LOWER,
     "acquisitions whose first trylock failed"},
    {"zone_lock_wait_total_ns", COL_METRIC, "ns", COL_LOWER,
     "total wait of the contended acquisitions"},
    {"zone_lock_wait_max_ns", COL_METRIC, "ns", COL_LOWER, "longest single wait"},
    COUNT("zone_lock_decay_acquisitions",
	  "zone lock acquisitions by decay_pcp_high's drain (free_pcppages_bulk from "
	  "vmstat_update)"),
    COUNT("zone_lock_decay_contended", "of those, contended"),
    COUNT("zone_lock_free_acquisitions",
	  "zone lock acquisitions by the workload's free path over high (free_pcppages_bulk)"),
    COUNT("zone_lock_free_contended", "of those, contended"),
    COUNT("zone_lock_refill_acquisitions",
	  "zone lock acquisitions by the workload's refill (rmqueue_bulk)"),
    COUNT("zone_lock_refill_contended", "of those, contended"),
    COUNT("workload_ops", "workload page operations (allocations + frees)"),
    {"workload_ops_per_s", COL_METRIC, "per s", COL_HIGHER, "workload_ops / duration_s"},
    {"gaps_file", COL_CONTEXT, "file", COL_NOSIDE, "the gap histogram CSV beside this one"},
    {0},
};

/* The gap histogram side table (X-gaps.csv); its other columns are the harness's. */
const struct col_decl shepherd_gap_columns[] = {
    {"check", COL_CONFIG, "text", COL_NOSIDE, "the shepherd's check of the main row"},
    {"side_table", COL_CONTEXT, "text", COL_NOSIDE,
     "always gap_histogram: a side table, which compare and report skip in a result directory "
     "(and refuse by name)"},
    {"kind", COL_CONFIG, "text", COL_NOSIDE, "start_to_start or end_to_start gaps"},
    {"bin", COL_CONFIG, "index", COL_NOSIDE, "the bin, 0 to 7"},
    {"lo_ticks", COL_CONTEXT, "ticks", COL_NOSIDE, "the bin's lowest gap (inclusive)"},
    {"hi_ticks", COL_CONTEXT, "ticks", COL_NOSIDE,
     "the bin's highest gap (inclusive); NA for the open last bin"},
    {"count", COL_METRIC, "count", COL_NOSIDE, "gaps of that kind in the bin, all modelled CPUs"},
    {"below_min_legit", COL_CONTEXT, "0/1", COL_NOSIDE,
     "1 if the bin lies below min_legit_gap_ticks"},
    {"min_legit_gap_ticks", COL_CONTEXT, "ticks", COL_NOSIDE,
     "shortest gap a self re-arm can produce"},
    {"hz", COL_CONFIG, "ticks/s", COL_NOSIDE, "ticks per modelled second"},
    {"tick_us", COL_CONFIG, "us", COL_NOSIDE, "wall-clock microseconds per tick"},
    {0},
};

const struct col_side shepherd_sides[] = {
    {"gaps", "the gap histograms, a row per check, repetition, attempt, gap kind and bin",
     shepherd_gap_columns},
    {0},
};

/* The verdict (docs/validity.md, "The verdict"): seed 000: busy and atomic stop the re-queue,
 * so fewer runs per interval and 0-tick gaps; the zone lock figures and the queueing count
 * describe */
const char *const shepherd_verdict[] = { "runs_per_interval:lower", "short_gaps:lower", NULL };

/* The shepherd bench: round_jiffies arithmetic, the three checks stepped through fixed schedules,
 * the statistics on made-up run records, a long atomic run, and bad input through the real binary.
 */
#include "benches/shepherd/jiffies.h"
#include "benches/shepherd/run.h"
#include "harness/bench.h"
#include "lib/csvread.h"
#include "tests/testutil.h"
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- round_jiffies_relative, against values worked out by hand from kernel/time/timer.c ---- */

static void test_round_jiffies_hand_values(void **state)
{
	(void)state;
	/* HZ 1000, CPU 0: 1000+now rounds down while rem < 250, else up */
	assert_int_equal(sw_round_jiffies_relative(1000, 0, 1000, 0), 1000);   /* j=1000, rem 0 */
	assert_int_equal(sw_round_jiffies_relative(1000, 0, 1000, 100), 900);  /* j=1100 -> 1000 */
	assert_int_equal(sw_round_jiffies_relative(1000, 0, 1000, 249),
			 751); /* j=1249 -> 1000: the minimum */
	assert_int_equal(sw_round_jiffies_relative(1000, 0, 1000, 250), 1750); /* j=1250 -> 2000 */
	assert_int_equal(sw_round_jiffies_relative(1000, 0, 1000, 999), 1001); /* j=1999 -> 2000 */
	/* skew: CPU 1 lands 3 ticks before the second, CPU 100 is pushed over the quarter */
	assert_int_equal(sw_round_jiffies_relative(1000, 1, 1000, 0), 997);  /* 1003 -> 1000, -3 */
	assert_int_equal(sw_round_jiffies_relative(1000, 100, 1000, 0),
			 1700); /* 1300 -> 2000, -300 */
	/* HZ 250, CPU 2: j=260, +6=266, rem 16 < 62 -> 250, -6 = 244 -> 234 from now=10 */
	assert_int_equal(sw_round_jiffies_relative(250, 2, 250, 10), 234);
	/* never into the past: j=1010 rounds to 1000 = now, so the unrounded value stays */
	assert_int_equal(sw_round_jiffies_relative(10, 0, 1000, 1000), 10);
	assert_int_equal(sw_round_jiffies_relative(10, 0, 1000, 500),
			 500); /* 510 rounds up to 1000 */
	assert_int_equal(sw_round_jiffies_common(1249, 0, 1000, 0), 1000);
	assert_int_equal(sw_min_legit_gap(1000, 1000), 751);
	assert_int_equal(sw_min_legit_gap(250, 250), 189);
	assert_int_equal(sw_min_legit_gap(2000, 1000), 1751);
}

/* Every re-arm of a one-second interval lands on a skewed second boundary, never under HZ-HZ/4+1.
 */
static void test_round_jiffies_bounds(void **state)
{
	(void)state;
	for (long now = 0; now < 3000; now++)
		for (int cpu = 0; cpu < 8; cpu++) {
			long d = sw_round_jiffies_relative(1000, cpu, 1000, now);
			assert_in_range(d, 751, 1750);
			assert_int_equal((now + d + 3 * cpu) % 1000, 0);
		}
}

static void test_gap_edges(void **state)
{
	long e[SW_BINS];
	(void)state;
	sw_gap_edges(1000, 1000, e);
	long want[SW_BINS] = { 0, 1, 10, 100, 500, 751, 1001, 1501 };
	assert_memory_equal(e, want, sizeof(want));
	sw_gap_edges(100, 100, e); /* HZ/10 == 10 would repeat an edge: bumped by one */
	long want100[SW_BINS] = { 0, 1, 10, 11, 50, 76, 101, 151 };
	assert_memory_equal(e, want100, sizeof(want100));
	assert_int_equal(sw_gap_bin(want, 0), 0);
	assert_int_equal(sw_gap_bin(want, 9), 1);
	assert_int_equal(sw_gap_bin(want, 750), 4);
	assert_int_equal(sw_gap_bin(want, 751), 5);
	assert_int_equal(sw_gap_bin(want, 99999), 7);
}

/* ---- the checks, stepped through by hand: one thread, explicit ticks, no timing ---- */

static struct sw_model *model(int check)
{
	struct sw_params p = {.check = check,
			      .ncpus = 2,
			      .hz = 1000,
			      .interval = 1000,
			      .tick_ns = 250000,
			      .nzones = 3,
			      .threshold = 32,
			      .pcp_batch = 63,
			      .no_yield = 1};
	return sw_model_new(&p, 0);
}

/* The timer of CPU c fires at `now` and the kworker starts vmstat_update (PENDING cleared). */
static void start_run(struct sw_model *m, int c, long now)
{
	m->cpu[c].expires = now;
	assert_int_equal(sw_process_begin(m, c, now), 1);
	if (m->p.check == SW_CHECK_ATOMIC)
		assert_int_equal(m->cpu[c].state, SW_RUNNING);
	else
		assert_int_equal(sw_delayed_work_pending(m, c), 0);
	sw_mod_state(m, c, 1, 3, 1); /* a later zone still dirty: need_update() is true mid-run */
	assert_true(sw_need_update(m, c));
}

/* The bug: PENDING is clear while the work runs, so the shepherd queues it behind itself. */
static void test_pending_queues_running_work(void **state)
{
	(void)state;
	struct sw_model *m = model(SW_CHECK_PENDING);
	start_run(m, 1, 1000);
	assert_int_equal(sw_shepherd_visit(m, 1, 1002), 2);
	assert_int_equal(m->shep.queued_while_running, 1);
	sw_rearm(m, 1, 1010); /* the run's own re-arm finds PENDING set: no timer */
	assert_int_equal(m->cpu[1].rearm_failed, 1);
	assert_int_equal(m->cpu[1].expires, 0);
	sw_process_end(m, 1, 1010);
	assert_int_equal(sw_process_begin(m, 1, 1010), 1); /* back to back, 0 ticks after the end */
	assert_int_equal(m->cpu[1].runs[1].why, SW_WHY_QUEUED_RUNNING);
	assert_int_equal(m->cpu[1].runs[1].start - m->cpu[1].runs[0].end, 0);
	sw_rearm(m, 1, 1011); /* the second run arms the timer for the next second */
	sw_process_end(m, 1, 1011);
	assert_int_equal(m->cpu[1].expires, 1997);
	sw_model_free(m);
}

/* The fix: at every step where RUNNING or PENDING is visible, the shepherd does not queue. */
static void test_busy_never_queues_running_work(void **state)
{
	(void)state;
	struct sw_model *m = model(SW_CHECK_BUSY);
	start_run(m, 1, 1000);
	for (long t = 1000; t < 1010; t++)
		assert_int_equal(sw_shepherd_visit(m, 1, t), 0);
	assert_int_equal(sw_work_busy(m, 1), 2); /* RUNNING only: PENDING is clear */
	sw_rearm(m, 1, 1010);
	assert_int_equal(sw_work_busy(m, 1), 3);
	assert_int_equal(sw_shepherd_visit(m, 1, 1010), 0);
	sw_process_end(m, 1, 1010);
	assert_int_equal(sw_work_busy(m, 1), 1); /* timer armed */
	assert_int_equal(sw_shepherd_visit(m, 1, 1011), 0);
	assert_int_equal(m->shep.queues, 0);
	assert_int_equal(m->shep.queued_while_running, 0);
	assert_int_equal(m->shep.skipped_busy, 12);
	assert_int_equal(m->cpu[1].rearm_failed, 0);
	sw_model_free(m);
}

/* Busy still restarts a CPU that went quiet (no re-arm) once its counters are dirty again. */
static void test_busy_restarts_idle_work(void **state)
{
	(void)state;
	struct sw_model *m = model(SW_CHECK_BUSY);
	start_run(m, 0, 1000);
	sw_process_end(m, 0, 1004); /* nothing changed: no re-arm, the work is idle */
	assert_int_equal(sw_work_busy(m, 0), 0);
	for (int i = 0; i < SW_ITEMS; i++) /* clean counters: nothing to do */
		for (int z = 0; z < 3; z++)
			m->cpu[0].diff[z][i] = 0;
	memset(m->cpu[0].node_diff, 0, sizeof(m->cpu[0].node_diff));
	assert_int_equal(sw_shepherd_visit(m, 0, 1100), 0);
	assert_int_equal(m->shep.skipped_clean, 1);
	sw_mod_state(m, 0, 0, 0, 1);
	assert_int_equal(sw_shepherd_visit(m, 0, 1200), 1);
	assert_int_equal(m->shep.queued_while_idle, 1);
	assert_int_equal(sw_process_begin(m, 0, 1200), 1);
	assert_int_equal(m->cpu[0].runs[1].why, SW_WHY_QUEUED_IDLE);
	sw_model_free(m);
}

/* The state word: RUNNING and PENDING both refuse the queue; IDLE takes it, exactly once. */
static void test_atomic_state_word(void **state)
{
	(void)state;
	struct sw_model *m = model(SW_CHECK_ATOMIC);
	assert_int_equal(m->cpu[0].state, SW_STATE_PENDING); /* armed at start */
	assert_int_equal(sw_shepherd_visit(m, 0, 10), 0);
	start_run(m, 0, 1000);
	assert_int_equal(m->cpu[0].state, SW_RUNNING);
	assert_int_equal(sw_shepherd_visit(m, 0, 1001), 0);
	sw_rearm(m, 0, 1005);
	assert_int_equal(sw_shepherd_visit(m, 0, 1005), 0); /* still RUNNING until the run ends */
	sw_process_end(m, 0, 1005);
	assert_int_equal(m->cpu[0].state, SW_STATE_PENDING);
	assert_int_equal(m->cpu[0].expires, 2000);
	assert_int_equal(sw_shepherd_visit(m, 0, 1006), 0);
	/* a run without re-arm leaves it IDLE: one visit queues, the next finds it PENDING */
	start_run(m, 0, 2000);
	sw_process_end(m, 0, 2003);
	assert_int_equal(m->cpu[0].state, SW_IDLE);
	assert_int_equal(sw_shepherd_visit(m, 0, 2100), 1);
	assert_int_equal(sw_shepherd_visit(m, 0, 2101), 0);
	assert_int_equal(m->shep.queues, 1);
	assert_int_equal(m->shep.queued_while_running, 0);
	sw_model_free(m);
}

/* ---- statistics on made-up records ---- */

static void test_collect_counts_intervals_and_gaps(void **state)
{
	(void)state;
	struct sw_model *m = model(SW_CHECK_PENDING);
	struct sw_result r;
	struct sw_cpu *w = &m->cpu[0];
	m->p.ncpus = 1;
	w->cap = 8;
	w->runs = calloc(w->cap, sizeof(*w->runs));
	struct sw_runrec recs[] = {{1000, 1020, SW_WHY_TIMER},
				   {2000, 2030, SW_WHY_TIMER},
				   {2030, 2031, SW_WHY_QUEUED_RUNNING},
				   {3000, 3010, SW_WHY_TIMER}};
	memcpy(w->runs, recs, sizeof(recs));
	w->nruns = 4;
	sw_collect(m, 500, 3600, &r); /* whole intervals: [1000,2000) and [2000,3000) */
	assert_int_equal(r.full_intervals, 2);
	assert_int_equal(r.runs_in_full, 3);
	assert_int_equal(r.double_intervals, 1);
	assert_int_equal(r.runs, 4);
	assert_int_equal(r.back_to_back, 1);
	assert_int_equal(r.gaps[SW_GAP_START], 3);
	assert_int_equal(r.short_gaps[SW_GAP_START], 1);
	assert_int_equal(r.min_gap[SW_GAP_START], 30);
	assert_int_equal(r.min_gap[SW_GAP_END], 0);
	assert_int_equal(r.hist[SW_GAP_END][0], 1);   /* the double run: 0 ticks after the end */
	assert_int_equal(r.hist[SW_GAP_START][5], 2); /* 1000 and 970 */
	assert_int_equal(r.cpus_with_short_gaps, 1);
	assert_int_equal(r.run_ticks_max, 30);
	m->p.ncpus = 2;
	sw_model_free(m);
}

/* ---- the threaded model: an invariant, not a measurement. With the atomic state word a double run
 * cannot happen by construction (queue and run are one compare-and-swap); 0 double runs over
 * hundreds of intervals checks the construction holds under real threads. The pending/busy counts
 * are the measurements. ---- */

static void test_atomic_long_run_no_double_runs(void **state)
{
	(void)state;
	struct topo t;
	struct plan *plan = calloc(1, sizeof(*plan));
	struct sw_result r;
	char err[ERRLEN];
	assert_int_equal(topo_load(&t, NULL, err), 0);
	/* 20 us ticks: a modelled second is 20 ms, so 2.5 s is over 100 intervals per CPU */
	struct sw_params p = { .check = SW_CHECK_ATOMIC,
			       .ncpus = 4,
			       .hz = 1000,
			       .interval = 1000,
			       .tick_ns = 20000,
			       .nzones = 3,
			       .threshold = 32,
			       .pcp_batch = 63,
			       .zone_work_ns = 20000,
			       .op_ns = 200 };
	assert_int_equal(sw_plan(&t, p.ncpus, plan, err), 0);
	struct sw_model *m = sw_model_new(&p, 0);
	assert_int_equal(sw_run(m, &t, plan, 0.1, 2.5, NULL, &r, err), 0);
	/* The subject is that no interval runs twice, on whatever ran: a loaded machine gives
	 * fewer runs than the 2.5 s allow, which is noted, not failed */
	assert_true(r.runs > 0);
	if (r.runs <= 20 || r.shep.passes <= 10)
		print_message("only %ld run(s) in %ld shepherd pass(es): a loaded machine; the "
			      "invariants below are checked on those\n",
			      (long)r.runs, (long)r.shep.passes);
	assert_int_equal(r.back_to_back, 0);
	assert_int_equal(r.shep.queued_while_running, 0);
	assert_int_equal(r.short_gaps[SW_GAP_START], 0);
	assert_int_equal(r.short_gaps[SW_GAP_END], 0);
	assert_int_equal(r.double_intervals, 0);
	/* -1: a single run, no gap */
	assert_true(r.min_gap[SW_GAP_START] >= 751 || r.min_gap[SW_GAP_START] == -1);
	sw_model_free(m);
	free(plan);
	topo_free(&t);
}

/* ---- the real binary ---- */

static void expect_bad(const char *opt, const char *val, const char *needle)
{
	struct cmd_result r;
	char *dir = temp_dir(), out[512];
	snprintf(out, sizeof(out), "%s/x.csv", dir);
	run_c2c(&r, "run", "shepherd", opt, val, "--out", out, "--duration", "0.1",
		"--max-attempts", "1", "--reps", "1", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, opt));
	assert_non_null(strstr(r.err, needle));
	assert_false(file_exists(out));
	rm_rf(dir);
	free(dir);
}

static void test_bad_input_exits_2(void **state)
{
	(void)state;
	expect_bad("--check", "bogus", "accepted");
	expect_bad("--check", "pending,pending", "accepted");
	expect_bad("--check", "", "accepted");
	expect_bad("--tick-us", "0", "accepted");
	expect_bad("--tick-us", "-250", "accepted");
	expect_bad("--tick-us", "5", "accepted");
	expect_bad("--hz", "0", "accepted");
	expect_bad("--hz", "-1000", "accepted");
	expect_bad("--hz", "50", "accepted");
	expect_bad("--cpus", "0", "accepted");
	expect_bad("--cpus", "-2", "accepted");
	expect_bad("--cpus", "100000", "accepted");
	expect_bad("--interval", "0", "accepted");
	expect_bad("--zones", "9", "accepted");
	expect_bad("--placement", "spread", "places its own threads");
}

static void test_run_writes_rows_and_histogram(void **state)
{
	(void)state;
	struct cmd_result r;
	char *dir = temp_dir(), out[512], gaps[512];
	snprintf(out, sizeof(out), "%s/s.csv", dir);
	snprintf(gaps, sizeof(gaps), "%s/s-gaps.csv", dir);
	run_c2c(&r, "run", "shepherd", "--check", "atomic,pending", "--cpus", "2", "--tick-us",
		"20", "--duration", "0.5", "--warmup", "0.1", "--max-attempts", "1", LENIENT,
		"--reps", "1", "--threshold", "40", "--out", out, NULL);
	if (!RAN(r.status)) /* 4: on a loaded host both attempts may be invalid */
		fail_msg("exit %d: %s", r.status, r.err);
	assert_non_null(strstr(r.out, "runs_per_interval"));
	assert_non_null(strstr(r.out, "ratio of medians to 'atomic'"));
	char *csv = slurp(out), *hist = slurp(gaps);
	assert_non_null(csv);
	assert_int_equal(count_lines(csv), 3);
	assert_non_null(strstr(csv, "check,rep,attempt,valid,invalid_reason,cpus_requested,cpus,"));
	struct table t;
	csv_load(&t, out);
	assert_string_equal(csv_cell(&t, 0, "cpus_requested"), "2"); /* --cpus 2 as given */
	assert_string_equal(csv_cell(&t, 0, "cpus"), "2");
	/* each attempt that measured has its histograms, with its validity; one whose workload
	 * threads shared no tick (a loaded host) is invalid, its counts NA with the reason */
	int with = 0, valid = 0;
	char want[2][96];
	for (long i = 0; i < t.nrows; i++) {
		const char *v = csv_cell(&t, i, "valid"), *check = csv_cell(&t, i, "check");
		valid += !strcmp(v, "yes");
		if (!strcmp(csv_cell(&t, i, "gaps_file"), "NA")) {
			assert_string_equal(v, "no");
			assert_string_equal(csv_cell(&t, i, "short_gaps"), "NA");
			assert_non_null(
				strstr(csv_cell(&t, i, "na_reason"),
				       "short_gaps: no whole tick common to the workload threads"));
			continue;
		}
		with++;
		int k = !strcmp(check, "atomic");
		if (k)
			snprintf(want[k], sizeof(want[k]),
				 "atomic,0,1,%s,gap_histogram,start_to_start,5,751,1000,", v);
		else
			snprintf(want[k], sizeof(want[k]),
				 "pending,0,1,%s,gap_histogram,end_to_start,0,0,0,", v);
		if (!strstr(hist ? hist : "", want[k]))
			fail_msg("no '%s' in %s", want[k], gaps);
	}
	table_free(&t);
	/* the summary says which of its figures are the OS's (README: "... the OS, not the CPU") */
	if (valid)
		assert_non_null(strstr(r.out, "\nOS, not CPU: runs_per_interval and short_gaps "
					      "follow sched_yield()"));
	if (!with) { /* nothing measured: no side table, nothing more to check here */
		assert_null(hist);
		free(csv);
		rm_rf(dir);
		free(dir);
		return;
	}
	assert_int_equal(count_lines(hist), 1 + with * 2 * SW_BINS);
	assert_non_null(strstr(csv, ",short_gaps,"));
	assert_non_null(strstr(csv, ",zone_lock_wait_max_ns,"));
	assert_non_null(strstr(csv, ",yield,threshold,pcp_batch,"));
	assert_non_null(strstr(csv, ",1,40,63,")); /* yield, --threshold 40, the default batch */
	int declared = 0; /* configuration columns: compare never joins runs with other settings */
	for (const char *const *k = bench_find("shepherd")->config; *k; k++)
		declared += !strcmp(*k, "threshold") || !strcmp(*k, "pcp_batch");
	assert_int_equal(declared, 2);
	assert_non_null(strstr(hist,
			       "check,rep,attempt,valid,side_table,kind,bin,lo_ticks,hi_ticks,"
			       "count"));
	/* the side table's declaration beside it (X-gaps.columns), as the main CSV's */
	char decl[520];
	snprintf(decl, sizeof(decl), "%s/s-gaps.columns", dir);
	char *gd = slurp(decl);
	assert_non_null(gd);
	int ncols = 1; /* one line per column of the histogram's header, after its own header */
	for (const char *p = hist; *p && *p != '\n'; p++)
		ncols += *p == ',';
	assert_int_equal(count_lines(gd), 1 + ncols);
	assert_non_null(strstr(gd, "\nside_table,side_table,context,"));
	free(gd);
	run_c2c(&r, "compare", gaps, gaps, NULL); /* a side table is refused by name... */
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "a side table"));
	run_c2c(&r, "compare", dir, dir,
		NULL); /* ...and skipped in a directory: only the main rows join */
	assert_int_equal(r.status, 0);
	assert_null(strstr(r.out, "only in"));
	free(csv);
	free(hist);
	rm_rf(dir);
	free(dir);
}

/* The histogram file is never overwritten: the run stops, and no empty main CSV is left. */
static void test_existing_histogram_refused(void **state)
{
	(void)state;
	struct cmd_result r;
	char *dir = temp_dir(), out[512], gaps[512];
	snprintf(out, sizeof(out), "%s/s.csv", dir);
	snprintf(gaps, sizeof(gaps), "%s/s-gaps.csv", dir);
	FILE *f = fopen(gaps, "w");
	assert_non_null(f);
	fclose(f);
	run_c2c(&r, "run", "shepherd", "--check", "busy", "--tick-us", "20", "--duration", "0.2",
		"--warmup", "0.05", "--max-attempts", "1", "--reps", "1", "--out", out, NULL);
	assert_int_not_equal(r.status, 0);
	assert_non_null(strstr(r.err, "s-gaps.csv"));
	assert_false(file_exists(out));
	rm_rf(dir);
	free(dir);
}

/* Without --cpus: cpus_requested all (what compare joins on), cpus every allowed CPU (shown
 * beside the numbers), and the bench description beside the CSV says so. */
static void test_default_cpus_is_all(void **state)
{
	(void)state;
	struct cmd_result r;
	char *dir = temp_dir(), out[512], desc[520], want[32];
	cpu_set_t set;
	assert_int_equal(sched_getaffinity(0, sizeof(set), &set), 0);
	snprintf(out, sizeof(out), "%s/s.csv", dir);
	snprintf(desc, sizeof(desc), "%s/s.bench", dir);
	run_c2c(&r, "run", "shepherd", "--check", "busy", "--tick-us", "20", "--duration", "0.5",
		"--warmup", "0.1", "--max-attempts", "1", LENIENT, "--reps", "1", "--out", out,
		NULL);
	if (!RAN(r.status)) /* 4: its attempt invalid (a loaded host); the columns are the same */
		fail_msg("%s", r.err);
	struct table t;
	csv_load(&t, out);
	assert_string_equal(csv_cell(&t, 0, "cpus_requested"), "all");
	snprintf(want, sizeof(want), "%d", CPU_COUNT(&set));
	assert_string_equal(csv_cell(&t, 0, "cpus"), want);
	table_free(&t);
	char *d = slurp(desc);
	assert_non_null(d);
	assert_non_null(strstr(d, "config = cpus_requested\n"));
	assert_null(strstr(d, "config = cpus\n"));
	assert_non_null(strstr(d, "[resolved]\nrequested = cpus_requested\nresolved = cpus\n"));
	free(d);
	rm_rf(dir);
	free(dir);
}

/* A window shorter than one tick holds no tick common to the workload threads (as a loaded host's
 * late threads do): not an error (exit 1 before), but invalid attempts under rule ops, every count
 * NA with the reason, no histogram, exit 4; even under LENIENT. */
static void test_no_common_tick_is_invalid_not_fatal(void **state)
{
	(void)state;
	struct cmd_result r;
	char *dir = temp_dir(), out[512], gaps[512];
	snprintf(out, sizeof(out), "%s/s.csv", dir);
	snprintf(gaps, sizeof(gaps), "%s/s-gaps.csv", dir);
	run_c2c(&r, "run", "shepherd", "--check", "atomic", "--cpus", "2", "--tick-us", "1000000",
		"--duration", "0.02", "--warmup", "0.01", "--max-attempts", "1", LENIENT, "--reps",
		"1", "--out", out, NULL);
	if (r.status != 4)
		fail_msg("exit %d: %s", r.status, r.err);
	assert_string_equal(check_measured_nothing(r.err, out, "check atomic"), "ops");
	struct table t;
	csv_load(&t, out);
	assert_int_equal(t.nrows, 1);
	assert_string_equal(csv_cell(&t, 0, "invalid_reason"),
			    "ops: no whole tick common to the workload threads' windows");
	const char *na[] = { "runs_per_interval", "short_gaps", "workload_ops_per_s", "gaps_file" };
	for (size_t i = 0; i < sizeof(na) / sizeof(na[0]); i++) {
		char why[96];
		assert_string_equal(csv_cell(&t, 0, na[i]), "NA");
		snprintf(why, sizeof(why), "%s: ", na[i]);
		assert_non_null(strstr(csv_cell(&t, 0, "na_reason"), why));
	}
	table_free(&t);
	assert_false(file_exists(gaps));
	rm_rf(dir);
	free(dir);
}

static void test_dry_run_shows_threads(void **state)
{
	(void)state;
	struct cmd_result r;
	run_c2c(&r, "run", "shepherd", "--cpus", "3", "--dry-run", NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "check: pending busy atomic"));
	assert_non_null(strstr(r.out, "kworker    2"));
	assert_non_null(strstr(r.out, "workload   2"));
	assert_non_null(strstr(r.out, "shepherd   0"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_jiffies_hand_values),
		cmocka_unit_test(test_round_jiffies_bounds),
		cmocka_unit_test(test_gap_edges),
		cmocka_unit_test(test_pending_queues_running_work),
		cmocka_unit_test(test_busy_never_queues_running_work),
		cmocka_unit_test(test_busy_restarts_idle_work),
		cmocka_unit_test(test_atomic_state_word),
		cmocka_unit_test(test_collect_counts_intervals_and_gaps),
		cmocka_unit_test(test_atomic_long_run_no_double_runs),
		cmocka_unit_test(test_bad_input_exits_2),
		cmocka_unit_test(test_run_writes_rows_and_histogram),
		cmocka_unit_test(test_no_common_tick_is_invalid_not_fatal),
		cmocka_unit_test(test_existing_histogram_refused),
		cmocka_unit_test(test_dry_run_shows_threads),
		cmocka_unit_test(test_default_cpus_is_all),
	};
	return cmocka_run_group_tests_name("shepherd", tests, NULL, NULL);
}

/* The vmstat shepherd model (seed 000): per-CPU delayed work, worker pools, vmstat_update, the
 * shepherd. The workqueue side (PENDING bit, pool lock, current-work marker, the three shepherd
 * checks) is driven by explicit calls with an explicit tick, so a test can step through any
 * schedule one call at a time; shepherd_run.c puts threads on top of it. */
#ifndef C2C_SHEPHERD_MODEL_H
#define C2C_SHEPHERD_MODEL_H
#include "lib/util.h"
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define SW_ZONES_MAX 8
#define SW_ITEMS 16 /* vm_stat_diff items per zone (and node items) */
#define SW_WORK_PENDING 1UL /* WORK_STRUCT_PENDING_BIT in work->data */
#define SW_PCP_BATCH_SCALE_MAX 5 /* CONFIG_PCP_BATCH_SCALE_MAX default */

/* What the shepherd asks before queueing: the bug, the fix, and a race-free state word. */
enum sw_check { SW_CHECK_PENDING, SW_CHECK_BUSY, SW_CHECK_ATOMIC };
#define SW_CHECK_NAMES "pending,busy,atomic"
/* The state word of --check atomic: every transition is one compare-and-swap or a store by its
 * owner. */
enum sw_state { SW_IDLE, SW_STATE_PENDING, SW_RUNNING };
/* Why a run started. */
enum sw_why { SW_WHY_TIMER, SW_WHY_QUEUED_IDLE, SW_WHY_QUEUED_RUNNING };
/* zone->lock call sites: decay_pcp_high's drain, the workload's free and refill. */
enum sw_site { SW_SITE_DECAY, SW_SITE_FREE, SW_SITE_REFILL, SW_NSITES };

struct sw_lockstat {
	uint64_t acquisitions, contended, wait_ns, wait_max_ns;
};

/* A zone: the shared lock that free_pcppages_bulk and rmqueue_bulk take, and its counters. */
struct sw_zone {
	pthread_mutex_t lock;
	long free_pages;
	struct sw_lockstat st[SW_NSITES]; /* updated with the lock held */
	long vm_stat[SW_ITEMS];           /* atomic adds */
} C2C_ALIGNED;

struct sw_pcp {
	int count, high, high_min, high_max, batch;
};

struct sw_runrec {
	long start, end; /* ticks */
	int why;
};

/* One modelled CPU. Each block is written by a different party, so they do not false-share. */
struct sw_cpu {
	/* the delayed work (vmstat_work): PENDING bit, and the state word of --check atomic */
	C2C_ALIGNED unsigned long data;
	int state;
	/* the per-CPU worker pool: lock, worklist (queued), busy_hash (running), the timer
	 * (expires) */
	C2C_ALIGNED pthread_mutex_t pool_lock;
	pthread_cond_t pool_cv;
	int queued, running, queued_while_running, timer_fired;
	long expires;        /* 0: no timer armed */
	long rearm_expires; /* --check atomic: the re-arm the running work asked for, applied at its
			       end */
	pthread_mutex_t
	    exec; /* concurrency management: one work item executes on a bound pool at a time */
	/* vm_stat_diff and vm_node_stat_diff: dirtied by the workload, zeroed by vmstat_update */
	C2C_ALIGNED int8_t diff[SW_ZONES_MAX][SW_ITEMS];
	int8_t node_diff[SW_ITEMS];
	/* per-CPU page sets, under their own lock (pcp_spin_lock) */
	C2C_ALIGNED pthread_mutex_t pcp_lock;
	struct sw_pcp pcp[SW_ZONES_MAX];
	/* kworker-owned: every run, the failed re-arms */
	C2C_ALIGNED struct sw_runrec *runs;
	size_t nruns, cap;
	uint64_t zone_work_iters; /* calibrated by the kworker on its CPU */
	uint64_t rearm_failed, decays;
	/* workload-owned */
	C2C_ALIGNED uint64_t ops;
	uint64_t rng;
	uint64_t op_iters; /* calibrated by the workload on its CPU */
};

/* What the shepherd did (its own block: one thread writes it). */
struct sw_shepstat {
	uint64_t passes, visits, skipped_busy, skipped_clean, queues, queued_while_running,
	    queued_while_idle, lost_races;
} C2C_ALIGNED;

struct sw_params {
	int check;          /* enum sw_check */
	int ncpus;          /* modelled CPUs */
	int shepherd_cpu;   /* modelled CPU whose pool the shepherd runs on */
	long hz;            /* ticks per second */
	long interval;      /* stat_interval in ticks (a whole number of seconds) */
	long tick_ns;       /* one tick of wall clock */
	int nzones;
	int threshold;      /* per-CPU diff fold threshold */
	int pcp_batch;
	long zone_work_ns;  /* CPU work per zone in vmstat_update */
	long op_ns;         /* private work per workload operation */
	int no_yield;       /* cond_resched() is a no-op */
};

struct sw_model {
	struct sw_params p;
	C2C_ALIGNED const volatile int
	    *phase;        /* the harness run phase (atomic pointer); NULL: always measuring */
	uint64_t base_ns;  /* tick 0 */
	struct sw_cpu *cpu;
	struct sw_zone *zone;
	struct sw_shepstat shep;
};

/* Allocate and initialise: every work armed as in steady state (round_jiffies_relative(interval)).
 */
struct sw_model *sw_model_new(const struct sw_params *p, long now);
/* The same, built (allocated, zeroed, initialised) by a thread pinned on cpu, the first worker's,
 * so that no other core holds its lines first; *touch: the CPU it was built on, -1 when no thread
 * could be pinned there (then the caller built it). */
struct sw_model *sw_model_new_on(const struct sw_params *p, long now, int cpu, int *touch);
void sw_model_free(struct sw_model *m);
long sw_now_tick(const struct sw_model *m);
int sw_measuring(const struct sw_model *m);

/* delayed_work_pending(): the PENDING bit, a plain load. */
int sw_delayed_work_pending(struct sw_model *m, int c);
/* work_busy(): PENDING, then RUNNING under the pool lock (two separate looks: racy by design). */
int sw_work_busy(struct sw_model *m, int c);
/* __queue_work(): onto the worklist, the kworker woken; for one who set PENDING. Return 2 if the
 * work was running at that moment, else 1. */
int sw_queue_work(struct sw_model *m, int c);
/* queue_delayed_work_on(c, delay): test_and_set PENDING; if it was clear, queue now (delay 0) or
 * arm the timer. Return 0 if PENDING was already set, 2 if queued onto a running work, else 1. */
int sw_queue_delayed_work_on(struct sw_model *m, int c, long delay, long now);
/* The shepherd's visit of CPU c with the model's check: 0 (not queued), 1 (queued an idle work) or
 * 2 (queued a work that was running: a back-to-back double run follows). */
int sw_shepherd_visit(struct sw_model *m, int c, long now);
/* delayed_work_timer_fn when the timer is due (pool lock held by the caller): return 1 if it fired.
 */
int sw_timer_due_locked(struct sw_model *m, int c, long now);
/* process_one_work, before and after the function: under the pool lock, take the work off the list,
 * mark it running and clear PENDING (atomic: PENDING -> RUNNING); return 0 if nothing was queued.
 */
int sw_process_begin(struct sw_model *m, int c, long now);
void sw_process_end(struct sw_model *m, int c, long now);
/* vmstat_update's re-arm: queue_delayed_work_on(c, round_jiffies_relative(interval)). */
void sw_rearm(struct sw_model *m, int c, long now);

/* The work function and its helpers (shepherd_vmstat.c). */
int sw_need_update(struct sw_model *m, int c);
/* vmstat_update(); returns the tick it ended on. */
long sw_vmstat_update(struct sw_model *m, int c);
void sw_mod_state(struct sw_model *m, int c, int z, int item, int delta);
void sw_pcp_alloc(struct sw_model *m, int c, int z);
void sw_pcp_free(struct sw_model *m, int c, int z);
int sw_decay_pcp_high(struct sw_model *m, int c, int z);
void sw_zone_lock(struct sw_model *m, int z, int site);
void sw_zone_unlock(struct sw_model *m, int z);
/* One burst of the workload: allocate a random number of pages from one zone, then free them. */
void sw_workload_burst(struct sw_model *m, int c);
#endif

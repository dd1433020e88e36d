/* Run control: create, bind and verify threads, start them together, warm up, measure, stop. */
#ifndef C2C_THREADS_H
#define C2C_THREADS_H
#include "harness/placement.h"
#include "harness/topo.h"
#include "lib/util.h"
#include <pthread.h>
#include <stdint.h>

enum phase { PHASE_WARMUP, PHASE_MEASURE, PHASE_STOP };

struct thr;

/* Optional per-thread hooks (the counters module uses them); called outside the hot loop. */
struct thr_hooks {
	int (*thread_init)(struct thr *t, void *arg);
	void (*measure_begin)(struct thr *t, void *arg);
	void (*measure_end)(struct thr *t, void *arg);
	void (*thread_fini)(struct thr *t, void *arg);
	void *arg;
};

/* Each thread's record is a block of its own: the harness never false-shares with itself. */
struct thr {
	int role, idx, want_cpu, got_cpu, got_cpu_end;
	char bind_err[160];
	uint64_t ops;        /* operations in the measured phase */
	uint64_t t0, t1;     /* measured phase, as this thread saw it */
	/* Evidence that it ran (harness/evidence.h), taken by the thread itself around its window
	 */
	uint64_t cpu_ns0, cpu_ns1; /* CLOCK_THREAD_CPUTIME_ID at t0 and t1 */
	long vcsw0, vcsw1, ivcsw0,
	    ivcsw1;                /* getrusage(RUSAGE_THREAD) context switches at t0 and t1 */
	int cpu_start, measured;   /* CPU at t0; 1 once t1 is taken */
	int no_hooks; /* set by threads_start's caller: the run's hooks are not this thread's */
	double steal_ns;     /* steal of want_cpu over the window (/proc/stat), < 0: not known */
	uint64_t work_iters; /* calibrated private work per operation, measured on this thread */
	double work_ns_achieved; /* what that work took on this thread, checked after the window (0:
				    none) */
	uint64_t stat[8];    /* bench-defined tallies */
	void *bench;         /* bench-private per-thread state */
	void *hook_state;    /* owned by the hooks */
	struct runctl *ctl;
	pthread_t tid;
} C2C_ALIGNED;

/* A start barrier that can be called off: if a thread cannot be created, the ones already waiting
 * are released (gate_wait returns -1) instead of waiting forever for one that will never come. */
struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned need, arrived, gen;
	int off;
};
void gate_init(struct gate *g, unsigned n);
/* Wait until n threads arrived (0; reusable), or until the gate is called off (-1). */
int gate_wait(struct gate *g);
void gate_off(struct gate *g);
void gate_destroy(struct gate *g);
/* pthread_create's failure as one line naming what could not start (it returns the error, not
 * errno). */
int thread_start_error(int e, const char *what, char *err);

struct runctl {
	C2C_ALIGNED volatile int phase; /* read every batch by every thread: alone on its block */
	C2C_ALIGNED struct gate start;
	C2C_ALIGNED const struct topo *topo;
	void (*prologue)(struct thr *t, void *arg);
	void (*body)(struct thr *t, void *arg);
	void *arg;
	const struct thr_hooks *hooks;
};

static inline int run_phase(const struct runctl *c)
{
	return __atomic_load_n(&c->phase, __ATOMIC_ACQUIRE);
}

/* A batch of operations; returns how many it did. */
typedef uint64_t (*batch_fn)(struct thr *t, void *arg);

/* The common body: batches until warm-up ends, then count ops and time until stop. */
void thr_drive(struct thr *t, batch_fn fn, void *arg);
/* For benches with their own loops: mark the measured phase (records time, calls hooks). */
void thr_measure_begin(struct thr *t);
void thr_measure_end(struct thr *t);
/* The same evidence without the hooks, for threads that call their hooks themselves. */
void thr_evidence_begin(struct thr *t);
void thr_evidence_end(struct thr *t);

/* Bind the calling thread to one PU with hwloc and check where it runs; 0 or -1 with message. */
int bind_self(const struct topo *topo, int cpu, int *got, char *err);
/* pthread_join for the controlling thread: it wakes once a second to redraw the progress line
 * (progress_tick), never more, so the measured threads see a sleeping waiter. */
void join_ticking(pthread_t t);

/* Run one thread per plan slot (thr[i] gets slot i); body runs after the start barrier.
 * Returns 0, or -1 with a message if any thread could not be bound (nothing is measured then). */
int threads_run(const struct topo *topo, const struct plan *p, struct thr *thr, double warmup_s,
		double duration_s, void (*body)(struct thr *, void *), void *arg,
		const struct thr_hooks *hooks, char *err);

/* How threads_start runs its threads. */
struct thr_how {
	double warmup_s, duration_s; /* the window the caller's thread times */
	/* 1: no window: the threads measure from the start (PHASE_MEASURE), each body marks its
	 * own window and returns at its count (pingpong's samples); the caller waits, redrawing
	 * the progress line, and warmup_s and duration_s are not used */
	int counted;
	/* optional: on each thread once bound, before the start barrier (pingpong's first touch) */
	void (*prologue)(struct thr *t, void *arg);
	void (*body)(struct thr *t, void *arg);
	void *arg;
	const struct thr_hooks *hooks; /* for every thread whose no_hooks is 0 */
};
/* threads_run's runner, for threads the caller places: thr[0 .. n) with role, idx and want_cpu
 * set (and bench, no_hooks as it needs). Bound and checked the same way; 0 or -1 with a message. */
int threads_start(const struct topo *topo, struct thr *thr, int n, const struct thr_how *how,
		  char *err);

/* Allocate n zeroed, 128-byte-aligned thread records. */
struct thr *thr_alloc(int n);
/* One role's threads added up: operations, window time, tallies, and the CPUs they ran on (cut at
 * the buffer, never past it). */
struct thr_sum {
	uint64_t ops, ns, stat[8];
	char cpus[256];
};
void thr_sum_role(const struct thr *t, int n, int role, struct thr_sum *s);
#endif

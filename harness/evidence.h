/* Evidence that a repetition measured what it claims (docs/validity.md): per measuring thread its
 * wall window, CPU time, context switches, CPUs and steal; per row the placement probe and the
 * settings achieved beside the requested ones. Collected outside the hot loops. */
#ifndef C2C_EVIDENCE_H
#define C2C_EVIDENCE_H
#include "harness/row.h"
#include "harness/threads.h"
#include <stdint.h>

#define EV_PROBES 4   /* writer-reader CPU pairs probed per row */
#define EV_SETTINGS 4 /* achieved settings checked per row */

struct ev_thread {
	char role[16];
	int idx, want_cpu, cpu_start, cpu_end;
	int corun;    /* its role must co-run: the ops, window, on-CPU and overlap rules apply */
	int measured; /* it took its window */
	uint64_t t0, t1, cpu_ns, ops;
	long vcsw, ivcsw; /* -1: not known */
	double steal_ns;  /* steal of want_cpu over the window; < 0: not known */
};

struct ev_setting {
	char name[32], unit[8];
	double requested, achieved; /* achieved < 0: not measured (no rule then) */
};

struct evidence {
	int n, cap;
	struct ev_thread *th;
	double requested_s; /* the window each co-running thread should have; 0: the bench runs to a
			       count */
	int nprobe;
	int probe_a[EV_PROBES], probe_b[EV_PROBES];
	double probe_before[EV_PROBES], probe_after[EV_PROBES]; /* one-way ns; < 0: not measured */
	int nset;
	struct ev_setting set[EV_SETTINGS];
	char nothing[96]; /* the bench's word that the window held nothing to measure (rule ops) */
};

/* Per-CPU steal ticks from /proc/stat (ok = 0 where the kernel does not report them). */
struct steal_snap {
	int n, ok;
	uint64_t *ticks;
};
void steal_read(struct steal_snap *s);
/* thr[i].steal_ns = steal of thr[i].want_cpu between a and b (-1 when either lacks it). */
void steal_apply(const struct steal_snap *a, const struct steal_snap *b, struct thr *thr, int n);
void steal_free(struct steal_snap *s);

/* Forget the threads, probes, settings and nothing (requested_s stays). */
void evidence_reset(struct evidence *e);
void evidence_free(struct evidence *e);
/* Add one thread's record under a role name. */
void evidence_thread(struct evidence *e, const struct thr *t, const char *role, int corun);
/* The same in two steps: a thread's record copied out (kept past its thread), then added. */
void evidence_of(const struct thr *t, const char *role, int corun, struct ev_thread *x);
void evidence_add(struct evidence *e, const struct ev_thread *x);
void evidence_setting(struct evidence *e, const char *name, double requested, double achieved,
		      const char *unit);
/* The same setting achieved by several threads: keep the one furthest from the request. */
void evidence_setting_max(struct evidence *e, const char *name, double requested, double achieved,
			  const char *unit);

/* Derived values: the fraction of its window a thread was on a CPU (-1 without a window), the
 * common window of the co-running threads over the longest of theirs (-1 with fewer than two). */
double ev_oncpu(const struct ev_thread *t);
double ev_overlap(const struct evidence *e);
/* CPU time of the bench's other threads bound to thread i's CPU, over i's window: the model's own
 * sharing (pending-bit's drainer on the writer's CPU) is not a disturbance. */
double ev_oncpu_shared(const struct evidence *e, int i);
/* Co-running measured threads bound to thread i's CPU, i included: more than 1 is oversubscribed.
 */
int ev_corun_on_cpu(const struct evidence *e, int i);
/* CPU time of the measured threads on thread i's CPU that need not co-run (a drainer), as a
 * fraction of i's window (at most 1): what the co-running ones share the rest of. */
double ev_oncpu_others(const struct evidence *e, int i);
double ev_steal_frac(const struct ev_thread *t);
/* One /proc/stat tick (1 / USER_HZ, 10 ms) as a fraction of the thread's window: the steal
 * measurement's resolution (0 without a window). */
double steal_tick_frac(const struct ev_thread *t);

/* The evidence columns (docs/validity.md, results/README.md), the same set in every row. */
void evidence_to_row(const struct evidence *e, struct row *r, const char *roles);
#endif

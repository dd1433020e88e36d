/* Threads for the shepherd model: a kworker and a workload per modelled CPU, one shepherd. */
#ifndef C2C_SHEPHERD_RUN_H
#define C2C_SHEPHERD_RUN_H
#include "harness/placement.h"
#include "benches/shepherd/stats.h"
#include "harness/threads.h"

enum { SW_ROLE_KWORKER, SW_ROLE_WORKLOAD, SW_ROLE_SHEPHERD, SW_NROLES };
/* The shepherd's thr.stat slots: whole ticks it woke late in all, and its timed wake-ups, while
 * measuring. */
enum { SW_ST_LATE_TICKS, SW_ST_WAKES };

/* Modelled CPU c on the c-th allowed CPU in OS order, round robin; the shepherd with CPU 0's pool.
 */
int sw_plan(const struct topo *t, int ncpus, struct plan *p, char *err);
/* Run the model's threads for warm-up + duration, then collect the measured window into r:
 * r->no_window where the workload threads shared no whole tick (a loaded host), not an error. */
int sw_run(struct sw_model *m, const struct topo *t, const struct plan *p, double warmup,
	   double duration, const struct thr_hooks *hooks, struct sw_result *r, char *err);
/* The same, handing every thread's record to ev (validity evidence) before they are freed. */
int sw_run_ev(struct sw_model *m, const struct topo *t, const struct plan *p, double warmup,
	      double duration, const struct thr_hooks *hooks, struct sw_result *r,
	      void (*ev)(void *arg, const struct thr *t, int n), void *ev_arg, char *err);
#endif

/* refill's shared state (refill.c: the bench; burst.c: the caller and worker threads; cpus.c: CPU
 * choice and the SCHED_FIFO check). */
#ifndef C2C_REFILL_H
#define C2C_REFILL_H
#include "harness/bench.h"
#include "benches/refill/pcpu_reserve.h"
#include "layouts/work.h"
#include <pthread.h>
#include <sched.h>

enum { RF_BOUND, RF_UNBOUND };
enum { HOLD_TOKEN, HOLD_FIFO, HOLD_SLICE };
enum { ROLE_CALLER, ROLE_WORKER }; /* counter columns: caller_*_per_kop, worker_*_per_kop */
enum { END_ATTEMPTS, END_MAX_FAILURES, END_DURATION, END_SIGNAL };
#define RF_CHECK_EVERY 64 /* attempts between looks at the clock and at signals */

struct rf_priv {
	struct pcpu_cfg cfg;
	int hold;
	int caller_cpu,
	    worker_cpu; /* worker_cpu: the unbound worker's, -1 when no unbound variant */
	char caller_req[32], worker_req[32]; /* --caller-cpu and --worker-cpu as given ("auto") */
	long attempts, retries, max_failures;
	double alloc_ns, retry_ns, populate_ns, chunk_ns;
	uint64_t cap_ns;    /* --duration when given, else 0: no time cap */
	uint64_t warmup_ns; /* --warmup: the caller spins on its CPU before the burst */
	uint64_t rt_period_ns; /* --hold fifo: pause this long before a burst, so it starts with a
				  full RT budget */
	struct role_req roles[2];
};

/* One burst's shared state. Each field that one thread writes and the other reads is alone on its
 * block. */
struct rf_run {
	C2C_ALIGNED pthread_mutex_t lock; /* pcpu_lock: guards st */
	struct pcpu_state st;
	C2C_ALIGNED struct work_struct work; /* pcpu_balance_work: PENDING in work.data */
	C2C_ALIGNED int wake;                /* futex word: bumped when PENDING is set or at stop */
	C2C_ALIGNED int stop;
	C2C_ALIGNED pthread_mutex_t token; /* the caller's CPU, for --hold token */
	C2C_ALIGNED struct gate start; /* called off if the second thread cannot be created */
	C2C_ALIGNED int abort; /* set by the main thread between the two start barriers */
	/* read-only during the burst */
	C2C_ALIGNED const struct rf_priv *p;
	const struct topo *topo;
	const struct thr_hooks *hooks; /* counters (may be NULL) */
	struct thr *thr; /* [ROLE_CALLER], [ROLE_WORKER]: records the hooks count with */
	int unbound;
	/* written by the caller only (its work calibrated on its CPU, timed again after the burst)
	 */
	C2C_ALIGNED uint64_t ok, failed, retries_ok, t0, t1;
	uint64_t alloc_iters, retry_iters;
	double alloc_ns_achieved; /* < 0: not measured */
	int end; /* END_*: why the burst ended */
	int caller_got;
	char caller_err[ERRLEN];
	/* written by the worker only (the same for its populate work; < 0 where it never populated)
	 */
	C2C_ALIGNED uint64_t runs, pages, chunks;
	uint64_t populate_iters, chunk_iters;
	double populate_ns_achieved;
	int worker_got;
	char worker_err[ERRLEN];
};

/* The two threads of a burst (burst.c). */
void *worker_main(void *arg);
void *caller_main(void *arg);
/* CPU choice (cpus.c). */
int cpu_usable(const struct topo *t, const cpu_set_t *aff, int os);
int pick_worker_cpu(const struct topo *t, const cpu_set_t *aff, int caller);
void usable_list(const struct topo *t, const cpu_set_t *aff, char *buf, size_t n);
int parse_cpu(const struct topo *t, const cpu_set_t *aff, const char *opt, const char *s, int *out,
	      char *err);
int check_fifo(char *err);
#endif

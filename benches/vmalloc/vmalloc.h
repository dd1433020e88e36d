/* The vmalloc bench's shared run state and its threads (cycle.c), used by the bench (vmalloc.c). */
#ifndef C2C_VMALLOC_H
#define C2C_VMALLOC_H
#include "benches/vmalloc/model.h"
#include "harness/threads.h"

#define VM_BATCH 64 /* cycles between looks at the phase flag */
enum { ROLE_WORKER, ROLE_DRAINER };
enum {
	ST_FREES,
	ST_OVER,
	ST_RMW,
	ST_ALREADY,
	ST_QUEUED,
	ST_PURGE_NS,
	ST_CPU_NS,
	ST_PURGE_CPU_NS
}; /* thr.stat slots */
/* The drain worker's own tallies, in slots only the workers use otherwise. */
enum {
	ST_D_CROSSINGS = ST_FREES,  /* drains whose snapshot was past lazy_max */
	ST_D_PAGES = ST_OVER,       /* pages all drains detached */
	ST_D_AREAS = ST_RMW,        /* areas all drains detached */
	ST_D_MODEL_NS = ST_ALREADY, /* all drains' modelled cost (vm_purge_cost), ns */
	ST_D_REQUEUED = ST_QUEUED   /* drains whose snapshot was not: re-queues (vm_drain_kind) */
};

/* Read-only during a run, shared by every thread: alone on its block. */
struct vm_run {
	struct vm_model m;
	double alloc_ns, free_ns; /* requested: each thread calibrates its iterations on its CPU */
	double flush_ns, area_ns; /* a purge's modelled cost: flush + per area detached */
	long incr;    /* pages + 1 guard page per free */
	int nr_nodes;
	int *wake;    /* futex word of the drain worker, on a block of its own */
} C2C_ALIGNED;

struct vm_wake {
	int word;
} C2C_ALIGNED;

/* A worker's calibrated work per cycle (iterations, measured on its CPU before its window). */
struct vm_iters {
	uint64_t alloc, free;
};

/* The hot loop (exported so make disasm and its test find it). */
uint64_t vm_cycle_batch(const struct vm_run *r, const struct vm_iters *it, long id,
			struct vm_tally *tl, int *queue);
/* A thread's body: a worker's cycles or the drain worker's loop, by role. */
void vm_body(struct thr *t, void *arg);
#endif

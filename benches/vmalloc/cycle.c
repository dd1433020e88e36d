/* The vmalloc bench's threads: workers loop vmalloc/vfree cycles, the drain worker serves
 * drain_vmap_work (mm/vmalloc.c, lib/test_vmalloc.c fix_size_alloc_test, kernel/workqueue.c). */
#include "benches/vmalloc/vmalloc.h"
#include "harness/counters/sde.h"
#include "harness/spin.h"
#include <linux/futex.h>
#include <math.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The hot loop: whole vmalloc/vfree cycles, no call and no clock read. Stops early after the cycle
 * whose free found PENDING clear (*queue = 1), so the caller can finish queue_work_on() outside the
 * loop. */
__attribute__((noinline)) uint64_t vm_cycle_batch(const struct vm_run *r, const struct vm_iters *it,
						  long id, struct vm_tally *tl, int *queue)
{
	const struct vm_model *m = &r->m;
	struct vm_node *const volatile *vn = (struct vm_node *const volatile *)m->nodes;
	uint64_t ai = it->alloc, fi = it->free, i;
	long incr = r->incr;
	for (i = 0; i < VM_BATCH;) {
		struct vm_node *n =
		    *vn + id; /* alloc_vmap_area: node_alloc -> id_to_node(vmap_nodes) */
		vm_spin_lock(&n->pool_lock);
		n->nr_pool++;
		vm_spin_unlock(&n->pool_lock);
		n = *vn + id; /* addr_to_node: insert into the node's busy tree */
		vm_spin_lock(&n->busy_lock);
		n->nr_busy++;
		vm_spin_unlock(&n->busy_lock);
		spin_iters(ai); /* pages, page tables, the test's first write */
		n = *vn + id;   /* vfree: find_unlink_vmap_area -> addr_to_node */
		vm_spin_lock(&n->busy_lock);
		n->nr_busy--;
		vm_spin_unlock(&n->busy_lock);
		spin_iters(fi); /* vunmap_range_noflush, freeing the pages */
		long nr = vm_lazy_add(m, incr, tl);
		n = *vn + id; /* free_vmap_area_noflush: id_to_node, insert into the lazy tree */
		vm_spin_lock(&n->lazy_lock);
		n->nr_lazy++;
		vm_spin_unlock(&n->lazy_lock);
		i++;
		if (vm_schedule_if_over(m, nr, tl) == VM_BIT_WAS_CLEAR) {
			*queue = 1;
			break;
		}
	}
	return i;
}

/* The futex syscall (glibc has no wrapper): the drain worker sleeps on it, a real queueing wakes
 * it. */
static long futex(int *addr, int op, int val, const struct timespec *ts)
{
	return syscall(SYS_futex, addr, op, val, ts, NULL, 0);
}

/* kick_pool(): wake the worker (wake_up_process). */
static void vm_wake_drainer(const struct vm_run *r)
{
	__atomic_store_n(r->wake, 1, __ATOMIC_RELEASE);
	futex(r->wake, FUTEX_WAKE_PRIVATE, 1, NULL);
}

/* One batch of a worker: the hot loop, then the slow half of queue_work_on() when its bit was
 * clear. */
static uint64_t vm_worker_step(struct thr *t, const struct vm_run *r, const struct vm_iters *it,
			       struct vm_tally *tl)
{
	int queue = 0;
	uint64_t n = vm_cycle_batch(r, it, t->idx % r->nr_nodes, tl, &queue);
	if (queue) {
		vm_queue_rest(&r->m, tl);
		vm_wake_drainer(r);
	}
	return n;
}

/* This thread's CPU time: what a cycle costs while on a CPU, whatever else shares the machine. */
static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Each role's operations as software-defined events (sde:::c2cbench::NAME), measured phase only. */
static struct sde_counter vm_sde[2] = {
    [ROLE_WORKER] = {"vmalloc_cycles",
		     "vmalloc: vmalloc/vfree cycles the workers ran while measured", 0, 0},
    [ROLE_DRAINER] = {"vmalloc_drains", "vmalloc: purges the drainer (kworker) ran while measured",
		      0, 0},
};

/* Exported at start-up so every command (events, --events checks) knows the names. */
static void __attribute__((constructor)) vm_sde_export(void)
{
	sde_export(vm_sde, 2);
}

/* What a cycle's calibrated work (alloc and free parts) takes on this thread now, ns. */
static double work_check_ns(const struct vm_iters *it)
{
	return spin_check_ns(it->alloc) + spin_check_ns(it->free);
}

/* Like thr_drive, but the tallies count the measured phase only, and the thread's CPU time is kept;
 * the work is calibrated here, where the thread is pinned, and timed just before and just after its
 * window: the timing further from the request is the row's, so a spell at either end shows. */
static void vm_worker_body(struct thr *t, const struct vm_run *r)
{
	struct vm_tally warm = { 0 }, tl = { 0 };
	struct vm_iters it = { spin_iters_here(r->alloc_ns), spin_iters_here(r->free_ns) };
	double want = r->alloc_ns + r->free_ns, before = want > 0 ? work_check_ns(&it) : 0;
	uint64_t ops = 0;
	while (run_phase(t->ctl) == PHASE_WARMUP)
		vm_worker_step(t, r, &it, &warm);
	thr_measure_begin(t);
	uint64_t cpu0 = thread_cpu_ns();
	while (run_phase(t->ctl) == PHASE_MEASURE)
		ops += vm_worker_step(t, r, &it, &tl);
	t->stat[ST_CPU_NS] = thread_cpu_ns() - cpu0;
	thr_measure_end(t);
	double after = want > 0 ? work_check_ns(&it) : 0;
	t->work_ns_achieved = fabs(before - want) > fabs(after - want) ? before : after;
	t->ops = ops;
	sde_add(&vm_sde[ROLE_WORKER], ops); /* after the window, before the counters are read */
	t->stat[ST_FREES] = tl.frees;
	t->stat[ST_OVER] = tl.over;
	t->stat[ST_RMW] = tl.rmw;
	t->stat[ST_ALREADY] = tl.already;
	t->stat[ST_QUEUED] = tl.queued;
}

/* drain_vmap_area_work() when queued: take the work (PENDING cleared), snapshot what is lazy,
 * spend what purging it costs (vm_purge_cost: a flush plus a cost per area detached) while frees
 * keep calling schedule_work(), subtract the snapshot. Else sleep until woken. ipn: spin
 * iterations per ns, calibrated on this CPU. */
static int vm_drain_once(struct thr *t, const struct vm_run *r, double ipn)
{
	if (!vm_take_work(&r->m)) {
		static const struct timespec tick = {
		    0, 10000000}; /* look at the phase flag every 10 ms */
		if (!__atomic_exchange_n(r->wake, 0, __ATOMIC_ACQUIRE))
			futex(r->wake, FUTEX_WAIT_PRIVATE, 0, &tick);
		return 0;
	}
	uint64_t t0 = now_ns(), c0 = thread_cpu_ns();
	long snap = vm_purge_begin(&r->m);
	struct vm_purge p = vm_purge_cost(snap, r->incr, r->flush_ns, r->area_ns);
	spin_iters((uint64_t)(p.ns * ipn + 0.5));
	vm_purge_end(&r->m, snap);
	t->stat[ST_PURGE_CPU_NS] += thread_cpu_ns() - c0; /* the purge's work, as done on its CPU */
	t->stat[ST_PURGE_NS] += now_ns() - t0; /* and its wall time: worker 0 shares the CPU */
	enum vm_drain_kind kind = vm_drain_kind(snap, r->m.lazy_max);
	t->stat[ST_D_CROSSINGS] += kind == VM_DRAIN_CROSSING;
	t->stat[ST_D_REQUEUED] += kind == VM_DRAIN_REQUEUED;
	t->stat[ST_D_PAGES] += (uint64_t)p.pages;
	t->stat[ST_D_AREAS] += (uint64_t)p.areas;
	t->stat[ST_D_MODEL_NS] += (uint64_t)(p.ns + 0.5);
	return 1;
}

/* The kworker: serves the work through warm-up and measurement; counts drains of the measured
 * phase. Its spin rate is calibrated on its CPU; its CPU time per drain (ST_PURGE_CPU_NS / drains)
 * is the achieved beside the modelled (ST_D_MODEL_NS / drains), its wall time per drain
 * (ST_PURGE_NS) a measurement: worker 0 is runnable on the same CPU. */
static void vm_drainer_body(struct thr *t, const struct vm_run *r)
{
	double ipn = (double)spin_iters_here(1e6) / 1e6;
	while (run_phase(t->ctl) == PHASE_WARMUP)
		vm_drain_once(t, r, ipn);
	memset(t->stat, 0, sizeof(t->stat));
	thr_measure_begin(t);
	uint64_t drains = 0;
	while (run_phase(t->ctl) == PHASE_MEASURE)
		drains += (uint64_t)vm_drain_once(t, r, ipn);
	thr_measure_end(t);
	t->ops = drains;
	sde_add(&vm_sde[ROLE_DRAINER], drains);
}

/* A thread's body, by role (threads_run calls it after the start barrier). */
void vm_body(struct thr *t, void *arg)
{
	if (t->role == ROLE_DRAINER)
		vm_drainer_body(t, arg);
	else
		vm_worker_body(t, arg);
}


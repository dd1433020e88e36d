/* The vmalloc lazy-free path and the workqueue queue path as userspace code, step for step:
 * mm/vmalloc.c free_vmap_area_noflush() / drain_vmap_area_work(), kernel/workqueue.c
 * queue_work_on() / insert_work() / process_one_work(). Inline so the bench's hot loop has no call;
 * the unit tests run the same functions on made-up sequences. */
#ifndef C2C_VMALLOC_MODEL_H
#define C2C_VMALLOC_MODEL_H
#include "lib/util.h"
#include "layouts/work.h"
#include <sched.h>
#include <stdint.h>

#define WORK_STRUCT_PWQ (1L << 2)   /* data holds a pool_workqueue pointer while queued */
#define WORK_OFFQ_POOL_SHIFT 5      /* off queue, data holds the last pool id from here up */
#define VM_PWQ_BITS (0x40L << 8)    /* stands for the pool_workqueue pointer (aligned, high bits) */

#if defined(__x86_64__) || defined(__i386__)
#define vm_cpu_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define vm_cpu_relax() __asm__ volatile("yield")
#else
#define vm_cpu_relax() __asm__ volatile("")
#endif

/* One vmap_node as the allocation path uses it: its locks and trees, written by the CPU that owns
 * it. The kernel has the locks on lines of their own inside the node; here a node is one block,
 * used by one worker thread, so nothing in it is shared. Its address comes from the vmap_nodes
 * load, so each lock waits for that load, as in the kernel. */
struct vm_node {
	int pool_lock, busy_lock, lazy_lock;
	long nr_pool, nr_busy, nr_lazy;
} C2C_ALIGNED;

/* The per-CPU worker_pool the bound kworker serves: its lock and worklist, alone on a block. */
struct vm_pool {
	int lock;
	struct list_head worklist;
	long id;
} C2C_ALIGNED;

/* static __cacheline_aligned_in_smp atomic_long_t vmap_lazy_nr: on a line of its own, as in the
 * kernel. */
struct vm_lazy {
	long nr;
} C2C_ALIGNED;

/* What the free path and the drain worker share. Read-only pointers, set before threads start. */
struct vm_model {
	struct work_struct *work;     /* drain_vmap_work: where the layout puts it */
	struct vm_node *const *nodes; /* &vmap_nodes: where the layout puts it (read-mostly) */
	struct vm_lazy *lazy;
	struct vm_pool *pool;
	long lazy_max;                /* lazy_max_pages() */
};

/* Per-thread tallies of the free and queue paths, as the tests and the rows read them. */
struct vm_tally {
	uint64_t frees, over, rmw, already, queued;
};

enum vm_free_result { VM_BELOW, VM_ALREADY_PENDING, VM_BIT_WAS_CLEAR };

/* An uncontended spin lock (the node locks): a locked exchange, as spin_lock's fast path. */
static inline void vm_spin_lock(int *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(l, __ATOMIC_RELAXED))
			vm_cpu_relax();
}

static inline void vm_spin_unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/* pool->lock: the drain worker shares a CPU with a worker thread, so a holder can be preempted here
 * (the kernel disables interrupts instead): spin a while, then yield. Never in the hot loop. */
static inline void vm_pool_lock(int *l)
{
	for (int spins = 0; __atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE); spins++)
		if (spins > 1000)
			sched_yield();
		else
			vm_cpu_relax();
}

/* queue_work_on()'s first step: test_and_set_bit(PENDING), a locked RMW on every call, set or not
 * (x86 lock bts; the kernel made a failed test_and_set_bit ordered in 2022, so no test first). */
static inline int vm_test_and_set_pending(struct work_struct *w, struct vm_tally *t)
{
	t->rmw++;
	if (__atomic_fetch_or(&w->data, WORK_STRUCT_PENDING, __ATOMIC_SEQ_CST) &
	    WORK_STRUCT_PENDING) {
		t->already++;
		return 0;
	}
	return 1;
}

/* free_vmap_area_noflush(): add the freed pages (guard page included) to vmap_lazy_nr. */
static inline long vm_lazy_add(const struct vm_model *m, long pages, struct vm_tally *t)
{
	t->frees++;
	return __atomic_add_fetch(&m->lazy->nr, pages,
				  __ATOMIC_RELAXED); /* atomic_long_add_return_relaxed */
}

/* Its end: past lazy_max, schedule_work(&drain_vmap_work). VM_BIT_WAS_CLEAR: the caller must finish
 * queue_work_on() (vm_queue_rest) and wake the worker. */
static inline enum vm_free_result vm_schedule_if_over(const struct vm_model *m, long nr,
						      struct vm_tally *t)
{
	if (__builtin_expect(nr <= m->lazy_max, 1))
		return VM_BELOW;
	t->over++;
	return vm_test_and_set_pending(m->work, t) ? VM_BIT_WAS_CLEAR : VM_ALREADY_PENDING;
}

/* Both steps, for callers that model no node work in between (the unit tests). */
static inline enum vm_free_result vm_free_lazy(const struct vm_model *m, long pages,
					       struct vm_tally *t)
{
	return vm_schedule_if_over(m, vm_lazy_add(m, pages, t), t);
}

static inline void vm_list_add_tail(struct list_head *e, struct list_head *head)
{
	struct list_head *prev = head->prev;
	e->next = head;
	e->prev = prev;
	prev->next = e;
	head->prev = e;
}

static inline void vm_list_del_init(struct list_head *e)
{
	e->next->prev = e->prev;
	e->prev->next = e->next;
	e->next = e->prev = e;
}

/* The rest of queue_work_on() when the bit was clear: __queue_work() under pool->lock,
 * insert_work() writes data (set_work_pwq) and the list entry, both on the work's line; the wake-up
 * is the caller's. */
static inline void vm_queue_rest(const struct vm_model *m, struct vm_tally *t)
{
	struct work_struct *w = m->work;
	vm_pool_lock(&m->pool->lock);
	__atomic_store_n(&w->data, VM_PWQ_BITS | WORK_STRUCT_PWQ | WORK_STRUCT_PENDING,
			 __ATOMIC_RELAXED);
	vm_list_add_tail(&w->entry, &m->pool->worklist);
	vm_spin_unlock(&m->pool->lock);
	t->queued++;
}

/* process_one_work()'s start for the drain work, under pool->lock: take it off the worklist and
 * clear PENDING as set_work_pool_and_clear_pending() does (a plain store of the pool id, then
 * smp_mb()). Returns 0 when nothing was queued. */
static inline int vm_take_work(const struct vm_model *m)
{
	struct work_struct *w = m->work;
	int got = 0;
	vm_pool_lock(&m->pool->lock);
	if (m->pool->worklist.next == &w->entry) {
		vm_list_del_init(&w->entry);
		/* atomic_long_set + smp_mb(): a seq_cst store is both (x86: xchg), and TSan
		 * understands it */
		__atomic_store_n(&w->data, m->pool->id << WORK_OFFQ_POOL_SHIFT, __ATOMIC_SEQ_CST);
		got = 1;
	}
	vm_spin_unlock(&m->pool->lock);
	return got;
}

/* __purge_vmap_area_lazy()'s bookkeeping: what it found lazy when it started (the snapshot) is
 * subtracted when it ends (purge_vmap_node: atomic_long_sub); frees during the purge stay counted.
 */
static inline long vm_purge_begin(const struct vm_model *m)
{
	return __atomic_load_n(&m->lazy->nr, __ATOMIC_RELAXED);
}

static inline void vm_purge_end(const struct vm_model *m, long snapshot)
{
	__atomic_sub_fetch(&m->lazy->nr, snapshot, __ATOMIC_RELAXED);
}

/* What a drain served, from the backlog it found (its snapshot). A crossing: past lazy_max, a
 * backlog that calls for a purge by itself; the drain takes all of it (__purge_vmap_area_lazy()
 * detaches every node's whole lazy list), so no crossing needs a second drain. Else a re-queue: a
 * free called schedule_work() with a count that still held pages a purge had taken, since
 * purge_vmap_node() subtracts them only at its end: a free during that purge (process_one_work()
 * cleared PENDING before the purge began), or one off its CPU between its add and its
 * schedule_work() until the purge had ended. mm/vmalloc.c's author kept that "extra queuing" on
 * purpose ("mm/vmalloc: Move draining areas out of caller context", v3, 31 Jan 2022: "Extra
 * queuing is expectable under heavy load but it can be disregarded because a work will bail out
 * if nothing to be done"). How many re-queues a crossing gets depends on whether a free lands
 * during its purge, so on the machine's load; the crossings do not. */
enum vm_drain_kind { VM_DRAIN_CROSSING, VM_DRAIN_REQUEUED };

static inline enum vm_drain_kind vm_drain_kind(long snapshot, long lazy_max)
{
	return snapshot > lazy_max ? VM_DRAIN_CROSSING : VM_DRAIN_REQUEUED;
}

/* What one purge detaches and what it costs. __purge_vmap_area_lazy() (mm/vmalloc.c) detaches every
 * node's lazy list (list_replace_init onto purge_list); if it found any area it calls
 * flush_tlb_kernel_range() once over the range they span (on x86 past tlb_single_page_flush_ceiling
 * pages: flush_tlb_all, an IPI to every CPU), then purge_vmap_node() walks each detached area:
 * list_del_init, merge_or_add_vmap_area_augment() into the free tree (or node_pool_add_va), and
 * subtracts the pages with atomic_long_sub. So: a fixed flush plus a cost per area; nothing, not
 * even the flush, when nothing was lazy. Every area here is incr pages (the allocation and its
 * guard page). */
struct vm_purge {
	long pages, areas; /* what was lazy when the purge began, in pages and in areas */
	double ns;         /* the modelled cost: flush_ns + area_ns x areas, or 0 */
};

static inline struct vm_purge vm_purge_cost(long pages, long incr, double flush_ns,
					    double area_ns)
{
	struct vm_purge p = { pages > 0 ? pages : 0, 0, 0 };
	if (incr < 1)
		incr = 1;
	p.areas = (p.pages + incr - 1) / incr;
	p.ns = p.areas ? flush_ns + area_ns * (double)p.areas : 0;
	return p;
}

/* An empty worklist and an idle work item (INIT_WORK: data 0, entry pointing at itself). */
static inline void vm_model_init(struct vm_model *m)
{
	m->pool->worklist.next = m->pool->worklist.prev = &m->pool->worklist;
	m->work->data = m->pool->id << WORK_OFFQ_POOL_SHIFT;
	m->work->entry.next = m->work->entry.prev = &m->work->entry;
	m->lazy->nr = 0;
}
#endif

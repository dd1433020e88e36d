#include "benches/pingpong/measure.h"
#include "harness/counters/sde.h"
#include "harness/memnode.h"
#include <numa.h>
#include "stats/stats.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sched.h>
#include <unistd.h>

#define PP_STOP UINT64_MAX /* ping value that tells the responder to return */

const char *const pp_mode_names[NMODES] = { "load-store", "cas" };

/* One pair: shared by its two threads, read-only once they start; a block of its own. */
struct pp_run {
	const struct pp_setup *su;
	char *base;         /* su->lines slots of PP_SLOT bytes on pages of their own */
	size_t bytes;
	int toucher;        /* side that first-touches the page: 0 (cpu_a) or 1 (cpu_b) */
	int touch_cpu;      /* the CPU it touched from (sched_getcpu), -1 before */
	int numa;           /* placed with numa_alloc_onnode (--home writer|reader|node:N) */
	double *ns;         /* lines x samples, written by the initiator only */
} C2C_ALIGNED;

/* load-store: two lines, each written by one side only: store the next value on ping, wait with
 * plain loads until pong echoes it. Each one-way handoff moves one modified line to its reader. */
__attribute__((noinline)) uint64_t pp_ls_round_trips(uint64_t *ping, uint64_t *pong, uint64_t v,
						     long k)
{
	for (long i = 0; i < k; i++) {
		__atomic_store_n(ping, ++v, __ATOMIC_RELEASE);
		while (__atomic_load_n(pong, __ATOMIC_ACQUIRE) != v)
			;
	}
	return v;
}

/* cas: one line, every access a locked compare-and-swap; take the turn with v -> v+1 (v even),
 * the responder answers v+1 -> v+2. */
__attribute__((noinline)) uint64_t pp_cas_round_trips(uint64_t *line, uint64_t v, long k)
{
	for (long i = 0; i < k; i++, v += 2) {
		uint64_t exp = v;
		while (!__atomic_compare_exchange_n(line, &exp, v + 1, 0, __ATOMIC_ACQ_REL,
						    __ATOMIC_ACQUIRE))
			exp = v;
	}
	return v;
}

/* Line slot `line` of the pair's page: ping at its start, pong on the next 128-byte block. */
static uint64_t *ping_of(const struct pp_run *r, int line)
{
	return (uint64_t *)(void *)(r->base + (size_t)line * PP_SLOT);
}

static uint64_t *pong_of(const struct pp_run *r, int line)
{
	return ping_of(r, line) + C2C_BLOCK / sizeof(uint64_t);
}

/* The other side: echo each value (load-store) or answer each odd value (cas) until told to stop;
 * returns the handoffs it answered (its operations, for the validity rules). */
static uint64_t responder(const struct pp_run *r, int line)
{
	uint64_t x, *ping = ping_of(r, line), *pong = pong_of(r, line);
	if (r->su->mode == MODE_CAS) {
		for (uint64_t want = 1;; want += 2)
			for (x = want; !__atomic_compare_exchange_n(
				 ping, &x, want + 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
			     x = want)
				if (x == PP_STOP)
					return want / 2;
	}
	for (uint64_t want = 1;; want++) {
		while ((x = __atomic_load_n(ping, __ATOMIC_ACQUIRE)) != want)
			if (x == PP_STOP)
				return want - 1;
		__atomic_store_n(pong, want, __ATOMIC_RELEASE);
	}
}

/* Round trips from v; returns the value after them (2 handoffs per round trip in both modes). */
static uint64_t round_trips(const struct pp_run *r, int line, uint64_t v, long k)
{
	return r->su->mode == MODE_CAS
		   ? pp_cas_round_trips(ping_of(r, line), v, k)
		   : 2 * pp_ls_round_trips(ping_of(r, line), pong_of(r, line), v / 2, k);
}

/* Preheat until the time is up, then the timed samples; the stop value releases the responder.
 * In cas mode the last CAS leaves an odd value: the responder answers it or sees the stop. */
static uint64_t initiator(const struct pp_run *r, int line)
{
	const struct pp_setup *su = r->su;
	double *ns = r->ns + (size_t)line * (size_t)su->samples;
	uint64_t v = 0, t0 = now_ns();
	while (now_ns() - t0 < su->preheat_ns)
		v = round_trips(r, line, v, 64);
	t0 = now_ns();
	for (long s = 0; s < su->samples; s++) {
		v = round_trips(r, line, v, su->round_trips);
		uint64_t t1 = now_ns();
		ns[s] = (double)(t1 - t0) / (2.0 * (double)su->round_trips);
		t0 = t1;
	}
	__atomic_store_n(ping_of(r, line), PP_STOP, __ATOMIC_RELEASE);
	return v; /* handoffs, preheat included: what a HITM count would be divided by */
}

/* Each role's handoffs as software-defined events (sde:::c2cbench::NAME), measured phase only. */
static struct sde_counter pp_sde[PP_NROLES] = {
    [PP_INITIATOR] = {"pingpong_handoffs",
		      "pingpong: handoffs the initiators started (preheat included)", 0, 0},
    [PP_RESPONDER] = {"pingpong_answers",
		      "pingpong: handoffs the responders answered (preheat included)", 0, 0},
};

/* Exported at start-up so every command (events, --events checks) knows the names. */
static void __attribute__((constructor)) pp_sde_export(void)
{
	sde_export(pp_sde, PP_NROLES);
}

/* Once bound, before the start barrier: the side that touches first zeroes the pair's page, so it
 * lands on that PU's node (or on node N, bound by policy). */
static void pp_touch(struct thr *t, void *arg)
{
	const struct pp_run *r = t->bench;
	(void)arg;
	if (r->toucher == t->idx % 2) {
		memset(r->base, 0, r->bytes);
		((struct pp_run *)t->bench)->touch_cpu = sched_getcpu(); /* before the barrier */
	}
}

/* Each line in turn, its samples counted: the window is the thread's own (harness/threads.h). */
static void pp_body(struct thr *t, void *arg)
{
	const struct pp_run *r = t->bench;
	(void)arg;
	thr_measure_begin(t);
	for (int l = 0; l < r->su->lines; l++)
		if (t->role == PP_INITIATOR)
			t->ops += initiator(r, l);
		else /* its ops too: the responder's counters are per 1,000 handoffs it answered */
			t->ops += responder(r, l);
	thr_measure_end(t);
	t->stat[0] = t->ops;
	sde_add(&pp_sde[t->role], t->ops); /* after the window, before the counters are read */
}

/* The node a --home request binds the pair's page to: node:N, the writer's (cpu_a's) or the
 * reader's (cpu_b's) node; -1 for first (not bound: placed by the first touch). */
static int home_node(const struct pp_setup *su, const struct pu_pair *pair)
{
	const struct pu *u = su->mem == PP_HOME_WRITER   ? topo_pu(su->topo, pair->a)
			     : su->mem == PP_HOME_READER ? topo_pu(su->topo, pair->b)
							 : NULL;
	return su->mem >= 0 ? su->mem : u ? u->node : -1;
}

/* Fresh lines for one pair: libnuma on a node, or untouched pages that one side touches first. */
static int lines_alloc(const struct pp_setup *su, const struct pu_pair *pair, struct pp_run *r,
		       char *err)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t need = (size_t)su->lines * PP_SLOT;
	int node = home_node(su, pair);
	r->bytes = (need + (size_t)page - 1) / (size_t)page * (size_t)page;
	r->touch_cpu = -1;
	r->toucher = su->mem == PP_HOME_READER ? 1 : 0; /* a node: still touched by the first PU */
	if (su->mem != PP_HOME_FIRST && node < 0)
		return err_set(err, "--home: CPU %d has no NUMA node in the topology to bind to",
			       su->mem == PP_HOME_READER ? pair->b : pair->a);
	/* no NUMA in this kernel (or under qemu-user): all memory is node 0's, as in bench_mem */
	r->numa = node >= 0 && !(node == 0 && numa_available() < 0);
	if (r->numa) {
		if (numa_available() < 0)
			return err_set(err,
				       "--home: node %d: libnuma reports NUMA is not available on "
				       "this kernel",
				       node);
		r->base = numa_alloc_onnode(r->bytes, node); /* mbind only: no page until touched */
		return r->base ? 0
			       : err_set(err, "numa_alloc_onnode(%zu bytes, node %d) failed",
					 r->bytes, node);
	}
	void *m = mmap(NULL, r->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	r->base = m == MAP_FAILED ? NULL : m;
	return r->base ? 0 : err_set(err, "cannot map %zu bytes for the pair's lines", r->bytes);
}

/* Give the page back the way it was had (numa_free or munmap). */
static void lines_free(struct pp_run *r)
{
	if (r->base && r->numa)
		numa_free(r->base, r->bytes);
	else if (r->base)
		munmap(r->base, r->bytes);
}

/* The pair's figures from its samples: pooled over lines, and the spread of the per-line medians.
 */
static void summarise(const struct pp_setup *su, const struct pp_run *r, const struct thr *init,
		      struct pp_meas *m)
{
	size_t ns = (size_t)su->samples;
	struct stats all = stats_of(r->ns, ns * (size_t)su->lines);
	m->min = all.min;
	m->median = all.median;
	m->cv = all.cv;
	m->line_med_lo = m->line_med_hi = all.median;
	for (int l = 0; l < su->lines; l++) {
		double med = stats_of(r->ns + (size_t)l * ns, ns).median;
		m->line_med_lo = l == 0 || med < m->line_med_lo ? med : m->line_med_lo;
		m->line_med_hi = l == 0 || med > m->line_med_hi ? med : m->line_med_hi;
	}
	m->handoffs = init->ops;
	m->mem_node = mem_node_of(r->base);
	m->line_addr = (uintptr_t)r->base;
	m->touch_cpu = r->touch_cpu;
}

/* For pair k of a round of n (threads 2k, 2k+1): the largest share of its window (both its threads
 * measuring) during which another pair of the round was measuring too; 0 when it ran alone, -1
 * without a window. Pairs run to a count, so a fast pair may end long before a slow one. */
static double round_overlap(const struct thr *t, int n, int k)
{
	const struct thr *a = &t[2 * k], *b = &t[2 * k + 1];
	if (!a->measured || !b->measured)
		return -1;
	uint64_t lo = a->t0 > b->t0 ? a->t0 : b->t0, hi = a->t1 < b->t1 ? a->t1 : b->t1, best = 0;
	for (int j = 0; j < n; j++) {
		const struct thr *x = &t[2 * j], *y = &t[2 * j + 1];
		if (j == k || !x->measured || !y->measured)
			continue;
		uint64_t l = x->t0 > y->t0 ? x->t0 : y->t0, h = x->t1 < y->t1 ? x->t1 : y->t1;
		l = l > lo ? l : lo;
		h = h < hi ? h : hi;
		best = h > l && h - l > best ? h - l : best;
	}
	return hi > lo ? (double)best / (double)(hi - lo) : 0;
}

int pp_measure_round(const struct pp_setup *su, const struct pu_pair *const *pairs, int n,
		     struct pp_meas *out, char *err)
{
	struct thr *t = thr_alloc(2 * n);
	struct pp_run *run = aligned_alloc(C2C_BLOCK, sizeof(*run) * (size_t)n);
	const struct thr_how how = { 0, 0, 1, pp_touch, pp_body, NULL, su->hooks };
	int rc = 0;
	if (!run)
		out_of_memory(0);
	memset(run, 0, sizeof(*run) * (size_t)n);
	for (int k = 0; k < n && !rc; k++) {
		run[k].su = su;
		run[k].ns = xcalloc((size_t)su->samples * (size_t)su->lines, sizeof(double));
		rc = lines_alloc(su, pairs[k], &run[k], err);
		for (int s = 0; s < 2; s++) {
			struct thr *x = &t[2 * k + s];
			x->idx = 2 * k + s;
			x->role = s ? PP_RESPONDER : PP_INITIATOR;
			x->want_cpu = s ? pairs[k]->b : pairs[k]->a;
			x->no_hooks = k != su->hooked; /* the counters follow one pair */
			x->bench = &run[k];
		}
	}
	if (!rc) /* all 2n threads behind one barrier, each to its count */
		rc = threads_start(su->topo, t, 2 * n, &how, err);
	for (int k = 0; k < n && !rc; k++) {
		summarise(su, &run[k], &t[2 * k], &out[k]);
		out[k].plan_node = home_node(su, pairs[k]);
		evidence_of(&t[2 * k], "initiator", 1, &out[k].ev[0]);
		evidence_of(&t[2 * k + 1], "responder", 1, &out[k].ev[1]);
		out[k].ev[1].ops = t[2 * k + 1].stat[0]; /* the handoffs it answered */
	}
	for (int k = 0; k < n && !rc; k++)
		out[k].round_overlap = n > 1 ? round_overlap(t, n, k) : -1;
	for (int k = 0; k < n; k++) {
		lines_free(&run[k]);
		free(run[k].ns);
	}
	free(run);
	free(t);
	return rc;
}

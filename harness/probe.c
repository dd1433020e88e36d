#include "harness/probe.h"
#include "harness/threads.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define PROBE_SAMPLES 5
#define PROBE_GUESS_NS 150.0 /* one-way latency assumed to size the samples */
#define PROBE_STOP UINT64_MAX

/* Two lines, each stored by one side: the same handoff pingpong's load-store mode times. */
struct probe_run {
	C2C_ALIGNED uint64_t ping;
	C2C_ALIGNED uint64_t pong;
	C2C_ALIGNED const struct topo *topo;
	int cpu[2], ok[2];
	long round_trips;
	double best_ns;
	struct gate start; /* called off when a thread cannot be created: nobody waits forever */
};

/* k round trips from v: store on ping, wait for pong to echo. */
static uint64_t probe_round_trips(struct probe_run *r, uint64_t v, long k)
{
	for (long i = 0; i < k; i++) {
		__atomic_store_n(&r->ping, ++v, __ATOMIC_RELEASE);
			while (__atomic_load_n(&r->pong, __ATOMIC_ACQUIRE) != v)
			;
	}
	return v;
}

/* Echo each ping until the stop value. */
static void probe_echo(struct probe_run *r)
{
	uint64_t x;
	for (uint64_t want = 1;; want++) {
		while ((x = __atomic_load_n(&r->ping, __ATOMIC_ACQUIRE)) != want)
			if (x == PROBE_STOP)
				return;
		__atomic_store_n(&r->pong, want, __ATOMIC_RELEASE);
	}
}

struct probe_side {
	struct probe_run *r;
	int side;
};

static void *probe_main(void *p)
{
	struct probe_side *s = p;
	struct probe_run *r = s->r;
	char err[ERRLEN];
	int got;
	int ok = !bind_self(r->topo, r->cpu[s->side], &got, err);
	__atomic_store_n(&r->ok[s->side], ok, __ATOMIC_RELEASE);
	if (gate_wait(&r->start))
		return NULL;
	if (s->side) {
		if (ok)
			probe_echo(r);
		return NULL;
	}
	if (!ok || !__atomic_load_n(&r->ok[1], __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&r->ping, PROBE_STOP, __ATOMIC_RELEASE);
		return NULL;
	}
	uint64_t v =
	    probe_round_trips(r, 0, r->round_trips); /* one untimed sample: both sides awake */
	r->best_ns = -1;
	for (int i = 0; i < PROBE_SAMPLES; i++) {
		uint64_t t0 = now_ns();
		v = probe_round_trips(r, v, r->round_trips);
		double ns = (double)(now_ns() - t0) / (2.0 * (double)r->round_trips);
		if (r->best_ns < 0 || ns < r->best_ns)
			r->best_ns = ns;
	}
	__atomic_store_n(&r->ping, PROBE_STOP, __ATOMIC_RELEASE);
	return NULL;
}

double probe_pair_ns(const struct topo *t, int a, int b, uint64_t budget_ns)
{
	if (a == b || a < 0 || b < 0)
		return -1;
	struct probe_run *r = aligned_alloc(C2C_BLOCK, sizeof(*r));
	if (!r)
		abort();
	memset(r, 0, sizeof(*r));
	r->topo = t;
	r->cpu[0] = a;
	r->cpu[1] = b;
	r->best_ns = -1;
	r->round_trips = (long)((double)budget_ns / (PROBE_SAMPLES + 1) / (2 * PROBE_GUESS_NS));
	r->round_trips = r->round_trips < 20 ? 20 : r->round_trips > 5000 ? 5000 : r->round_trips;
	gate_init(&r->start, 2);
	struct probe_side s[2] = { { r, 0 }, { r, 1 } };
	pthread_t th[2];
	int made = 0;
	for (int i = 0; i < 2; i++)
		if (!pthread_create(&th[i], NULL, probe_main, &s[i]))
			made++;
		else
			break;
	if (made < 2) /* a thread limit: the gate can never fill, the one waiting returns */
		gate_off(&r->start);
	for (int i = 0; i < made; i++)
		pthread_join(th[i], NULL);
	double ns = made == 2 ? r->best_ns : -1;
	gate_destroy(&r->start);
	free(r);
	return ns;
}

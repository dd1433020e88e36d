/* An independent ping-pong, written the usual way, to check c2cbench pingpong against:
 * two threads pinned with pthread_setaffinity_np, two lines (ping written by A, pong written by B),
 * release stores and acquire loads, the minimum over samples of K round trips, halved.
 * usage: pingpong_ref CPU_A CPU_B [SAMPLES [ROUND_TRIPS]]; prints min and median one-way ns. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct line {
	_Alignas(128) _Atomic uint64_t v;
	char pad[128 - sizeof(uint64_t)];
};

static struct line ping, pong;
static long samples = 1000, trips = 100;
static int cpu[2];

static uint64_t ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static void pin(int c)
{
	cpu_set_t s;
	CPU_ZERO(&s);
	CPU_SET(c, &s);
	if (pthread_setaffinity_np(pthread_self(), sizeof(s), &s) || sched_getcpu() != c) {
		fprintf(stderr, "pingpong_ref: cannot pin to CPU %d\n", c);
		exit(2);
	}
}

/* B: answer each ping with the same value on pong, until ping says 0 (stop). */
static void *pong_thread(void *arg)
{
	(void)arg;
	pin(cpu[1]);
	for (uint64_t want = 1;; want++) {
		uint64_t x;
		while ((x = atomic_load_explicit(&ping.v, memory_order_acquire)) != want)
			if (x == UINT64_MAX)
				return NULL;
		atomic_store_explicit(&pong.v, want, memory_order_release);
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: pingpong_ref CPU_A CPU_B [SAMPLES [ROUND_TRIPS]]\n");
		return 2;
	}
	cpu[0] = atoi(argv[1]);
	cpu[1] = atoi(argv[2]);
	if (argc > 3)
		samples = atol(argv[3]);
	if (argc > 4)
		trips = atol(argv[4]);
	if (samples < 1 || trips < 1 || cpu[0] == cpu[1]) {
		fprintf(stderr,
			"pingpong_ref: need two different CPUs, SAMPLES >= 1, ROUND_TRIPS >= 1\n");
		return 2;
	}
	double *d = calloc((size_t)samples, sizeof(double));
	pin(cpu[0]);
	pthread_create(&t, NULL, pong_thread, NULL);
	uint64_t v = 0, end = ns() + 20000000; /* 20 ms warm-up */
	while (ns() < end) {
		v++;
		atomic_store_explicit(&ping.v, v, memory_order_release);
		while (atomic_load_explicit(&pong.v, memory_order_acquire) != v)
			;
	}
	for (long s = 0; s < samples; s++) {
		uint64_t t0 = ns();
		for (long k = 0; k < trips; k++) {
			v++;
			atomic_store_explicit(&ping.v, v, memory_order_release);
			while (atomic_load_explicit(&pong.v, memory_order_acquire) != v)
				;
		}
		d[s] = (double)(ns() - t0) / (double)trips / 2.0;
	}
	atomic_store_explicit(&ping.v, UINT64_MAX, memory_order_release);
	pthread_join(t, NULL);
	qsort(d, (size_t)samples, sizeof(double), cmp);
	printf("min_one_way_ns %.2f median_one_way_ns %.2f\n", d[0], d[samples / 2]);
	free(d);
	return 0;
}

/* `make bench`'s machine-speed line: how steady each CPU's speed is while every CPU is busy, as the
 * benches' calibrated work sees it. One pinned thread per CPU of the affinity mask times the same
 * spin loop as harness/spin.h in slices of about SLICE_MS (default 10) for SECONDS (default 3), all
 * at once. Per CPU it prints its best rate (iterations/ns), the median slice as a share of that
 * best, and the share of slices below 80% of it; then the share of slice indices at which every CPU
 * was within 10% of its best. On a machine of its own each CPU stays near its best; where a vCPU
 * shares a physical core with another guest's busy sibling, slices drop to about half. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SLICES_MAX 100000

struct cpu_run {
	int cpu, n;
	double secs, slice_ms, best, *rate;
} __attribute__((aligned(128))); /* one block per thread: the probe must not false-share itself */

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* harness/spin.h's loop: iterations the compiler cannot remove, no memory touched. */
static void spin(uint64_t iters)
{
	for (uint64_t k = 0; k < iters; k++)
		__asm__ volatile("" : "+r"(k));
}

/* Pin to the CPU, size a slice from a first timing, then time slices until the end. */
static void *speed(void *arg)
{
	struct cpu_run *c = arg;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return NULL;
	uint64_t t0 = now();
	spin(1000000);
	double per_ns = 1e6 / (double)(now() - t0 + 1);
	uint64_t iters = (uint64_t)(per_ns * c->slice_ms * 1e6),
		 end = now() + (uint64_t)(c->secs * 1e9);
	while (c->n < SLICES_MAX && now() < end) {
		t0 = now();
		spin(iters);
		double r = (double)iters / (double)(now() - t0 + 1);
		c->rate[c->n++] = r;
		if (r > c->best)
			c->best = r;
	}
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 3, slice = argc > 2 ? atof(argv[2]) : 10;
	if (!(secs > 0 && secs <= 600) || !(slice >= 1 && slice <= 1000)) {
		fprintf(stderr,
			"cpu_speed: '%s %s' is not accepted; accepted: SECONDS (0 to 600) and "
			"SLICE_MS (1 to 1000)\n",
			argc > 1 ? argv[1] : "", argc > 2 ? argv[2] : "");
		return 2;
	}
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	int n = CPU_COUNT(&set), k = 0;
	struct cpu_run *c = aligned_alloc(128, sizeof(*c) * (size_t)n);
	pthread_t *th = calloc((size_t)n, sizeof(*th));
	if (!c || !th)
		return 1;
	for (int cpu = 0; cpu < CPU_SETSIZE && k < n; cpu++)
		if (CPU_ISSET(cpu, &set)) {
			c[k] = (struct cpu_run){.cpu = cpu,
						.secs = secs,
						.slice_ms = slice,
						.rate = calloc(SLICES_MAX, sizeof(double))};
			if (!c[k].rate || pthread_create(&th[k], NULL, speed, &c[k]))
				return 1;
			k++;
		}
	int common = SLICES_MAX;
	for (k = 0; k < n; k++) {
		pthread_join(th[k], NULL);
		common = c[k].n < common ? c[k].n : common;
	}
	int all_fast = 0;
	for (int i = 0; i < common; i++) {
		int fast = 1;
		for (k = 0; k < n; k++)
			fast &= c[k].rate[i] >= 0.9 * c[k].best;
		all_fast += fast;
	}
	for (k = 0; k < n; k++) {
		int slow = 0;
		for (int i = 0; i < c[k].n; i++)
			slow += c[k].rate[i] < 0.8 * c[k].best;
		qsort(c[k].rate, (size_t)c[k].n, sizeof(double), cmp);
		printf("cpu %d: best %.3f iterations/ns, median slice %.0f%% of best, %.0f%% of %d "
		       "slices below 80%%\n",
		       c[k].cpu, c[k].best, c[k].n ? 100 * c[k].rate[c[k].n / 2] / c[k].best : 0,
		       c[k].n ? 100.0 * slow / c[k].n : 0, c[k].n);
	}
	printf("all %d CPUs within 10%% of their best at once: %.0f%% of %d slices of %.0f ms\n", n,
	       common ? 100.0 * all_fast / common : 0, common, slice);
	return 0;
}

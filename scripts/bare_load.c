/* The harness-overhead reference for `make bench`: the pending-bit reader's loop body (dependent
 * pointer load, then a read through it), alone in one thread, with no harness, no barrier, no
 * stop flag. Prints ns per operation over about SECONDS (default 1). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct node { long nr_busy; long pad[7]; };

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0;
	static struct node nodes[16] __attribute__((aligned(64)));
	static struct node *meta __attribute__((aligned(128))) = nodes;
	struct node *volatile *mp = (struct node *volatile *)&meta;
	long sum = 0;
	uint64_t ops = 0, t0 = now(), end = t0 + (uint64_t)(secs * 1e9), t;
	for (int i = 0; i < 16; i++)
		nodes[i].nr_busy = i;
	do {
		for (int i = 0; i < 512; i++) {
			uintptr_t dep = (uintptr_t)sum;
#if defined(__x86_64__)
			__asm__("and $0, %0" : "+r"(dep));
#else
			__asm__("" : "+r"(dep));
			dep = 0;
#endif
			struct node *n = *(struct node *volatile *)((uintptr_t)mp + dep);
			sum += n[i & 15].nr_busy;
		}
		ops += 512;
	} while ((t = now()) < end);
	printf("%.4f ns/op (%llu ops, checksum %ld)\n", (double)(t - t0) / (double)ops,
	       (unsigned long long)ops, sum);
	return 0;
}

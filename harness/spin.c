#include "harness/spin.h"
#include "lib/util.h"

/* Loop iterations per ns on the calling thread now: a pinned thread calibrates on its CPU. */
static double spin_rate_here(void)
{
	double best = 0;
	for (int trial = 0; trial < 5;
	     trial++) { /* best of 5 short ones: interruptions only ever slow a trial */
		uint64_t n = 200000, t0 = now_ns();
		spin_iters(n);
		double r = (double)n / (double)(now_ns() - t0 + 1);
		if (r > best)
			best = r;
	}
	return best;
}

uint64_t spin_iters_here(double ns)
{
	return ns <= 0 ? 0 : (uint64_t)(ns * spin_rate_here() + 0.5);
}

double spin_check_ns(uint64_t iters)
{
	uint64_t t0 = now_ns();
	spin_iters(iters);
	double one = (double)(now_ns() - t0);
	/* batches of about 200 us (at most 40 runs each): long work is timed in a few ms, not
	 * seconds */
	int n = one > 0 ? (int)(2e5 / one) : 40;
	n = n < 1 ? 1 : n > 40 ? 40 : n;
	double best = one;
	for (int k = 0; k < 5;
	     k++) { /* best of 5: a preempted batch says nothing about the calibration */
		t0 = now_ns();
		for (int i = 0; i < n; i++)
			spin_iters(iters);
		double ns = (double)(now_ns() - t0) / n;
		best = ns < best ? ns : best;
	}
	return best;
}

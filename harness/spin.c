#include "harness/spin.h"
#include "harness/util.h"

double spin_per_ns(void)
{
	static double rate;
	if (rate > 0)
		return rate;
	double best = 0;
	for (int trial = 0; trial < 5; trial++) { /* best of 5: interruptions only ever slow a trial */
		uint64_t n = 2000000, t0 = now_ns();
		spin_iters(n);
		double r = (double)n / (double)(now_ns() - t0 + 1);
		if (r > best)
			best = r;
	}
	rate = best;
	return rate;
}

double spin_rate_here(void)
{
	double best = 0;
	for (int trial = 0; trial < 3; trial++) { /* best of 3: interruptions only ever slow a trial */
		uint64_t n = 500000, t0 = now_ns();
		spin_iters(n);
		double r = (double)n / (double)(now_ns() - t0 + 1);
		if (r > best)
			best = r;
	}
	return best;
}

uint64_t spin_for_ns(double ns)
{
	return ns <= 0 ? 0 : (uint64_t)(ns * spin_per_ns() + 0.5);
}

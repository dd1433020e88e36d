/* Bit-exact copies of the kernel's rounding: the gap thresholds of the shepherd bench rest on them.
 */
#include "benches/shepherd/jiffies.h"

long sw_round_jiffies_common(long j, int cpu, long hz, long now)
{
	long original = j, rem;
	/* The skew spreads the CPUs' timers so they do not all fire on the same tick. */
	j += 3L * cpu;
	rem = j % hz;
	/* Under a quarter second past the boundary rounds down, otherwise up (force_up = false). */
	if (rem < hz / 4)
		j = j - rem;
	else
		j = j - rem + hz;
	j -= 3L * cpu;
	/* time_is_after_jiffies(j) ? j : original: never round into the past. */
	return j - now > 0 ? j : original;
}

long sw_round_jiffies_relative(long delta, int cpu, long hz, long now)
{
	long j0 = now;
	return sw_round_jiffies_common(delta + j0, cpu, hz, now) - j0;
}

long sw_min_legit_gap(long interval, long hz)
{
	return interval - hz / 4 + 1;
}

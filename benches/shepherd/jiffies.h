/* round_jiffies_relative() as kernel/time/timer.c computes it: the re-arm delay of vmstat_update.
 */
#ifndef C2C_SHEPHERD_JIFFIES_H
#define C2C_SHEPHERD_JIFFIES_H

/* round_jiffies_common(j, cpu, force_up = false) with the given HZ: round an absolute tick to a
 * whole second, skewed by 3*cpu; j itself when rounding would not land in the future of now. */
long sw_round_jiffies_common(long j, int cpu, long hz, long now);
/* __round_jiffies_relative(delta, cpu): the rounded delay in ticks, seen from tick now. */
long sw_round_jiffies_relative(long delta, int cpu, long hz, long now);
/* The shortest delay a self re-arm of `interval` ticks can get: interval - HZ/4 + 1. */
long sw_min_legit_gap(long interval, long hz);
#endif

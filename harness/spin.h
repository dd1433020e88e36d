/* Calibrated private work: makes a false-sharing penalty show as a fraction of a realistic
 * operation. */
#ifndef C2C_SPIN_H
#define C2C_SPIN_H
#include <stdint.h>

/* Burn iters loop iterations the compiler cannot remove; touches no shared memory. */
static inline void spin_iters(uint64_t iters)
{
	for (uint64_t k = 0; k < iters; k++)
		__asm__ volatile("" : "+r"(k));
}

/* Iterations for ns nanoseconds, calibrated now on the calling thread (where it is pinned): each
 * measuring thread calls it before its window, never inside its loop. */
uint64_t spin_iters_here(double ns);
/* What iters iterations take on the calling thread now, in ns: the best of a few short timed
 * batches (a preempted batch says nothing about the calibration; preemption has its own rule).
 * Timed after a thread's window, it is the achieved setting beside the requested one
 * (docs/validity.md). */
double spin_check_ns(uint64_t iters);
#endif

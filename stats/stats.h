/* Statistics over repetitions: users compare medians and trust them only with the spread beside
 * them. */
#ifndef C2C_STATS_H
#define C2C_STATS_H
#include <stddef.h>

struct stats {
	size_t n;
	double median, min, max, mean, cv; /* cv = sample stddev / mean (0 for n < 2) */
};

/* Summarise v[0..n) (v is left unchanged). n == 0 gives all fields 0 and n 0. */
struct stats stats_of(const double *v, size_t n);
#endif

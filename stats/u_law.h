/* The exact null law of the Mann-Whitney U (stats/compare_stats.h): how many orderings of m a's
 * and n b's give each U. It depends on m and n alone, and compare tests a hundred thousand
 * configurations of a few repetitions a side, so the laws of the last U_LAWS (m, n) are kept.
 * Per thread. */
#ifndef C2C_U_LAW_H
#define C2C_U_LAW_H

#define U_LAWS 8

/* The counts for U = 0..m*n (m, n >= 1), kept: valid until U_LAWS - 1 other (m, n) have been
 * asked for since. */
const double *u_law_of(int m, int n);
#endif

/* Two result directories that ran the same preset name with different settings for an entry
 * (their metadata.txt's commands): each changed entry in words, for compare and report. */
#ifndef C2C_PRESET_DIFF_H
#define C2C_PRESET_DIFF_H
#include "analysis/resultset.h"
#include <stddef.h>

/* Inputs a and b (a preset's result directory, a CSV in one, or a fleet of them), named na and nb
 * in the words: one line per entry of one preset name whose command differs, "quick's
 * test-then-set differs: drain-us 0 in A, 500 in B; not compared" (a value not given is its CSV's
 * column; "not compared" where an option is one the join keys on in g, else "compared"), lines
 * separated by '\n' in out (n bytes). Returns the number of lines. */
int preset_diff(const struct groups *g, const char *a, const char *b, const char *na,
		const char *nb, char *out, size_t n);
#endif

/* Sorted copies of lists met again: report tests each machine's repetitions of a configuration
 * against every other machine's, so one list is sorted a dozen times. The cache keeps each list
 * (of at least SORT_CACHE_MIN values) and its sorted copy, so one sort serves every comparison it
 * is in; a copy serves only the very same list, compared bit for bit, so it is the copy sorting
 * would give. Per thread; the oldest go first past SORT_CACHE_BYTES. */
#ifndef C2C_SORT_CACHE_H
#define C2C_SORT_CACHE_H
#include <stddef.h>

#define SORT_CACHE_MIN 64
#define SORT_CACHE_BYTES ((size_t)64 << 20)

/* out[0..n) = v[0..n) sorted ascending (qsort by value): kept from before, or sorted now. */
void sort_cache_sorted(const double *v, size_t n, double *out);
/* Free the calling thread's copies. */
void sort_cache_clear(void);
#endif

/* compare's and report's description of a bench whose result set has none (an older schema):
 * this build's registry, written as the harness writes FILE.bench and FILE.columns, so analysis/
 * reads it by the one parser (analysis/resultset.h, groups_set_desc_fallback). */
#ifndef C2C_BENCH_FALLBACK_H
#define C2C_BENCH_FALLBACK_H

/* A groups_desc_fn: 1 with both texts when this build has the bench, else 0. */
int bench_fallback(const char *bench, const char *const *header, int ncols, char **desc,
		   char **columns);
#endif

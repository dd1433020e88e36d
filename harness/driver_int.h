/* What harness/driver.c (the repetitions and the run) and harness/driver_attempt.c (one attempt)
 * share. */
#ifndef C2C_DRIVER_INT_H
#define C2C_DRIVER_INT_H
#include "harness/bench.h"
#include "harness/counters/counters.h"
#include "harness/csv.h"
#include "harness/validity.h"

int attempt_once(struct bench_ctx *c, struct counters *ctr, const struct csv *out, int vi, int rep,
		 int attempt, struct row *r, struct vbroken *vb, char *err);
#endif

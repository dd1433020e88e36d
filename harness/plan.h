/* The verdict's plan, before a run. */
#ifndef C2C_PLAN_H
#define C2C_PLAN_H
#include "harness/bench.h"
#include <stdio.h>

/* Its family's tests (the verdict metrics against the baseline), and the smallest change it can
 * call at the run's repetitions and --cv-warn's CV. */
void summary_plan(const struct bench_ctx *c, FILE *f);
#endif

/* What the driver records of a run for its summary (schema/runfacts.h): the settings, in the
 * .meta's [run] section, and --reps auto's values of the primary metric while it runs. */
#ifndef C2C_DRIVER_FACTS_H
#define C2C_DRIVER_FACTS_H
#include "harness/bench.h"
#include "schema/runfacts.h"

/* The run's settings: repetitions, attempts, --cv-warn, --keep-invalid, --reps auto's rule, the
 * variants in order and what the bench fixes by construction under these settings. */
void driver_facts(const struct bench_ctx *c, struct run_facts *rf);

/* --reps auto: per variant, the primary metric's valid values (at most c->reps). */
struct prim {
	double *v;
	int *n, per;
};
void prim_init(struct prim *p, const struct bench_ctx *c);
void prim_add(struct prim *p, const struct bench_ctx *c, const struct row *r, int var);
void prim_free(struct prim *p);
#endif

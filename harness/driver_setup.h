/* The driver's set-up steps, apart from its measuring loop (harness/driver.c). */
#ifndef C2C_DRIVER_SETUP_H
#define C2C_DRIVER_SETUP_H
#include "harness/bench.h"

/* --reps N|auto and the validity tolerances into the context; a bad value is an input error. */
int validity_opts(struct bench_ctx *c, const struct opts *o, char *err);
/* The [validity] section of the run's .meta: each rule's option as used (c->rules, c->attempts),
 * relaxed = yes when a rule is looser than its default (vrules_default), and relaxed_by naming
 * those options ("--valid-oncpu 0"). After context_collect, which clears the context. */
void validity_record(struct bench_ctx *c);
/* --dry-run: the variants, repetitions, the time it would take and the thread plan. */
void print_dry_run(const struct bench_ctx *c);
/* The columns the harness knows for a BENCH_PLACED bench, after its run: placement,
 * placement_requested, placement_auto_why, mem_node_requested, mem_node (the node planned) and
 * mem_node_actual (c->mem_at's node). */
void bench_where_to_row(struct bench_ctx *c, struct row *r);
/* After each run: bench_mem's blocks and bench_threads' records freed. */
void bench_run_release(struct bench_ctx *c);
#endif

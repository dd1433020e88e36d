/* A run that measured nothing says so: per configuration, its valid repetitions and the validity
 * rules its invalid attempts broke; at the end of the run, the configurations with no valid
 * repetition, the dominant reason in words and what to try (docs/validity.md). */
#ifndef C2C_NOVALID_H
#define C2C_NOVALID_H
#include "harness/bench.h"
#include "harness/validity.h"
#include <stdio.h>

/* The first line of the end-of-run lines (preset finds a run's lines by it). */
#define NOVALID_HEAD "c2cbench: measured nothing: "
#define NOVALID_MORE 4 /* the indentation of a line's continuation, over 100 columns */

struct novalid;

struct novalid *novalid_new(int nvar);
/* One attempt of variant var: valid, or what it broke. */
void novalid_add(struct novalid *nv, int var, int valid, const struct vbroken *b);
/* Configurations attempted at least once that got no valid repetition. */
int novalid_count(const struct novalid *nv);
/* The end-of-run lines to f, nothing when every configuration has a valid repetition; csv names
 * where the rows are. */
void novalid_print(const struct novalid *nv, const struct bench_ctx *c, FILE *f, const char *csv);
void novalid_free(struct novalid *nv);
#endif

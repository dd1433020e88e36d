/* The counters' HITM input and the --reps auto report of the run summary. */
#include "harness/repsauto.h"
#include "harness/summary_parts.h"
#include "harness/repsauto.h"
#include <stdlib.h>
#include "harness/repsauto.h"
#include <string.h>
#include "harness/repsauto.h"

#include "harness/repsauto.h"
void hitm_seen_add(struct hitm_seen *h, const struct row *r, int var)
#include "harness/repsauto.h"
{
#include "harness/repsauto.h"
	int ok;
#include "harness/repsauto.h"
	const char *src = row_get(r, "hitm_source"), *why = row_get(r, "counters_status");
#include "harness/repsauto.h"
	if (!h->src[0] && src && strcmp(src, "NA"))
#include "harness/repsauto.h"
		snprintf(h->src, sizeof(h->src), "%s", src);
#include "harness/repsauto.h"
	if (!h->why[0] && why)
#include "harness/repsauto.h"
		snprintf(h->why, sizeof(h->why), "%s", why);
#include "harness/repsauto.h"
	double v = row_num(r, "hitm_per_kop", &ok);
#include "harness/repsauto.h"
	if (ok) { /* only values: of pingpong's rows, one a round is counted */
#include "harness/repsauto.h"
		h->var[h->n] = var;
#include "harness/repsauto.h"
		h->val[h->n] = v;
#include "harness/repsauto.h"
		h->ok[h->n++] = 1;
#include "harness/repsauto.h"
	}
#include "harness/repsauto.h"
	counters_seen_add(&h->cs, r);
#include "harness/repsauto.h"
}
#include "harness/repsauto.h"

#include "harness/repsauto.h"
void hitm_seen_free(struct hitm_seen *h)
#include "harness/repsauto.h"
{
#include "harness/repsauto.h"
	free(h->var);
#include "harness/repsauto.h"
	free(h->val);
#include "harness/repsauto.h"
	free(h->ok);
#include "harness/repsauto.h"
}
#include "harness/repsauto.h"

#include "harness/repsauto.h"
/* --reps auto: how each configuration stopped (counts, and the widest intervals). */
#include "harness/repsauto.h"
void print_auto(FILE *f, const struct bench_ctx *c, const enum reps_stop *stop, const double *width,
#include "harness/repsauto.h"
		const int *rounds)
#include "harness/repsauto.h"
{
#include "harness/repsauto.h"
	int n[4] = { 0 }, worst = -1;
#include "harness/repsauto.h"
	for (int v = 0; v < c->nvar; v++) {
#include "harness/repsauto.h"
		n[stop[v]]++;
#include "harness/repsauto.h"
		if (stop[v] != REPS_CI && (worst < 0 || width[v] > width[worst]))
#include "harness/repsauto.h"
			worst = v;
#include "harness/repsauto.h"
	}
#include "harness/repsauto.h"
	fprintf(f,
#include "harness/repsauto.h"
		"--reps auto: the variants stop together, on the widest interval among them "
#include "harness/repsauto.h"
		"(docs/validity.md):\n  %d stopped with the CI within %g%%, %d at --reps-max %d, "
#include "harness/repsauto.h"
		"%d at --reps-time %g s%s\n",
#include "harness/repsauto.h"
		n[REPS_CI], 100 * c->autocfg->ci_width, n[REPS_MAX], c->autocfg->max_reps,
#include "harness/repsauto.h"
		n[REPS_TIME], c->autocfg->max_s, n[REPS_GO] ? " (some cut short by a signal)" : "");
#include "harness/repsauto.h"
	for (int v = 0; v < c->nvar && c->nvar <= 16; v++)
#include "harness/repsauto.h"
		if (width[v] >= 0)
#include "harness/repsauto.h"
			fprintf(f, "  %s: %s after %d repetition(s), CI width %.1f%%\n",
#include "harness/repsauto.h"
				c->var[v].name, reps_stop_name(stop[v]), rounds[v], 100 * width[v]);
#include "harness/repsauto.h"
		else
#include "harness/repsauto.h"
			fprintf(f, "  %s: %s after %d repetition(s), CI NA (fewer than %d valid)\n",
#include "harness/repsauto.h"
				c->var[v].name, reps_stop_name(stop[v]), rounds[v], REPS_AUTO_MIN);
#include "harness/repsauto.h"
	if (c->nvar > 16 && worst >= 0)
#include "harness/repsauto.h"
		fprintf(f, "  widest not within: %s, %.1f%%\n", c->var[worst].name,
#include "harness/repsauto.h"
			100 * width[worst]);
#include "harness/repsauto.h"
}
#include "harness/repsauto.h"

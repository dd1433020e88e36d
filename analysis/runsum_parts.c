/* The counters' HITM input and the --reps auto report of the run summary. */
#include "harness/repsauto.h"
#include "harness/summary_parts.h"
#include <stdlib.h>
#include <string.h>

void hitm_seen_add(struct hitm_seen *h, const struct row *r, int var)
{
	int ok;
	const char *src = row_get(r, "hitm_source"), *why = row_get(r, "counters_status");
	if (!h->src[0] && src && strcmp(src, "NA"))
		snprintf(h->src, sizeof(h->src), "%s", src);
	if (!h->why[0] && why)
		snprintf(h->why, sizeof(h->why), "%s", why);
	double v = row_num(r, "hitm_per_kop", &ok);
	if (ok) { /* only values: of pingpong's rows, one a round is counted */
		h->var[h->n] = var;
		h->val[h->n] = v;
		h->ok[h->n++] = 1;
	}
	counters_seen_add(&h->cs, r);
}

void hitm_seen_free(struct hitm_seen *h)
{
	free(h->var);
	free(h->val);
	free(h->ok);
}

/* --reps auto: how each configuration stopped (counts, and the widest intervals). */
void print_auto(FILE *f, const struct bench_ctx *c, const enum reps_stop *stop, const double *width,
		const int *rounds)
{
	int n[4] = { 0 }, worst = -1;
	for (int v = 0; v < c->nvar; v++) {
		n[stop[v]]++;
		if (stop[v] != REPS_CI && (worst < 0 || width[v] > width[worst]))
			worst = v;
	}
	fprintf(f,
		"--reps auto: the variants stop together, on the widest interval among them "
		"(docs/validity.md):\n  %d stopped with the CI within %g%%, %d at --reps-max %d, "
		"%d at --reps-time %g s%s\n",
		n[REPS_CI], 100 * c->autocfg->ci_width, n[REPS_MAX], c->autocfg->max_reps,
		n[REPS_TIME], c->autocfg->max_s, n[REPS_GO] ? " (some cut short by a signal)" : "");
	for (int v = 0; v < c->nvar && c->nvar <= 16; v++)
		if (width[v] >= 0)
			fprintf(f, "  %s: %s after %d repetition(s), CI width %.1f%%\n",
				c->var[v].name, reps_stop_name(stop[v]), rounds[v], 100 * width[v]);
		else
			fprintf(f, "  %s: %s after %d repetition(s), CI NA (fewer than %d valid)\n",
				c->var[v].name, reps_stop_name(stop[v]), rounds[v], REPS_AUTO_MIN);
	if (c->nvar > 16 && worst >= 0)
		fprintf(f, "  widest not within: %s, %.1f%%\n", c->var[worst].name,
			100 * width[worst]);
}

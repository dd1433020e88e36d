/* The run's settings for its summary, and --reps auto's values (harness/driver_facts.h). */
#include "harness/driver_facts.h"
#include "harness/repsauto.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

void driver_facts(const struct bench_ctx *c, struct run_facts *rf)
{
	memset(rf, 0, sizeof(*rf));
	rf->known = 1;
	rf->reps = c->reps;
	rf->reps_auto = c->reps_auto;
	if (c->reps_auto) {
		rf->ci_width = c->autocfg->ci_width;
		rf->max_reps = c->autocfg->max_reps;
		rf->max_s = c->autocfg->max_s;
	}
	rf->attempts = c->attempts;
	rf->cv_warn = opt_double(c->o, "cv-warn");
	rf->keep_invalid = opt_flag(c->o, "keep-invalid");
	for (int v = 0; v < c->nvar; v++)
		run_facts_add_var(rf, c->var[v].name);
	if (c->b->summary_by || !c->b->by_construction)
		return;
	for (int v = 0; v < c->nvar; v++)
		for (int k = 0; c->b->summary && c->b->summary[k] && k < SUMMARY_MAX; k++) {
			const char *why = c->b->by_construction(c, v, c->b->summary[k]);
			if (!why)
				continue;
			rf->fixed =
			    realloc(rf->fixed, (size_t)(rf->nfixed + 1) * sizeof(*rf->fixed));
			if (!rf->fixed)
				out_of_memory(0);
			rf->fixed[rf->nfixed++] =
			    (struct run_fixed){ v, xstrdup(c->b->summary[k]), xstrdup(why) };
		}
}

void prim_init(struct prim *p, const struct bench_ctx *c)
{
	p->per = c->reps + 1;
	p->v = xcalloc(((size_t)c->nvar + 1) * (size_t)p->per, sizeof(double));
	p->n = xcalloc((size_t)c->nvar + 1, sizeof(int));
}

void prim_add(struct prim *p, const struct bench_ctx *c, const struct row *r, int var)
{
	int ok;
	if (!c->b->summary || !c->b->summary[0] || p->n[var] >= c->reps)
		return;
	double v = row_num(r, c->b->summary[0], &ok);
	if (ok)
		p->v[(size_t)var * (size_t)p->per + (size_t)p->n[var]++] = v;
}

void prim_free(struct prim *p)
{
	free(p->v);
	free(p->n);
}

/* The verdict's plan, printed before a run: its family's tests and the smallest change it can call
 * at the run's repetitions (the summary after the run is analysis/runsum.c's, from the files). */
#include "harness/plan.h"
#include "harness/bench_columns.h"
#include "lib/wrap.h"
#include "stats/twosample.h"
#include <stdio.h>
#include <string.h>

static int nmetrics(const struct bench *b)
{
	int k = 0;
	while (b->summary && b->summary[k] && k < SUMMARY_MAX)
		k++;
	return k;
}

static void summary_wrap(FILE *f, const char *text)
{
	text_lines(f, 100, 2, text);
}

void summary_plan(const struct bench_ctx *c, FILE *f)
{
	int nv = 0, n = c->reps;
	char names[300] = "";
	size_t k = 0;
	for (int i = 0; i < nmetrics(c->b); i++)
		if (bench_in_verdict(c->b, c->b->summary[i], NULL)) {
			nv++;
			if (k < sizeof(names))
				k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s",
						      k ? ", " : "", c->b->summary[i]);
		}
	if (c->b->summary_by || c->nvar < 2 || !nv) {
		char line[400];
		snprintf(line, sizeof(line),
			 "%s plan: %d %s(s) x %d repetition(s); no verdict within the run (%s); "
			 "compare gives one between machines",
			 c->b->name, c->nvar, c->b->variant_col, n,
			 c->b->summary_by ? "a line per group of rows"
			 : c->nvar < 2	  ? "one variant"
					  : "no verdict metric");
		summary_wrap(f, line);
		return;
	}
	int m = (c->nvar - 1) * nv;
	double cv = opt_double(c->o, "cv-warn") / 100, d = ts_power_change(n, m, cv);
	char line[900];
	if (d < 0)
		snprintf(
			line, sizeof(line),
			"%s plan: %d %s(s) x %d repetition(s); the verdict, %d test(s) (%s against "
			"the baseline): %d a side cannot reach p < 0.05 over them, %d a side can",
			c->b->name, c->nvar, c->b->variant_col, n, m, names, n, ts_reps_for(m));
	else
		snprintf(
			line, sizeof(line),
			"%s plan: %d %s(s) x %d repetition(s); the verdict, %d test(s) (%s against "
			"the baseline): at a CV of %g%% (--cv-warn) it calls a change of %.1f%% or "
			"more 8 times in 10 (docs/validity.md, \"The verdict\")",
			c->b->name, c->nvar, c->b->variant_col, n, m, names, 100 * cv, 100 * d);
	summary_wrap(f, line);
}

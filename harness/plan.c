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

/* Why variant v's value of metric is fixed by construction (a bound the summary does not test),
 * or NULL: as driver_facts records it for the summary. */
static const char *fixed(const struct bench_ctx *c, int v, const char *metric)
{
	return c->b->summary_by || !c->b->by_construction ? NULL
							  : c->b->by_construction(c, v, metric);
}

void summary_plan(const struct bench_ctx *c, FILE *f)
{
	int nv = 0, n = c->reps, m = 0;
	char names[300] = "", all[300] = "", bound[600] = ""; /* tested; every verdict metric */
	size_t k = 0, ka = 0, kb = 0;
	for (int i = 0; i < nmetrics(c->b); i++) {
		const char *name = c->b->summary[i];
		if (!bench_in_verdict(c->b, name, NULL))
			continue;
		nv++;
		if (ka < sizeof(all))
			ka += (size_t)snprintf(all + ka, sizeof(all) - ka, "%s%s", ka ? ", " : "",
					       name);
		int tested = 0;
		for (int v = 1; v < c->nvar; v++) { /* a bound on either side: no test, as in the
						       * summary */
			int at = fixed(c, 0, name) ? 0 : v;
			const char *why = fixed(c, at, name);
			tested += !why;
			if (why && (v == 1 || at) && kb < sizeof(bound))
				kb += (size_t)snprintf(bound + kb, sizeof(bound) - kb,
						       "%s%s of %s (%s)",
						       kb ? ", " : "fixed by construction: ", name,
						       c->var[at].name, why);
		}
		m += tested;
		if (tested && k < sizeof(names))
			k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s", k ? ", " : "",
					      name);
	}
	if (!c->b->summary_by && c->nvar > 1 && nv && !m) {
		/* every test within the run against a bound: the verdict is compare's, each variant
		 * against itself on another machine, over all of them */
		int mb = c->nvar * nv;
		double cv = opt_double(c->o, "cv-warn") / 100, d = ts_power_change(n, mb, cv);
		char line[2048], tail[200];
		if (d < 0)
			snprintf(tail, sizeof(tail),
				 "%d a side cannot reach p < 0.05 over them, %d a side can", n,
				 ts_reps_for(mb));
		else
			snprintf(tail, sizeof(tail),
				 "at a CV of %g%% (--cv-warn) it calls a change of %.1f%% or "
				 "more 8 times in 10",
				 100 * cv, 100 * d);
		snprintf(line, sizeof(line),
			 "%s plan: %d %s(s) x %d repetition(s); no verdict within the run (%s); "
			 "between machines, compare's verdict, %d test(s) (%s of each %s): %s "
			 "(docs/validity.md, \"The verdict\")",
			 c->b->name, c->nvar, c->b->variant_col, n, bound, mb, all,
			 c->b->variant_col, tail);
		summary_wrap(f, line);
		return;
	}
	if (c->b->summary_by || c->nvar < 2 || !nv) {
		char line[700];
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

/* The counters' HITM input and the --reps auto report of the run summary. */
#include "analysis/runsum_parts.h"
#include "lib/util.h"
#include <stdlib.h>
#include <string.h>

void hitm_seen_add(struct hitm_seen *h, const struct table *r, int var)
{
	int ok;
	const char *src = rs_get(r, "hitm_source"), *why = rs_get(r, "counters_status");
	if (!h->src[0] && src && strcmp(src, "NA"))
		snprintf(h->src, sizeof(h->src), "%s", src);
	if (!h->why[0] && why)
		snprintf(h->why, sizeof(h->why), "%s", why);
	double v = rs_num(r, "hitm_per_kop", &ok);
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

/* --reps auto: how each configuration stopped (counts, and the widest intervals), as the run's
 * .meta records it. */
void print_auto(FILE *f, const struct rs_ctx *c)
{
	static const char *const how[] = { "running", "ci", "max-reps", "time" };
	int n[4] = { 0 }, worst = -1;
	const struct run_stop *stop = c->rf->stop;
	for (int v = 0; v < c->nvar; v++) {
		int k = 0;
		while (k < 4 && strcmp(stop[v].how, how[k]))
			k++;
		n[k < 4 ? k : 0]++;
		if (k != 1 && (worst < 0 || stop[v].width > stop[worst].width))
			worst = v;
	}
	fprintf(f,
		"--reps auto: the variants stop together, on the widest interval among them "
		"(docs/validity.md):\n  %d stopped with the CI within %g%%, %d at --reps-max %d, "
		"%d at --reps-time %g s%s\n",
		n[1], 100 * c->autocfg->ci_width, n[2], c->autocfg->max_reps, n[3],
		c->autocfg->max_s, n[0] ? " (some cut short by a signal)" : "");
	for (int v = 0; v < c->nvar && c->nvar <= 16; v++)
		if (stop[v].width >= 0)
			fprintf(f, "  %s: %s after %d repetition(s), CI width %.1f%%\n",
				c->var[v].name, stop[v].how[0] ? stop[v].how : "running",
				stop[v].rounds, 100 * stop[v].width);
		else
			fprintf(f, "  %s: %s after %d repetition(s), CI NA (fewer than %d valid)\n",
				c->var[v].name, stop[v].how[0] ? stop[v].how : "running",
				stop[v].rounds, REPS_AUTO_MIN);
	if (c->nvar > 16 && worst >= 0)
		fprintf(f, "  widest not within: %s, %.1f%%\n", c->var[worst].name,
			100 * stop[worst].width);
}

void counters_summary(FILE *f, const char *src, const char *why, const struct rs_ctx *c,
		      const int *var, const double *hitm, const unsigned char *ok, int n)
{
	double *vals = xcalloc((size_t)(n ? n : 1), sizeof(double)), base = 0;
	int nvar = c->nvar, any = 0;
	for (int i = 0; i < n; i++)
		any |= ok[i];
	if (!any) { /* one line (wrapped), not a line of NA per variant */
		char *line = xcalloc(1, strlen(why) + 128);
		sprintf(line, "HITM per 1,000 operations: NA, not counted (%s)",
			why[0] && strcmp(why, "ok") ? why : "no HITM metric or stand-in counted");
		fputc('\n', f);
		summary_wrap(f, line);
		free(line);
		free(vals);
		return;
	}
	fprintf(f, "\nHITM (or stand-in) per 1,000 operations%s%s%s, change against '%s'\n",
		src[0] ? " [" : "", src, src[0] ? "]" : "", nvar ? c->var[0].name : "");
	/* the values bucketed by variant in one pass (first[v] .. first[v + 1]), not a pass over
	 * the rows per variant: 589,056 variants x 2.9 million rows on a 768-PU pingpong matrix */
	int *first = xcalloc((size_t)nvar + 2, sizeof(int)), *fill;
	for (int i = 0; i < n; i++)
		if (ok[i] && var[i] >= 0 && var[i] < nvar)
			first[var[i] + 2]++;
	for (int v = 0; v < nvar; v++)
		first[v + 2] += first[v + 1];
	fill = first + 1;
	for (int i = 0; i < n; i++)
		if (ok[i] && var[i] >= 0 && var[i] < nvar)
			vals[fill[var[i]]++] = hitm[i];
	for (int v = 0; v < nvar; v++) {
		size_t k = (size_t)(first[v + 1] - first[v]);
		struct stats s = stats_of(vals + first[v], k);
		if (v == 0)
			base = k ? s.median : 0;
		if (!k)
			fprintf(f, "%-16s  %14s  NA (%s)\n", c->var[v].name, "NA",
				why[0] && strcmp(why, "ok") ? why : "not counted");
		else if (base > 0)
			fprintf(f, "%-16s  %14.4g  %+.2f%%\n", c->var[v].name, s.median,
				100.0 * (s.median - base) / base);
		else
			fprintf(f, "%-16s  %14.4g  NA (baseline is 0 or NA)\n", c->var[v].name,
				s.median);
	}
	free(first);
	free(vals);
}

void counters_seen_add(struct counters_seen *s, const struct table *r)
{
	int ok;
	const char *mux = rs_get(r, "counters_multiplexed");
	double passes = rs_num(r, "counter_passes", &ok), pct;
	s->rows++;
	if (ok && passes > s->passes)
		s->passes = (int)passes;
	if (mux && !strcmp(mux, "no"))
		s->mux_no++;
	if (!mux || strcmp(mux, "yes"))
		return;
	pct = rs_num(r, "counters_running_pct", &ok);
	if (ok && (!s->mux_yes || pct < s->min_pct))
		s->min_pct = pct;
	s->mux_yes++;
}

void counters_seen_print(FILE *f, const struct counters_seen *s)
{
	char line[512];
	if (s->passes > 1) {
		snprintf(
		    line, sizeof(line),
		    "counters: the requested events did not fit the PMU's "
		    "counters at once: each configuration ran %d passes (counter_passes), each "
		    "event counted whole in one of them",
		    s->passes);
		summary_wrap(f, line);
	}
	if (s->mux_yes) {
		snprintf(
		    line, sizeof(line),
		    "counters: MULTIPLEXED: the kernel time-shared the "
		    "counters in %d of %d rows (counters_multiplexed=yes, lowest share running "
		    "%.1f%%): those counts cover only part of the measured phase, unscaled",
		    s->mux_yes, s->rows, s->min_pct);
		summary_wrap(f, line);
	}
}

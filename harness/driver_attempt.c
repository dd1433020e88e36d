/* One attempt of one repetition (harness/driver.c runs the repetitions): the placement probes
 * around the run, each counter pass, the validity verdict, and the row filled around the bench's
 * columns. */
#include "harness/driver_int.h"
#include "harness/context.h"
#include "harness/driver_setup.h"
#include "harness/perfc2c.h"
#include "harness/probe.h"
#include "harness/validity.h"
#include <stdio.h>
#include <string.h>

static void fill_front(const struct bench_ctx *c, struct row *r, int rep, int vi, int attempt)
{
	row_set(r, "schema_version", "%d", SCHEMA_VERSION);
	row_set(r, "bench", "%s", c->b->name);
	row_set(r, c->b->variant_col, "%s", c->var[vi].name);
	row_set(r, "rep", "%d", rep);
	row_set(r, "attempt", "%d", attempt);
	row_set(r, "valid",
		"NA"); /* filled once the evidence is in (the columns keep this place) */
	row_set(r, "invalid_reason", "NA");
}

static void fill_back(const struct bench_ctx *c, struct row *r)
{
	context_to_row(c->ctx, r);
	row_set(r, "duration_requested_s", "%g", c->duration);
	row_set(r, "warmup_requested_s", "%g", c->warmup);
	row_set(r, "seed", "%llu", (unsigned long long)c->seed);
	row_set(r, "na_reason", "%s", r->na_reason);
}

/* One configuration: as many runs as the counter groups need; bench columns and evidence come
 * from the first, every pass's evidence is checked. */
static int run_passes(struct bench_ctx *c, struct counters *k, int vi, int rep, struct row *r,
		      char *why, struct vbroken *vb, char *err)
{
	int rc = 0;
	counters_run_begin(k);
	why[0] = 0;
	for (int pass = 0; pass < counters_passes(k) && !rc; pass++) {
		struct row extra = { 0 };
		char pr[ERRLEN];
		counters_pass_begin(k, pass);
		c->hooks = counters_hooks(k);
		if (pass) { /* a later pass keeps pass 0's evidence for the row, checks its own */
			struct evidence keep = c->ev;
			memset(&c->ev, 0, sizeof(c->ev));
			c->ev.requested_s = keep.requested_s;
			rc = c->b->run ? c->b->run(c, &c->var[vi], rep, &extra, err) : 0;
			bench_run_release(c);
			if (!rc && !validity_judge(&c->ev, c->rules, pr, sizeof(pr), vb)) {
				size_t k = strlen(why);
				int w = snprintf(why + k, ERRLEN - k,
						 "%scounter pass %d: ", k ? "; " : "", pass + 1);
				if (w > 0 && k + (size_t)w < ERRLEN)
					snprintf(why + k + (size_t)w, ERRLEN - k - (size_t)w,
						 "%.*s", (int)(ERRLEN - k - (size_t)w - 1), pr);
			}
			evidence_free(&c->ev);
			c->ev = keep;
		} else {
			rc = c->b->run ? c->b->run(c, &c->var[vi], rep, r, err) : 0;
			if (!rc && c->b->flags & BENCH_PLACED)
				bench_where_to_row(c, r);
			bench_run_release(c);
		}
		counters_pass_end(k, pass);
		row_clear(&extra);
	}
	c->hooks = NULL;
	if (!rc)
		counters_to_row(k, r);
	if (!rc && c->b->finish_row)
		c->b->finish_row(c, r);
	return rc;
}

/* The placement probe of each pair: well under 1% of a repetition in all. */
static void probe_all(struct bench_ctx *c, double *out)
{
	double rep_s = c->run_s > 0 ? c->run_s : c->warmup + c->duration;
	uint64_t budget = (uint64_t)(rep_s * 1e9 * 0.002 / (c->ev.nprobe ? c->ev.nprobe : 1));
	for (int i = 0; i < c->ev.nprobe; i++)
		out[i] = probe_pair_ns(c->topo, c->ev.probe_a[i], c->ev.probe_b[i], budget);
}

/* One attempt of one repetition: probe, run, probe, judge; the row is whole or not written. */
int attempt_once(struct bench_ctx *c, struct counters *ctr, const struct csv *out, int vi, int rep,
		 int attempt, struct row *r, struct vbroken *vb, char *err)
{
	char why[ERRLEN], reason[ERRLEN];
	double before[EV_PROBES];
	evidence_reset(&c->ev);
	c->ev.requested_s = c->b->flags & BENCH_WINDOW ? c->duration : 0;
	c->ev.nprobe = bench_probe_pairs(c, &c->var[vi], c->ev.probe_a, c->ev.probe_b, EV_PROBES);
	probe_all(c, before);
	fill_front(c, r, rep, vi, attempt);
	struct perfc2c pc;
	int c2c = opt_flag(c->o, "perf-c2c"),
	    c2c_file = c2c && c->out_path && strcmp(c->out_path, "-");
	if (c2c_file)
		perfc2c_start(&pc, c->out_path, out->rows + 1);
	c->ev_on = 1;
	int rc = run_passes(c, ctr, vi, rep, r, why, vb, err);
	c->ev_on = 0;
	if (c2c_file)
		perfc2c_stop(&pc, r);
	else if (c2c && !rc)
		perfc2c_na(r, "the CSV goes to standard output: no file beside it for the report");
	if (rc)
		return rc;
	memcpy(c->ev.probe_before, before, sizeof(before));
	probe_all(c, c->ev.probe_after);
	int ok = validity_judge(&c->ev, c->rules, reason, sizeof(reason), vb) && !why[0];
	size_t k = strlen(reason);
	if (why[0] && k + 3 < sizeof(reason))
		snprintf(reason + k, sizeof(reason) - k, "%s%.*s", k ? "; " : "",
			 (int)(sizeof(reason) - k - 3), why);
	row_set(r, "valid", "%s", ok ? "yes" : "no");
	row_set(r, "invalid_reason", "%s", ok ? "" : reason);
	evidence_to_row(&c->ev, r, c->b->validity.roles);
	fill_back(c, r);
	return c->b->row_done ? c->b->row_done(c, r, err) : 0;
}

/* What the driver settles before it measures: --reps and the validity tolerances, and the dry run's
 * plan. */
#include "harness/driver_setup.h"
#include "harness/context.h"
#include "harness/progress.h"
#include "harness/plan.h"
#include "lib/util.h"
#include "harness/validity.h"
#include "harness/repsauto.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --reps N|auto and the validity tolerances into the context; a bad value is an input error. */
int validity_opts(struct bench_ctx *c, const struct opts *o, char *err)
{
	const char *reps = opt_str(o, "reps");
	double f = opt_double(o, "valid-probe"); /* both checked by the option parser */
	c->reps_auto = !strcmp(reps, "auto");
	*c->autocfg = (struct reps_auto){opt_double(o, "reps-ci") / 100,
					(int)opt_long(o, "reps-max"), opt_double(o, "reps-time")};
	if (c->reps_auto && c->autocfg->max_reps < REPS_AUTO_MIN)
		return err_set(err,
			       "--reps-max: '%d' is too few for --reps auto; accepted: %d or more "
			       "(for a 95%% CI)",
			       c->autocfg->max_reps, REPS_AUTO_MIN);
	c->reps = c->reps_auto ? c->autocfg->max_reps : (int)atol(reps);
	c->attempts = (int)opt_long(o, "max-attempts");
	*c->rules = (struct vrules){
		.window_tol = opt_double(o, "valid-window") / 100,
		.oncpu_min = opt_double(o, "valid-oncpu") / 100,
		.overlap_min = opt_double(o, "valid-overlap") / 100,
		.steal_max = opt_double(o, "valid-steal") / 100,
		.probe_factor = f,
		.setting_tol = opt_double(o, "valid-setting") / 100,
	};
	return 0;
}

static void kv(struct context *x, const char *key, const char *val)
{
	if (x->nvalidity >= CTX_VALIDITY)
		return;
	struct ctx_kv *e = &x->validity[x->nvalidity++];
	snprintf(e->key, sizeof(e->key), "%s", key);
	snprintf(e->val, sizeof(e->val), "%s", val);
}

void validity_record(struct bench_ctx *c)
{
	const struct vrules *r = c->rules, *d = &vrules_default;
	/* per rule: its option, the value as the option gives it, and whether it is looser */
	const struct {
		const char *opt;
		double v;
		int looser;
	} rule[] = {
		{ "valid-window", 100 * r->window_tol, r->window_tol > d->window_tol },
		{ "valid-oncpu", 100 * r->oncpu_min, r->oncpu_min < d->oncpu_min },
		{ "valid-overlap", 100 * r->overlap_min, r->overlap_min < d->overlap_min },
		{ "valid-steal", 100 * r->steal_max, r->steal_max > d->steal_max },
		{ "valid-probe", r->probe_factor, r->probe_factor > d->probe_factor },
		{ "valid-setting", 100 * r->setting_tol, r->setting_tol > d->setting_tol },
	};
	char by[200] = "", v[32];
	size_t k = 0;
	for (size_t i = 0; i < ARRAY_SIZE(rule); i++) {
		snprintf(v, sizeof(v), "%g", rule[i].v);
		kv(c->ctx, rule[i].opt, v);
		if (rule[i].looser && k < sizeof(by))
			k += (size_t)snprintf(by + k, sizeof(by) - k, "%s--%s %g", k ? " " : "",
					      rule[i].opt, rule[i].v);
	}
	snprintf(v, sizeof(v), "%d", c->attempts);
	kv(c->ctx, "max-attempts", v);
	kv(c->ctx, "relaxed", k ? "yes" : "no");
	if (k)
		kv(c->ctx, "relaxed_by", by);
}

#define DRY_RUN_VARIANTS 1000 /* variants the dry run names (pingpong on 256 PUs has 65,280) */

void print_dry_run(const struct bench_ctx *c)
{
	if (c->reps_auto)
		printf("--reps auto: each configuration until its median's 95%% CI is within %g%%, "
		       "%d to %d repetitions, rounds started within %g s; the estimate below is "
		       "for the most\n",
		       100 * c->autocfg->ci_width, REPS_AUTO_MIN, c->autocfg->max_reps,
		       c->autocfg->max_s);
	double total = c->nvar * c->reps * (c->run_s > 0 ? c->run_s : c->warmup + c->duration);
	char hms[32];
	fmt_hms(hms, sizeof(hms), total); /* the seconds stay first: preset reads them back */
	if (c->run_s > 0)
		printf("bench %s: %d variant(s) x %d repetition(s), about %.3g s each: about %.0f "
		       "s (%s)\n",
		       c->b->name, c->nvar, c->reps, c->run_s, total, hms);
	else
		printf("bench %s: %d variant(s) x %d repetition(s), %.3g s warm-up + %.3g s each: "
		       "about %.0f s (%s)\n",
		       c->b->name, c->nvar, c->reps, c->warmup, c->duration, total, hms);
	printf("%s:", c->b->variant_col);
	for (int i = 0; i < c->nvar && i < DRY_RUN_VARIANTS; i++)
		printf(" %s", c->var[i].name);
	if (c->nvar > DRY_RUN_VARIANTS)
		printf(" ... and %d more", c->nvar - DRY_RUN_VARIANTS);
	printf("\n");
	if (c->plan.n)
		plan_print(&c->plan, c->topo, stdout);
	summary_plan(c, stdout);
}

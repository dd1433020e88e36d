/* Runs a bench: options, topology, plan, repetitions in shuffled order, CSV rows, summary table. */
#include "harness/bench.h"
#include "schema/meta.h"
#include "harness/bench_columns.h"
#include "harness/bench_desc_out.h"
#include "harness/counters/counters.h"
#include "harness/csv.h"
#include "harness/driver_int.h"
#include "harness/context.h"
#include "harness/driver_setup.h"
#include "schema/probeclass.h"
#include "harness/novalid.h"
#include "harness/progress.h"
#include "harness/signals.h"
#include "harness/plan.h"
#include "harness/driver_facts.h"
#include "harness/driver_tee.h"
#include "lib/wrap.h"
#include "harness/validity.h"
#include "harness/repsauto.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* xorshift64*: a reproducible shuffle from the recorded seed. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static void shuffle(int *a, int n, uint64_t *s)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)(next_rand(s) % (uint64_t)(i + 1)), t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

static int default_out(const struct bench_ctx *c, char *path, size_t n, char *err)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", localtime_r(&now, &tm));
	if (mkdir("results", 0755) && errno != EEXIST)
		return err_set(err, "cannot create directory 'results': %s; use --out FILE",
			       strerror(errno));
	for (int k = 1; k < 100; k++) {
		if (k == 1)
			snprintf(path, n, "results/%s-%s-%s.csv", c->b->name, c->ctx->label, stamp);
		else
			snprintf(path, n, "results/%s-%s-%s-%d.csv", c->b->name, c->ctx->label,
				 stamp, k);
		if (access(path, F_OK))
			return 0;
	}
	return err_set(err, "too many result files named results/%s-%s-%s*.csv", c->b->name,
		       c->ctx->label, stamp);
}

/* --help lists exactly the options this bench takes; errors are one line, exit 2. */
static int usage_error(const struct bench *b, const char *msg)
{
	if (!strcmp(msg, "help")) {
		struct opt_spec h[HARNESS_OPTS_MAX];
		printf("usage: c2cbench run %s [options]\n", b->name);
		text_wrap(stdout, 0, 0, TEXT_WIDTH, b->desc);
		printf("exit status: 0 done; 1 a write failed; 2 bad input; 3 --require-counters "
		       "without counters;\n"
		       "4 a configuration got no valid repetition (the end of the output says "
		       "which and why); 128+N signal N\n");
		printf("\nharness options:\n");
		opts_help(stdout, bench_harness_opts(b, h, HARNESS_OPTS_MAX));
		if (b->opts && b->opts[0].name) {
			printf("\n%s options:\n", b->name);
			opts_help(stdout, b->opts);
		}
		return 0;
	}
	fprintf(stderr, "c2cbench: error: %s\n", msg);
	return EXIT_BADINPUT;
}

/* A harness option this bench does not take is named as such, not as an unknown option. */
static int refused_option(const struct bench *b, int argc, char **argv, char *err)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (strncmp(argv[i], "--", 2))
			continue;
		char name[64];
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(argv[i] + 2, "="), argv[i] + 2);
		const char *why;
		if (bench_refuses(b, name, &why))
			return err_set(err, "%s does not take --%s (%s); see --help", b->name,
				       name, why);
		for (const struct opt_spec *s = harness_opts; s->name;
		     s++) /* skip the value of a valued option */
			if (!strcmp(s->name, name) && s->type != OPT_FLAG && !strchr(argv[i], '='))
				i++;
	}
	return 0;
}

/* Seconds one configuration is planned to take (all its counter passes). */
static double config_est(const struct bench_ctx *c, const struct counters *k)
{
	return (c->run_s > 0 ? c->run_s : c->warmup + c->duration) *
	       (counters_passes(k) > 0 ? counters_passes(k) : 1);
}

/* What the live line shows: redrawn before each attempt and every second while it runs. */
struct live {
	struct progress *pg;
	const struct bench_ctx *c;
	int rep, k, done;     /* repetition, variant, repetitions finished */
	int attempt, attempts; /* this repetition's attempt (1-based), attempts finished in all */
	double est, astart;    /* planned seconds per attempt; elapsed when this attempt began */
	/* --probe-class same: each probed pair's first valid latency, whichever variant probed it
	 */
	struct first_probe *first;
	int nfirst, cap_first;
};

struct first_probe {
	int a, b;
	double lat;
	int var; /* the variant whose repetition set it */
};

/* --probe-class same: a valid attempt whose probed pair is of another class than that pair's first
 * valid latency in the run, whichever variant set it, becomes invalid, with the reason: every
 * variant of the run (shared and aligned alike) is measured on one hidden placement. The first
 * valid probe of a pair sets its class. */
static void probe_class_check(struct bench_ctx *c, struct live *lv, int vi, struct row *r)
{
	double lat[EV_PROBES];
	int at[EV_PROBES];
	if (!lv->cap_first || strcmp(row_get(r, "valid"), "yes"))
		return;
	for (int i = 0; i < c->ev.nprobe; i++) {
		lat[i] = probe_latency(c->ev.probe_before[i], c->ev.probe_after[i]);
		at[i] = -1;
		for (int k = 0; k < lv->nfirst; k++)
			if (lv->first[k].a == c->ev.probe_a[i] &&
			    lv->first[k].b == c->ev.probe_b[i])
				at[i] = k;
	}
	for (int i = 0; i < c->ev.nprobe; i++) {
		const struct first_probe *f = at[i] >= 0 ? &lv->first[at[i]] : NULL;
		if (f && !probe_same_class(&lat[i], &f->lat, 1)) {
			row_set(r, "valid", "no");
			row_set(r, "invalid_reason",
				"probe-class: pair %d-%d at %.1f ns, the run's first valid "
				"repetition of it (%s) at %.1f ns (more than %gx apart: another "
				"placement; --probe-class same)",
				c->ev.probe_a[i], c->ev.probe_b[i], lat[i], c->var[f->var].name,
				f->lat, PROBE_CLASS_GAP);
			return;
		}
	}
	for (int i = 0; i < c->ev.nprobe; i++) /* a pair first seen valid sets its class */
		if (at[i] < 0 && lat[i] > 0) {
			if (lv->nfirst == lv->cap_first) {
				lv->cap_first *= 2;
				lv->first = realloc(lv->first,
						    (size_t)lv->cap_first * sizeof(*lv->first));
				if (!lv->first)
					out_of_memory(0);
			}
			lv->first[lv->nfirst++] = (struct first_probe){c->ev.probe_a[i],
								 c->ev.probe_b[i], lat[i], vi};
		}
}

/* The live line on a terminal: which configuration, repetition and attempt, elapsed and about how
 * long is left. Retries count: the pace is measured per attempt, and the attempts a repetition took
 * so far (invalid ones run again) multiply what is left. */
static void show_progress(void *arg)
{
	const struct live *v = arg;
	char e[32], l[32], at[48] = "";
	int total = v->c->reps * v->c->nvar;
	double el = progress_elapsed(v->pg), in = el - v->astart;
	double left = progress_eta(v->astart, in, v->attempts, v->done, total, v->attempt, v->est);
	char where[96];
	snprintf(where, sizeof(where), "rep %d of %d, attempt %d of %d", v->rep + 1, v->c->reps,
		 v->attempt, v->c->attempts);
	progress_left(v->pg, left, where);
	fmt_hms(e, sizeof(e), el);
	fmt_hms(l, sizeof(l), left > 0 ? left : 0);
	if (v->attempt > 1)
		snprintf(at, sizeof(at), ", attempt %d of %d", v->attempt, v->c->attempts);
	progress_show(v->pg, "[%s] rep %d/%d, %s %s (%d of %d%s)  elapsed %s, about %s left",
		      v->c->b->name, v->rep + 1, v->c->reps, v->c->b->variant_col,
		      v->c->var[v->k].name, v->done + 1, total, at, e, l);
}

/* One repetition of one configuration: attempts until one is valid or --max-attempts are spent. */
static int run_rep(struct bench_ctx *c, struct counters *ctr, struct csv *out, struct prim *pr,
		   struct novalid *nv, int vi, int rep, struct live *lv, char *err)
{
	int rc = 0;
	for (int a = 1; a <= c->attempts && !rc && !signals_pending(); a++) {
		struct row r = { 0 };
		struct vbroken vb = { 0 };
		lv->attempt = a, lv->astart = progress_elapsed(lv->pg);
		show_progress(lv);
		rc = attempt_once(c, ctr, out, vi, rep, a, &r, &vb, err);
		if (!rc)
			probe_class_check(c, lv, vi, &r);
		if (!rc) {
			if (!out->ncols) /* the first row fixes the header; the rest match it */
				bench_row_check(c->b, &r);
			rc = csv_write(out, &r, err);
			if (!rc && c->tee)
				rc = csv_write(c->tee, &r, err);
		}
		/* the side files of the CSV and of its copy */
		const char *side[] = { c->columns_path, c->tee_columns };
		for (int s = 0; s < 2 && !rc && out->rows == 1; s++)
			if (side[s] &&
			    (bench_columns_write(c->b, side[s], out->cols, out->ncols, err) ||
			     bench_desc_out(c->b, side[s], err)))
				rc = -1;
		int valid = !rc && !strcmp(row_get(&r, "valid"), "yes");
		lv->attempts++;
		if (!rc) {
			if (valid && c->reps_auto)
				prim_add(pr, c, &r, vi);
			novalid_add(nv, vi, valid, &vb);
		}
		row_clear(&r);
		if (valid)
			break;
	}
	return rc;
}

/* --reps auto: after each round, stop every variant together once the widest interval among
 * them is narrow enough, or at a cap (harness/repsauto.h): until then each keeps its place in
 * every shuffled round. */
static int auto_round_end(struct bench_ctx *c, struct prim *pr, struct run_facts *rf, int *active,
			  int rounds, uint64_t t0)
{
	size_t nv = (size_t)c->nvar + 1;
	double *width = xcalloc(nv, sizeof(double)), widest;
	const double **vp = xcalloc(nv, sizeof(*vp));
	int left = 0;
	for (int i = 0; i < c->nvar; i++) /* each variant's values where prim_add keeps them */
		vp[i] = pr->v + (size_t)i * (size_t)pr->per;
	enum reps_stop st = reps_auto_stop_all(vp, pr->n, c->nvar, rounds,
					       (double)(now_ns() - t0) / 1e9, c->autocfg, width,
					       &widest);
	for (int i = 0; i < c->nvar; i++) {
		if (st != REPS_GO && active[i]) {
			active[i] = 0;
			run_facts_stop(rf, i, st, width[i], rounds);
		}
		left += active[i];
	}
	free(vp);
	free(width);
	return left;
}

static int run_all(struct bench_ctx *c, struct counters *ctr, struct csv *out, FILE *sumf,
		   struct novalid *nv, struct run_facts *rf, char *err)
{
	int *order = xcalloc((size_t)c->nvar, sizeof(int)),
	    *active = xcalloc((size_t)c->nvar, sizeof(int)), rc = 0, left = c->nvar, done = 0;
	struct prim pr;
	prim_init(&pr, c);
	struct progress pg;
	uint64_t rng = c->seed, t0 = now_ns();
	for (int i = 0; i < c->nvar; i++)
		active[i] = 1;
	progress_start(&pg, stderr, !opt_flag(c->o, "quiet"));
	struct live lv = { &pg, c, 0, 0, 0, 0, 0, config_est(c, ctr), 0, NULL, 0, 0 };
	if (!strcmp(opt_str(c->o, "probe-class"), "same")) {
		lv.cap_first = 16;
		lv.first = xcalloc((size_t)lv.cap_first, sizeof(*lv.first));
	}
	if (!opt_flag(c->o, "quiet") && !c->reps_auto)
		summary_plan(c, sumf);
	if (pg.on || pg.lines) /* the waits of this (controlling) thread redraw it every second */
		progress_ticker(show_progress, &lv);
	for (int rep = 0; rep < c->reps && !rc && left; rep++) {
		for (int i = 0; i < c->nvar; i++)
			order[i] = i;
		shuffle(order, c->nvar, &rng);
		int nrun = c->b->reorder ? c->b->reorder(c, rep, order, err) : c->nvar;
		if (nrun < 0) {
			rc = -1;
			break;
		}
		for (int k = 0; k < nrun && !rc && !signals_pending(); k++)
			if (active[order[k]]) {
				lv.rep = rep, lv.k = order[k], lv.done = done;
				rc = run_rep(c, ctr, out, &pr, nv, order[k], rep, &lv, err);
				done++;
			}
		if (c->reps_auto && !rc && !signals_pending())
			left = auto_round_end(c, &pr, rf, active, rep + 1, t0);
	}
	progress_ticker(NULL, NULL);
	progress_clear(&pg);
	for (int i = 0; c->reps_auto && i < c->nvar; i++)
		if (active[i]) /* cut short: still running when it stopped */
			run_facts_stop(rf, i, REPS_GO, -1, 0);
	prim_free(&pr);
	free(lv.first);
	free(order);
	free(active);
	return rc;
}

/* The run context goes next to the CSV (or to --meta FILE) before anything is measured; a CSV sent
 * to standard output, a device or a pipe has no "next to": it keeps only the context columns. */
static int open_meta(const struct bench_ctx *c, const char *csv, char *meta, size_t n, char *err)
{
	struct stat st;
	const char *want = opt_str(c->o, "meta");
	meta[0] = 0;
	if (want) {
		snprintf(meta, n, "%s", want);
		if (bench_sides_absent(c->b, csv, meta, err) ||
		    context_write_meta(c->ctx, meta, err))
			return -1;
		return 0;
	}
	if (!strcmp(csv, "-"))
		return 0; /* standard output: the context columns only, unless --meta says where */
	if (stat(csv, &st) || !S_ISREG(st.st_mode)) {
		fprintf(stderr,
			"c2cbench: note: --out %s is not a regular file: no .meta file (--meta "
			"FILE writes one), only the context columns\n",
			csv);
		return 0;
	}
	context_meta_path(csv, meta, n);
	if (bench_sides_absent(c->b, csv, meta, err) || context_write_meta(c->ctx, meta, err))
		return -1;
	return 0;
}

/* The .meta says how the run ended, so a result set cut short is never mistaken for a whole one. */
static int mark_meta(const struct bench_ctx *c, const char *meta, long rows, int rc,
		     const char *err, const struct run_facts *rf, char *cerr)
{
	char why[32];
	int sig = signals_pending();
	snprintf(why, sizeof(why), "SIG%s", sig ? sigabbrev_np(sig) : "");
	return context_meta_status(c->ctx, meta,
				   sig  ? "interrupted"
				   : rc ? "failed"
					: "complete",
				   rows,
				   sig  ? why
				   : rc ? err
					: NULL,
				   rf, cerr);
}

/* What an out-of-memory exit removes: the run's CSV and .meta while they hold no row (util.c). */
static const struct csv *oom_out;
static const char *oom_meta;

static void remove_empty_outputs(void)
{
	if (oom_out && oom_out->created && !oom_out->rows && oom_out->path) {
		unlink(oom_out->path);
		if (oom_meta && oom_meta[0])
			unlink(oom_meta);
	}
}

/* The bench's prepare; without one, nothing to check and one variant, "default". */
static int prepare(struct bench_ctx *c, char *err)
{
	if (!c->b->prepare) {
		bench_variant(c, "default", 0);
		return 0;
	}
	return c->b->prepare(c, err);
}

int bench_main(const struct bench *b, int argc, char **argv)
{
	struct opt_spec htab[HARNESS_OPTS_MAX];
	const struct opt_spec *tables[] = {bench_harness_opts(b, htab, HARNESS_OPTS_MAX), b->opts,
					   NULL};
	struct opts o = { 0 };
	struct topo topo;
	struct csv out = { .fd = -1 };
	struct run_facts rf = { 0 };
	struct tee tee = { 0 };
	char err[ERRLEN] = "", path[1024], meta[1100], columns[1200];
	struct bench_ctx *c = xcalloc(1, sizeof(*c));
	struct context ctx = { 0 };
	struct vrules rules = { 0 };
	struct reps_auto autocfg = { 0 };
	struct counters *ctr = xcalloc(1, sizeof(*ctr));
	struct novalid *nv = NULL;
	int rc = 0;

	c->ctx = &ctx;
	c->rules = &rules;
	c->autocfg = &autocfg;
	if (refused_option(b, argc, argv, err) || opts_parse(&o, tables, argc, argv, err)) {
		opts_free(&o);
		free(c);
		free(ctr);
		return usage_error(b, err);
	}
	if (o.nargs)
		rc = err_set(err, "unexpected argument '%s'; options start with --", o.args[0]);
	if (!rc && validity_opts(c, &o, err))
		rc = -1;
	if (!rc && topo_load(&topo, opt_str(&o, "topology"), err))
		rc = -1;
	if (rc) {
		opts_free(&o);
		free(c);
		free(ctr);
		return usage_error(b, err);
	}
	c->b = b;
	c->o = &o;
	c->topo = &topo;
	c->duration = bench_refuses(b, "duration", NULL) ? 0 : opt_double(&o, "duration");
	c->warmup = bench_refuses(b, "warmup", NULL) ? 0 : opt_double(&o, "warmup");
	c->seed = (uint64_t)opt_long(&o, "seed");
	if (!c->seed)
		c->seed = (now_ns() ^ (uint64_t)getpid()) | 1;
	context_collect(c->ctx, &topo);
	validity_record(c);
	if ((b->flags & BENCH_PLACED) &&
	    !strcmp(opt_str(&o, "placement"),
		    "auto")) /* before planning: auto depends on what the counters can see */
		counters_auto_hint(opt_str(&o, "pmu"), &topo);

	signals_install(); /* from here INT, TERM, HUP, PIPE or XFSZ stops the run cleanly, not the
			      process */
	if (context_set_label(c->ctx, opt_str(&o, "label"), err))
		rc = EXIT_BADINPUT;
	else if (prepare(c, err))
		rc = EXIT_BADINPUT;
	else if (counters_open(ctr, opt_str(&o, "events"), opt_str(&o, "pmu"), &c->plan, err))
		rc = EXIT_BADINPUT;
	else if (opt_flag(&o, "require-counters") && !counters_ok(ctr))
		rc = err_set(err, "--require-counters: counters cannot be had: %s", ctr->status)
			 ? EXIT_NOCOUNTERS
			 : 0;
	else if (topo.foreign && !opt_flag(&o, "dry-run"))
		rc = err_set(err,
			     "--topology %s can only plan: add --dry-run (nothing runs on a "
			     "foreign topology)",
			     topo.source)
			 ? EXIT_BADINPUT
			 : 0;
	else if (opt_flag(&o, "dry-run")) {
		print_dry_run(c);
		counters_describe(ctr, stdout);
	} else if (opt_str(&o, "out")
		       ? csv_open(&out, opt_str(&o, "out"), err)
		       : (default_out(c, path, sizeof(path), err) || csv_open(&out, path, err)))
		rc = EXIT_BADINPUT;
	else if (open_meta(c, out.path, meta, sizeof(meta), err)) {
		rc = EXIT_BADINPUT;
		if (out.created)
			unlink(out.path);
		csv_close(&out, path);
	} else {
		oom_out = &out;
		oom_meta = meta;
		oom_cleanup(remove_empty_outputs);
		context_warn(c->ctx, stderr);
		c->out_path = out.path;
		if (meta[0]) {
			bench_columns_path(meta, columns, sizeof(columns));
			c->columns_path = columns;
		}
		nv = novalid_new(c->nvar);
		FILE *sumf = strcmp(out.path, "-") ? stdout : stderr;
		driver_facts(c, &rf);
		if (tee_open(c, out.path, meta, &tee, err))
			rc = EXIT_BADINPUT;
		else if (run_all(c, ctr, &out, sumf, nv, &rf, err))
			rc = 1;
		if (signals_pending()) {
			rc = 128 + signals_pending();
			snprintf(err, ERRLEN,
				 "interrupted by SIG%s: %ld whole row(s) kept, the configuration "
				 "in progress left no row; result set marked interrupted%s%.200s",
				 sigabbrev_np(signals_pending()), out.rows, meta[0] ? " in " : "",
				 meta);
		}
		if (out.rows)
			fprintf(stderr, "c2cbench: %ld row(s) written to %s\n", out.rows,
				strcmp(out.path, "-") ? out.path : "standard output");
		char cerr[ERRLEN], *made = out.rows || !out.created ? NULL : xstrdup(out.path),
				   *where = xstrdup(out.path);
		long rows = out.rows;
		c->out_path = NULL; /* freed by csv_close */
		oom_cleanup(NULL);
		if (csv_close(&out, cerr) && !rc) {
			snprintf(err, ERRLEN, "%s", cerr);
			rc = 1;
		}
		if (made) { /* nothing measured: leave no empty files of ours behind (never a device
			       or pipe) */
			unlink(made);
			if (meta[0])
				unlink(meta);
		} else if (meta[0] && mark_meta(c, meta, rows, rc, err, &rf, cerr) && !rc) {
			snprintf(err, ERRLEN, "%s", cerr);
			rc = 1;
		}
		if (tee.on && mark_meta(c, tee.meta, rows, rc, err, &rf, cerr) && !rc) {
			snprintf(err, ERRLEN, "%s", cerr);
			rc = 1;
		}
		/* the summary: the analysis of the files just written */
		if (rows && !opt_flag(&o, "quiet") &&
		    driver_summary(sumf, tee_csv(&tee, where), cerr) && !rc) {
			snprintf(err, ERRLEN, "the run summary: %.900s", cerr);
			rc = 1;
		}
		tee_close(&tee);
		run_facts_free(&rf);
		free(made);
		/* the rows are whole (the .meta says complete), but they measure nothing */
		if (!rc && novalid_count(nv)) {
			fflush(stdout);
			novalid_print(nv, c, stderr,
				      strcmp(where, "-") ? where : "standard output");
			rc = EXIT_NOVALID;
		}
		free(where);
	}
	if (rc && signals_pending() &&
	    rc < 128) /* stopped before measuring (a FIFO wait): the signal's status */
		rc = 128 + signals_pending();
	if (rc && rc != EXIT_NOVALID)
		fprintf(stderr, "c2cbench: error: %s\n", err);
	novalid_free(nv);
	if (b->cleanup)
		b->cleanup(c);
	free(c->priv); /* what a bench's cleanup left (the usual: all of it) */
	if (c->cleanup_failed && (!rc || rc == EXIT_NOVALID)) /* it said why on its own line */
		rc = 1;
	counters_close(ctr);
	free(ctr);
	topo_free(&topo);
	opts_free(&o);
	evidence_free(&c->ev); /* the thread records of the last attempt */
	free(c->var);
	free(c);
	return rc;
}

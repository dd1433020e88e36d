/* pingpong's prepare (benches/pingpong/pingpong.c declares the bench): the pairs, the memory node,
 * the modes and the rounds from the options, the time it will take, the plan printed, and
 * --resume's rows. */
#include "benches/pingpong/pingpong.h"
#include "benches/pingpong/matrix.h"
#include "harness/progress.h"
#include "lib/wrap.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PP_GUESS_NS 150.0 /* one-way latency assumed by the time estimate */
#define PP_START_US 10.0  /* time assumed to start one thread (create and bind it): per round */
#define PP_ROW_US 40.0 /* time a row takes to write: measured, 42 us of CPU on a 2-vCPU EPYC VM */
#define PP_LINES_MAX 4096 /* --lines: 1 MiB of lines per pair */
#define PP_TABLE_MAX 1000 /* pairs the dry run lists */
#define PP_BIG 64         /* above this many PUs, --pairs auto is classes plus vs:FIRST */

/* The counted pair's two threads (measure.c gives them these roles): each has counter columns of
 * its own. */
static const struct role_req pp_roles[PP_NROLES] = {
    [PP_INITIATOR] = {"initiator", 1}, [PP_RESPONDER] = {"responder", 1}};

/* "auto": all pairs on up to PP_BIG PUs; beyond, one pair per class plus every PU against the first
 * (CPU 0 when it is in the set): a plan of minutes, not hours. */
static int select_pairs(const struct bench_ctx *c, struct pp_priv *p, const char *spec, char *err)
{
	if (strcmp(spec, "auto"))
		return p->npairs =
			   pairs_select(c->topo, p->set, p->nset, spec, c->seed, &p->pair, err);
	if (p->nset <= PP_BIG)
		return p->npairs =
			   pairs_select(c->topo, p->set, p->nset, "all", c->seed, &p->pair, err);
	struct pu_pair *cls, *vs;
	char vspec[32];
	int first = p->set[0];
	for (int i = 0; i < p->nset; i++)
		first = p->set[i] == 0 ? 0 : first;
	snprintf(vspec, sizeof(vspec), "vs:%d", first);
	int nc = pairs_select(c->topo, p->set, p->nset, "classes", c->seed, &cls, err);
	int nv = nc < 0 ? -1 : pairs_select(c->topo, p->set, p->nset, vspec, c->seed, &vs, err);
	if (nv < 0) {
		if (nc >= 0)
			free(cls);
		return -1;
	}
	p->pair = xcalloc((size_t)(nc + nv), sizeof(*p->pair));
	memcpy(p->pair, vs, (size_t)nv * sizeof(*vs));
	p->npairs = nv;
	for (int i = 0; i < nc; i++) { /* a class pair already in vs:FIRST is not measured twice */
		int dup = 0;
		for (int j = 0; j < nv && !dup; j++)
			dup = (vs[j].a == cls[i].a && vs[j].b == cls[i].b) ||
			      (vs[j].a == cls[i].b && vs[j].b == cls[i].a);
		if (!dup)
			p->pair[p->npairs++] = cls[i];
	}
	free(cls);
	free(vs);
	return p->npairs;
}

/* --home first|writer|reader|node:N (not given: first); --mem-node a|b|N is its older spelling
 * (a = first, b = reader, N = node:N). The request is recorded in its canonical form. */
static int parse_mem(const struct bench_ctx *c, struct pp_priv *p, char *err)
{
	int home = opt_given(c->o, "home"), old = opt_given(c->o, "mem-node");
	const char *m = home ? opt_str(c->o, "home") : old ? opt_str(c->o, "mem-node") : "first";
	const char *opt = old && !home ? "--mem-node" : "--home";
	static const char *const words[][2] = {{"first", "a"}, {"reader", "b"}, {"writer", NULL}};
	static const int codes[] = {PP_HOME_FIRST, PP_HOME_READER, PP_HOME_WRITER};
	long n;
	if (home && old)
		return err_set(err,
			       "--home '%s' and --mem-node '%s': give one (--mem-node a|b|N is "
			       "--home's older spelling)",
			       opt_str(c->o, "home"), opt_str(c->o, "mem-node"));
	for (int i = 0; i < 3; i++)
		if (words[i][old && !home] && !strcmp(m, words[i][old && !home])) {
			snprintf(p->mem_req, sizeof(p->mem_req), "%s", words[i][0]);
			p->su.mem = codes[i];
			return 0;
		}
	int isnode = home && !strncmp(m, "node", 4) && (m[4] == ':' || m[4] == ' ');
	const char *num = isnode ? m + 5 : home ? "" : m;
	char why[160] = "", nodes[200];
	if (parse_long(num, &n) || n < 0 || n > 1 << 20 ||
	    topo_node_usable(c->topo, n, why, sizeof(why))) {
		topo_node_list(c->topo, nodes, sizeof(nodes));
		const char *where = home ? "first, writer, reader or node:N" : "a, b or node N";
		char list[300];
		snprintf(list, sizeof(list), "%s (N: %s)", where, nodes);
		return err_accepted(err, list, where, "%s: '%s' is not accepted%s%s%s", opt, m,
				    why[0] ? " (" : "", why, why[0] ? ")" : "");
	}
	snprintf(p->mem_req, sizeof(p->mem_req), "node:%ld", n);
	p->su.mem = (int)n;
	return 0;
}

/* --concurrent: auto, or a count of pairs at once; anything else is refused with what is accepted.
 */
static int parse_concurrent(const struct bench_ctx *c, struct pp_priv *p, char *err)
{
	const char *s = opt_str(c->o, "concurrent");
	long n;
	snprintf(p->conc_req, sizeof(p->conc_req), "%.15s", s);
	p->conc_auto = !strcmp(s, "auto");
	if (p->conc_auto)
		return 0;
	if (parse_long(s, &n) || n < 1 || n > 1 << 20)
		return err_set(err,
			       "--concurrent: '%s' is not accepted; accepted: auto or 1..%d",
			       s, 1 << 20);
	p->conc_n = (int)n;
	return 0;
}

/* Seconds one measurement of n pairs at once (a pair alone, or a round) takes at the guessed
 * latency: every line's preheat and samples (the pairs run side by side), the 2n thread starts
 * (one after the other) and a millisecond for the rest. */
static double step_s(const struct bench_ctx *c, const struct pp_priv *p, int n)
{
	double rt = (double)opt_long(c->o, "samples") * (double)opt_long(c->o, "round-trips") * 2 *
		    PP_GUESS_NS * 1e-9;
	return ((double)opt_long(c->o, "preheat-ms") / 1e3 + rt) * p->su.lines +
	       2.0 * n * PP_START_US * 1e-6 + 1e-3;
}

/* The rounds of s in every mode and repetition, and their rows. */
static double rounds_s(const struct bench_ctx *c, const struct pp_priv *p, const struct schedule *s)
{
	double t = 0;
	for (int r = 0; r < s->nrounds; r++)
		t += step_s(c, p, s->size[r]);
	return (t + (double)s->npairs * PP_ROW_US * 1e-6) * p->nmodes * c->reps;
}

/* The accuracy check: each sample pair alone and in its round, in every mode (none with
 * --concurrent 1; s is the run's schedule or the other plan's, which is auto's or its fallback). */
static double check_s(const struct bench_ctx *c, const struct pp_priv *p, const struct schedule *s)
{
	double t = 0;
	for (int j = 0; j < p->nsample && !(s == &p->sched && pp_alone_only(p)); j++)
		t += step_s(c, p, 1) + step_s(c, p, s->size[s->round[p->sample[j]]]);
	return t * p->nmodes;
}

/* The plan on stderr (always) and, with --dry-run, on stdout with every pair's round. */
/* The plan on stderr (always) and, with --dry-run, on stdout with every pair's round. */
static void print_plan(const struct bench_ctx *c, const struct pp_priv *p, const char *alt_what,
		       double alt_s)
{
	char hms[32], alt[32], chk[32], per[PC_COUNT * 24] = "";
	int ncls[PC_COUNT] = { 0 };
	for (int j = 0; j < p->nsample; j++)
		ncls[p->pair[p->sample[j]].cls < PC_COUNT ? p->pair[p->sample[j]].cls : 0]++;
	for (int cl = 0, k = 0; cl < PC_COUNT && !pp_alone_only(p); cl++)
		if (ncls[cl])
			k += snprintf(per + k, sizeof(per) - (size_t)k, "%s%s %d", k ? ", " : " (",
				      pair_class_name((enum pair_class)cl), ncls[cl]);
	if (per[0])
		strcat(per, ")");
	int maxsz = 0;
	for (int r = 0; r < p->sched.nrounds; r++)
		maxsz = p->sched.size[r] > maxsz ? p->sched.size[r] : maxsz;
	double cs = check_s(c, p, &p->sched), eta = rounds_s(c, p, &p->sched) + cs;
	fmt_hms(hms, sizeof(hms), eta);
	fmt_hms(alt, sizeof(alt), alt_s);
	fmt_hms(chk, sizeof(chk), cs);
	char line[800];
	snprintf(line, sizeof(line),
		 "pingpong: %d pair(s) of %d PU(s) (--pairs %s) x %d mode(s) x %d repetition(s); "
		 "up to %d pair(s) at once (--concurrent %s%s) in %d round(s); accuracy check: %d "
		 "pair(s)%s, %s (%.1f%% of the ETA); ETA %s (at %.0f ns per handoff, %.0f us per "
		 "thread start, %.0f us per row)%s%s%s",
		 p->npairs, p->nset, opt_str(c->o, "pairs"), p->nmodes, c->reps, maxsz, p->conc_req,
		 p->sched.by_pu && maxsz > 1 ? "; pairs may share a core" : "", p->sched.nrounds,
		 pp_alone_only(p) ? 0 : p->nsample, per, chk, eta > 0 ? 100.0 * cs / eta : 0.0, hms,
		 PP_GUESS_NS, PP_START_US, PP_ROW_US, alt_what ? "; " : "",
		 alt_what ? alt_what : "", alt_what ? alt : "");
	if (!opt_flag(c->o, "quiet")) /* at 100 columns, as the summary */
		text_wrap(stderr, 0, 2, TEXT_WIDTH, line);
	if (!opt_flag(c->o, "dry-run"))
		return;
	text_wrap(stdout, 0, 2, TEXT_WIDTH, line + 10);
	const struct topo *t = c->topo; /* on a hybrid part, each PU's CPU kind */
	printf("%-6s %-6s %-15s %-7s %s\n", "cpu_a", "cpu_b", "class", "round",
	       t->nkinds ? "at_once kinds" : "at_once");
	for (int i = 0; i < p->npairs && i < PP_TABLE_MAX; i++) {
		char kinds[60] = "";
		if (t->nkinds)
			snprintf(kinds, sizeof(kinds), "%*s%s-%s",
				 8 - snprintf(NULL, 0, "%d", p->sched.size[p->sched.round[i]]), "",
				 topo_kind_name(t, topo_pu(t, p->pair[i].a)),
				 topo_kind_name(t, topo_pu(t, p->pair[i].b)));
		printf("%-6d %-6d %-15s %-7d %d%s\n", p->pair[i].a, p->pair[i].b,
		       pair_class_name(p->pair[i].cls), p->sched.round[i],
		       p->sched.size[p->sched.round[i]], kinds);
	}
	if (p->npairs > PP_TABLE_MAX)
		printf("... and %d more pair(s) (a run's CSV gives every pair's round)\n",
		       p->npairs - PP_TABLE_MAX);
}

/* Variants are pair x mode, ordered mode by mode and class by class so the summary lines come out
 * nearest first. */
static void add_variants(struct bench_ctx *c, const struct pp_priv *p)
{
	bench_variants_reserve(c, p->npairs * p->nmodes);
	for (int m = 0; m < p->nmodes; m++)
		for (int cls = 0; cls < PC_COUNT; cls++)
			for (int i = 0; i < p->npairs; i++)
				if ((int)p->pair[i].cls == cls) {
					char name[48];
					snprintf(name, sizeof(name), "%d-%d/%s", p->pair[i].a,
						 p->pair[i].b, pp_mode_names[p->modes[m]]);
					bench_variant(c, name, (long)i * NMODES + p->modes[m]);
				}
}

/* --mode as mode numbers, in the order given (the first is the one --matrix writes). */
static int parse_modes(const struct bench_ctx *c, struct pp_priv *p)
{
	char *modes[NMODES];
	int nm = list_split(opt_str(c->o, "mode"), modes, NMODES);
	for (int m = 0; m < nm; m++) {
		p->modes[p->nmodes++] = strcmp(modes[m], "cas") ? MODE_LOAD_STORE : MODE_CAS;
		free(modes[m]);
	}
	return nm;
}

/* --resume: the settings its rows must share with this run's (the seed is checked apart). */
static void resume_same(const struct bench_ctx *c, struct pp_priv *p)
{
	static const char *const cols[] = {"pairs_requested", "placement_requested", "samples",
					   "round_trips",     "preheat_ms",          "lines",
					   "mem_node_requested", "concurrent_req"};
	const char *vals[] = {opt_str(c->o, "pairs"),
			      opt_str(c->o, "placement"),
			      NULL,
			      NULL,
			      NULL,
			      NULL,
			      p->mem_req,
			      p->conc_req};
	const char *opts[] = {NULL,         NULL,    "samples", "round-trips",
			      "preheat-ms", "lines", NULL,      NULL};
	for (int i = 0; i < 8; i++) {
		if (opts[i])
			snprintf(p->same_val[i], sizeof(p->same_val[i]), "%ld",
				 opt_long(c->o, opts[i]));
		else
			snprintf(p->same_val[i], sizeof(p->same_val[i]), "%s", vals[i]);
		p->same[i] = (struct pp_same){ cols[i], p->same_val[i] };
	}
	p->same[8] = (struct pp_same){ NULL, NULL };
}

/* --resume: the rows the CSV has are marked done (and their first mode's min_ns is the matrix's).
 */
static int resume_rows(const struct bench_ctx *c, struct pp_priv *p, char *err)
{
	long bits = (long)p->npairs * NMODES * c->reps;
	p->done = xcalloc((size_t)bits / 8 + 1, 1);
	long have = pp_resume_load(opt_str(c->o, "resume"), p->same, p->pair, p->npairs, NMODES,
				   c->reps, (int)opt_long(c->o, "max-attempts"), pp_mode_names,
				   p->modes[0], p->done, p->matrix_val, err);
	if (have < 0)
		return -1;
	long want = (long)p->npairs * p->nmodes * c->reps, left = 0;
	for (int k = 0; k < p->npairs; k++)
		for (int m = 0; m < p->nmodes; m++)
			for (int rep = 0; rep < c->reps; rep++)
				left += !pp_done(p->done,
						 ((long)k * NMODES + p->modes[m]) * c->reps + rep);
	if (!opt_flag(c->o, "quiet"))
		fprintf(
		    stderr,
		    "pingpong: --resume %s: %ld of %ld row(s) there; %ld to measure (seed %llu)\n",
		    opt_str(c->o, "resume"), want - left, want, left, (unsigned long long)c->seed);
	return 0;
}

/* The CPU set from --placement, the pairs from --pairs, the rounds from --concurrent. */
int pp_prepare(struct bench_ctx *c, char *err)
{
	struct pp_priv *p = xcalloc(1, sizeof(*p));
	c->priv = p;
	c->plan.roles = pp_roles;
	c->plan.nroles = PP_NROLES;
	if (opt_given(c->o, "duration") || opt_given(c->o, "warmup"))
		return err_set(err, "pingpong takes --samples, --round-trips and --preheat-ms, not "
				    "--duration or --warmup");
	if (parse_concurrent(c, p, err) || parse_mem(c, p, err))
		return -1;
	if (opt_long(c->o, "lines") > PP_LINES_MAX)
		return err_set(err, "--lines %ld is not accepted; accepted: 1 to %d lines per pair",
			       opt_long(c->o, "lines"), PP_LINES_MAX);
	if (opt_given(c->o, "matrix") &&
	    !access(opt_str(c->o, "matrix"), F_OK)) /* refused before anything is measured */
		return err_set(err,
			       "--matrix: '%s' already exists; accepted: a new file (results are "
			       "never overwritten)",
			       opt_str(c->o, "matrix"));
	if (opt_given(c->o, "matrix") && !opt_flag(c->o, "dry-run") &&
	    matrix_probe(opt_str(c->o, "matrix"), err))
		return -1;
	if (opt_given(c->o, "resume")) { /* before the pairs: sample:N draws them from the seed */
		resume_same(c, p);
		if (pp_resume_check(opt_str(c->o, "resume"), p->same, &c->seed,
				    opt_given(c->o, "seed") && opt_long(c->o, "seed"), err))
			return -1;
	}
	p->nset = pairs_pu_set(c->topo, opt_str(c->o, "placement"), &p->set, err);
	if (p->nset < 0 || select_pairs(c, p, opt_str(c->o, "pairs"), err) < 0)
		return -1;
	int nm = parse_modes(c, p);
	if ((long)p->npairs * nm > CONFIGS_MAX)
		return err_set(err,
			       "--pairs %s gives %d pairs x %d modes, more than %d in one run; "
			       "accepted: a smaller set (vs:CPU, sample:N, classes or --placement "
			       "cpus:LIST), or the matrix split over several runs: --pairs vs:CPU "
			       "for each CPU (a row of the matrix each) or --mode one at a time",
			       opt_str(c->o, "pairs"), p->npairs, nm, CONFIGS_MAX);
	add_variants(c, p);
	p->su = (struct pp_setup){c->topo,
				  0,
				  (int)opt_long(c->o, "lines"),
				  p->su.mem,
				  opt_long(c->o, "samples"),
				  opt_long(c->o, "round-trips"),
				  (uint64_t)opt_long(c->o, "preheat-ms") * 1000000ull,
				  NULL,
				  -1};
	p->tol = opt_double(c->o, "check-tolerance") / 100.0;
	int auto_cap = schedule_auto_cap(c->topo, p->set, p->nset, 1);
	p->by_pu = p->conc_auto; /* auto: disjoint PUs first; the check moves to disjoint cores if a
				    class is off */
	p->cap = p->conc_auto ? auto_cap : p->conc_n;
	/* the other plan worth knowing: auto's (for --concurrent N), or auto's first fallback */
	int cores = schedule_auto_cap(c->topo, p->set, p->nset, 0),
	    alt_cap = p->conc_auto ? cores : auto_cap;
	const char *alt_what = !p->conc_auto ? "with --concurrent auto: ETA "
			       : cores < auto_cap
				   ? "if the check moves pairs off each other's cores: ETA "
				   : NULL;
	struct schedule alt = { 0 };
	if (schedule_build(c->topo, p->set, p->nset, p->pair, p->npairs, p->cap, p->by_pu,
			   &p->sched, err) ||
	    (alt_what && schedule_build(c->topo, p->set, p->nset, p->pair, p->npairs, alt_cap,
					!p->conc_auto, &alt, err)))
		return -1;
	p->sample = xcalloc((size_t)p->npairs, sizeof(int));
	p->nsample =
	    check_sample(p->pair, p->npairs, (int)opt_long(c->o, "check-pairs"), p->sample);
	double alt_s = alt_what ? rounds_s(c, p, &alt) + check_s(c, p, &alt) : 0;
	if (!p->conc_auto && alt.nrounds == p->sched.nrounds)
		alt_what = NULL; /* N is auto's plan already */
	schedule_free(&alt);
	c->run_s =
	    (rounds_s(c, p, &p->sched) + check_s(c, p, &p->sched)) / ((double)c->nvar * c->reps);
	print_plan(c, p, alt_what, alt_s);
	if (opt_given(c->o, "matrix") && !opt_flag(c->o, "dry-run") && !c->topo->foreign) {
		p->matrix_val = xcalloc((size_t)p->npairs * (size_t)c->reps, sizeof(float));
		for (size_t i = 0; i < (size_t)p->npairs * (size_t)c->reps; i++)
			p->matrix_val[i] = NAN;
	}
	if (opt_given(c->o, "resume") && resume_rows(c, p, err))
		return -1;
	return pp_state_alloc(p);
}

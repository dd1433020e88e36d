/* `c2cbench preset NAME`: plan every run of a preset, then run them one by one into one directory.
 * Each run is `c2cbench run BENCH ...` executed as a child process of this same binary
 * (/proc/self/exe): a crash or a stuck run cannot take the others down, every run starts from
 * fresh process state (option parser, hwloc, allocator), and its output is captured exactly as
 * the user would see it, for the console log. */
#include "lib/infile.h"
#include "harness/bench.h"
#include "schema/meta.h"
#include "lib/cmdargs.h"
#include "harness/context.h"
#include "runner/preset.h"
#include "runner/preset_child.h"
#include "runner/preset_config.h"
#include "runner/preset_meta.h"
#include "runner/preset_resume.h"
#include "lib/parse.h"
#include "harness/progress.h"
#include "harness/signals.h"
#include "runner/preset_run.h"
#include "runner/preset_run_int.h"
#include "runner/slurm.h"
#include "lib/util.h"
#include "schema/version.h"
#include "lib/wrap.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A machine every shipped preset must be able to plan on: tells "this machine cannot" from "the
 * preset is wrong". */
#define REFERENCE_TOPOLOGY "synthetic:pack:2 numa:1 core:16 pu:2"

static const struct opt_spec preset_opts[] = {
	{ "dry-run", OPT_FLAG, NULL, NULL, "print the plan and its estimated duration, run nothing",
	  NULL, NULL },
	{ "results", OPT_TEXT, "results", "DIR",
	  "where the run directory LABEL-DATE-PRESET is created", NULL, NULL },
	{ "topology", OPT_TEXT, NULL, "SPEC",
	  "plan on a foreign topology (with --dry-run): synthetic:\"pack:2 numa:1 core:8 pu:2\" or "
	  "xml:FILE",
	  NULL, NULL },
	{ "label", OPT_TEXT, NULL, "NAME",
	  "name of this machine in every row, .meta, metadata.txt and the directory name (default: "
	  "the host name; with --resume: the directory's); letters, digits, . _ -",
	  NULL, NULL },
	{ "resume", OPT_TEXT, NULL, "DIR",
	  "continue an interrupted run directory of this preset: runs complete in DIR, made here "
	  "with the options the preset gives now, are kept, the others run again; DIR is locked "
	  "while it runs",
	  NULL, NULL },
	{ 0 },
};

/* The harness's validity options a preset takes and hands to every run (docs/validity.md). */
static const char *const validity_keys[] = { "max-attempts", "valid-window", "valid-oncpu",
					     "valid-overlap", "valid-steal", "valid-probe",
					     "valid-setting", NULL };
#define PRESET_OPTS_MAX 16

/* preset_opts, then the validity options as `run` declares them, without a default: one not given
 * leaves each run's value (the preset's, or the harness default) alone. */
static const struct opt_spec *preset_table(void)
{
	static struct opt_spec t[PRESET_OPTS_MAX];
	int n = 0;
	for (const struct opt_spec *s = preset_opts; s->name; s++)
		t[n++] = *s;
	for (int k = 0; validity_keys[k]; k++)
		for (const struct opt_spec *s = harness_opts; s->name; s++)
			if (!strcmp(s->name, validity_keys[k])) {
				t[n] = *s;
				t[n++].def = NULL;
			}
	t[n] = (struct opt_spec){ 0 };
	return t;
}

/* Each validity option given on the command line replaces that option in every run's arguments;
 * given: what was given, for metadata.txt. */
static int apply_validity(struct preset *p, const struct opts *o, char *given, size_t n, char *err)
{
	size_t k = 0;
	given[0] = 0;
	for (int v = 0; validity_keys[v]; v++) {
		if (!opt_given(o, validity_keys[v]))
			continue;
		char opt[64];
		const char *val = opt_str(o, validity_keys[v]);
		snprintf(opt, sizeof(opt), "--%s", validity_keys[v]);
		if (k < n)
			k += (size_t)snprintf(given + k, n - k, "%s%s %s", k ? " " : "", opt, val);
		for (int i = 0; i < p->n; i++) {
			struct preset_run *r = &p->run[i];
			int at = -1;
			for (int a = 0; a + 1 < r->nargs; a++)
				if (!strcmp(r->argv[a], opt))
					at = a;
			if (at >= 0) {
				free(r->argv[at + 1]);
				r->argv[at + 1] = xstrdup(val);
			} else if (r->nargs + 2 <= PRESET_ARGS_MAX) {
				r->argv[r->nargs++] = xstrdup(opt);
				r->argv[r->nargs++] = xstrdup(val);
			} else {
				return err_set(
					err, "%s:%d: run [%s] has too many options to take %s too",
					p->path, r->line, r->name, opt);
			}
		}
	}
	return 0;
}

/* The child's error line without its "c2cbench: error: " prefix. */
static char *error_line(const char *err)
{
	const char *p = strstr(err, "error: ");
	p = p ? p + 7 : err;
	char *s = xstrdup(p);
	s[strcspn(s, "\n")] = 0;
	return s;
}

/* Dry-run one run on this machine (or --topology); a failure that the reference two-socket machine
 * does not share is something this machine cannot give: skipped with the reason. */
static int plan_one(const struct preset *p, const struct preset_run *r, const char *topology,
		    struct planned *pl, char *err)
{
	char *out = xcalloc(CAPTURE_MAX, 1), *er = xcalloc(CAPTURE_MAX, 1);
	const char *here[] = { "--dry-run", topology ? "--topology" : NULL, topology, NULL };
	const char *ref[] = { "--dry-run", "--topology", REFERENCE_TOPOLOGY, NULL };
	int rc = 0;
	if (child_capture(r, here, out, er) == 0) {
		const char *a = strstr(out, ": about ");
		pl->est = a ? strtod(a + 8, NULL) : 0;
	} else {
		char *why = error_line(er);
		if (child_capture(r, ref, out, er) == 0) {
			pl->skip = why;
		} else {
			rc = err_set(err, "%s:%d: run [%s]: %s", p->path, r->line, r->name, why);
			free(why);
		}
	}
	free(out);
	free(er);
	return rc;
}

static int make_run_dir(const char *results, const struct context *ctx, const char *preset,
			char *dir, size_t n, char *err)
{
	char stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", localtime_r(&now, &tm));
	if (mkdir(results, 0755) && errno != EEXIST)
		return err_set(err, "--results: cannot create '%s': %s", results, strerror(errno));
	for (int k = 1; k < 100; k++) {
		if (k == 1)
			snprintf(dir, n, "%s/%s-%s-%s", results, ctx->label, stamp, preset);
		else
			snprintf(dir, n, "%s/%s-%s-%s-%d", results, ctx->label, stamp, preset, k);
		if (!mkdir(dir, 0755))
			return 0;
		if (errno != EEXIST)
			return err_set(err, "--results: cannot create '%s': %s", dir,
				       strerror(errno));
	}
	return err_set(err, "--results: too many run directories named %s/%s-%s-%s*", results,
		       ctx->label, stamp, preset);
}

static int
	meta_failed; /* metadata.txt could not be written once: the preset's exit status says so */

/* Rewrite metadata.txt; a failure (a full disk) is said once per write, the preset goes on and
 * exits 1. */
static void meta_update(const char *dir, const struct preset *p, const struct planned *pl,
			const struct context *ctx, const struct resumed *rs, const char *state)
{
	if (meta_write(dir, p, pl, ctx, rs, state))
		meta_failed = 1;
}

/* The whole rows a run's CSV holds (0 when it has none), read through the one reader. */
static long csv_rows(const char *path)
{
	char err[ERRLEN];
	long n = csv_whole_rows(path, path, err);
	return n > 0 ? n : 0;
}

static int run_all(struct console *c, const struct preset *p, struct planned *pl, const char *dir,
		   const struct context *ctx, const struct resumed *rs, double total)
{
	int n = 0, i = 0, failed = 0, nothing = 0, sig = 0;
	double done_est = 0, scale = 1;
	char path[PATH_MAX + 80], e[32], l[32];
	for (int k = 0; k < p->n; k++)
		n += !pl[k].skip;
	for (int k = 0; k < p->n && !sig; k++) {
		if ((sig = signals_pending())) /* stopped between runs (a reader gone, a hang-up):
						  start no more */
			break;
		if (pl[k].skip)
			continue;
		i++;
		if (pl[k].done) {
			say(c, stderr,
			    "[run %d of %d] %s: complete in %s, %ld row(s): kept, not run again\n",
			    i, n, p->run[k].name, dir, pl[k].rows);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, pl[k].csv);
		say(c, stderr, "[run %d of %d] %s\n", i, n, p->run[k].name);
		double s = (double)now_ns() / 1e9;
		pl[k].status = run_one(c, &p->run[k], path, ctx->label, i, n,
				       (total - done_est - pl[k].est) * scale, pl[k].est * scale,
				       &pl[k].nothing);
		pl[k].took = (double)now_ns() / 1e9 - s;
		pl[k].rows = csv_rows(path);
		done_est += pl[k].est;
		double el = progress_elapsed(&c->pg);
		if (done_est > 0)
			scale =
			    el / done_est; /* learn how far the estimates are off on this machine */
		sig = signals_pending();
		if (sig) { /* the run was stopped by the forwarded signal: its whole rows stay,
			      marked in its .meta */
			pl[k].sig = sig;
			say(c, stderr,
			    "[run %d of %d] %s: interrupted by SIG%s, %ld whole row(s) kept\n", i,
			    n, p->run[k].name, sigabbrev_np(sig), pl[k].rows);
			break;
		}
		int bad = pl[k].status && pl[k].status != EXIT_NOVALID;
		failed += bad;
		nothing += pl[k].status == EXIT_NOVALID;
		fmt_hms(e, sizeof(e), el);
		fmt_hms(l, sizeof(l), (total - done_est) * scale);
		say(c, stderr,
		    "[run %d of %d] %s: %s, %ld row(s) in %.1f s; elapsed %s, about %s left\n", i,
		    n, p->run[k].name,
		    bad ? "FAILED" : pl[k].status ? "measured nothing" : "ok",
		    pl[k].rows, pl[k].took, e, l);
		if (bad)
			say(c, stderr,
			    "[run %d of %d] %s exited with status %d; the next runs go on\n", i, n,
			    p->run[k].name, pl[k].status);
		meta_update(dir, p, pl, ctx, rs, "running");
	}
	sig = sig ? sig : signals_pending();
	if (sig) {
		meta_update(dir, p, pl, ctx, rs, "interrupted");
		say(c, stderr,
		    "c2cbench: error: preset %s interrupted by SIG%s: marked interrupted in "
		    "%s/metadata.txt; continue with: c2cbench preset %s --resume %s\n",
		    p->name, sigabbrev_np(sig), dir, p->path, dir);
		return 128 + sig;
	}
	/* a run's own status says measured nothing */
	meta_update(dir, p, pl, ctx, rs, failed ? "finished with failed runs" : "finished");
	say(c, stdout, "preset %s: %d run(s), %d failed, %d measured nothing; results in %s\n",
	    p->name, n, failed, nothing, dir);
	if (nothing)
		print_nothing(c, p, pl, n, nothing);
	return failed ? 1 : nothing ? EXIT_NOVALID : 0;
}

/* --resume DIR: refuse another preset, schema or machine; keep the runs complete in DIR; set aside
 * (DIR/interrupted/) what unfinished runs left, since a run is rerun whole. A dry run moves
 * nothing. */
static int resume_plan(const char *dir, const struct preset *p, struct planned *pl,
		       const struct context *ctx, struct resumed *rs, int dry, char *err)
{
	char path[PATH_MAX + 100], meta[PATH_MAX + 120];
	if (resume_check(dir, p, ctx, rs, err))
		return EXIT_BADINPUT;
	if (!dry && resume_lock(dir, err)) /* before anything in it is moved */
		return EXIT_BADINPUT;
	size_t k = strlen(rs->resumed);
	snprintf(rs->resumed + k, sizeof(rs->resumed) - k, "%s%s", k ? ", " : "", ctx->started);
	for (int i = 0; i < p->n; i++) {
		if (pl[i].skip)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, pl[i].csv);
		context_meta_path(path, meta, sizeof(meta));
		char why[PATH_MAX + 200];
		if (resume_run_complete(dir, pl[i].csv, why, sizeof(why)) &&
		    resume_kept_ours(dir, pl[i].csv, p->run[i].bench, ctx, rs->started, why,
				     sizeof(why)) &&
		    resume_same_config(dir, pl[i].csv, &p->run[i], why, sizeof(why))) {
			pl[i].done = 1;
			pl[i].status = 0;
			pl[i].rows = csv_rows(path);
			continue;
		}
		char line[4 * sizeof(why)]; /* the file's values shown escaped: one line */
		text_escape(why, line, sizeof(line));
		if (why[0]) /* said complete, is not: never kept silently */
			fprintf(stderr,
				"c2cbench: warning: --resume: run [%s]: %s; it runs again (its "
				"files go to %s/interrupted/)\n",
				p->run[i].name, line, dir);
		if (!dry && (!access(path, F_OK) || !access(meta, F_OK)) &&
		    resume_set_aside(dir, pl[i].csv, err))
			return 1;
	}
	return 0;
}

int preset_main(int argc, char **argv)
{
	const struct opt_spec *tables[] = { preset_table(), NULL };
	struct opts o;
	struct preset p = { 0 };
	struct planned *pl = NULL;
	struct console con = { 0 };
	char err[ERRLEN] = "", **argcopy = NULL, path[PATH_MAX], dir[PATH_MAX];
	int rc = opts_parse_mixed(&o, tables, argc, argv, &argcopy, err);
	if (rc && !strcmp(err, "help")) {
		text_fit(stdout, TEXT_WIDTH,
			 "usage: c2cbench preset NAME|FILE.ini [options]\n"
			 "runs every run of a preset into results/LABEL-DATE-PRESET/ (see "
			 "`c2cbench list`);\n"
			 "Ctrl-C or SIGTERM stops the run in progress (its whole rows kept) and "
			 "marks the\ndirectory interrupted; --max-attempts and --valid-* go to "
			 "every run, replacing\nthe preset's value (docs/validity.md)\n");
		opts_help(stdout, preset_table());
		printf("presets are searched in, first found first:\n");
		const char *d = preset_dirs();
		for (size_t n; *d; d += n + (d[n] == ':'))
			if ((n = strcspn(d, ":")))
				printf("  %.*s\n", (int)n, d);
		printf("exit status: 0 every run done; 1 a run failed; 2 bad input; 4 no run "
		       "failed but a configuration got\n"
		       "no valid repetition (the end of the output says which and why); 128+N "
		       "signal N\n");
		rc = 0;
		goto out;
	}
	if (!rc && o.nargs != 1)
		rc = err_set(err, "preset needs one preset name or .ini file, got %d argument(s)",
			     o.nargs);
	if (!rc && opt_str(&o, "topology") && !opt_flag(&o, "dry-run"))
		rc = err_set(
		    err,
		    "--topology can only plan: add --dry-run (nothing runs on a foreign topology)");
	if (!rc &&
	    opt_str(
		&o,
		"topology")) { /* read once here: an unreadable one is bad input, not "skipped" */
		struct topo t;
		if (!(rc = topo_load(&t, opt_str(&o, "topology"), err)))
			topo_free(&t);
	}
	if (!rc && opt_str(&o, "resume") && opt_given(&o, "results"))
		rc = err_set(err,
			     "--resume DIR continues in DIR: --results cannot be given with it");
	if (!rc)
		rc = preset_find(o.args[0], path, sizeof(path), err);
	if (!rc)
		rc = preset_load(&p, path, err);
	if (!rc)
		rc = apply_validity(&p, &o, p.validity, sizeof(p.validity), err);
	if (!rc) {
		pl = xcalloc((size_t)p.n, sizeof(*pl));
		for (int i = 0; i < p.n && !rc; i++) {
			pl[i].status = -1;
			if (p.run[i].skip)
				pl[i].skip = xstrdup(p.run[i].skip);
			else
				rc = plan_one(&p, &p.run[i], opt_str(&o, "topology"), &pl[i], err);
		}
	}
	if (rc) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		rc = EXIT_BADINPUT;
		goto out;
	}
	struct topo topo;
	struct context ctx;
	if (topo_load(&topo, NULL, err)) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		rc = 1;
		goto out;
	}
	context_collect(&ctx, &topo);
	topo_free(&topo);
	if (opt_str(&o, "resume") && !opt_given(&o, "label"))
		resume_label(opt_str(&o, "resume"),
			     &ctx); /* the directory's label, so its runs stay one machine */
	if (context_set_label(&ctx, opt_str(&o, "label"), err)) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		rc = EXIT_BADINPUT;
		goto out;
	}
	struct resumed rs = { .resumed = "" };
	snprintf(rs.started, sizeof(rs.started), "%s", ctx.started);
	for (int i = 0, k = 0; i < p.n; i++) {
		char name[96];
		snprintf(name, sizeof(name), "%02d-%s.csv", ++k, p.run[i].name);
		pl[i].csv = xstrdup(name);
	}
	if (opt_str(&o, "resume") &&
	    (rc = resume_plan(opt_str(&o, "resume"), &p, pl, &ctx, &rs, opt_flag(&o, "dry-run"),
			      err))) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		goto out;
	}
	if (opt_flag(&o, "dry-run")) {
		print_plan(&con, &p, pl,
			   opt_str(&o, "topology") ? opt_str(&o, "topology") : "this machine");
		goto out;
	}
	if (opt_str(&o, "resume"))
		snprintf(dir, sizeof(dir), "%s", opt_str(&o, "resume"));
	else if (make_run_dir(opt_str(&o, "results"), &ctx, p.name, dir, sizeof(dir), err) ||
		 resume_lock(dir, err)) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		rc = EXIT_BADINPUT;
		goto out;
	}
	char logp[PATH_MAX + 16];
	snprintf(logp, sizeof(logp), "%s/console.log", dir);
	int lfd = open(logp,
		       O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC |
			       (opt_str(&o, "resume") ? O_APPEND : O_TRUNC),
		       0644);
	con.log = lfd >= 0 ? fdopen(lfd, "a")
			   : NULL; /* a link planted at console.log is not followed */
	if (lfd >= 0 && !con.log)
		close(lfd);
	if (opt_str(&o, "resume"))
		say(&con, stdout, "resuming preset %s in %s (started %s)\n", p.name, dir,
		    rs.started);
	signals_install(); /* before the first write to stdout: `| head` (SIGPIPE) must not leave
			      "planned" behind */
	meta_update(dir, &p, pl, &ctx, &rs, opt_str(&o, "resume") ? "running" : "planned");
	double total = print_plan(&con, &p, pl, "this machine");
	say(&con, stdout, "results go to %s\n", dir);
	fflush(stdout); /* a reader that is gone shows now (SIGPIPE), before any run starts */
	progress_start(&con.pg, stderr, 1);
	/* each run tells what is left of it, on its stderr (harness/progress.h) */
	setenv(PROGRESS_ENV, "1", 1);
	rc = run_all(&con, &p, pl, dir, &ctx, &rs, total);
	if (meta_failed && !signals_pending() && rc == 0)
		rc = 1; /* metadata.txt could not be written: the directory does not say what it
			   holds */
	if (con.log)
		fclose(con.log);
out:
	for (int i = 0; pl && i < p.n; i++) {
		free(pl[i].skip);
		free(pl[i].csv);
		free(pl[i].nothing);
	}
	free(pl);
	preset_free(&p);
	opts_free(&o);
	free(argcopy);
	return rc;
}

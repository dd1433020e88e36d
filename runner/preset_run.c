/* `c2cbench preset NAME`: plan every run of a preset, then run them one by one into one directory.
 * Each run is `c2cbench run BENCH ...` executed as a child process of this same binary
 * (/proc/self/exe): a crash or a stuck run cannot take the others down, every run starts from
 * fresh process state (option parser, hwloc, allocator), and its output is captured exactly as
 * the user would see it, for the console log. */
#include "harness/bench.h"
#include "harness/cmdargs.h"
#include "harness/context.h"
#include "runner/preset.h"
#include "runner/preset_resume.h"
#include "harness/signals.h"
#include "runner/preset_run.h"
#include "runner/slurm.h"
#include "harness/util.h"
#include "harness/version.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A machine every shipped preset must be able to plan on: tells "this machine cannot" from "the preset is wrong". */
#define REFERENCE_TOPOLOGY "synthetic:pack:2 numa:1 core:16 pu:2"
#define CAPTURE_MAX 65536

static const struct opt_spec preset_opts[] = {
	{ "dry-run", OPT_FLAG, NULL, NULL, "print the plan and its estimated duration, run nothing", NULL, NULL },
	{ "results", OPT_TEXT, "results", "DIR", "where the run directory LABEL-DATE-PRESET is created", NULL, NULL },
	{ "topology", OPT_TEXT, NULL, "SPEC", "plan on a foreign topology (with --dry-run): synthetic:\"pack:2 numa:1 core:8 pu:2\" or xml:FILE", NULL, NULL },
	{ "label", OPT_TEXT, NULL, "NAME", "name of this machine in every row, .meta, metadata.txt and the directory name (default: the host name; with --resume: the directory's); letters, digits, . _ -", NULL, NULL },
	{ "resume", OPT_TEXT, NULL, "DIR", "continue an interrupted run directory of this preset: runs complete in DIR are kept, the others run again", NULL, NULL },
	{ 0 },
};

struct planned {
	double est;   /* estimated seconds, from the bench's own dry-run */
	char *skip;   /* why it is not run */
	char *csv;    /* file name in the run directory */
	int status;   /* exit status of the run; -1: not run */
	long rows;
	double took;
	int done;     /* complete in an earlier invocation (--resume): not run again */
	int sig;      /* the run was stopped by this signal */
};

struct console {
	FILE *log;
	int tty;
	int status_line; /* a progress line is on the terminal and must be cleared first */
};

static void clear_status(struct console *c)
{
	if (c->status_line) {
		fputs("\r\033[K", stderr);
		c->status_line = 0;
	}
}

/* Print to the terminal stream and to the console log. */
static void __attribute__((format(printf, 3, 4))) say(struct console *c, FILE *to, const char *fmt, ...)
{
	va_list ap;
	clear_status(c);
	va_start(ap, fmt);
	vfprintf(to, fmt, ap);
	va_end(ap);
	fflush(to);
	if (c->log) {
		va_start(ap, fmt);
		vfprintf(c->log, fmt, ap);
		va_end(ap);
		fflush(c->log);
	}
}

/* This binary; C2C_SELF_EXEC names another program that runs it (the arm64 test run: a qemu-aarch64
 * wrapper, where the kernel has no binfmt entry to run an aarch64 binary by itself). */
static const char *self_exe(void)
{
	static char exe[PATH_MAX];
	const char *via = getenv("C2C_SELF_EXEC");
	if (via && *via)
		return via;
	ssize_t l = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[l > 0 ? l : 0] = 0;
	return exe;
}

/* Start `c2cbench run BENCH args... extra...` with stdout and stderr on pipes. */
static pid_t spawn(const struct preset_run *r, const char *const *extra, int *fo, int *fe)
{
	const char *argv[PRESET_ARGS_MAX + 16];
	int n = 0, po[2], pe[2];
	argv[n++] = "c2cbench";
	argv[n++] = "run";
	argv[n++] = r->bench;
	for (int i = 0; i < r->nargs; i++)
		argv[n++] = r->argv[i];
	for (int i = 0; extra[i]; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC))
		die(1, "cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t parent = getpid(), pid = fork();
	if (pid < 0)
		die(1, "cannot fork: %s", strerror(errno));
	if (pid == 0) {
		/* Signals reach the run through this process only (it forwards them), exactly once, even
		 * from a terminal; and the run stops (SIGTERM) if this process dies. */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(128 + SIGTERM);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		execv(self_exe(), (char *const *)argv);
		fprintf(stderr, "c2cbench: error: cannot execute %s: %s\n", self_exe(), strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	*fo = po[0];
	*fe = pe[0];
	return pid;
}

static int wait_status(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Run to completion, keeping (the start of) stdout and stderr. */
static int capture(const struct preset_run *r, const char *const *extra, char *out, char *err)
{
	int fd[2];
	size_t k[2] = { 0, 0 };
	char *buf[2] = { out, err };
	pid_t pid = spawn(r, extra, &fd[0], &fd[1]);
	struct pollfd p[2] = { { fd[0], POLLIN, 0 }, { fd[1], POLLIN, 0 } };
	int open_fds = 2;
	while (open_fds) {
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !p[i].revents)
				continue;
			char tmp[4096];
			ssize_t n = read(p[i].fd, tmp, sizeof(tmp));
			if (n <= 0) {
				close(p[i].fd);
				p[i].fd = -1;
				open_fds--;
				continue;
			}
			size_t take = (size_t)n < CAPTURE_MAX - 1 - k[i] ? (size_t)n : CAPTURE_MAX - 1 - k[i];
			memcpy(buf[i] + k[i], tmp, take);
			k[i] += take;
		}
	}
	out[k[0]] = 0;
	err[k[1]] = 0;
	return wait_status(pid);
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
static int plan_one(const struct preset *p, const struct preset_run *r, const char *topology, struct planned *pl, char *err)
{
	char *out = xcalloc(CAPTURE_MAX, 1), *er = xcalloc(CAPTURE_MAX, 1);
	const char *here[] = { "--dry-run", topology ? "--topology" : NULL, topology, NULL };
	const char *ref[] = { "--dry-run", "--topology", REFERENCE_TOPOLOGY, NULL };
	int rc = 0;
	if (capture(r, here, out, er) == 0) {
		const char *a = strstr(out, ": about ");
		pl->est = a ? strtod(a + 8, NULL) : 0;
	} else {
		char *why = error_line(er);
		if (capture(r, ref, out, er) == 0) {
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

static void fmt_dur(char *b, size_t n, double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(b, n, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(b, n, "%ld:%02ld", t / 60, t % 60);
}

static void args_text(const struct preset_run *r, char *b, size_t n)
{
	size_t k = (size_t)snprintf(b, n, "%s", r->bench);
	for (int i = 0; i < r->nargs && k < n; i++)
		k += (size_t)snprintf(b + k, n - k, " %s", r->argv[i]);
}

static double print_plan(struct console *c, const struct preset *p, const struct planned *pl, const char *where)
{
	double total = 0;
	int runs = 0;
	char a[2048], d[32];
	for (int i = 0; i < p->n; i++)
		if (!pl[i].skip) {
			total += pl[i].done ? 0 : pl[i].est;
			runs++;
		}
	fmt_dur(d, sizeof(d), total);
	say(c, stdout, "preset %s (%s): %d run(s), %d skipped, on %s; estimated duration %s (m:ss)\n", p->name, p->path, runs, p->n - runs, where, d);
	if (p->description[0])
		say(c, stdout, "  %s\n", p->description);
	for (int i = 0, k = 0; i < p->n; i++) {
		args_text(&p->run[i], a, sizeof(a));
		if (pl[i].skip)
			say(c, stdout, "  skip  [%s] %s\n        skipped: %s\n", p->run[i].name, a, pl[i].skip);
		else if (pl[i].done)
			say(c, stdout, "  %2d/%-2d [%s] %s  (complete: kept from the earlier invocation)\n", ++k, runs, p->run[i].name, a);
		else {
			fmt_dur(d, sizeof(d), pl[i].est);
			say(c, stdout, "  %2d/%-2d [%s] %s  (about %s)\n", ++k, runs, p->run[i].name, a, d);
		}
	}
	return total;
}

static int make_run_dir(const char *results, const struct context *ctx, const char *preset, char *dir, size_t n, char *err)
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
			return err_set(err, "--results: cannot create '%s': %s", dir, strerror(errno));
	}
	return err_set(err, "--results: too many run directories named %s/%s-%s-%s*", results, ctx->label, stamp, preset);
}

static int meta_failed; /* metadata.txt could not be written once: the preset's exit status says so */

/* One line per failed metadata.txt write (a full disk); the preset goes on and exits 1 at the end. */
static void metadata_failed(const char *path, int e)
{
	fprintf(stderr, "c2cbench: error: cannot write %s: %s\n", path, strerror(e));
	meta_failed = 1;
}

/* metadata.txt: what ran, where, with which build; rewritten whole (tmp + rename) after each run. */
static void write_metadata(const char *dir, const struct preset *p, const struct planned *pl, const struct context *ctx,
			   const struct resumed *rs, const char *state)
{
	char tmp[PATH_MAX + 32], fin[PATH_MAX + 32], a[2048];
	snprintf(tmp, sizeof(tmp), "%s/.metadata.txt.XXXXXX", dir); /* a name of our own: mkstemp, O_EXCL */
	snprintf(fin, sizeof(fin), "%s/metadata.txt", dir);
	int fd = mkstemp(tmp);
	FILE *f = fd >= 0 && !fchmod(fd, 0644) ? fdopen(fd, "w") : NULL;
	if (!f) {
		metadata_failed(fin, errno);
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return;
	}
	fprintf(f, "c2cbench_version: %s\nc2cbench_rev: %s\nschema_version: %d\nbinary: %s\n", C2C_VERSION, ctx->git_rev, SCHEMA_VERSION, self_exe());
	fprintf(f, "preset: %s\npreset_file: %s\nstate: %s\nstarted: %s\n", p->name, p->path, state, rs->started);
	if (rs->resumed[0])
		fprintf(f, "resumed: %s\n", rs->resumed);
	fprintf(f, "label: %s\n", ctx->label);
	const char *sk[8], *sv[8];
	for (int i = 0, n = slurm_task_env(sk, sv, 8); i < n; i++)
		if (!strpbrk(sv[i], "\r\n")) /* one line per key, whatever the environment holds */
			fprintf(f, "%s: %s\n", sk[i], sv[i]);
	fprintf(f, "host: %s\ncpu_model: %s\npackages: %d\ncores: %d\npus: %d\nnuma_nodes: %d\nline_size: %d\nkernel: %s\ncompiler: %s\n",
		ctx->host, ctx->cpu_model, ctx->packages, ctx->cores, ctx->pus, ctx->nodes, ctx->line_size, ctx->kernel, ctx->compiler);
	for (int i = 0; i < p->n; i++) {
		args_text(&p->run[i], a, sizeof(a));
		fprintf(f, "run: %s | c2cbench run %s | ", p->run[i].name, a);
		if (pl[i].skip)
			fprintf(f, "skipped: %s\n", pl[i].skip);
		else if (pl[i].status < 0)
			fprintf(f, "not run yet | %s\n", pl[i].csv);
		else if (pl[i].sig)
			fprintf(f, "interrupted by SIG%s, %ld whole row(s), %.1f s | %s\n", sigabbrev_np(pl[i].sig), pl[i].rows, pl[i].took, pl[i].csv);
		else if (pl[i].done)
			fprintf(f, "exit 0, %ld row(s) (complete before --resume) | %s\n", pl[i].rows, pl[i].csv);
		else
			fprintf(f, "exit %d, %ld row(s), %.1f s | %s\n", pl[i].status, pl[i].rows, pl[i].took, pl[i].csv);
	}
	fprintf(f, "preset_text:\n%s", p->text);
	if (p->text[0] && p->text[strlen(p->text) - 1] != '\n')
		fputc('\n', f);
	if (ferror(f) | fclose(f) || rename(tmp, fin)) { /* the previous metadata.txt stays whole */
		metadata_failed(fin, errno);
		unlink(tmp);
	}
}

static long csv_rows(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = 0;
	int ch, inq = 0;
	if (!f)
		return 0;
	while ((ch = fgetc(f)) != EOF) { /* newlines inside quoted fields are not row ends */
		if (ch == '"')
			inq = !inq;
		n += ch == '\n' && !inq;
	}
	fclose(f);
	return n > 0 ? n - 1 : 0;
}

static void draw_status(struct console *c, int i, int n, const char *name, double elapsed, double left)
{
	char e[32], l[32];
	if (!c->tty)
		return;
	fmt_dur(e, sizeof(e), elapsed);
	fmt_dur(l, sizeof(l), left);
	clear_status(c);
	fprintf(stderr, "[run %d of %d] %s  elapsed %s, about %s left", i, n, name, e, l);
	fflush(stderr);
	c->status_line = 1;
}

/* Run one, relaying its output to the terminal and the log, redrawing progress every second. */
static int run_one(struct console *c, const struct preset_run *r, const char *csv, const char *label, int i, int n, double t0, double left_after, double est)
{
	const char *extra[] = { "--out", csv, "--label", label, NULL };
	int fd[2];
	pid_t pid = spawn(r, extra, &fd[0], &fd[1]);
	struct pollfd p[2] = { { fd[0], POLLIN, 0 }, { fd[1], POLLIN, 0 } };
	int open_fds = 2, st;
	signals_forward(pid);
	double start = (double)now_ns() / 1e9;
	while (open_fds) {
		double now = (double)now_ns() / 1e9, in_run = now - start;
		draw_status(c, i, n, r->name, now - t0, left_after + (est > in_run ? est - in_run : 0));
		int k = poll(p, 2, 1000);
		if (k < 0 && errno != EINTR)
			break;
		for (int j = 0; j < 2 && k > 0; j++) {
			if (p[j].fd < 0 || !p[j].revents)
				continue;
			char buf[4096];
			ssize_t got = read(p[j].fd, buf, sizeof(buf));
			if (got <= 0) {
				close(p[j].fd);
				p[j].fd = -1;
				open_fds--;
				continue;
			}
			say(c, j ? stderr : stdout, "%.*s", (int)got, buf);
		}
	}
	st = wait_status(pid);
	signals_forward(0);
	return st;
}

static int run_all(struct console *c, const struct preset *p, struct planned *pl, const char *dir, const struct context *ctx,
		   const struct resumed *rs, double total)
{
	int n = 0, i = 0, failed = 0, sig = 0;
	double t0 = (double)now_ns() / 1e9, done_est = 0, scale = 1;
	char path[PATH_MAX + 80], e[32], l[32];
	for (int k = 0; k < p->n; k++)
		n += !pl[k].skip;
	for (int k = 0; k < p->n && !sig; k++) {
		if ((sig = signals_pending())) /* stopped between runs (a reader gone, a hang-up): start no more */
			break;
		if (pl[k].skip)
			continue;
		i++;
		if (pl[k].done) {
			say(c, stderr, "[run %d of %d] %s: complete in %s, %ld row(s): kept, not run again\n", i, n, p->run[k].name, dir, pl[k].rows);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, pl[k].csv);
		say(c, stderr, "[run %d of %d] %s\n", i, n, p->run[k].name);
		double s = (double)now_ns() / 1e9;
		pl[k].status = run_one(c, &p->run[k], path, ctx->label, i, n, t0, (total - done_est - pl[k].est) * scale, pl[k].est * scale);
		pl[k].took = (double)now_ns() / 1e9 - s;
		pl[k].rows = csv_rows(path);
		done_est += pl[k].est;
		double el = (double)now_ns() / 1e9 - t0;
		if (done_est > 0)
			scale = el / done_est; /* learn how far the estimates are off on this machine */
		sig = signals_pending();
		if (sig) { /* the run was stopped by the forwarded signal: its whole rows stay, marked in its .meta */
			pl[k].sig = sig;
			say(c, stderr, "[run %d of %d] %s: interrupted by SIG%s, %ld whole row(s) kept\n", i, n, p->run[k].name, sigabbrev_np(sig), pl[k].rows);
			break;
		}
		failed += pl[k].status != 0;
		fmt_dur(e, sizeof(e), el);
		fmt_dur(l, sizeof(l), (total - done_est) * scale);
		say(c, stderr, "[run %d of %d] %s: %s, %ld row(s) in %.1f s; elapsed %s, about %s left\n", i, n, p->run[k].name,
		    pl[k].status ? "FAILED" : "ok", pl[k].rows, pl[k].took, e, l);
		if (pl[k].status)
			say(c, stderr, "[run %d of %d] %s exited with status %d; the next runs go on\n", i, n, p->run[k].name, pl[k].status);
		write_metadata(dir, p, pl, ctx, rs, "running");
	}
	sig = sig ? sig : signals_pending();
	if (sig) {
		write_metadata(dir, p, pl, ctx, rs, "interrupted");
		say(c, stderr, "c2cbench: error: preset %s interrupted by SIG%s: marked interrupted in %s/metadata.txt; continue with: c2cbench preset %s --resume %s\n",
		    p->name, sigabbrev_np(sig), dir, p->path, dir);
		return 128 + sig;
	}
	write_metadata(dir, p, pl, ctx, rs, failed ? "finished with failed runs" : "finished");
	say(c, stdout, "preset %s: %d run(s), %d failed; results in %s\n", p->name, n, failed, dir);
	return failed ? 1 : 0;
}

/* --resume DIR: refuse another preset, schema or machine; keep the runs complete in DIR; set aside
 * (DIR/interrupted/) what unfinished runs left, since a run is rerun whole. A dry run moves nothing. */
static int resume_plan(const char *dir, const struct preset *p, struct planned *pl, const struct context *ctx, struct resumed *rs,
		       int dry, char *err)
{
	char path[PATH_MAX + 100], meta[PATH_MAX + 120];
	if (resume_check(dir, p, ctx, rs, err))
		return EXIT_BADINPUT;
	size_t k = strlen(rs->resumed);
	snprintf(rs->resumed + k, sizeof(rs->resumed) - k, "%s%s", k ? ", " : "", ctx->started);
	for (int i = 0; i < p->n; i++) {
		if (pl[i].skip)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, pl[i].csv);
		context_meta_path(path, meta, sizeof(meta));
		if (resume_run_complete(dir, pl[i].csv)) {
			pl[i].done = 1;
			pl[i].status = 0;
			pl[i].rows = csv_rows(path);
		} else if (!dry && (!access(path, F_OK) || !access(meta, F_OK)) && resume_set_aside(dir, pl[i].csv, err))
			return 1;
	}
	return 0;
}

int preset_main(int argc, char **argv)
{
	const struct opt_spec *tables[] = { preset_opts, NULL };
	struct opts o;
	struct preset p = { 0 };
	struct planned *pl = NULL;
	struct console con = { .tty = isatty(2) };
	char err[ERRLEN] = "", **argcopy = NULL, path[PATH_MAX], dir[PATH_MAX];
	int rc = opts_parse_mixed(&o, tables, argc, argv, &argcopy, err);
	if (rc && !strcmp(err, "help")) {
		printf("usage: c2cbench preset NAME|FILE.ini [options]\nruns every run of a preset into %s/LABEL-DATE-PRESET/ (see `c2cbench list`);\n"
		       "Ctrl-C or SIGTERM stops the run in progress (its whole rows kept) and marks the directory interrupted\n", "results");
		opts_help(stdout, preset_opts);
		printf("presets are searched in %s\n", preset_dirs());
		rc = 0;
		goto out;
	}
	if (!rc && o.nargs != 1)
		rc = err_set(err, "preset needs one preset name or .ini file, got %d argument(s)", o.nargs);
	if (!rc && opt_str(&o, "topology") && !opt_flag(&o, "dry-run"))
		rc = err_set(err, "--topology can only plan: add --dry-run (nothing runs on a foreign topology)");
	if (!rc && opt_str(&o, "resume") && opt_given(&o, "results"))
		rc = err_set(err, "--resume DIR continues in DIR: --results cannot be given with it");
	if (!rc)
		rc = preset_find(o.args[0], path, sizeof(path), err);
	if (!rc)
		rc = preset_load(&p, path, err);
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
		resume_label(opt_str(&o, "resume"), &ctx); /* the directory's label, so its runs stay one machine */
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
	if (opt_str(&o, "resume") && (rc = resume_plan(opt_str(&o, "resume"), &p, pl, &ctx, &rs, opt_flag(&o, "dry-run"), err))) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		goto out;
	}
	if (opt_flag(&o, "dry-run")) {
		print_plan(&con, &p, pl, opt_str(&o, "topology") ? opt_str(&o, "topology") : "this machine");
		goto out;
	}
	if (opt_str(&o, "resume"))
		snprintf(dir, sizeof(dir), "%s", opt_str(&o, "resume"));
	else if (make_run_dir(opt_str(&o, "results"), &ctx, p.name, dir, sizeof(dir), err)) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		rc = EXIT_BADINPUT;
		goto out;
	}
	char logp[PATH_MAX + 16];
	snprintf(logp, sizeof(logp), "%s/console.log", dir);
	con.log = fopen(logp, opt_str(&o, "resume") ? "a" : "w");
	if (opt_str(&o, "resume"))
		say(&con, stdout, "resuming preset %s in %s (started %s)\n", p.name, dir, rs.started);
	signals_install(); /* before the first write to stdout: `| head` (SIGPIPE) must not leave "planned" behind */
	write_metadata(dir, &p, pl, &ctx, &rs, opt_str(&o, "resume") ? "running" : "planned");
	double total = print_plan(&con, &p, pl, "this machine");
	say(&con, stdout, "results go to %s\n", dir);
	fflush(stdout); /* a reader that is gone shows now (SIGPIPE), before any run starts */
	rc = run_all(&con, &p, pl, dir, &ctx, &rs, total);
	if (meta_failed && !signals_pending() && rc == 0)
		rc = 1; /* metadata.txt could not be written: the directory does not say what it holds */
	if (con.log)
		fclose(con.log);
out:
	for (int i = 0; pl && i < p.n; i++) {
		free(pl[i].skip);
		free(pl[i].csv);
	}
	free(pl);
	preset_free(&p);
	opts_free(&o);
	free(argcopy);
	return rc;
}

/* What each task of a submission did: squeue while it is queued or running, then the task's own
 * output (its exit line) and the result directory's metadata (complete, interrupted). */
#include "runner/slurm.h"
#include "schema/label.h"
#include "lib/parse.h"
#include "lib/util.h"
#include <ini.h>
#include <stdio.h>
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

/* snprintf that cuts long paths and stderr lines quietly: a reason is one line of bounded size. */
static void put(char *dst, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(char *dst, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(dst, n, fmt, ap);
	va_end(ap);
}

const char *task_state_name(enum task_state s)
{
	static const char *const name[] = { "pending",     "running",       "done",
					    "failed",      "interrupted",   "not submitted",
					    "unknown",     "nothing measured" };
	return name[s];
}

/* squeue's line for array task i of job: state "" when Slurm no longer lists it; -1 with why when
 * Slurm could not be asked (unreachable, timed out, or an answer that is not squeue's). */
static int queued(long job, int i, char *state, size_t n, char *node, size_t nn, char *why,
		  size_t wn)
{
	char jid[32], out[8192], err[2048];
	put(jid, sizeof(jid), "%ld", job);
	char *argv[] = { "squeue", "-h", "-r", "-j", jid, "-o", "%K|%T|%N|%r", NULL };
	state[0] = node[0] = 0;
	int rc = fleet_exec(argv, out, sizeof(out), err, sizeof(err), 0);
	if (rc && rc != FLEET_TIMED_OUT && rc != FLEET_INTERRUPTED && strstr(err, "Invalid job id"))
		return 0; /* a job Slurm has forgotten: finished */
	if (rc) {
		char w[400];
		fleet_exec_why(rc, out, err, w, sizeof(w));
		put(why, wn, "Slurm unreachable: squeue: %s", w);
		return -1;
	}
	for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n")) {
		char *f2 = strchr(l, '|'), *f3 = f2 ? strchr(f2 + 1, '|') : NULL;
		long k;
		if (f2)
			*f2 = 0; /* squeue's %K: the array index */
		if (!f3 || parse_long_in(l, 0, 0x7fffffffL, &k) || f3 == f2 + 1) {
			put(why, wn, "Slurm unreachable: squeue printed '%.60s', not its -o format",
			    l);
			return -1;
		}
		if (k != i)
			continue;
		put(state, n, "%.*s", (int)(f3 - f2 - 1), f2 + 1);
		put(node, nn, "%.*s", (int)strcspn(f3 + 1, "|"), f3 + 1);
	}
	return 0;
}

/* The value of key in a metadata file, written either "key: value" or "key = value". */
static int meta_value(const char *path, const char *key, char *val, size_t n)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	size_t k = strlen(key);
	int found = 0;
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, k))
			continue;
		char *p = line + k;
		p += strspn(p, " \t");
		if (*p != ':' && *p != '=')
			continue;
		p++;
		p += strspn(p, " \t");
		p[strcspn(p, "\r\n")] = 0;
		put(val, n, "%s", p);
		found = 1;
	}
	fclose(f);
	return found;
}

/* From the task's stdout: the result directory (preset prints it) and the exit line the script
 * adds. The directory is taken in DIR as it is now: the name the task printed, in f->results. */
static int task_output(const struct fleet *fl, const char *path, char *dir, size_t n, int *rc)
{
	FILE *f = fopen(path, "r");
	char line[8192], printed[4096] = "";
	*rc = -1;
	dir[0] = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		const char *p;
		if (!strncmp(line, "results go to ", 14))
			put(printed, sizeof(printed), "%s", line + 14);
		else if ((p = strstr(line, "resuming preset ")) && (p = strstr(p, " in ")))
			put(printed, sizeof(printed), "%.*s", (int)strcspn(p + 4, " "), p + 4);
		else if (!strncmp(line, "c2cbench-slurm: task ", 21) &&
			 (p = strstr(line, ") exit "))) {
			long v;
			*rc = parse_long_in(p + 7, 0, 255, &v)
				  ? -1
				  : (int)v; /* anything else is no exit line */
		}
	}
	fclose(f);
	const char *base = strrchr(printed, '/') ? strrchr(printed, '/') + 1 : printed;
	char err[ERRLEN];
	if (*base && !label_check("result directory", base, err)) /* a label's characters: no .. */
		put(dir, n, "%s/%s", fl->results, base);
	return 0;
}

/* The last lines of a file, joined by " | ", for a one-line reason. */
static void tail_lines(const char *path, int lines, char *out, size_t n)
{
	FILE *f = fopen(path, "r");
	char ring[4][256], line[4096];
	int k = 0;
	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = 0;
		if (line[0])
			put(ring[k++ % 4], sizeof(ring[0]), "%s", line);
	}
	fclose(f);
	size_t o = 0;
	for (int i = k > lines ? k - lines : 0; i < k && o < n; i++)
		o += (size_t)snprintf(out + o, n - o, "%s%s", o ? " | " : "", ring[i % 4]);
}

/* The [run NAME] sections of a result's metadata.txt: how many runs, how many skipped, and the
 * first skipped one's name and reason. */
struct runs_seen {
	int runs, skipped, skip_named;
	char name[64], skip_name[64], skip_why[300];
};

static int on_run_key(void *user, const char *sec, const char *key, const char *val)
{
	struct runs_seen *s = user;
	if (strncmp(sec, "run ", 4))
		return 1;
	if (strcmp(s->name, sec + 4)) { /* a new [run NAME] section */
		put(s->name, sizeof(s->name), "%s", sec + 4);
		s->runs++;
	}
	if (!strcmp(key, "status") && !strcmp(val, "skipped")) {
		s->skipped++;
		if (!s->skip_named++)
			put(s->skip_name, sizeof(s->skip_name), "%s", sec + 4);
	} else if (!strcmp(key, "reason") && !strcmp(s->skip_name, sec + 4) && !s->skip_why[0])
		put(s->skip_why, sizeof(s->skip_why), "%s", val);
	return 1;
}

/* A task that exited 0 with its result finished: done, or nothing measured when every run of the
 * preset was skipped (what this node or allocation cannot give); skipped runs are named either
 * way, so that a done line never hides them. */
static void done_or_nothing(const char *meta, struct task_report *r)
{
	struct runs_seen s = { 0 };
	r->state = TASK_DONE;
	if (ini_parse(meta, on_run_key, &s) < 0 || !s.skipped)
		return;
	if (s.skipped == s.runs)
		r->state = TASK_NOTHING;
	put(r->why, sizeof(r->why), "%s%d of %d run(s) measured, %d skipped ([%s] %s%s)",
	    s.skipped == s.runs ? "the preset ran whole but " : "", s.runs - s.skipped, s.runs,
	    s.skipped, s.skip_name, s.skip_why[0] ? s.skip_why : "no reason recorded",
	    s.skipped > 1 ? "; the others: its metadata.txt" : "");
}

/* Decide a finished task's state from its exit line and its result's metadata. */
static void finished(const struct fleet *f, int i, long job, struct task_report *r)
{
	char out[4400], errp[4400], meta[4200], state[64] = "", last[600], name[64];
	int rc;
	put(name, sizeof(name), "task-%ld-%d.out", job, i);
	fleet_path(f, name, out, sizeof(out));
	put(name, sizeof(name), "task-%ld-%d.err", job, i);
	fleet_path(f, name, errp, sizeof(errp));
	if (task_output(f, out, r->result_dir, sizeof(r->result_dir), &rc)) {
		r->state = TASK_FAILED;
		put(r->why, sizeof(r->why),
		    "no output %s: the task never started, or DIR is not on a file system the node "
		    "shares",
		    out);
		return;
	}
	put(meta, sizeof(meta), "%s/metadata.txt", r->result_dir);
	if (r->result_dir[0])
		meta_value(meta, "state", state, sizeof(state));
	if (!r->node[0] && r->result_dir[0])
		meta_value(meta, "slurm_node", r->node, sizeof(r->node));
	tail_lines(errp, 3, last, sizeof(last));
	if (rc == 0 && !strcmp(state, "finished")) {
		done_or_nothing(meta, r);
		return;
	}
	r->state = !strcmp(state, "interrupted") ? TASK_INTERRUPTED : TASK_FAILED;
	if (rc < 0)
		put(r->why, sizeof(r->why),
		    "no exit line in %s (killed: time limit, node failure or scancel)%s%s", out,
		    last[0] ? "; stderr: " : "", last);
	else
		put(r->why, sizeof(r->why), "exit %d%s%s%s%s", rc,
		    state[0] ? ", result state " : "", state, last[0] ? "; stderr: " : "", last);
}

void fleet_task_status(const struct fleet *f, int i, struct task_report *r)
{
	const struct fleet_task *t = &f->task[i];
	memset(r, 0, sizeof(*r));
	if (!t->njobs) {
		r->state = TASK_NOT_SUBMITTED;
		return;
	}
	long job = t->job[t->njobs - 1];
	char state[64], why[400], name[64], out[4400], dir[8];
	int rc;
	if (queued(job, i, state, sizeof(state), r->node, sizeof(r->node), why, sizeof(why))) {
		put(name, sizeof(name), "task-%ld-%d.out", job, i);
		fleet_path(f, name, out, sizeof(out));
		if (task_output(f, out, dir, sizeof(dir), &rc) ||
		    rc < 0) { /* no exit line: it may run */
			r->state = TASK_UNKNOWN;
			put(r->why, sizeof(r->why), "%s; cannot tell whether it runs", why);
			return;
		}
	} else if (state[0]) {
		r->state = !strcmp(state, "PENDING") ? TASK_PENDING : TASK_RUNNING;
		if (strcmp(state, "PENDING") && strcmp(state, "RUNNING"))
			put(r->why, sizeof(r->why), "Slurm state %s", state);
		return;
	}
	finished(f, i, job, r);
}

/* The newest submission in DIR/slurm/ (ids start with the date, so the largest name is the newest).
 */
int fleet_latest(const char *results, char *id, size_t n, int *count)
{
	char path[PATH_MAX + 8];
	snprintf(path, sizeof(path), "%s/slurm", results);
	DIR *d = opendir(path);
	*count = 0;
	id[0] = 0;
	if (!d)
		return -1;
	struct dirent *e;
	while ((e = readdir(d))) {
		char ini[PATH_MAX + 300];
		snprintf(ini, sizeof(ini), "%s/%s/submission.ini", path, e->d_name);
		if (e->d_name[0] == '.' || access(ini, R_OK))
			continue;
		++*count;
		if (strcmp(e->d_name, id) > 0)
			snprintf(id, n, "%s", e->d_name);
	}
	closedir(d);
	return id[0] ? 0 : -1;
}

/* A record's or a task's text as printed: control bytes escaped (a forged record's terminal
 * escapes never reach the terminal). */
static const char *esc(const char *s, char *buf, size_t n)
{
	text_escape(s, buf, n);
	return buf;
}

/* Print one line per task; return how many are not done (nothing measured is not done). */
int fleet_print_status(const struct fleet *f, FILE *o)
{
	int bad = 0;
	char e1[ERRLEN], e2[ERRLEN], e3[ERRLEN], e4[ERRLEN];
	fprintf(o, "submission %s: preset %s, %d task(s), results in %s\n",
		esc(f->id, e1, sizeof(e1)), esc(f->preset, e2, sizeof(e2)), f->ntasks,
		esc(f->results, e3, sizeof(e3)));
	for (int i = 0; i < f->ntasks; i++) {
		struct task_report r;
		fleet_task_status(f, i, &r);
		const struct fleet_task *t = &f->task[i];
		fprintf(o, "  task %d  %-12s %-13s job %ld  node %s  %s%s%s\n", i,
			esc(t->constraint, e1, sizeof(e1)), task_state_name(r.state),
			t->njobs ? t->job[t->njobs - 1] : 0L,
			esc(r.node[0] ? r.node : "-", e2, sizeof(e2)),
			esc(r.result_dir, e3, sizeof(e3)),
			r.why[0] ? (r.result_dir[0] ? ": " : "") : "", esc(r.why, e4, sizeof(e4)));
		bad += r.state != TASK_DONE;
	}
	return bad;
}

/* Print one submission's tasks; return how many are not done. */
static int status_of(const char *results, const char *id, char *err, int *bad)
{
	struct fleet f;
	int rc = fleet_load(&f, results, id, err);
	if (!rc)
		*bad += fleet_print_status(&f, stdout);
	fleet_free(&f);
	return rc;
}

static const char status_usage[] =
	"usage: c2cbench slurm status DIR [--id ID | --all]   (DIR: also --results DIR)\n"
	"per task of DIR's newest submission (or of ID, or of each with --all, one after the\n"
	"other):\n"
	"pending, running, done, nothing measured (every run skipped), failed, interrupted, or\n"
	"unknown (Slurm unreachable), and why; exit 0 when every task is done, 1 otherwise\n";

static int status_args(int argc, char **argv, const char **dir, const char **id, int *all,
		       char *err)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--all")) {
			if (*all)
				return err_set(err, "slurm status: --all is given twice");
			*all = 1;
		} else if (!strcmp(argv[i], "--id") || !strncmp(argv[i], "--id=", 5)) {
			const char *v = argv[i][4] == '=' ? argv[i] + 5 :
					i + 1 < argc      ? argv[++i] :
							    "";
			if (*id)
				return err_set(err, "slurm status: --id is given twice");
			if (!v[0])
				return err_set(err, "slurm status: --id needs a submission id");
			*id = v;
		} else if (!strcmp(argv[i], "--results") || !strncmp(argv[i], "--results=", 10)) {
			/* DIR, spelled as submit takes it (docs/input.md: --opt=value too) */
			const char *v = argv[i][9] == '=' ? argv[i] + 10 :
					i + 1 < argc      ? argv[++i] :
							    "";
			if (*dir)
				return err_set(err, "slurm status: DIR is given twice ('%s', '%s')",
					       *dir, v);
			if (!v[0])
				return err_set(err, "slurm status: --results needs a directory");
			*dir = v;
		} else if (argv[i][0] == '-' || *dir)
			return err_set(err, "slurm status: unexpected '%s'; accepted: DIR [--id "
				       "ID | --all]", argv[i]);
		else
			*dir = argv[i];
	}
	if (*id && *all)
		return err_set(err, "slurm status: --id and --all exclude each other; accepted: "
			       "one of them");
	if (*id && fleet_id_check(*id, err))
		return -1;
	return 0;
}

int slurm_status_main(int argc, char **argv)
{
	const char *dir = NULL, *id = NULL;
	int all = 0, bad = 0;
	char err[ERRLEN] = "", real[4096];
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(status_usage, stdout);
			return 0;
		}
	if (status_args(argc, argv, &dir, &id, &all, err) || fleet_timeout_init(err)) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	char latest[96];
	int count = 0;
	if (!dir || fleet_latest(dir, latest, sizeof(latest), &count)) {
		fprintf(stderr,
			"c2cbench: error: slurm status: %s%s holds no submission (no "
			"slurm/*/submission.ini)\n",
			dir ? dir : "DIR", dir ? "" : " is needed;");
		return EXIT_BADINPUT;
	}
	if (realpath(dir, real))
		dir = real;
	fleet_signals(); /* ^C kills the squeue running, and status ends */
	int rc = 0;
	if (all) { /* one submission after another, never mixed into one table */
		char sub[8400];
		put(sub, sizeof(sub), "%s/slurm", dir);
		struct dirent **names;
		int n = scandir(sub, &names, NULL, alphasort);
		for (int i = 0; i < n; i++) {
			char ini[8800];
			put(ini, sizeof(ini), "%s/%s/submission.ini", sub, names[i]->d_name);
			if (names[i]->d_name[0] != '.' && !access(ini, F_OK) &&
			    status_of(dir, names[i]->d_name, err, &bad)) {
				fprintf(stderr, "c2cbench: error: %s\n",
					err); /* the others are still shown */
				rc = -1;
				err[0] = 0;
			}
			free(names[i]);
		}
		free(n > 0 ? names : NULL);
	} else {
		if (!id && count > 1)
			printf("(%s holds %d submissions; the newest is shown: --all shows each, "
			       "--id ID one)\n",
			       dir, count);
		rc = status_of(dir, id ? id : latest, err, &bad);
	}
	if (rc) {
		if (err[0])
			fprintf(stderr, "c2cbench: error: %s\n", err);
		return EXIT_BADINPUT;
	}
	if (fleet_stopped())
		return 128 + fleet_stopped();
	return bad ? 1 : 0;
}

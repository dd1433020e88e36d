/* `c2cbench slurm submit`: the checks, the submission's folder and batch script; the queueing
 * itself is runner/slurm_queue.c. --resume resubmits only what did not finish. */
#include "runner/slurm.h"
#include "runner/preset.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "lib/wrap.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct submit_args {
	const char *preset, *constraints, *results, *partition, *bin;
	int wait, dry, resume, new_sub;
};

/* --constraints a,b,c: each a plain feature name, none twice, none empty. */
static int parse_constraints(struct fleet *f, const char *list, char *err)
{
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;
	if (!*list)
		rc = err_set(err, "--constraints: empty list; give Slurm node features, e.g. "
				  "--constraints xeon,epyc");
	for (const char *p = copy; !rc && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		size_t n = strcspn(p, ",");
		char name[80];
		snprintf(name, sizeof(name), "%.*s", (int)(n < 79 ? n : 79), p);
		if (!n || (p[n] == ',' && !p[n + 1]))
			rc = err_set(err,
				     "--constraints '%s': an empty element; accepted: features "
				     "separated by single commas",
				     list);
		else if (n > FLEET_NAME_MAX ||
			 fleet_name_check("--constraints: feature", name, err))
			rc = err_set(err,
				     "--constraints: '%.*s' is not a feature name; accepted: %s",
				     (int)(n < 79 ? n : 79), p, FLEET_NAME_SET);
		else if (f->ntasks >= FLEET_TASKS_MAX)
			rc = err_set(err, "--constraints: more than %d features", FLEET_TASKS_MAX);
		for (int i = 0; !rc && i < f->ntasks; i++)
			if (!strcmp(f->task[i].constraint, name))
				rc = err_set(err, "--constraints: '%s' is given twice", name);
		if (!rc) {
			memcpy(f->task[f->ntasks].constraint, name,
			       strlen(name) +
				   1); /* n <= 63 checked above (gcc -O1 saw a truncation) */
			f->task[f->ntasks++].submit = 1;
		}
	}
	(void)save;
	free(copy);
	return rc;
}

/* DIR exists (made if missing), is a directory we can write, and its path, as given and as it
 * resolves, can stand in a #SBATCH line. */
static int results_dir(struct fleet *f, const char *dir, char *err)
{
	char real[PATH_MAX];
	if (fleet_arg_check("--results", dir, 1, err))
		return -1;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return err_set(err, "--results '%s': cannot create: %s", dir, strerror(errno));
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return err_set(err, "--results '%s': not a directory", dir);
	if (access(dir, W_OK | X_OK) || !realpath(dir, real))
		return err_set(err, "--results '%s': not writable: %s", dir,
			       strerror(errno ? errno : EACCES));
	if (fleet_arg_check("--results (resolved)", real, 1, err))
		return -1;
	snprintf(f->results, sizeof(f->results), "%s", real);
	return 0;
}

/* DIR's submissions are made one at a time: flock on DIR/slurm, taken before "DIR already holds a
 * submission" is checked (or, for --resume, its tasks' states read) and held until the record is
 * written, so two submits without --new, or two --resume, never both pass the check. A submit
 * that made DIR/slurm and then failed removes it again (bad input leaves nothing), so a lock is
 * good only while DIR/slurm is still the folder locked: else another submit's folder may be there,
 * locked by it, and this one tries again on that. */
static int submit_lock = -1;
static char submit_lock_made[PATH_MAX + 16]; /* DIR/slurm when this submit made and holds it */

static int lock_submissions(const char *results, char *err)
{
	char sl[PATH_MAX + 16];
	snprintf(sl, sizeof(sl), "%s/slurm", results);
	for (int tries = 0; tries < 100; tries++) {
		int made = !mkdir(sl, 0755);
		if (!made && errno != EEXIST)
			return err_set(err, "cannot create '%s': %s", sl, strerror(errno));
		int fd = open(sl, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT)
			continue; /* removed between the two: by a submit that failed */
		if (fd < 0)
			return err_set(err, "cannot open '%s' to lock it: %s", sl, strerror(errno));
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			int e = errno;
			close(fd);
			if (e != EWOULDBLOCK)
				return err_set(err, "cannot lock '%s': %s", sl, strerror(e));
			return err_set(err,
				       "--results '%s': another slurm submit is submitting into it "
				       "(%s is locked); accepted: one at a time, or --new to add "
				       "another beside it",
				       results, sl);
		}
		struct stat held, now;
		if (!fstat(fd, &held) && !stat(sl, &now) && held.st_dev == now.st_dev &&
		    held.st_ino == now.st_ino) {
			submit_lock = fd;
			if (made)
				snprintf(submit_lock_made, sizeof(submit_lock_made), "%s", sl);
			return 0;
		}
		close(fd); /* the folder locked was removed: lock the one there now */
	}
	return err_set(err, "cannot lock '%s': it was removed and made again 100 times", sl);
}

static void unlock_submissions(void)
{
	if (submit_lock >= 0)
		close(submit_lock);
	submit_lock = -1;
	submit_lock_made[0] = 0;
}

/* --resume: mark the tasks not done (failed, interrupted, nothing measured) for a new array;
 * partial results continue in place. */
static int plan_resume(struct fleet *f, char *err)
{
	int n = 0;
	for (int i = 0; i < f->ntasks; i++) {
		struct task_report r;
		fleet_task_status(f, i, &r);
		f->task[i].submit = 0;
		f->task[i].resume_dir[0] = 0;
		if (r.state == TASK_UNKNOWN)
			return err_set(err, "task %d (%s): %s; --resume would run it twice: "
				       "try again when Slurm answers", i, f->task[i].constraint,
				       r.why);
		if (r.state == TASK_PENDING || r.state == TASK_RUNNING)
			return err_set(
			    err, "task %d (%s) is still %s in job %ld: wait for it, then --resume",
			    i, f->task[i].constraint, task_state_name(r.state),
			    f->task[i].job[f->task[i].njobs - 1]);
		if (r.state == TASK_DONE)
			continue;
		char meta[PATH_MAX + 16];
		snprintf(meta, sizeof(meta), "%s/metadata.txt", r.result_dir);
		if (r.result_dir[0] && !access(meta, R_OK))
			snprintf(f->task[i].resume_dir, sizeof(f->task[i].resume_dir), "%s",
				 r.result_dir);
		f->task[i].submit = 1;
		n++;
	}
	if (!n)
		return err_set(err, "every task of submission %s is done: nothing to resume",
			       f->id);
	return 0;
}

/* A new id, DATE.MICROSECONDS-PRESET: its date first, so the largest name is the newest. */
static void new_id(struct fleet *f, const char *name)
{
	struct timespec ts;
	struct tm tm;
	char stamp[32];
	clock_gettime(CLOCK_REALTIME, &ts);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", localtime_r(&ts.tv_sec, &tm));
	strftime(f->created, sizeof(f->created), "%Y-%m-%dT%H:%M:%S%z", &tm);
	snprintf(f->id, sizeof(f->id), "%s.%06ld-%s", stamp, ts.tv_nsec / 1000, name);
}

/* DIR/slurm/ID made by this submission alone (mkdir is exclusive): another id while it exists. */
static int claim_id(struct fleet *f, const char *name, char *err)
{
	char sl[PATH_MAX + 16], dir[PATH_MAX + 200];
	snprintf(sl, sizeof(sl), "%s/slurm", f->results);
	if (mkdir(sl, 0755) && errno != EEXIST)
		return err_set(err, "cannot create '%s': %s", sl, strerror(errno));
	for (int k = 0; k < 1000; k++) {
		fleet_path(f, NULL, dir, sizeof(dir));
		if (!mkdir(dir, 0755))
			return 0;
		if (errno != EEXIST)
			return err_set(err, "cannot create '%s': %s", dir, strerror(errno));
		sleep_ns(1000);
		new_id(f, name);
	}
	return err_set(err, "cannot find a free submission id in '%s'", sl);
}

/* The first submission: checks, the record, the script. */
static int plan_new(struct fleet *f, const struct submit_args *a, char *name, size_t n, char *err)
{
	struct preset p = { 0 };
	char id[96];
	int count;
	if (!a->new_sub && !a->dry && !fleet_latest(f->results, id, sizeof(id), &count))
		return err_set(err,
			       "--results '%s' already holds submission %s: --resume completes it, "
			       "--new adds another",
			       f->results, id);
	int rc = fleet_text_check("preset", a->preset, err);
	if (!rc)
		rc = preset_find(a->preset, f->preset_file, sizeof(f->preset_file), err);
	if (!rc)
		rc = preset_load(&p, f->preset_file, err);
	if (!rc && fleet_name_check("the preset's name (its file name without .ini)", p.name, err))
		rc = -1; /* it names the submission, its folder and its job */
	if (!rc) {
		snprintf(name, n, "%s", p.name);
		new_id(f, p.name);
		snprintf(f->preset, sizeof(f->preset), "%s", a->preset);
		char real[PATH_MAX];
		if (realpath(f->preset_file, real))
			snprintf(f->preset_file, sizeof(f->preset_file), "%s", real);
		rc = fleet_text_check("the preset's path", f->preset_file, err);
	}
	preset_free(&p);
	return rc;
}

/* Options other than --sbatch-arg, which may repeat and is taken out first. */
static int parse_args(int argc, char **argv, struct submit_args *a, struct fleet *f, char *err)
{
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		const char **slot = !strcmp(s, "--constraints") ? &a->constraints
				    : !strcmp(s, "--results")   ? &a->results
				    : !strcmp(s, "--partition") ? &a->partition
				    : !strcmp(s, "--bin")       ? &a->bin
								: NULL;
		if (slot || !strcmp(s, "--sbatch-arg")) {
			if (!v)
				return err_set(err, "%s needs a value", s);
			if (slot && *slot)
				return err_set(err, "%s is given twice", s);
			if (slot)
				*slot = v;
			else if (f->nsbatch >= FLEET_SBATCH_ARGS_MAX)
				return err_set(err, "--sbatch-arg: more than %d",
					       FLEET_SBATCH_ARGS_MAX);
			else if (v[0] != '-' || fleet_arg_check("--sbatch-arg", v, 0, err))
				return err_set(err, "--sbatch-arg '%s': accepted: one sbatch "
					       "option (no spaces, # ' \" or \\)", v);
			else
				f->sbatch_arg[f->nsbatch++] = xstrdup(v);
			i++;
		} else if (!strcmp(s, "--wait"))
			a->wait = 1;
		else if (!strcmp(s, "--dry-run"))
			a->dry = 1;
		else if (!strcmp(s, "--resume"))
			a->resume = 1;
		else if (!strcmp(s, "--new"))
			a->new_sub = 1;
		else if (s[0] == '-' && s[1])
			return err_set(err, "unknown option '%s'; see --help for the accepted "
				       "options", s);
		else if (a->preset)
			return err_set(err, "one preset only, got '%s' and '%s'", a->preset, s);
		else
			a->preset = s;
	}
	if (!a->results)
		return err_set(
		    err,
		    "--results DIR is needed (a directory on the cluster's shared file system)");
	if (a->bin && *a->bin && fleet_text_check("--bin", a->bin, err))
		return -1;
	if (a->bin && !*a->bin)
		return err_set(err, "--bin: accepted: the c2cbench path on the nodes, or a name "
				    "found on their PATH");
	if (a->resume && (a->constraints || a->partition || f->nsbatch || a->new_sub || a->bin))
		return err_set(err, "--resume continues DIR's submission as it was: give only the "
				    "preset, --results and --wait");
	if (!a->resume && !a->preset)
		return err_set(err, "submit needs a preset name or .ini file");
	if (!a->resume && !a->constraints)
		return err_set(err, "--constraints LIST is needed: the Slurm node features to run "
				    "on, e.g. xeon,epyc");
	if (a->partition && fleet_name_check("--partition", a->partition, err))
		return -1;
	return 0;
}

static const char submit_usage[] =
    "usage: c2cbench slurm submit PRESET --constraints F1,F2,... --results DIR [--partition P]\n"
    "       [--sbatch-arg ARG]... [--bin PATH] [--wait] [--dry-run] [--new]\n"
    "       c2cbench slurm submit [PRESET] --results DIR --resume [--wait]\n"
    "one job array, one task per constraint (Slurm node feature), each on a whole node (--nodes=1\n"
    "--exclusive), running `c2cbench preset PRESET --label FEATURE-NODE --results DIR`;\n"
    "DIR/slurm/ID/ keeps the batch script, the submission record and each task's output\n"
    "  --constraints LIST  Slurm node features, one task each (letters, digits, _.-; a letter\n"
    "                      or digit first)\n"
    "  --results DIR       where every task writes FEATURE-NODE-DATE-PRESET/ (a shared file "
    "system)\n"
    "  --partition P       the partition to submit to\n"
    "  --sbatch-arg ARG    one more sbatch option for every task (repeatable), e.g. --time=30\n"
    "  --bin PATH          the c2cbench the nodes run (default: this binary; a bare name: the "
    "nodes' PATH)\n"
    "  --wait              block until every task ended, then print each task's status\n"
    "  --dry-run           print the batch script and how it is submitted; submit nothing\n"
    "  --resume            resubmit DIR's tasks that are not done (failed, interrupted, nothing "
    "measured; partial ones: preset --resume)\n"
    "  --new               add another submission to a DIR that holds one (kept apart in "
    "DIR/slurm/ID/)\n";

/* The script's name: job.sbatch, or for a resubmission the first free job-resume[-K].sbatch. */
static void script_name(const struct fleet *f, int resume, char *script, size_t n)
{
	char name[64];
	snprintf(name, sizeof(name), "%s", resume ? "job-resume.sbatch" : "job.sbatch");
	for (int k = 2; resume && k < 1000; k++) { /* each resubmission keeps its own script */
		fleet_path(f, name, script, n);
		if (access(script, F_OK))
			break;
		snprintf(name, sizeof(name), "job-resume-%d.sbatch", k);
	}
	fleet_path(f, name, script, n);
}

/* Load DIR's newest submission for --resume. */
static int load_latest(struct fleet *f, const struct submit_args *a, char *err)
{
	char id[96], results[PATH_MAX];
	int count;
	snprintf(results, sizeof(results), "%s", f->results);
	if (fleet_latest(results, id, sizeof(id), &count))
		return err_set(err,
			       "--resume: '%s' holds no submission (no slurm/*/submission.ini)",
			       results);
	fleet_free(f);
	if (fleet_load(f, results, id, err))
		return -1;
	if (a->preset && strcmp(a->preset, f->preset))
		return err_set(err, "--resume: DIR's submission %s ran preset '%s', not '%s'",
			       f->id, f->preset, a->preset);
	return 0;
}

/* Everything checked before anything is written or queued; the preset's name in *name. */
static int plan(struct fleet *f, struct submit_args *a, int argc, char **argv, char *name,
		char *err)
{
	int rc = parse_args(argc, argv, a, f, err);
	if (!rc)
		rc = fleet_timeout_init(err);
	if (!rc)
		rc = results_dir(f, a->results, err);
	if (!rc && !a->dry && !a->new_sub)
		rc = lock_submissions(f->results, err);
	if (!rc && a->resume)
		rc = load_latest(f, a, err);
	else if (!rc) {
		rc = parse_constraints(f, a->constraints, err);
		if (!rc && a->partition)
			snprintf(f->partition, sizeof(f->partition), "%s", a->partition);
		if (!rc)
			rc = plan_new(f, a, name, 64, err);
		if (!rc && a->bin)
			snprintf(f->bin, sizeof(f->bin), "%s", a->bin);
		else if (!rc && !realpath("/proc/self/exe", f->bin))
			rc = err_set(err, "cannot find this binary: %s", strerror(errno));
		if (!rc)
			rc = fleet_text_check("this binary's path", f->bin, err);
	}
	for (const char *const *t =
		     (const char *const[]){ "sbatch", "squeue", "scontrol", "scancel", NULL };
	     !rc && !a->dry && *t; t++)
		if (!fleet_have(*t))
			rc = err_set(err, "%s not found on PATH: slurm submit needs Slurm's client "
				     "tools (sbatch, squeue, scontrol, scancel)", *t);
	if (!rc && a->resume)
		rc = plan_resume(f, err);
	if (!rc) { /* every value the script and the record hold is checked: bad input, exit 2 */
		char *script = fleet_script(f, err);
		rc = script ? 0 : -1;
		free(script);
	}
	if (!rc && !a->dry && !a->resume)
		rc = fleet_slurm_accepts(f, err);
	return rc;
}

/* Does a task still name job (its cancel failed, so the record keeps it)? */
static int names_job(const struct fleet *f, long job)
{
	for (int i = 0; job && i < f->ntasks; i++)
		if (f->task[i].njobs && f->task[i].job[f->task[i].njobs - 1] == job)
			return 1;
	return 0;
}

int slurm_submit_main(int argc, char **argv)
{
	struct fleet f;
	struct submit_args a = { 0 };
	char err[ERRLEN] = "", script[PATH_MAX + 320], name[64] = "";
	memset(&f, 0, sizeof(f));
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			text_fit(stdout, TEXT_WIDTH, submit_usage);
			return 0;
		}
	/* from here a signal kills the Slurm command running, and what is queued is cancelled */
	fleet_signals();
	int rc = plan(&f, &a, argc, argv, name, err);
	if (!rc && a.dry) {
		rc = fleet_write_script(&f, "-", err);
		const char *how = "# submitted as: sbatch --hold --parsable SCRIPT; then for each "
				  "task I: scontrol update JobId=JOB_I Features=FEATURE[I]; then "
				  "scontrol release JOB\n";
		if (!rc && (fputs(how, stdout) < 0 || fflush(stdout)))
			rc = err_set(err, "cannot write to standard output: %s", strerror(errno));
		if (rc)
			fprintf(stderr, "c2cbench: error: %s\n", err);
		fleet_free(&f);
		return rc ? 1 : 0;
	}
	if (rc) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		/* bad input leaves nothing: not even the folder of the lock */
		if (submit_lock_made[0])
			rmdir(submit_lock_made);
		unlock_submissions();
		fleet_free(&f);
		return fleet_stopped() ? 128 + fleet_stopped() : EXIT_BADINPUT;
	}
	char dir[PATH_MAX + 200];
	long job = 0;
	rc = a.resume ? 0 : claim_id(&f, name, err);
	fleet_path(&f, NULL, dir, sizeof(dir));
	script_name(&f, a.resume, script, sizeof(script));
	int made_script = !rc && !(rc = fleet_write_script(&f, script, err));
	if (!rc)
		rc = fleet_queue(&f, script, a.resume, &job, err);
	if (rc) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		if (made_script && !names_job(&f, job))
			unlink(script); /* nothing queued: no script that looks submitted */
		if (!a.resume && !names_job(&f, job))
			rmdir(dir);
		unlock_submissions(); /* after its folder is gone: the next check sees no half */
		fleet_free(&f);
		return fleet_stopped() ? 128 + fleet_stopped() : 1;
	}
	unlock_submissions(); /* recorded: the next submit sees it (--wait holds no lock) */
	printf("submitted job array %ld (%s): ", job, script);
	for (int i = 0, k = 0; i < f.ntasks; i++)
		if (f.task[i].submit)
			printf("%stask %d on %s%s", k++ ? ", " : "", i, f.task[i].constraint,
			       f.task[i].resume_dir[0] ? " (preset --resume)" : "");
	printf("\nfollow it: c2cbench slurm status %s   (or squeue -j %ld)\n", f.results, job);
	fflush(stdout);
	if (a.wait) {
		if (fleet_wait(job, err)) {
			fprintf(stderr, "c2cbench: error: %s\n", err);
			rc = fleet_stopped() ? 128 + fleet_stopped() : 1;
		} else
			rc = fleet_print_status(&f, stdout) ? 1 : 0;
	}
	fleet_free(&f);
	return rc;
}

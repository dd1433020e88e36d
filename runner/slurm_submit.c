/* `c2cbench slurm submit`: one held job array, one task per constraint, each task's feature set
 * with scontrol, then released; --resume resubmits only what did not finish. */
#include "runner/slurm.h"
#include "runner/preset.h"
#include "harness/parse.h"
#include "harness/util.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct submit_args {
	const char *preset, *constraints, *results, *partition, *bin;
	int wait, dry, resume, new_sub;
};

/* Names Slurm and the shell both take as data: features, partitions. */
static int plain_name(const char *s)
{
	if (!*s || strlen(s) > 63)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_.-", *s))
			return 0;
	return 1;
}

static int has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 1;
	return 0;
}

/* --constraints a,b,c: each a plain feature name, none twice, none empty. */
static int parse_constraints(struct fleet *f, const char *list, char *err)
{
	char *copy = xstrdup(list), *save = NULL;
	int rc = 0;
	if (!*list)
		rc = err_set(err,
			     "--constraints: empty list; give Slurm node features, e.g. "
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
		else if (!plain_name(name) || n > 63)
			rc = err_set(err,
				     "--constraints: '%.*s' is not a feature name; accepted: "
				     "letters, digits and _.- (at most 63)",
				     (int)(n < 79 ? n : 79), p);
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

/* DIR exists (made if missing), is a directory we can write, and its path is plain text. */
static int results_dir(struct fleet *f, const char *dir, char *err)
{
	char real[PATH_MAX];
	if (has_control(dir))
		return err_set(err, "--results: the path holds a control character; accepted: a directory path");
	if (mkdir(dir, 0755) && errno != EEXIST)
		return err_set(err, "--results '%s': cannot create: %s", dir, strerror(errno));
	struct stat st;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return err_set(err, "--results '%s': not a directory", dir);
	if (access(dir, W_OK | X_OK) || !realpath(dir, real))
		return err_set(err, "--results '%s': not writable: %s", dir, strerror(errno ? errno : EACCES));
	snprintf(f->results, sizeof(f->results), "%s", real);
	return 0;
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

/* Slurm's own word on each constraint, without submitting anything (sbatch --test-only). */
static int slurm_accepts(const struct fleet *f, char *err)
{
	for (int i = 0; i < f->ntasks; i++) {
		char c[96], part[160], out[4096];
		char *argv[FLEET_SBATCH_ARGS_MAX + 12];
		int k = 0;
		snprintf(c, sizeof(c), "--constraint=%s", f->task[i].constraint);
		snprintf(part, sizeof(part), "--partition=%s", f->partition);
		argv[k++] = "sbatch";
		argv[k++] = "--test-only";
		argv[k++] = "--nodes=1";
		argv[k++] = "--exclusive";
		argv[k++] = c;
		if (f->partition[0])
			argv[k++] = part;
		for (int j = 0; j < f->nsbatch; j++)
			argv[k++] = f->sbatch_arg[j];
		argv[k++] = "--wrap=true";
		argv[k] = NULL;
		if (fleet_exec(argv, out, sizeof(out))) {
			char *l = strstr(out, "error: ") ? strstr(out, "error: ") + 7 : out;
			l[strcspn(l, "\n")] = 0;
			return err_set(err, "Slurm refuses constraint '%s': %s", f->task[i].constraint, l);
		}
	}
	return 0;
}

/* Run one scontrol/scancel command; on failure, err gets its first line. */
static int slurm_cmd(char *const argv[], char *err)
{
	char out[4096];
	if (!fleet_exec(argv, out, sizeof(out)))
		return 0;
	out[strcspn(out, "\n")] = 0;
	return err_set(err, "%s %s: %s", argv[0], argv[1], out);
}

/* Submit the tasks marked submit: held, then each task's feature, then released. */
static int submit_array(struct fleet *f, const char *script, long *job, char *err)
{
	char out[4096], jid[64];
	char *argv[] = { "sbatch", "--hold", "--parsable", (char *)script, NULL };
	if (fleet_exec(argv, out, sizeof(out))) {
		out[strcspn(out, "\n")] = 0;
		return err_set(err, "sbatch refused %s: %s", script, out);
	}
	out[strcspn(out, ";\r\n")] = 0; /* --parsable: "JOBID" or "JOBID;CLUSTER" */
	if (parse_long_in(out, 1, 0x7fffffffL, job))
		return err_set(err, "sbatch printed no job id: %.200s", out);
	snprintf(jid, sizeof(jid), "%ld", *job);
	for (int i = 0; i < f->ntasks; i++) {
		if (!f->task[i].submit)
			continue;
		char task[96], feat[96];
		snprintf(task, sizeof(task), "JobId=%ld_%d", *job, i);
		snprintf(feat, sizeof(feat), "Features=%s", f->task[i].constraint);
		char *up[] = { "scontrol", "update", task, feat, NULL };
		if (slurm_cmd(up, err)) {
			char *cancel[] = { "scancel", jid, NULL };
			char ignore[256];
			fleet_exec(cancel, ignore, sizeof(ignore));
			return -1;
		}
	}
	char *rel[] = { "scontrol", "release", jid, NULL };
	return slurm_cmd(rel, err);
}

/* Block until Slurm lists no task of the job any more. */
static void wait_job(long job)
{
	char jid[32], out[8192];
	snprintf(jid, sizeof(jid), "%ld", job);
	char *argv[] = { "squeue", "-h", "-r", "-j", jid, "-o", "%K", NULL };
	while (!fleet_exec(argv, out, sizeof(out)) && out[strspn(out, " \n")])
		sleep_ns(1000000000ull);
}

/* Print one line per task; return how many did not finish well. */
int fleet_print_status(const struct fleet *f, FILE *o)
{
	int bad = 0;
	fprintf(o, "submission %s: preset %s, %d task(s), results in %s\n", f->id, f->preset,
		f->ntasks, f->results);
	for (int i = 0; i < f->ntasks; i++) {
		struct task_report r;
		fleet_task_status(f, i, &r);
		const struct fleet_task *t = &f->task[i];
		fprintf(o, "  task %d  %-12s %-13s job %ld  node %s  %s%s%s\n", i, t->constraint,
			task_state_name(r.state), t->njobs ? t->job[t->njobs - 1] : 0L,
			r.node[0] ? r.node : "-", r.result_dir[0] ? r.result_dir : "",
			r.why[0] ? (r.result_dir[0] ? ": " : "") : "", r.why);
		bad += r.state != TASK_DONE;
	}
	return bad;
}

/* --resume: mark failed and interrupted tasks for a new array; partial results continue in place.
 */
static int plan_resume(struct fleet *f, char *err)
{
	int n = 0;
	for (int i = 0; i < f->ntasks; i++) {
		struct task_report r;
		fleet_task_status(f, i, &r);
		f->task[i].submit = 0;
		f->task[i].resume_dir[0] = 0;
		if (r.state == TASK_PENDING || r.state == TASK_RUNNING)
			return err_set(err,
				       "task %d (%s) is still %s in job %ld: wait for it, then "
				       "--resume",
				       i, f->task[i].constraint, task_state_name(r.state),
				       f->task[i].job[f->task[i].njobs - 1]);
		if (r.state == TASK_DONE)
			continue;
		char meta[PATH_MAX + 16];
		snprintf(meta, sizeof(meta), "%s/metadata.txt", r.result_dir);
		if (r.result_dir[0] && !access(meta, R_OK))
			snprintf(f->task[i].resume_dir, sizeof(f->task[i].resume_dir), "%s", r.result_dir);
		f->task[i].submit = 1;
		n++;
	}
	if (!n)
		return err_set(err, "every task of submission %s is done: nothing to resume", f->id);
	return 0;
}

/* The first submission: checks, the record, the script. */
static int plan_new(struct fleet *f, const struct submit_args *a, char *err)
{
	struct preset p = { 0 };
	char id[96];
	int count;
	if (!a->new_sub && !a->dry && !fleet_latest(f->results, id, sizeof(id), &count))
		return err_set(err,
			       "--results '%s' already holds submission %s: --resume completes it, "
			       "--new adds another",
			       f->results, id);
	int rc = preset_find(a->preset, f->preset_file, sizeof(f->preset_file), err);
	if (!rc)
		rc = preset_load(&p, f->preset_file, err);
	if (!rc) {
		char stamp[32];
		time_t now = time(NULL);
		struct tm tm;
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%S", localtime_r(&now, &tm));
		strftime(f->created, sizeof(f->created), "%Y-%m-%dT%H:%M:%S%z", localtime_r(&now, &tm));
		snprintf(f->id, sizeof(f->id), "%s-%s", stamp, p.name);
		snprintf(f->preset, sizeof(f->preset), "%s", a->preset);
		char real[PATH_MAX];
		if (realpath(f->preset_file, real))
			snprintf(f->preset_file, sizeof(f->preset_file), "%s", real);
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
			: !strcmp(s, "--results")		? &a->results
			: !strcmp(s, "--partition")		? &a->partition
			: !strcmp(s, "--bin")			? &a->bin
								: NULL;
		if (slot || !strcmp(s, "--sbatch-arg")) {
			if (!v)
				return err_set(err, "%s needs a value", s);
			if (slot && *slot)
				return err_set(err, "%s is given twice", s);
			if (slot)
				*slot = v;
			else if (f->nsbatch >= FLEET_SBATCH_ARGS_MAX)
				return err_set(err, "--sbatch-arg: more than %d", FLEET_SBATCH_ARGS_MAX);
			else if (v[0] != '-' || has_control(v) || strpbrk(v, " \t"))
				return err_set(err,
					       "--sbatch-arg '%s': accepted: one sbatch option "
					       "without spaces, e.g. --time=10",
					       v);
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
			return err_set(err,
				       "unknown option '%s'; accepted: --constraints --results "
				       "--partition --sbatch-arg --bin --wait --dry-run --resume "
				       "--new",
				       s);
		else if (a->preset)
			return err_set(err, "one preset only, got '%s' and '%s'", a->preset, s);
		else
			a->preset = s;
	}
	if (!a->results)
		return err_set(err, "--results DIR is needed (a directory on the cluster's shared file system)");
	if (a->bin && (!*a->bin || has_control(a->bin)))
		return err_set(err,
			       "--bin: accepted: the c2cbench path on the nodes, or a name found "
			       "on their PATH");
	if (a->resume && (a->constraints || a->partition || f->nsbatch || a->new_sub || a->bin))
		return err_set(err,
			       "--resume continues DIR's submission as it was: give only the "
			       "preset, --results and --wait");
	if (!a->resume && !a->preset)
		return err_set(err, "submit needs a preset name or .ini file");
	if (!a->resume && !a->constraints)
		return err_set(err,
			       "--constraints LIST is needed: the Slurm node features to run on, "
			       "e.g. xeon,epyc");
	if (a->partition && !plain_name(a->partition))
		return err_set(err, "--partition '%s': accepted: letters, digits and _.-", a->partition);
	return 0;
}

static const char submit_usage[] =
	"usage: c2cbench slurm submit PRESET --constraints F1,F2,... --results DIR [--partition "
	"P]\n"
	"       [--sbatch-arg ARG]... [--bin PATH] [--wait] [--dry-run] [--new]\n"
	"       c2cbench slurm submit [PRESET] --results DIR --resume [--wait]\n"
	"one job array, one task per constraint (Slurm node feature), each on a whole node "
	"(--nodes=1\n"
	"--exclusive), running `c2cbench preset PRESET --label FEATURE-NODE --results DIR`;\n"
	"DIR/slurm/ID/ keeps the batch script, the submission record and each task's output\n"
	"  --constraints LIST  Slurm node features, one task each (letters, digits, _.-)\n"
	"  --results DIR       where every task writes FEATURE-NODE-DATE-PRESET/ (a shared file "
	"system)\n"
	"  --partition P       the partition to submit to\n"
	"  --sbatch-arg ARG    one more sbatch option for every task (repeatable), e.g. --time=30\n"
	"  --bin PATH          the c2cbench the nodes run (default: this binary; a bare name: the "
	"nodes' PATH)\n"
	"  --wait              block until every task ended, then print each task's status\n"
	"  --dry-run           print the batch script and how it is submitted; submit nothing\n"
	"  --resume            resubmit DIR's failed and interrupted tasks only (partial ones: "
	"preset --resume)\n"
	"  --new               add another submission to a DIR that holds one (kept apart in "
	"DIR/slurm/ID/)\n";

int slurm_submit_main(int argc, char **argv)
{
	struct fleet f;
	struct submit_args a = { 0 };
	char err[ERRLEN] = "", script[PATH_MAX + 320];
	memset(&f, 0, sizeof(f));
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(submit_usage, stdout);
			return 0;
		}
	int rc = parse_args(argc, argv, &a, &f, err);
	if (!rc)
		rc = results_dir(&f, a.results, err);
	if (!rc && a.resume) {
		char id[96], ini[PATH_MAX + 400];
		int count;
		if (fleet_latest(f.results, id, sizeof(id), &count))
			rc = err_set(err, "--resume: '%s' holds no submission (no slurm/*/submission.ini)", f.results);
		snprintf(ini, sizeof(ini), "%s/slurm/%s/submission.ini", f.results, id);
		fleet_free(&f);
		if (!rc && !(rc = fleet_load(&f, ini, err)) && a.preset && strcmp(a.preset, f.preset))
			rc = err_set(err, "--resume: DIR's submission %s ran preset '%s', not '%s'",
				     f.id, f.preset, a.preset);
	} else if (!rc) {
		rc = parse_constraints(&f, a.constraints, err);
		if (!rc && a.partition)
			snprintf(f.partition, sizeof(f.partition), "%s", a.partition);
		if (!rc)
			rc = plan_new(&f, &a, err);
		if (!rc && a.bin)
			snprintf(f.bin, sizeof(f.bin), "%s", a.bin);
		else if (!rc && !realpath("/proc/self/exe", f.bin))
			rc = err_set(err, "cannot find this binary: %s", strerror(errno));
	}
	for (const char *const *t = (const char *const[]){ "sbatch", "squeue", "scontrol", NULL };
	     !rc && !a.dry && *t; t++)
		if (!fleet_have(*t))
			rc = err_set(err,
				     "%s not found on PATH: slurm submit needs Slurm's client "
				     "tools (sbatch, squeue, scontrol)",
				     *t);
	if (!rc && a.resume)
		rc = plan_resume(&f, err);
	if (!rc && !a.dry && !a.resume)
		rc = slurm_accepts(&f, err);
	if (rc) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		fleet_free(&f);
		return EXIT_BADINPUT;
	}
	if (a.dry) {
		rc = fleet_write_script(&f, "-", err);
		printf("# submitted as: sbatch --hold --parsable SCRIPT; then for each task I: "
		       "scontrol update JobId=JOB_I Features=FEATURE[I]; then scontrol release "
		       "JOB\n");
		fleet_free(&f);
		return rc ? 1 : 0;
	}
	char dir[PATH_MAX + 200], name[64];
	fleet_path(&f, NULL, dir, sizeof(dir));
	snprintf(name, sizeof(name), "%s", a.resume ? "job-resume.sbatch" : "job.sbatch");
	for (int k = 2; a.resume && k < 1000; k++) { /* each resubmission keeps its own script */
		fleet_path(&f, name, script, sizeof(script));
		if (access(script, F_OK))
			break;
		snprintf(name, sizeof(name), "job-resume-%d.sbatch", k);
	}
	fleet_path(&f, name, script, sizeof(script));
	long job = 0;
	char sl[PATH_MAX + 16];
	snprintf(sl, sizeof(sl), "%s/slurm", f.results);
	if ((mkdir(sl, 0755) && errno != EEXIST) || (mkdir(dir, 0755) && errno != EEXIST))
		rc = err_set(err, "cannot create '%s': %s", dir, strerror(errno));
	if (!rc)
		rc = fleet_write_script(&f, script, err);
	if (!rc)
		rc = submit_array(&f, script, &job, err);
	for (int i = 0; !rc && i < f.ntasks; i++)
		if (f.task[i].submit && f.task[i].njobs < FLEET_JOBS_MAX)
			f.task[i].job[f.task[i].njobs++] = job;
	if (!rc)
		rc = fleet_save(&f, err);
	if (rc) {
		fprintf(stderr, "c2cbench: error: %s\n", err);
		fleet_free(&f);
		return 1;
	}
	printf("submitted job array %ld (%s): ", job, script);
	for (int i = 0, k = 0; i < f.ntasks; i++)
		if (f.task[i].submit)
			printf("%stask %d on %s%s", k++ ? ", " : "", i, f.task[i].constraint,
			       f.task[i].resume_dir[0] ? " (preset --resume)" : "");
	printf("\nfollow it: c2cbench slurm status %s   (or squeue -j %ld)\n", f.results, job);
	fflush(stdout);
	if (a.wait) {
		wait_job(job);
		rc = fleet_print_status(&f, stdout) ? 1 : 0;
	}
	fleet_free(&f);
	return rc;
}

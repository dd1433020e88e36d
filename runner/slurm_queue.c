/* Putting a submission in Slurm's queue so that it is never lost or doubled: the array is
 * submitted held, each task's feature set, the record saved, and only then released. Any failure
 * on the way (a refusal, a warning instead of a job id, a timeout, a signal) cancels the held
 * array and takes the record back, so a job Slurm runs is always one a record names. */
#include "runner/slurm.h"
#include "lib/parse.h"
#include "lib/util.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Slurm's own word on each constraint, without submitting anything (sbatch --test-only). */
int fleet_slurm_accepts(const struct fleet *f, char *err)
{
	for (int i = 0; i < f->ntasks; i++) {
		char c[96], part[160], out[4096], e[4096], why[400];
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
		int rc = fleet_exec(argv, out, sizeof(out), e, sizeof(e), 0);
		if (rc) {
			const char *l = strstr(e, "error: ") ? strstr(e, "error: ") + 7 : e;
			fleet_exec_why(rc, out, l, why, sizeof(why));
			int asked = rc != FLEET_TIMED_OUT && rc != FLEET_INTERRUPTED && rc != 127 &&
				    rc <= 128;
			if (!asked)
				return err_set(err, "cannot ask Slurm about constraint '%s' "
					       "(sbatch --test-only): %s", f->task[i].constraint,
					       why);
			return err_set(err, "Slurm refuses constraint '%s': %s",
				       f->task[i].constraint, why);
		}
	}
	return 0;
}

/* Run one scontrol/scancel command; on failure, why gets how it failed. */
static int slurm_cmd(char *const argv[], int flags, char *why, size_t n)
{
	char out[4096], e[4096];
	int rc = fleet_exec(argv, out, sizeof(out), e, sizeof(e), flags);
	if (rc)
		fleet_exec_why(rc, out, e, why, n);
	return rc ? -1 : 0;
}

/* Cancel the held array (by id, or by its job name when sbatch gave no id: the name holds the
 * submission id, unique to this submission); add what happened to err; 0 when it is gone. */
static int cancel(const struct fleet *f, long job, char *err)
{
	char jid[32], name[128], why[400];
	snprintf(jid, sizeof(jid), "%ld", job);
	snprintf(name, sizeof(name), "--name=c2cbench-%s", f->id);
	char *by_id[] = { "scancel", jid, NULL }, *by_name[] = { "scancel", name, NULL };
	int rc = slurm_cmd(job ? by_id : by_name, FLEET_EVEN_IF_STOPPED, why, sizeof(why));
	if (rc) /* err_set reads err before it writes it */
		err_set(err,
			"%s; and scancel %s failed (%s): it may be left held, "
			"see squeue -n c2cbench-%s",
			err, job ? jid : name, why, f->id);
	else
		err_set(err, "%s; nothing is left queued (scancel %s)", err, job ? jid : name);
	return rc;
}

/* sbatch --parsable prints "JOBID" or "JOBID;CLUSTER" on stdout; warnings go around it. */
static int job_id(char *out, long *job)
{
	int found = 0;
	for (char *l = strtok(out, "\n"); l; l = strtok(NULL, "\n")) {
		l[strcspn(l, ";\r")] = 0;
		long v;
		if (!parse_long_in(l, 1, 0x7fffffffL, &v)) {
			*job = v;
			found++;
		}
	}
	return found == 1 ? 0 : -1;
}

static int sbatch_held(const struct fleet *f, const char *script, long *job, char *err)
{
	char out[4096], e[4096], why[400];
	char *argv[] = { "sbatch", "--hold", "--parsable", (char *)script, NULL };
	int rc = fleet_exec(argv, out, sizeof(out), e, sizeof(e), 0);
	*job = 0;
	if (rc) {
		fleet_exec_why(rc, out, e, why, sizeof(why));
		err_set(err, "sbatch refused %s: %s", script, why);
	} else if (job_id(out, job)) {
		fleet_exec_why(rc, out, e, why, sizeof(why));
		err_set(err, "sbatch printed no single job id on stdout (%s)", why);
		*job = 0;
	} else
		return 0;
	/* refused, killed or unreadable: it may still have queued the array (under its unique
	 * name) */
	if (rc == 0 || rc == FLEET_TIMED_OUT || rc == FLEET_INTERRUPTED || rc > 128)
		cancel(f, 0, err);
	return -1;
}

/* The tasks marked submit get job; undo takes it back. */
static void record_job(struct fleet *f, long job, int undo)
{
	for (int i = 0; i < f->ntasks; i++)
		if (f->task[i].submit && !undo && f->task[i].njobs < FLEET_JOBS_MAX)
			f->task[i].job[f->task[i].njobs++] = job;
		else if (f->task[i].submit && undo && f->task[i].njobs &&
			 f->task[i].job[f->task[i].njobs - 1] == job)
			f->task[i].njobs--;
}

int fleet_queue(struct fleet *f, const char *script, int resume, long *job, char *err)
{
	char why[400], jid[32];
	if (fleet_stopped())
		return err_set(err, "interrupted (signal %d) before sbatch: nothing was submitted",
			       fleet_stopped());
	if (sbatch_held(f, script, job, err))
		return -1;
	snprintf(jid, sizeof(jid), "%ld", *job);
	int rc = 0;
	for (int i = 0; !rc && i < f->ntasks; i++) {
		if (!f->task[i].submit)
			continue;
		char task[96], feat[96];
		snprintf(task, sizeof(task), "JobId=%ld_%d", *job, i);
		snprintf(feat, sizeof(feat), "Features=%s", f->task[i].constraint);
		char *up[] = { "scontrol", "update", task, feat, NULL };
		if ((rc = slurm_cmd(up, 0, why, sizeof(why))))
			err_set(err, "scontrol update %s %s: %s", task, feat, why);
	}
	record_job(f, *job, 0);
	if (!rc && (rc = fleet_save(f, resume, err))) { /* recorded before it may run */
		record_job(f, *job, 1);
		cancel(f, *job, err);
		return -1;
	}
	char *rel[] = { "scontrol", "release", jid, NULL };
	if (!rc && (rc = slurm_cmd(rel, 0, why, sizeof(why))))
		err_set(err, "scontrol release %s: %s", jid, why);
	if (!rc)
		return 0;
	if (cancel(f, *job, err))
		return -1; /* it may still run: the record keeps naming it */
	record_job(f, *job, 1);
	char path[4400], keep[ERRLEN], ignore[ERRLEN];
	fleet_path(f, "submission.ini", path, sizeof(path));
	snprintf(keep, sizeof(keep), "%s", err);
	if (resume ? fleet_save(f, 1, ignore) : (unlink(path) && access(path, F_OK) == 0))
		err_set(keep, "%s; the record %s still names job %s", keep, path, jid);
	snprintf(err, ERRLEN, "%s", keep);
	return -1;
}

int fleet_wait(long job, char *err)
{
	char jid[32], out[8192], e[2048], why[400] = "";
	snprintf(jid, sizeof(jid), "%ld", job);
	char *argv[] = { "squeue", "-h", "-r", "-j", jid, "-o", "%K", NULL };
	uint64_t failing_since = 0;
	for (;;) {
		int rc = fleet_exec(argv, out, sizeof(out), e, sizeof(e), 0);
		if (rc == FLEET_INTERRUPTED || fleet_stopped())
			return err_set(err, "stopped waiting (signal %d); job %s keeps its course: "
				       "scancel %s stops it", fleet_stopped(), jid, jid);
		if (!rc && !out[strspn(out, " \n")])
			return 0; /* Slurm lists no task of it any more */
		if (rc && rc != FLEET_TIMED_OUT && strstr(e, "Invalid job id"))
			return 0;
		if (!rc)
			failing_since = 0;
		else if (!failing_since)
			failing_since = now_ns();
		if (rc)
			fleet_exec_why(rc, out, e, why, sizeof(why));
		if (failing_since &&
		    now_ns() - failing_since > (uint64_t)fleet_timeout() * 1000000000ull)
			return err_set(err, "Slurm unreachable for over %ld s (squeue: %s); job "
				       "%s may still run: c2cbench slurm status DIR",
				       fleet_timeout(), why, jid);
		sleep_ns(1000000000ull);
	}
}

/* A fleet submission on disk: DIR/slurm/ID/ holds the batch script, submission.ini and each task's
 * output, so status, --resume and a person resubmitting by hand all read the same files. */
#include "runner/slurm.h"
#include "harness/parse.h"
#include "harness/util.h"
#include "harness/replace.h"
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fleet_path(const struct fleet *f, const char *file, char *out, size_t n)
{
	snprintf(out, n, "%s/slurm/%s%s%s", f->results, f->id, file ? "/" : "", file ? file : "");
}

void shell_quote(const char *s, char *out, size_t n)
{
	size_t k = 0;
	if (n < 3) {
		if (n)
			out[0] = 0;
		return;
	}
	out[k++] = '\'';
	for (; *s && k + 5 < n; s++) { /* ' closes, \' is a literal quote, ' reopens */
		if (*s == '\'') {
			memcpy(out + k, "'\\''", 4);
			k += 4;
		} else
			out[k++] = *s;
	}
	out[k++] = '\'';
	out[k] = 0;
}

/* A bash array literal of the tasks' constraints or resume directories, each quoted. */
static void bash_array(FILE *o, const char *name, const struct fleet *f, int resume)
{
	char q[8300];
	fprintf(o, "%s=(", name);
	for (int i = 0; i < f->ntasks; i++) {
		shell_quote(resume ? f->task[i].resume_dir : f->task[i].constraint, q, sizeof(q));
		fprintf(o, "%s%s", i ? " " : "", q);
	}
	fprintf(o, ")\n");
}

/* The #SBATCH header: one array task per listed index, one whole node each. */
static void script_header(FILE *o, const struct fleet *f, const int *idx, int n)
{
	char out[4200];
	fprintf(o, "#SBATCH --job-name=c2cbench-%s\n#SBATCH --array=", f->id);
	for (int i = 0; i < n; i++)
		fprintf(o, "%s%d", i ? "," : "", idx[i]);
	fleet_path(f, NULL, out, sizeof(out));
	fprintf(o,
		"\n#SBATCH --nodes=1\n#SBATCH --exclusive\n#SBATCH "
		"--output=%s/task-%%A-%%a.out\n#SBATCH --error=%s/task-%%A-%%a.err\n",
		out, out);
	if (f->partition[0])
		fprintf(o, "#SBATCH --partition=%s\n", f->partition);
	for (int i = 0; i < f->nsbatch; i++)
		fprintf(o, "#SBATCH %s\n", f->sbatch_arg[i]);
}

static int write_script_to(FILE *o, const struct fleet *f, const int *idx, int n)
{
	char bin[8300], preset[8300], results[8300];
	shell_quote(f->bin, bin, sizeof(bin));
	shell_quote(f->preset_file, preset, sizeof(preset));
	shell_quote(f->results, results, sizeof(results));
	fprintf(o,
		"#!/bin/bash\n"
		"# c2cbench fleet run %s, written by `c2cbench slurm submit` on %s: preset %s on "
		"one whole node\n"
		"# per constraint (Slurm node feature); array task I runs on a node with feature "
		"constraints[I].\n"
		"# c2cbench submits it held (sbatch --hold), sets each task's feature\n"
		"# (scontrol update JobId=JOB_I Features=FEATURE), then releases it (scontrol "
		"release JOB).\n"
		"# To run one task by hand: sbatch --array=I --constraint=FEATURE THIS_FILE\n",
		f->id, f->created, f->preset);
	script_header(o, f, idx, n);
	fprintf(o, "set -u\n");
	bash_array(o, "constraints", f, 0);
	bash_array(o, "resume", f, 1);
	fprintf(o, "bin=%s\npreset=%s\nresults=%s\n", bin, preset, results);
	fprintf(o, "i=${SLURM_ARRAY_TASK_ID:?run this script as a Slurm array task}\n"
		   "feature=${constraints[$i]}\n"
		   "node=${SLURMD_NODENAME:-$(hostname -s)}\n"
		   "export C2C_SLURM_CONSTRAINT=\"$feature\"\n"
		   "if [ -n \"${resume[$i]}\" ]; then\n"
		   "  \"$bin\" preset \"$preset\" --resume \"${resume[$i]}\" --label \"$feature-$node\"\n"
		   "else\n"
		   "  \"$bin\" preset \"$preset\" --results \"$results\" --label \"$feature-$node\"\n"
		   "fi\n"
		   "rc=$?\n"
		   "echo \"c2cbench-slurm: task $i on $node ($feature) exit $rc\"\n"
		   "exit $rc\n");
	return ferror(o) ? -1 : 0;
}

int fleet_write_script(const struct fleet *f, const char *path, char *err)
{
	int idx[FLEET_TASKS_MAX], n = 0;
	for (int i = 0; i < f->ntasks; i++)
		if (f->task[i].submit)
			idx[n++] = i;
	FILE *o = !strcmp(path, "-") ? stdout : fopen(path, "w");
	if (!o)
		return err_set(err, "cannot write '%s': %s", path, strerror(errno));
	int rc = write_script_to(o, f, idx, n);
	if (o != stdout && fclose(o))
		rc = -1;
	if (rc)
		return err_set(err, "cannot write '%s': %s", path, strerror(errno));
	return 0;
}

int fleet_save(const struct fleet *f, char *err)
{
	char path[4300];
	struct replace r;
	fleet_path(f, "submission.ini", path, sizeof(path));
	FILE *o = replace_open(&r, path);
	if (!o)
		return err_set(err, "cannot write '%s': %s", path, strerror(errno));
	fprintf(o,
		"[submission]\nid = %s\npreset = %s\npreset_file = %s\nresults = %s\npartition = "
		"%s\nbin = %s\ncreated = %s\n",
		f->id, f->preset, f->preset_file, f->results, f->partition, f->bin, f->created);
	for (int i = 0; i < f->nsbatch; i++)
		fprintf(o, "sbatch_arg = %s\n", f->sbatch_arg[i]);
	for (int i = 0; i < f->ntasks; i++) {
		fprintf(o, "\n[task]\nindex = %d\nconstraint = %s\njobs = ", i, f->task[i].constraint);
		for (int j = 0; j < f->task[i].njobs; j++)
			fprintf(o, "%s%ld", j ? "," : "", f->task[i].job[j]);
		fprintf(o, "\nresume_dir = %s\n", f->task[i].resume_dir);
	}
	if (replace_commit(&r, REPLACE_OVER))
		return err_set(err, "cannot write '%s': %s", path, strerror(errno));
	return 0;
}

static void copy(char *dst, size_t n, const char *v)
{
	snprintf(dst, n, "%s", v);
}

/* "12,15": the task's job ids, each a whole number (the strict grammar: the record is read back as
 * data). */
static int parse_jobs(struct fleet_task *t, const char *val)
{
	char one[32];
	for (const char *p = val; *p; p += *p == ',') {
		size_t n = strcspn(p, ",");
		long id;
		if (n == 0 || n >= sizeof(one) || t->njobs >= FLEET_JOBS_MAX)
			return 0;
		snprintf(one, sizeof(one), "%.*s", (int)n, p);
		if (parse_long_in(one, 1, 0x7fffffffL, &id))
			return 0;
		t->job[t->njobs++] = id;
		p += n;
	}
	return 1;
}

/* inih callback: [submission] keys, then one [task] section per task in order. */
static int on_key(void *user, const char *sec, const char *key, const char *val)
{
	struct fleet *f = user;
	if (!strcmp(sec, "submission")) {
		if (!strcmp(key, "id")) copy(f->id, sizeof(f->id), val);
		else if (!strcmp(key, "preset")) copy(f->preset, sizeof(f->preset), val);
		else if (!strcmp(key, "preset_file")) copy(f->preset_file, sizeof(f->preset_file), val);
		else if (!strcmp(key, "results")) copy(f->results, sizeof(f->results), val);
		else if (!strcmp(key, "partition")) copy(f->partition, sizeof(f->partition), val);
		else if (!strcmp(key, "bin")) copy(f->bin, sizeof(f->bin), val);
		else if (!strcmp(key, "created")) copy(f->created, sizeof(f->created), val);
		else if (!strcmp(key, "sbatch_arg") && f->nsbatch < FLEET_SBATCH_ARGS_MAX)
			f->sbatch_arg[f->nsbatch++] = xstrdup(val);
		return 1;
	}
	if (strcmp(sec, "task"))
		return 0;
	if (!strcmp(key, "index")) {
		long i;
		if (f->ntasks >= FLEET_TASKS_MAX ||
		    parse_long_in(val, 0, FLEET_TASKS_MAX - 1, &i) || i != f->ntasks)
			return 0;
		f->ntasks++;
		return 1;
	}
	if (!f->ntasks)
		return 0;
	struct fleet_task *t = &f->task[f->ntasks - 1];
	if (!strcmp(key, "constraint"))
		copy(t->constraint, sizeof(t->constraint), val);
	else if (!strcmp(key, "resume_dir"))
		copy(t->resume_dir, sizeof(t->resume_dir), val);
	else if (!strcmp(key, "jobs"))
		return parse_jobs(t, val);
	return 1;
}

int fleet_load(struct fleet *f, const char *ini, char *err)
{
	memset(f, 0, sizeof(*f));
	int line = ini_parse(ini, on_key, f);
	if (line < 0)
		return err_set(err, "cannot read '%s': %s", ini, strerror(errno));
	if (line > 0 || !f->id[0] || !f->ntasks)
		return err_set(err, "%s:%d: not a c2cbench submission record", ini, line);
	return 0;
}

void fleet_free(struct fleet *f)
{
	for (int i = 0; i < f->nsbatch; i++)
		free(f->sbatch_arg[i]);
	f->nsbatch = 0;
}

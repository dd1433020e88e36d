/* A fleet submission on disk: DIR/slurm/ID/ holds the batch script, submission.ini and each task's
 * output, so status, --resume and a person resubmitting by hand all read the same files. */
#include "runner/slurm.h"
#include "lib/parse.h"
#include "lib/util.h"
#include "lib/replace.h"
#include <errno.h>
#include <fcntl.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void fleet_path(const struct fleet *f, const char *file, char *out, size_t n)
{
	snprintf(out, n, "%s/slurm/%s%s%s", f->results, f->id, file ? "/" : "", file ? file : "");
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

/* The #SBATCH arguments: one array task per listed index, one whole node each. */
static int script_args(const struct fleet *f, const int *idx, int n, char a[][FLEET_ARG_LEN])
{
	char dir[4200];
	int k = 0;
	fleet_path(f, NULL, dir, sizeof(dir));
	snprintf(a[k++], FLEET_ARG_LEN, "--job-name=c2cbench-%s", f->id);
	size_t l = (size_t)snprintf(a[k], FLEET_ARG_LEN, "--array=");
	for (int i = 0; i < n; i++)
		l += (size_t)snprintf(a[k] + l, FLEET_ARG_LEN - l, "%s%d", i ? "," : "", idx[i]);
	k++;
	snprintf(a[k++], FLEET_ARG_LEN, "--nodes=1");
	snprintf(a[k++], FLEET_ARG_LEN, "--exclusive");
	snprintf(a[k++], FLEET_ARG_LEN, "--output=%s/task-%%A-%%a.out", dir);
	snprintf(a[k++], FLEET_ARG_LEN, "--error=%s/task-%%A-%%a.err", dir);
	if (f->partition[0])
		snprintf(a[k++], FLEET_ARG_LEN, "--partition=%s", f->partition);
	for (int i = 0; i < f->nsbatch; i++)
		snprintf(a[k++], FLEET_ARG_LEN, "%s", f->sbatch_arg[i]);
	return k;
}

/* Every value the script holds passes its check (a record read back is checked as input is). */
static int script_inputs_ok(const struct fleet *f, char *err)
{
	int rc = fleet_name_check("submission id", f->id, err);
	char dir[4200];
	fleet_path(f, NULL, dir, sizeof(dir));
	if (!rc && f->partition[0])
		rc = fleet_name_check("--partition", f->partition, err);
	for (int i = 0; !rc && i < f->ntasks; i++)
		rc = fleet_name_check("--constraints", f->task[i].constraint, err) ||
		     fleet_text_check("resume directory", f->task[i].resume_dir, err);
	for (int i = 0; !rc && i < f->nsbatch; i++)
		rc = fleet_arg_check("--sbatch-arg", f->sbatch_arg[i], 0, err);
	if (!rc)
		rc = fleet_arg_check("--results", dir, 1, err) ||
		     fleet_arg_check("created", f->created, 0, err) ||
		     fleet_text_check("--bin", f->bin, err) ||
		     fleet_text_check("the preset's path", f->preset_file, err);
	return rc ? -1 : 0;
}

static void script_body(FILE *o, const struct fleet *f)
{
	char bin[8300], preset[8300], results[8300];
	shell_quote(f->bin, bin, sizeof(bin));
	shell_quote(f->preset_file, preset, sizeof(preset));
	shell_quote(f->results, results, sizeof(results));
	fprintf(o, "set -u\n");
	bash_array(o, "constraints", f, 0);
	bash_array(o, "resume", f, 1);
	fprintf(o, "bin=%s\npreset=%s\nresults=%s\n", bin, preset, results);
	fprintf(o,
		"i=${SLURM_ARRAY_TASK_ID:?run this script as a Slurm array task}\n"
		"feature=${constraints[$i]}\n"
		"node=${SLURMD_NODENAME:-$(hostname -s)}\n"
		"export C2C_SLURM_CONSTRAINT=\"$feature\"\n"
		"if [ -n \"${resume[$i]}\" ]; then\n"
		"  \"$bin\" preset \"$preset\" --resume \"${resume[$i]}\""
		" --label \"$feature-$node\"\n"
		"else\n"
		"  \"$bin\" preset \"$preset\" --results \"$results\" --label \"$feature-$node\"\n"
		"fi\n"
		"rc=$?\n"
		"echo \"c2cbench-slurm: task $i on $node ($feature) exit $rc\"\n"
		"exit $rc\n");
}

static void put_record(FILE *o, const struct fleet *f);
static int on_key(void *user, const char *sec, const char *key, const char *val);

/* One value that must read back from the record as written. */
static int same(const char *what, const char *want, const char *got, char *err)
{
	if (!strcmp(want, got))
		return 0;
	return err_set(err,
		       "%s '%s' cannot be kept in the submission record (it would read back as "
		       "'%s'); accepted: no ' ;' and no leading or trailing blank",
		       what, want, got);
}

/* The record, written and read back in memory: what --resume would read is what was given
 * (inih cuts a value at " ;" and trims blanks). */
static int record_reads_back(const struct fleet *f, char *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	if (!m)
		out_of_memory(0);
	put_record(m, f);
	if (fclose(m))
		out_of_memory(len);
	struct fleet *g = xcalloc(1, sizeof(*g));
	int rc = ini_parse_string(text, on_key, g) ? err_set(err, "the submission record would not "
							     "read back") : 0;
	rc = rc || same("the preset", f->preset, g->preset, err) ||
	     same("the preset's path", f->preset_file, g->preset_file, err) ||
	     same("--bin", f->bin, g->bin, err) ||
	     same("--partition", f->partition, g->partition, err) ||
	     same("--results", f->results, g->results, err) || g->nsbatch != f->nsbatch ||
	     g->ntasks != f->ntasks;
	for (int i = 0; !rc && i < f->nsbatch; i++)
		rc = same("--sbatch-arg", f->sbatch_arg[i], g->sbatch_arg[i], err);
	for (int i = 0; !rc && i < f->ntasks; i++)
		rc = same("--constraints", f->task[i].constraint, g->task[i].constraint, err) ||
		     same("resume directory", f->task[i].resume_dir, g->task[i].resume_dir, err);
	if (rc && !err[0])
		err_set(err, "the submission record would not read back");
	fleet_free(g);
	free(g);
	free(text);
	return rc ? -1 : 0;
}

char *fleet_script(const struct fleet *f, char *err)
{
	static char want[FLEET_SBATCH_ARGS_MAX + 8][FLEET_ARG_LEN],
		got[FLEET_SBATCH_ARGS_MAX + 8][FLEET_ARG_LEN];
	int idx[FLEET_TASKS_MAX], n = 0;
	char *text = NULL;
	size_t len = 0;
	err[0] = 0;
	if (script_inputs_ok(f, err) || record_reads_back(f, err))
		return NULL;
	for (int i = 0; i < f->ntasks; i++)
		if (f->task[i].submit)
			idx[n++] = i;
	int na = script_args(f, idx, n, want);
	FILE *o = open_memstream(&text, &len);
	if (!o)
		out_of_memory(0);
	fprintf(o,
		"#!/bin/bash\n"
		"# c2cbench fleet run %s, written by `c2cbench slurm submit` on %s:\n"
		"# the preset in $preset on one whole node per constraint (Slurm node\n"
		"# feature); array task I runs on a node with feature constraints[I].\n"
		"# c2cbench submits it held (sbatch --hold), sets each task's feature\n"
		"# (scontrol update JobId=JOB_I Features=FEATURE), then releases it\n"
		"# (scontrol release JOB).\n"
		"# To run one task by hand: sbatch --array=I --constraint=FEATURE THIS_FILE\n",
		f->id, f->created);
	for (int i = 0; i < na; i++)
		fprintf(o, "#SBATCH %s\n", want[i]);
	script_body(o, f);
	if (fclose(o))
		out_of_memory(len);
	/* sbatch reads what we wrote */
	int ng = fleet_directives(text, got, FLEET_SBATCH_ARGS_MAX + 8);
	for (int i = 0; ng == na && i < na; i++)
		if (strcmp(want[i], got[i]))
			ng = -1;
	if (ng != na) {
		free(text);
		err_set(err, "the batch script's #SBATCH lines would not read back as written");
		return NULL;
	}
	return text;
}

/* Write all of text to fd; 0, or -1 with errno. */
static int write_all(int fd, const char *text, size_t n)
{
	while (n) {
		ssize_t w = write(fd, text, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		text += w;
		n -= (size_t)w;
	}
	return 0;
}

int fleet_write_script(const struct fleet *f, const char *path, char *err)
{
	char *text = fleet_script(f, err), tmp[4400];
	if (!text)
		return -1;
	size_t n = strlen(text);
	if (!strcmp(path, "-")) { /* a full disk or a closed pipe is an error, not a cut script */
		int bad = fflush(stdout) || write_all(1, text, n);
		free(text);
		return bad ? err_set(err, "cannot write the batch script to standard output: %s",
				     strerror(errno))
			   : 0;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	unlink(tmp); /* one a stopped submit left in our own folder */
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	int bad = fd < 0 || write_all(fd, text, n);
	int e = errno;
	if (fd >= 0 && close(fd) && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad && rename(tmp, path)) {
		bad = 1;
		e = errno;
	}
	free(text);
	if (bad) {
		if (fd >= 0)
			unlink(tmp);
		return err_set(err, "cannot write '%s': %s", path, strerror(e));
	}
	return 0;
}

static void put_record(FILE *o, const struct fleet *f)
{
	fprintf(o,
		"[submission]\nid = %s\npreset = %s\npreset_file = %s\nresults = %s\n"
		"partition = %s\n"
		"bin = %s\ncreated = %s\n",
		f->id, f->preset, f->preset_file, f->results, f->partition, f->bin, f->created);
	for (int i = 0; i < f->nsbatch; i++)
		fprintf(o, "sbatch_arg = %s\n", f->sbatch_arg[i]);
	for (int i = 0; i < f->ntasks; i++) {
		fprintf(o, "\n[task]\nindex = %d\nconstraint = %s\njobs = ", i,
			f->task[i].constraint);
		for (int j = 0; j < f->task[i].njobs; j++)
			fprintf(o, "%s%ld", j ? "," : "", f->task[i].job[j]);
		fprintf(o, "\nresume_dir = %s\n", f->task[i].resume_dir);
	}
}

int fleet_save(const struct fleet *f, int replace, char *err)
{
	char path[4300];
	struct replace r;
	fleet_path(f, "submission.ini", path, sizeof(path));
	FILE *o = replace_open(&r, path);
	if (!o)
		return err_set(err, "cannot write '%s': %s", path, strerror(errno));
	put_record(o, f);
	/* new: a record already there is refused (EEXIST), as O_EXCL would; replace: over it */
	if (replace_commit(&r, replace ? REPLACE_OVER : REPLACE_NEW))
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
		else if (!strcmp(key, "preset_file"))
			copy(f->preset_file, sizeof(f->preset_file), val);
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

int fleet_load(struct fleet *f, const char *results, const char *id, char *err)
{
	char ini[8400], want[96];
	memset(f, 0, sizeof(*f));
	if (fleet_id_check(id, err))
		return -1;
	snprintf(want, sizeof(want), "%s", id);
	snprintf(ini, sizeof(ini), "%s/slurm/%s/submission.ini", results, id);
	int line = ini_parse(ini, on_key, f);
	if (line < 0)
		return err_set(err, "cannot read '%s': %s", ini, strerror(errno));
	if (line > 0 || !f->id[0] || !f->ntasks)
		return err_set(err, "%s:%d: not a c2cbench submission record", ini, line);
	if (strcmp(f->id, want)) /* a record names its own folder, nothing else */
		return err_set(err, "%s: its id '%s' is not its folder's name '%s'", ini, f->id,
			       want);
	snprintf(f->results, sizeof(f->results), "%s",
		 results); /* DIR as given now, moved or not */
	char dir[4200];
	fleet_path(f, NULL, dir, sizeof(dir));
	if (fleet_arg_check("--results", dir, 1, err))
		return -1;
	return script_inputs_ok(f, err);
}

void fleet_free(struct fleet *f)
{
	for (int i = 0; i < f->nsbatch; i++)
		free(f->sbatch_arg[i]);
	f->nsbatch = 0;
}

/* Fleet runs on Slurm: one job array runs a preset on one node per constraint (node feature), and
 * status reads back what each task did. Only sbatch, squeue and scontrol are called, with argv. */
#ifndef C2C_SLURM_H
#define C2C_SLURM_H
#include <stddef.h>
#include <stdio.h>

#define FLEET_TASKS_MAX 64
#define FLEET_SBATCH_ARGS_MAX 32
#define FLEET_JOBS_MAX 16

/* One task: a constraint, and the Slurm jobs that ran it (the last one counts). */
struct fleet_task {
	char constraint[64];
	long job[FLEET_JOBS_MAX];
	int njobs;
	char resume_dir[4096]; /* set for a resubmission that continues a partial result directory */
	int submit;            /* to be in the next job array (not saved) */
};

/* A submission: what was asked, where it writes, and its tasks. Saved as
 * DIR/slurm/ID/submission.ini. */
struct fleet {
	char id[96];            /* DATE-PRESET: names DIR/slurm/ID/ */
	char preset[256];       /* as the user named it */
	char preset_file[4096]; /* resolved path, read by every node from the shared file system */
	char results[4096];     /* DIR, absolute */
	char partition[128];
	char bin[4096];         /* the c2cbench binary the tasks run */
	char created[32];
	char *sbatch_arg[FLEET_SBATCH_ARGS_MAX];
	int nsbatch;
	struct fleet_task task[FLEET_TASKS_MAX];
	int ntasks;
};

/* What one task did, as status reports it. */
enum task_state {
	TASK_PENDING,
	TASK_RUNNING,
	TASK_DONE,
	TASK_FAILED,
	TASK_INTERRUPTED,
	TASK_NOT_SUBMITTED
};

struct task_report {
	enum task_state state;
	char why[512];        /* for failures: the reason, and the last lines of stderr */
	char result_dir[4096];
	char node[128];
};

/* Run argv (argv[0] searched on PATH), capture stdout and stderr into out (NUL-terminated, cut at
 * n - 1); return the exit status, 127 if it could not be started, 128+N if killed by signal N. */
int fleet_exec(char *const argv[], char *out, size_t n);
/* Is a program on PATH? */
int fleet_have(const char *prog);

/* The submission folder DIR/slurm/ID, and files in it. */
void fleet_path(const struct fleet *f, const char *file, char *out, size_t n);
/* Write the batch script for the tasks marked submit (path "-": stdout); 0 or -1 with err. */
int fleet_write_script(const struct fleet *f, const char *path, char *err);
/* Save and load DIR/slurm/ID/submission.ini. */
int fleet_save(const struct fleet *f, char *err);
int fleet_load(struct fleet *f, const char *ini, char *err);
void fleet_free(struct fleet *f);
/* Single-quote s for a POSIX shell (the script embeds paths and names as data, never as code). */
void shell_quote(const char *s, char *out, size_t n);

/* The report for task i of f, from squeue, the task's output and the result's metadata. */
void fleet_task_status(const struct fleet *f, int i, struct task_report *r);
const char *task_state_name(enum task_state s);
/* One line per task on o; returns how many tasks are not done. */
int fleet_print_status(const struct fleet *f, FILE *o);
/* The newest submission id in DIR/slurm/ (and how many there are); -1 if none. */
int fleet_latest(const char *results, char *id, size_t n, int *count);

/* Inside a Slurm task: the job id, array index, node, constraint and partition as metadata keys
 * (slurm_job_id, ...); returns how many of keys/vals were filled (0 outside Slurm). */
int slurm_task_env(const char *keys[], const char *vals[], int max);

/* `c2cbench slurm submit|status ...` */
int slurm_submit_main(int argc, char **argv);
int slurm_status_main(int argc, char **argv);
#endif

/* Fleet runs on Slurm: one job array runs a preset on one node per constraint (node feature), and
 * status reads back what each task did. sbatch, squeue, scontrol and scancel are called with argv,
 * each with a time limit. */
#ifndef C2C_SLURM_H
#define C2C_SLURM_H
#include <stddef.h>
#include <stdio.h>

#define FLEET_TASKS_MAX 64
#define FLEET_SBATCH_ARGS_MAX 32
#define FLEET_JOBS_MAX 16
#define FLEET_NAME_MAX        63 /* a constraint, a partition, the preset's name in an id */
#define FLEET_ARG_LEN         4400 /* one #SBATCH argument, parsed back */
#define FLEET_TIMEOUT_DEFAULT 60 /* seconds a Slurm command may take (C2C_SLURM_TIMEOUT) */
/* What no text in a #SBATCH line may hold (besides control characters); paths not '%' either. */
#define FLEET_DIRECTIVE_BAD " \t#'\"\\"

/* One task: a constraint, and the Slurm jobs that ran it (the last one counts). */
struct fleet_task {
	char constraint[64];
	long job[FLEET_JOBS_MAX];
	int njobs;
	char
	    resume_dir[4096]; /* set for a resubmission that continues a partial result directory */
	int submit;            /* to be in the next job array (not saved) */
};

/* A submission: what was asked, where it writes, and its tasks. Saved as
 * DIR/slurm/ID/submission.ini. */
struct fleet {
	char id[96]; /* DATE.MICROSECONDS-PRESET: names DIR/slurm/ID/ */
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
	TASK_NOT_SUBMITTED,
	TASK_UNKNOWN, /* Slurm unreachable and no exit line: it may still run */
	TASK_NOTHING  /* exit 0 and finished, but every run of the preset was skipped */
};

struct task_report {
	enum task_state state;
	char why[512]; /* for failures: the reason, and the last lines of stderr; skipped runs */
	char result_dir[4096];
	char node[128];
};

/* Run argv (argv[0] searched on PATH) in its own process group for at most fleet_timeout()
 * seconds; stdout into out, stderr into err (n, en > 0; each NUL-terminated, cut). Returns the exit
 * status, 127 if it could not be started, 128+N if killed by signal N, FLEET_TIMED_OUT, or
 * FLEET_INTERRUPTED when c2cbench got a signal (fleet_signals); either way its group is killed.
 * FLEET_EVEN_IF_STOPPED runs it after a signal too (the scancel that cleans up). */
#define FLEET_TIMED_OUT       (-1)
#define FLEET_INTERRUPTED     (-2)
#define FLEET_EVEN_IF_STOPPED 1
int fleet_exec(char *const argv[], char *out, size_t n, char *err, size_t en, int flags);
/* fleet_exec's outcome as a reason that is never empty (its first line, or how it ended). */
void fleet_exec_why(int rc, const char *out, const char *err, char *why, size_t n);
/* SIGINT, SIGTERM and SIGHUP only note the signal (fleet_stopped() returns it): the command
 * running is killed, and the caller cancels what it queued. */
void fleet_signals(void);
int fleet_stopped(void);
/* C2C_SLURM_TIMEOUT, checked (0 or -1 with err); and the limit in seconds. */
int fleet_timeout_init(char *err);
long fleet_timeout(void);
/* Is a program on PATH? */
int fleet_have(const char *prog);

/* The submission folder DIR/slurm/ID, and files in it. */
void fleet_path(const struct fleet *f, const char *file, char *out, size_t n);
/* The batch script for the tasks marked submit (malloc'ed), its values checked and its #SBATCH
 * lines read back as sbatch reads them; NULL with err. */
char *fleet_script(const struct fleet *f, char *err);
/* Write it whole (path "-": stdout; else PATH.tmp, then renamed); 0 or -1 with err. */
int fleet_write_script(const struct fleet *f, const char *path, char *err);
/* Save DIR/slurm/ID/submission.ini: a new record is created with O_EXCL (never over another),
 * replace rewrites it whole (write, then rename). */
int fleet_save(const struct fleet *f, int replace, char *err);
/* Load DIR/slurm/ID/submission.ini; its id must be ID, and f->results becomes DIR. */
int fleet_load(struct fleet *f, const char *results, const char *id, char *err);
void fleet_free(struct fleet *f);

/* The one set of names and the one quoting (runner/slurm_names.c, docs/input.md): a name is a
 * label of at most FLEET_NAME_MAX characters; text in a #SBATCH line passes fleet_arg_check
 * (path: '%' refused too, sbatch expands it in file names); text for the shell is shell_quote'd
 * and holds no control character (fleet_text_check). Each: 0, or -1 with a one-line err. */
#define FLEET_NAME_SET "1 to 63 letters, digits, '.', '_' or '-', starting with a letter or digit"
int fleet_name_check(const char *what, const char *s, char *err);
int fleet_arg_check(const char *what, const char *s, int path, char *err);
int fleet_id_check(const char *id, char *err);
int fleet_text_check(const char *what, const char *s, char *err);
void shell_quote(const char *s, char *out, size_t n);
/* The #SBATCH arguments of a script as sbatch reads them (quotes, escapes, comments; up to the
 * first command); how many, or -1 when more than max. */
int fleet_directives(const char *script, char args[][FLEET_ARG_LEN], int max);

/* Queueing (runner/slurm_queue.c): Slurm's word on each constraint (sbatch --test-only); the
 * array submitted held, each task's feature set, the record saved (new, or replaced for resume),
 * then released, or on any failure cancelled and the record taken back; waiting for its end
 * (squeue failing for longer than fleet_timeout() is an error, not an end). 0 or -1 with err. */
int fleet_slurm_accepts(const struct fleet *f, char *err);
int fleet_queue(struct fleet *f, const char *script, int resume, long *job, char *err);
int fleet_wait(long job, char *err);

/* The report for task i of f, from squeue, the task's output and the result's metadata. */
void fleet_task_status(const struct fleet *f, int i, struct task_report *r);
const char *task_state_name(enum task_state s);
/* One line per task on o; returns how many tasks are not done (nothing measured is not done). */
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

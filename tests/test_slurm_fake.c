/* slurm submit and status against fake sbatch, squeue, scontrol and scancel on PATH that fail,
 * hang, print garbage or warnings (the real two-node cluster, for the normal path, is test_slurm).
 * Each fake logs its arguments, so a test sees what was queued, released and cancelled. */
#include "tests/testutil.h"
#include "lib/util.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char fakebin[PATH_MAX], logpath[PATH_MAX + 16], preset[PATH_MAX];
static char *old_path;

/* bin/NAME: logs "NAME ARGS" to the log, then runs body (bash). */
static void fake(const char *name, const char *body)
{
	char path[PATH_MAX + 64];
	snprintf(path, sizeof(path), "%s/%s", fakebin, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/bash\necho \"%s $*\" >> '%s'\n%s\n", name, logpath, body);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0755), 0);
}

/* Tools that work: sbatch queues job 42, squeue lists nothing (the job ended). */
static void fakes_that_work(void)
{
	fake("sbatch",
	     "[ \"$1\" = --test-only ] && { echo 'sbatch: Job 3 to start' >&2; exit 0; }\necho 42");
	fake("squeue", "exit 0");
	fake("scontrol", "exit 0");
	fake("scancel", "exit 0");
	unlink(logpath);
}

static char *fake_log(void)
{
	char *t = slurp(logpath);
	return t ? t : strdup("");
}

static int logged(const char *what)
{
	char *t = fake_log();
	int yes = strstr(t, what) != NULL;
	free(t);
	return yes;
}

/* A fresh results directory under the test's scratch folder. */
static void results(char *dir, size_t n, const char *name)
{
	snprintf(dir, n, "%s/%s", test_dir, name);
	rm_rf(dir);
}

static void submit(struct cmd_result *r, const char *dir, const char *extra)
{
	run_c2c(r, "slurm", "submit", preset, "--constraints", "xeon,epyc", "--results", dir,
		"--bin", "/bin/true", extra, NULL);
}

/* The one submission folder DIR/slurm/ID (its id in id), or -1. */
static int the_submission(const char *dir, char *id, size_t n)
{
	char cmd[PATH_MAX + 64], out[4096];
	snprintf(cmd, sizeof(cmd), "ls '%s/slurm'", dir);
	if (sh_capture(out, sizeof(out), cmd) || count_lines(out) != 1)
		return -1;
	snprintf(id, n, "%.*s", (int)strcspn(out, "\n"), out);
	return 0;
}

static int record_exists(const char *dir)
{
	char id[256], path[PATH_MAX + 300];
	if (the_submission(dir, id, sizeof(id)))
		return 0;
	snprintf(path, sizeof(path), "%s/slurm/%s/submission.ini", dir, id);
	return file_exists(path);
}

/* The fakes' warnings and a normal job id: submitted, recorded, released. */
static void warnings_around_the_job_id_are_fine(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX];
	results(dir, sizeof(dir), "warn");
	fakes_that_work();
	fake("sbatch",
	     "[ \"$1\" = --test-only ] && exit 0\n"
	     "echo 'sbatch: Warning: no time limit' >&2\necho 42");
	submit(&r, dir, NULL);
	assert_int_equal(r.status, 0);
	assert_non_null(strstr(r.out, "submitted job array 42"));
	assert_true(logged("scontrol release 42"));
	assert_false(logged("scancel"));
	assert_true(record_exists(dir));
}

/* sbatch says something that is no job id: the held array is cancelled by its unique name. */
static void no_job_id_cancels_by_name(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX];
	const char *bodies[] = {
		"echo 'Submitted batch job 42'", /* not --parsable's answer */
		"echo 'sbatch: Warning: x'; echo 42; echo 43", /* two ids */
		"kill -9 $$", /* killed: it may have queued it */
	};
	for (size_t i = 0; i < ARRAY_SIZE(bodies); i++) {
		char body[256];
		results(dir, sizeof(dir), "noid");
		fakes_that_work();
		snprintf(body, sizeof(body), "[ \"$1\" = --test-only ] && exit 0\n%s", bodies[i]);
		fake("sbatch", body);
		submit(&r, dir, NULL);
		assert_int_equal(r.status, 1);
		assert_int_equal(count_lines(r.err), 1);
		assert_true(logged("scancel --name=c2cbench-"));
		assert_false(logged("scontrol release"));
		assert_false(record_exists(dir));
		if (i == 2 && !strstr(r.err, "killed by signal 9"))
			fail_msg("no reason for the killed sbatch: %s", r.err);
	}
}

/* scontrol update or release fails: the array is cancelled and no record names it. */
static void a_failed_release_cancels(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX];
	const char *bodies[] = {
		"[ \"$1\" = release ] && { echo 'update error: Access denied' >&2; exit 1; }\n"
		"exit 0",
		"[ \"$1\" = update ] && { echo 'Invalid feature' >&2; exit 1; }\nexit 0",
	};
	for (size_t i = 0; i < ARRAY_SIZE(bodies); i++) {
		results(dir, sizeof(dir), "norelease");
		fakes_that_work();
		fake("scontrol", bodies[i]);
		submit(&r, dir, NULL);
		assert_int_equal(r.status, 1);
		assert_int_equal(count_lines(r.err), 1);
		if (!strstr(r.err, i ? "Invalid feature" : "Access denied"))
			fail_msg("case %zu: %s", i, r.err);
		assert_non_null(strstr(r.err, "nothing is left queued (scancel 42)"));
		assert_true(logged("scancel 42"));
		assert_false(record_exists(dir));
	}
}

/* The record cannot be written (here: a directory in the way of submission.ini): the array,
 * queued and held, is cancelled, never released, and nothing is written in its place. */
static void an_unwritable_record_cancels(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX];
	results(dir, sizeof(dir), "norecord");
	fakes_that_work();
	fake("sbatch", "[ \"$1\" = --test-only ] && exit 0\n"
		       "mkdir \"$(dirname \"${@: -1}\")/submission.ini\"; echo 42");
	submit(&r, dir, NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "submission.ini"));
	assert_true(logged("scancel 42"));
	assert_false(logged("scontrol release"));
	char id[256], path[PATH_MAX + 300];
	struct stat st;
	if (!the_submission(dir, id,
			    sizeof(id))) { /* the folder is kept only for what is in the way */
		snprintf(path, sizeof(path), "%s/slurm/%s/submission.ini", dir, id);
		assert_true(stat(path, &st) || S_ISDIR(st.st_mode));
	}
}

/* A cancel that fails too is said, with the job to look for, and the record keeps it. */
static void a_failed_cancel_is_said(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX];
	results(dir, sizeof(dir), "nocancel");
	fakes_that_work();
	fake("scontrol", "[ \"$1\" = release ] && exit 1\nexit 0");
	fake("scancel", "echo 'scancel: error: Unable to contact slurm controller' >&2; exit 1");
	submit(&r, dir, NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "scancel 42 failed (scancel: error: Unable to contact"));
	assert_true(record_exists(dir)); /* it may still run: status and --resume must see it */
}

/* Is pid gone (or a zombie waiting for init)? Waits up to 3 s. */
static int gone(pid_t pid)
{
	for (int i = 0; i < 300; i++) {
		char path[64], *st;
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
		st = slurp(path);
		int dead = !st || strstr(st, ") Z ");
		free(st);
		if (dead)
			return 1;
		usleep(10000);
	}
	return 0;
}

static pid_t pid_in(const char *path)
{
	char *t = slurp(path);
	pid_t p = t ? (pid_t)atoi(t) : 0;
	free(t);
	return p;
}

/* A hanging sbatch is killed with everything it started, after C2C_SLURM_TIMEOUT. */
static void a_hung_sbatch_is_killed(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX], body[PATH_MAX * 2], child[PATH_MAX + 16];
	results(dir, sizeof(dir), "hang");
	snprintf(child, sizeof(child), "%s/sleep.pid", test_dir);
	unlink(child);
	fakes_that_work();
	snprintf(body, sizeof(body),
		 "[ \"$1\" = --test-only ] && exit 0\nsleep 100 & echo $! > '%s'; wait", child);
	fake("sbatch", body);
	setenv("C2C_SLURM_TIMEOUT", "1", 1);
	time_t t0 = time(NULL);
	submit(&r, dir, NULL);
	unsetenv("C2C_SLURM_TIMEOUT");
	assert_true(time(NULL) - t0 < 20);
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "no answer in 1 s"));
	assert_true(logged("scancel --name=c2cbench-"));
	assert_false(record_exists(dir));
	pid_t p = pid_in(child);
	assert_true(p > 0);
	assert_true(gone(p)); /* the fake's own child went with its process group */
}

/* c2cbench in the background, stdout and stderr into files under the test folder. */
static pid_t start_c2c(const char *const *args)
{
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	const char *argv[32];
	int n = 0;
	argv[n++] = bin;
	for (int i = 0; args[i]; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char out[PATH_MAX + 16];
		snprintf(out, sizeof(out), "%s/bg.err", test_dir);
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		int nul = open("/dev/null", O_WRONLY);
		dup2(nul, 1);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

static int wait_file(const char *path)
{
	for (int i = 0; i < 1000 && !file_exists(path); i++)
		usleep(10000);
	return file_exists(path) ? 0 : -1;
}

/* SIGINT or SIGTERM while sbatch or the release hangs: the held array is cancelled. */
static void a_signal_cancels_the_held_array(void **s)
{
	(void)s;
	char dir[PATH_MAX], mark[PATH_MAX + 16], body[PATH_MAX * 2];
	const struct {
		const char *tool;
		int sig;
		const char *cancel;
	} c[] = {
		{ "sbatch", SIGINT, "scancel --name=c2cbench-" },
		{ "scontrol", SIGTERM, "scancel 42" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(c); i++) {
		results(dir, sizeof(dir), "signal");
		snprintf(mark, sizeof(mark), "%s/started", test_dir);
		unlink(mark);
		fakes_that_work();
		snprintf(body, sizeof(body),
			 "[ \"$1\" = --test-only ] && exit 0\n"
			 "[ \"$1\" = update ] && exit 0\ntouch '%s'; sleep 100\necho 42",
			 mark);
		fake(c[i].tool, body);
		const char *args[] = { "slurm",     "submit", preset,  "--constraints", "xeon",
				       "--results", dir,      "--bin", "/bin/true",     NULL };
		pid_t pid = start_c2c(args);
		assert_int_equal(wait_file(mark), 0);
		kill(pid, c[i].sig);
		int st;
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 128 + c[i].sig);
		if (!logged(c[i].cancel))
			fail_msg("%s hung, signal %d: no '%s' in the log:\n%s", c[i].tool, c[i].sig,
				 c[i].cancel, fake_log());
		assert_false(record_exists(dir));
	}
}

/* Submissions at once get an id and a record each, none over another. */
static void two_submissions_two_records(void **s)
{
	(void)s;
	char dir[PATH_MAX], out[4096], cmd[PATH_MAX + 64];
	results(dir, sizeof(dir), "twice");
	assert_int_equal(mkdir(dir, 0755), 0);
	fakes_that_work();
	const char *args[] = { "slurm", "submit", preset,      "--constraints", "xeon", "--results",
			       dir,     "--bin",  "/bin/true", "--new",         NULL };
	pid_t pid[4];
	for (int i = 0; i < 4; i++)
		pid[i] = start_c2c(args);
	for (int i = 0; i < 4; i++) {
		int st;
		assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
		assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
	snprintf(cmd, sizeof(cmd), "ls '%s'/slurm/*/submission.ini | wc -l", dir);
	assert_int_equal(sh_capture(out, sizeof(out), cmd), 0);
	assert_int_equal(atoi(out), 4);
}

/* Submits without --new into one DIR at once: the check "DIR already holds a submission" and the
 * record are made under one lock, so exactly one is queued and recorded; each other exits 2 with
 * one line (DIR locked while the first submits, or holding its submission once it has). The same
 * for two --resume of that submission: one resubmits. sbatch takes a second, so they overlap.
 * Eight at once: a submit that made DIR/slurm but lost the lock once removed the folder the
 * winner held, and a third then locked a new one (on this 2-vCPU VM, 3 rounds of 90 had two
 * winners; inside the 4-vCPU cloud-shared-l3 guest, four at once did). */
static void concurrent_submits_one_wins(void **s)
{
	(void)s;
	char dir[PATH_MAX], cmd[PATH_MAX * 3], out[4096], f[PATH_MAX + 32];
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	results(dir, sizeof(dir), "racing");
	assert_int_equal(mkdir(dir, 0755), 0);
	fakes_that_work();
	fake("sbatch", "[ \"$1\" = --test-only ] && exit 0\nsleep 1\necho 42");
	for (int round = 0; round < 2; round++) {
		const char *what = round ? "--resume" : "--constraints xeon --bin /bin/true";
		/* job 42 ended with no result: its task failed, until it is resubmitted */
		if (round) {
			snprintf(f, sizeof(f), "%s/resubmitted", test_dir);
			snprintf(cmd, sizeof(cmd),
				 "[ \"$1\" = --test-only ] && exit 0\ntouch '%s'; sleep 1\necho 42",
				 f);
			fake("sbatch", cmd);
			snprintf(cmd, sizeof(cmd),
				 "[ -e '%s' ] && { echo '0|PENDING||None'; exit 0; }\n"
				 "echo 'slurm_load_jobs error: Invalid job id specified' >&2; "
				 "exit 1",
				 f);
			fake("squeue", cmd);
		}
		snprintf(cmd, sizeof(cmd),
			 "cd '%s' && for i in 1 2 3 4 5 6 7 8; do ('%s' slurm submit '%s' %s "
			 "--results '%s' >/dev/null 2>err$i; echo $? >rc$i) & done; wait; "
			 "cat rc? | sort | tr '\\n' ' '",
			 test_dir, bin, preset, what, dir);
		assert_int_equal(sh_capture(out, sizeof(out), cmd), 0);
		if (strcmp(out, "0 2 2 2 2 2 2 2 "))
			fail_msg("%s eight at once: exit statuses %s, not one 0 and seven 2", what,
				 out);
		for (int i = 1; i <= 8; i++) {
			snprintf(f, sizeof(f), "%s/err%d", test_dir, i);
			char *e = slurp(f);
			assert_non_null(e);
			if (*e &&
			    (count_lines(e) != 1 ||
			     (!strstr(e, "slurm is locked); accepted: one at a time, or --new") &&
			      !strstr(e, round ? "is still pending in job 42" : "already holds"))))
				fail_msg("%s: the loser's error: %s", what, e);
			free(e);
		}
		snprintf(cmd, sizeof(cmd), "grep -c '^sbatch --hold' '%s'", logpath);
		assert_int_equal(sh_capture(out, sizeof(out), cmd), 0);
		assert_int_equal(atoi(out), round + 1); /* one array queued per round */
		snprintf(cmd, sizeof(cmd), "ls '%s'/slurm/*/submission.ini | wc -l", dir);
		assert_int_equal(sh_capture(out, sizeof(out), cmd), 0);
		assert_int_equal(atoi(out), 1);
	}
}

/* A record whose id is not its folder's name, or an --id with a path in it, is refused. */
static void a_record_id_is_its_folder(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX], id[256], ini[PATH_MAX + 300], cmd[PATH_MAX * 3];
	results(dir, sizeof(dir), "recid");
	fakes_that_work();
	submit(&r, dir, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(the_submission(dir, id, sizeof(id)), 0);
	snprintf(ini, sizeof(ini), "%s/slurm/%s/submission.ini", dir, id);
	snprintf(cmd, sizeof(cmd), "sed -i 's|^id = .*|id = ../../x|' '%s'", ini);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "slurm", "status", dir, NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "is not its folder's name"));
	run_c2c(&r, "slurm", "submit", "--results", dir, "--resume", NULL);
	assert_int_equal(r.status, 2);
	run_c2c(&r, "slurm", "status", dir, "--id", "../../x", NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "submission id '../../x' is not DATE-PRESET (e.g. "));
}

/* A record's text reaches the terminal escaped: a forged preset name with a title escape and a
 * bell is printed as \x1b and \x07 (round 3: slurm status printed them raw). */
static void status_escapes_a_forged_record(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX], id[256], ini[PATH_MAX + 300], cmd[PATH_MAX * 3];
	results(dir, sizeof(dir), "recesc");
	fakes_that_work();
	submit(&r, dir, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(the_submission(dir, id, sizeof(id)), 0);
	snprintf(ini, sizeof(ini), "%s/slurm/%s/submission.ini", dir, id);
	snprintf(cmd, sizeof(cmd), "sed -i 's|^preset = .*|preset = q\\x1b]0;title\\x07|' '%s'",
		 ini);
	assert_int_equal(system(cmd), 0);
	char *rec = slurp(ini);
	assert_non_null(strchr(rec, '\033')); /* the record holds the raw bytes */
	free(rec);
	run_c2c(&r, "slurm", "status", dir, NULL);
	assert_non_null(strstr(r.out, "preset q\\x1b]0;title\\x07,"));
	assert_null(strchr(r.out, '\033'));
	assert_null(strchr(r.out, '\a'));
}

/* status's options: each at most once, --id and --all not together. */
static void status_options_once(void **s)
{
	(void)s;
	struct cmd_result r;
	const char *cases[][5] = {
		{ "--all", "--all", NULL, NULL, "--all is given twice" },
		{ "--id", "20261201T112658.000001-a", "--id", "20261201T112658.000002-a",
		  "--id is given twice" },
		{ "--id", "20261201T112658.000001-a", "--all", NULL, "exclude each other" },
		{ "--id", NULL, NULL, NULL, "--id needs a submission id" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		run_c2c(&r, "slurm", "status", test_dir, cases[i][0], cases[i][1], cases[i][2],
			cases[i][3], NULL);
		assert_int_equal(r.status, 2);
		assert_int_equal(count_lines(r.err), 1);
		if (!strstr(r.err, cases[i][4]))
			fail_msg("case %zu: '%s' not in %s", i, cases[i][4], r.err);
	}
}

/* A submission of job 42 whose tasks left no output: "failed" once Slurm forgot the job. */
static void submitted(char *dir, size_t n, const char *name, char *id, size_t idn)
{
	struct cmd_result r;
	results(dir, n, name);
	fakes_that_work();
	submit(&r, dir, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(the_submission(dir, id, idn), 0);
	unlink(logpath);
}

/* squeue cannot reach the controller: status says unknown, not failed; --resume submits nothing. */
/* status takes DIR as submit does (--results DIR, --results=DIR) and --id=ID; DIR twice, and an
 * action typed with a newline, are one-line errors. */
static void status_spellings(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX], id[256], opt[PATH_MAX + 16], idopt[300];
	submitted(dir, sizeof(dir), "spell", id, sizeof(id));
	run_c2c(&r, "slurm", "status", dir, NULL);
	char *plain = strdup(r.out);
	snprintf(opt, sizeof(opt), "--results=%s", dir);
	snprintf(idopt, sizeof(idopt), "--id=%s", id);
	run_c2c(&r, "slurm", "status", opt, idopt, NULL);
	assert_string_equal(r.out, plain);
	run_c2c(&r, "slurm", "status", "--results", dir, NULL);
	assert_string_equal(r.out, plain);
	free(plain);
	run_c2c(&r, "slurm", "status", dir, "--results", dir, NULL);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.err, "DIR is given twice"));
	run_c2c(&r, "slurm", "sta\ntus", NULL);
	assert_int_equal(r.status, 2);
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "unknown action 'sta\\ntus'"));
}

static void unreachable_is_not_failed(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX], id[256];
	const char *bodies[] = {
		"echo 'slurm_load_jobs error: Unable to contact slurm controller' >&2\n"
		"exit 1",
		"echo '<html>proxy error</html>'", /* garbage, exit 0 */
		"sleep 100", /* no answer */
	};
	submitted(dir, sizeof(dir), "unreach", id, sizeof(id));
	setenv("C2C_SLURM_TIMEOUT", "1", 1);
	for (size_t i = 0; i < ARRAY_SIZE(bodies); i++) {
		fake("squeue", bodies[i]);
		run_c2c(&r, "slurm", "status", dir, NULL);
		assert_int_equal(r.status, 1);
		assert_non_null(strstr(r.out, "unknown"));
		assert_non_null(strstr(r.out, "Slurm unreachable"));
		assert_null(strstr(r.out, "failed"));
		run_c2c(&r, "slurm", "submit", "--results", dir, "--resume", NULL);
		assert_int_equal(r.status, 2);
		assert_int_equal(count_lines(r.err), 1);
		assert_non_null(strstr(r.err, "--resume would run it twice"));
		assert_false(logged("sbatch --hold"));
	}
	unsetenv("C2C_SLURM_TIMEOUT");
	/* once Slurm answers that it forgot the job, the tasks are failed and resubmitted */
	fake("squeue", "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1");
	run_c2c(&r, "slurm", "status", dir, NULL);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "failed"));
	run_c2c(&r, "slurm", "submit", "--results", dir, "--resume", NULL);
	assert_int_equal(r.status, 0);
	assert_true(logged("sbatch --hold"));
}

/* A resubmission whose release fails is cancelled, and the record names the old job only. */
static void a_failed_resume_takes_its_job_back(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX], id[256], path[PATH_MAX * 2];
	submitted(dir, sizeof(dir), "resumefail", id, sizeof(id));
	fake("squeue", "echo 'slurm_load_jobs error: Invalid job id specified' >&2; exit 1");
	fake("sbatch", "echo 43");
	fake("scontrol", "[ \"$1\" = release ] && exit 1\nexit 0");
	run_c2c(&r, "slurm", "submit", "--results", dir, "--resume", NULL);
	assert_int_equal(r.status, 1);
	assert_int_equal(count_lines(r.err), 1);
	assert_true(logged("scancel 43"));
	snprintf(path, sizeof(path), "%s/slurm/%s/submission.ini", dir, id);
	char *rec = slurp(path);
	assert_non_null(rec);
	assert_non_null(strstr(rec, "jobs = 42\n"));
	/* job 43 in no task's jobs list ("jobs = 43", "jobs = 42,43"); the id's microseconds may
	 * hold the digits 43 */
	assert_null(strstr(rec, "= 43"));
	assert_null(strstr(rec, ",43"));
	free(rec);
	snprintf(path, sizeof(path), "%s/slurm/%s/job-resume.sbatch", dir, id);
	assert_false(file_exists(path));
}

/* --resume reads DIR as given: a moved DIR resumes in its new place, not the record's old one. */
static void resume_follows_results_not_the_record(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX], moved[PATH_MAX], id[256], path[PATH_MAX * 2], cmd[PATH_MAX * 3];
	submitted(dir, sizeof(dir), "old", id, sizeof(id));
	snprintf(path, sizeof(path), "%s/slurm/%s/task-42-0.out", dir, id);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "results go to %s/xeon-n1-20261201T000000-fleet\n", dir);
	fclose(f);
	snprintf(path, sizeof(path), "%s/xeon-n1-20261201T000000-fleet", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/xeon-n1-20261201T000000-fleet/metadata.txt", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("[run]\nstate = interrupted\n", f);
	fclose(f);
	results(moved, sizeof(moved), "new");
	snprintf(cmd, sizeof(cmd), "mv '%s' '%s'", dir, moved);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "slurm", "submit", "--results", moved, "--resume", NULL);
	assert_int_equal(r.status, 0);
	snprintf(path, sizeof(path), "%s/slurm/%s/job-resume.sbatch", moved, id);
	char *script = slurp(path);
	assert_non_null(script);
	char want[PATH_MAX * 2];
	snprintf(want, sizeof(want), "resume=('%s/xeon-n1-20261201T000000-fleet' '')", moved);
	if (!strstr(script, want))
		fail_msg("no %s in:\n%s", want, script);
	snprintf(want, sizeof(want), "#SBATCH --output=%s/slurm/%s/", moved, id);
	assert_non_null(strstr(script, want));
	free(script);
}

/* --wait goes on while squeue fails, and gives up (exit 1) only after C2C_SLURM_TIMEOUT. */
static void wait_outlasts_a_failing_squeue(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX];
	results(dir, sizeof(dir), "wait");
	fakes_that_work();
	fake("squeue", "echo 'Unable to contact slurm controller' >&2; exit 1");
	setenv("C2C_SLURM_TIMEOUT", "2", 1);
	time_t t0 = time(NULL);
	submit(&r, dir, "--wait");
	unsetenv("C2C_SLURM_TIMEOUT");
	assert_true(time(NULL) - t0 >= 2);
	assert_int_equal(r.status, 1);
	assert_non_null(strstr(r.out, "submitted job array 42"));
	assert_int_equal(count_lines(r.err), 1);
	assert_non_null(strstr(r.err, "Slurm unreachable for over 2 s"));
}

/* Run array task 0 of DIR's one submission (job 42) here, as Slurm would: its output in the
 * submission folder. */
static void run_task(const char *dir, const char *id)
{
	char cmd[PATH_MAX * 4], out[8192], sub[PATH_MAX + 300];
	snprintf(sub, sizeof(sub), "%s/slurm/%s", dir, id);
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && SLURM_ARRAY_TASK_ID=0 SLURMD_NODENAME=n1 bash '%s/job.sbatch' "
		 ">'%s/task-42-0.out' 2>'%s/task-42-0.err'",
		 test_dir, sub, sub, sub);
	if (sh_capture(out, sizeof(out), cmd))
		fail_msg("the task failed: %s", out);
}

/* A task whose preset skipped every run (as in part of a node that cannot hold them) exits 0 with
 * its result finished, yet measured nothing: status says so (not done), exits 1, and --resume
 * resubmits it; a task with some runs skipped is done, and its line names them. */
static void all_skipped_is_nothing_measured(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX], id[256], skip[PATH_MAX + 16], bin[PATH_MAX], path[PATH_MAX * 2];
	const char *c2c = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	assert_non_null(realpath(c2c, bin));
	snprintf(skip, sizeof(skip), "%s/skipall.ini", test_dir);
	FILE *f = fopen(skip, "w");
	assert_non_null(f);
	fputs("[preset]\ndescription = every run skipped\n\n[gone]\nbench = no-such-bench\n"
	      "optional = yes\n",
	      f);
	assert_int_equal(fclose(f), 0);
	results(dir, sizeof(dir), "skipall");
	fakes_that_work();
	run_c2c(&r, "slurm", "submit", skip, "--constraints", "xeon", "--results", dir, "--bin",
		bin, NULL);
	assert_int_equal(r.status, 0);
	assert_int_equal(the_submission(dir, id, sizeof(id)), 0);
	run_task(dir, id);
	snprintf(path, sizeof(path), "%s/slurm/%s/task-42-0.out", dir, id);
	char *out = slurp(path);
	assert_non_null(out);
	if (!strstr(out, "0 run(s), 1 skipped") || !strstr(out, "exit 0"))
		fail_msg("not a task that skipped its one run and exited 0:\n%s", out);
	free(out);
	run_c2c(&r, "slurm", "status", dir, NULL);
	assert_int_equal(r.status, 1);
	if (!strstr(r.out, " nothing measured ") ||
	    !strstr(r.out, "0 of 1 run(s) measured, 1 skipped ([gone] bench 'no-such-bench' is "
			   "not in this build") ||
	    strstr(r.out, " done "))
		fail_msg("not 'nothing measured' with the skipped run and its reason:\n%s", r.out);
	unlink(logpath);
	run_c2c(&r, "slurm", "submit", "--results", dir, "--resume", NULL);
	assert_int_equal(r.status, 0);
	assert_true(logged("sbatch --hold"));
	/* one run measured beside the skipped one: done, exit 0, the skipped run still named */
	char cmd[PATH_MAX * 3];
	snprintf(cmd, sizeof(cmd),
		 "printf '\\n[run more]\\nstatus = complete\\n' >> \"$(ls -d '%s'/xeon-n1-*)\"/"
		 "metadata.txt",
		 dir);
	assert_int_equal(system(cmd), 0);
	run_c2c(&r, "slurm", "status", dir, NULL);
	assert_int_equal(r.status, 0);
	if (!strstr(r.out, " done ") || !strstr(r.out, "1 of 2 run(s) measured, 1 skipped ([gone]"))
		fail_msg("not done with the skipped run named:\n%s", r.out);
}

static void copy_file(const char *from, const char *to)
{
	char *t = slurp(from);
	assert_non_null(t);
	FILE *f = fopen(to, "w");
	assert_non_null(f);
	fputs(t, f);
	assert_int_equal(fclose(f), 0);
	free(t);
}

/* Names that would be code or split directives: one line, exit 2, nothing written. */
static void hostile_names_are_refused(void **s)
{
	(void)s;
	struct cmd_result r;
	char dir[PATH_MAX], bad[PATH_MAX + 64], sub[PATH_MAX + 64];
	results(dir, sizeof(dir), "hostile");
	assert_int_equal(mkdir(dir, 0755), 0);
	fakes_that_work();
	snprintf(bad, sizeof(bad), "%s/x\ntouch PWNED\n#.ini", test_dir);
	copy_file(preset, bad);
	const char *resdirs[] = { "a b", "a#b", "a%b", "a'b", "a\"b", "a\\b", "a\tb" };
	struct {
		const char *opt, *val, *want;
	} c[] = {
		{ "preset", bad, "control character" },
		{ "--constraints", "-a", "'-a' is not a feature name" },
		{ "--constraints", "a;b", "'a;b' is not a feature name" },
		{ "--constraints", "a b", "'a b' is not a feature name" },
		{ "--partition", "p 1", "--partition 'p 1' is not accepted" },
		{ "--partition", "-p", "--partition '-p' is not accepted" },
		{ "--sbatch-arg", "--comment=a#b", "--sbatch-arg '--comment=a#b'" },
		{ "--sbatch-arg", "--comment='x'", "--sbatch-arg '--comment='x''" },
		{ "--bin", "/bin/tr\nue", "--bin '/bin/tr\\nue' holds a control character" },
		{ "--bin", "/bin/true ;x", "cannot be kept in the submission record" },
		{ "--bin", " /bin/true", "cannot be kept in the submission record" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(c) + ARRAY_SIZE(resdirs); i++) {
		char res[PATH_MAX + 16];
		const char *args[16];
		int n = 0, k = (int)i - (int)ARRAY_SIZE(c);
		snprintf(res, sizeof(res), "%s/%s", dir, k >= 0 ? resdirs[k] : "ok");
		args[n++] = "slurm";
		args[n++] = "submit";
		args[n++] = k < 0 && !strcmp(c[i].opt, "preset") ? c[i].val : preset;
		args[n++] = "--constraints";
		args[n++] = k < 0 && !strcmp(c[i].opt, "--constraints") ? c[i].val : "xeon";
		args[n++] = "--results";
		args[n++] = res;
		if (k < 0 && c[i].opt[0] == '-' && strcmp(c[i].opt, "--constraints")) {
			args[n++] = c[i].opt;
			args[n++] = c[i].val;
		}
		args[n++] = "--dry-run";
		args[n] = NULL;
		run_c2cv(&r, args);
		if (r.status != 2 || count_lines(r.err) != 1 ||
		    !strstr(r.err, k < 0 ? c[i].want : "#SBATCH"))
			fail_msg("case %zu: exit %d, %s", i, r.status, r.err);
		assert_null(strstr(r.out, "#SBATCH"));
		snprintf(sub, sizeof(sub), "%s/slurm", res);
		assert_false(file_exists(sub));
	}
	assert_false(logged("sbatch"));
}

/* Paths holding quotes, $(...), backticks, spaces and newlines-free shell syntax are data: the
 * dry-run script passes bash -n, and run as a task it hands each path over as written. */
static void hostile_paths_are_quoted(void **s)
{
	(void)s;
	const char *names[] = { "a'b",
				"$(touch PWNED)",
				"`touch PWNED`",
				"a b;touch PWNED",
				"\"'\\",
				"x'$(touch PWNED)'y",
				"--help",
				"!x",
				"*",
				"a#b %d" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		char d[PATH_MAX + 64], p[PATH_MAX + 80], script[PATH_MAX + 16], out[8192],
			cmd[PATH_MAX * 4];
		struct cmd_result r;
		snprintf(d, sizeof(d), "%s/q%zu", test_dir, i);
		assert_int_equal(mkdir(d, 0755), 0);
		snprintf(d, sizeof(d), "%s/q%zu/%s", test_dir, i, names[i]);
		assert_int_equal(mkdir(d, 0755), 0);
		snprintf(p, sizeof(p), "%s/fleet.ini", d);
		copy_file(preset, p);
		char res[PATH_MAX];
		snprintf(res, sizeof(res), "%s/qres", test_dir);
		run_c2c(&r, "slurm", "submit", p, "--constraints", "xeon", "--results", res,
			"--bin", "/bin/echo", "--dry-run", NULL);
		assert_int_equal(r.status, 0);
		snprintf(script, sizeof(script), "%s/q.sbatch", test_dir);
		FILE *f = fopen(script, "w");
		assert_non_null(f);
		fputs(r.out, f);
		fclose(f);
		snprintf(cmd, sizeof(cmd), "bash -n '%s' 2>&1", script);
		if (sh_capture(out, sizeof(out), cmd))
			fail_msg("bash -n on the script for %s: %s", names[i], out);
		snprintf(cmd, sizeof(cmd),
			 "cd '%s' && SLURM_ARRAY_TASK_ID=0 SLURMD_NODENAME=n1 bash '%s'", test_dir,
			 script);
		assert_int_equal(sh_capture(out, sizeof(out), cmd), 0);
		char want[PATH_MAX * 2];
		snprintf(want, sizeof(want), "preset %s --results ", p);
		if (strncmp(out, want, strlen(want)))
			fail_msg("the task got another preset path than %s:\n%s", p, out);
		snprintf(cmd, sizeof(cmd), "%s/PWNED", test_dir);
		assert_false(file_exists(cmd));
	}
}

/* A dry run to a full disk is an error, not a cut script and exit 0. */
static void dry_run_to_a_full_disk_fails(void **s)
{
	(void)s;
	char cmd[PATH_MAX * 3], out[4096], dir[PATH_MAX];
	results(dir, sizeof(dir), "full");
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	snprintf(cmd, sizeof(cmd),
		 "'%s' slurm submit '%s' --constraints xeon --results '%s' --dry-run "
		 ">/dev/full 2>'%s/full.err'",
		 bin, preset, dir, test_dir);
	assert_int_equal(sh_capture(out, sizeof(out), cmd), 1);
	snprintf(cmd, sizeof(cmd), "%s/full.err", test_dir);
	char *err = slurp(cmd);
	assert_non_null(err);
	assert_int_equal(count_lines(err), 1);
	assert_non_null(strstr(err, "No space left on device"));
	free(err);
}

static int setup(void **s)
{
	if (test_dir_setup(s))
		return -1;
	snprintf(fakebin, sizeof(fakebin), "%s/bin", test_dir);
	snprintf(logpath, sizeof(logpath), "%s/fake.log", test_dir);
	if (mkdir(fakebin, 0755) || !realpath("tests/data/fleet.ini", preset))
		return -1;
	old_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	char path[PATH_MAX * 2];
	snprintf(path, sizeof(path), "%s:%s", fakebin, old_path);
	setenv("PATH", path, 1);
	return 0;
}

static int teardown(void **s)
{
	setenv("PATH", old_path, 1);
	free(old_path);
	return test_dir_teardown(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostile_names_are_refused),
		cmocka_unit_test(hostile_paths_are_quoted),
		cmocka_unit_test(dry_run_to_a_full_disk_fails),
		cmocka_unit_test(warnings_around_the_job_id_are_fine),
		cmocka_unit_test(no_job_id_cancels_by_name),
		cmocka_unit_test(a_failed_release_cancels),
		cmocka_unit_test(an_unwritable_record_cancels),
		cmocka_unit_test(a_failed_cancel_is_said),
		cmocka_unit_test(a_hung_sbatch_is_killed),
		cmocka_unit_test(a_signal_cancels_the_held_array),
		cmocka_unit_test(two_submissions_two_records),
		cmocka_unit_test(concurrent_submits_one_wins),
		cmocka_unit_test(a_record_id_is_its_folder),
		cmocka_unit_test(status_escapes_a_forged_record),
		cmocka_unit_test(status_options_once),
		cmocka_unit_test(status_spellings),
		cmocka_unit_test(unreachable_is_not_failed),
		cmocka_unit_test(a_failed_resume_takes_its_job_back),
		cmocka_unit_test(resume_follows_results_not_the_record),
		cmocka_unit_test(wait_outlasts_a_failing_squeue),
		cmocka_unit_test(all_skipped_is_nothing_measured),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

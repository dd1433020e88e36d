/* A real migration: while pingpong runs, another process moves its threads bound to its two CPUs
 * each to the other CPU (sched_setaffinity, as an administrator's taskset would). The rows are
 * still written, each marked invalid by rule migration with the CPUs named, and the run ends
 * normally: exit 0, or 4 where a pair got no valid repetition (before, it ended with an error). */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TIDS_MAX 512

/* The pair's CPUs: the first two this process may use (CPUs 0 and 1 need not be, under taskset or
 * a container's cpuset). */
static int cpu[2] = { -1, -1 };

/* Start c2cbench with args, its output to /dev/null; returns its pid. */
static pid_t spawn(const char *const *args)
{
	const char *argv[64];
	int n = 0;
	argv[n++] = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	while (*args && n < 63)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int fd = open("/dev/null", O_WRONLY),
		    fe = open(getenv("MIG_ERR") ? getenv("MIG_ERR") : "/dev/null",
			      O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fe, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* 1 when thread tid of pid may run on CPU `cpu` alone (its Cpus_allowed_list is just that CPU). */
static int bound_to(pid_t pid, const char *tid, int cpu)
{
	char path[400], line[256], want[32];
	int hit = 0;
	snprintf(path, sizeof(path), "/proc/%d/task/%s/status", (int)pid, tid);
	snprintf(want, sizeof(want), "Cpus_allowed_list:\t%d\n", cpu);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		hit |= !strcmp(line, want);
	fclose(f);
	return hit;
}

/* The threads moved so far: each is moved once. */
struct seen {
	long tid[TIDS_MAX];
	int n;
};

/* 1 when tid was moved already. */
static int moved(const struct seen *s, long tid)
{
	for (int i = 0; i < s->n; i++)
		if (s->tid[i] == tid)
			return 1;
	return s->n == TIDS_MAX; /* full: move nothing more */
}

static void note(struct seen *s, long tid)
{
	if (s->n < TIDS_MAX)
		s->tid[s->n++] = tid;
}

/* CPU time of thread tid of pid in clock ticks (utime + stime of its stat line; -1 when gone). */
static long cpu_ticks(pid_t pid, const char *tid)
{
	char path[400], line[1024];
	long ut = -1, st = -1;
	snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char *p =
	    fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL; /* the name may hold spaces */
	fclose(f);
	/* after the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt
	 * utime stime */
	if (!p ||
	    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", &ut, &st) != 2)
		return -1;
	return ut + st;
}

/* One look at pid's threads: each bound to cpu[0] or cpu[1] alone that has run a clock tick or more
 * (so it is well past its own binding check, and in its handoffs) is moved once to the other CPU,
 * the two sides of a pair in one go. The pair swaps CPUs: still two CPUs, so the ping-pong keeps
 * its speed, and each side ends on a CPU it is not bound to. Returns how many were moved. */
static int move_once(pid_t pid, struct seen *s)
{
	char dir[64];
	long tid[2] = { 0, 0 }; /* one thread bound to cpu[0], one to cpu[1]: moved together */
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	for (struct dirent *e; (e = readdir(d));) {
		long id = atol(e->d_name);
		int from = id <= 0 || id == pid ? -1
			   : bound_to(pid, e->d_name, cpu[0]) ? 0
			   : bound_to(pid, e->d_name, cpu[1]) ? 1
							       : -1;
		if (from >= 0 && cpu_ticks(pid, e->d_name) >= 1 && !moved(s, id))
			tid[from] = id;
	}
	closedir(d);
	if (!tid[0] || !tid[1])
		return 0;
	int n = 0;
	for (int from = 0; from < 2; from++) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu[1 - from], &set);
		note(s, tid[from]);
		n += !sched_setaffinity((pid_t)tid[from], sizeof(set), &set);
	}
	return n;
}

static void migration_is_an_invalid_row(void **state)
{
	(void)state;
	struct table t;
	char path[600], err[512];
	static struct seen seen;
	int moved = 0, status = 0;
	char list[48], why[80], end[16];
	if (two_usable_cpus(&cpu[0], &cpu[1])) {
		print_message("skipped: a migration needs two CPUs this process may use\n");
		skip();
	}
	snprintf(list, sizeof(list), "cpus:%d,%d", cpu[0], cpu[1]);
	snprintf(why, sizeof(why), "migration: responder1 bound to CPU %d ran on ", cpu[1]);
	snprintf(end, sizeof(end), " %d", cpu[0]);
	SKIP_UNDER_QEMU("the moved pair's run takes about a minute at qemu-user's speed");
	if (getenv("MIG_KEEP")) /* to look at the rows after a run */
		snprintf(path, sizeof(path), "%s", getenv("MIG_KEEP"));
	else
		snprintf(path, sizeof(path), "%s/pp.csv", test_dir);
	pid_t pid = spawn((const char *const[]){ "run", "pingpong", "--placement", list,
						 "--max-attempts", "1", "--reps", "1", "--samples",
						 "200", "--round-trips", "50", "--preheat-ms", "50",
						 "--quiet", "--out", path, NULL });
	struct timespec nap = { 0, 500000 };
	/* bounded: a run that never ends is killed, never left spinning on the CPUs after the test
	 */
	for (long naps = 0; waitpid(pid, &status, WNOHANG) == 0; naps++) {
		if (naps == 600000) { /* 300 s of 0.5 ms naps */
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			fail_msg("pingpong under migration did not end within 300 s");
		}
		moved += move_once(pid, &seen);
		nanosleep(&nap, NULL);
	}
	assert_true(WIFEXITED(status));
	/* 4: a pair got no valid repetition (docs/validity.md) */
	if (WEXITSTATUS(status) && WEXITSTATUS(status) != 4)
		fail_msg("c2cbench exited %d", WEXITSTATUS(status));
	assert_true(moved > 0);
	assert_int_equal(table_read(&t, path, err), 0);
	assert_true(t.nrows >= 1);
	int migrated = 0;
	for (long i = 0; i < t.nrows; i++) {
		if (strstr(table_get(&t, i, "invalid_reason"), why)) {
			assert_string_equal(table_get(&t, i, "valid"), "no");
			assert_non_null(strstr(table_get(&t, i, "thread_cpu_end"), end));
			migrated++;
		}
	}
	assert_true(migrated > 0);
	table_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(migration_is_an_invalid_row),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}

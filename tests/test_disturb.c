/* A real run, disturbed on purpose: a busy thread on the reader's CPU for part of one repetition,
 * then the whole run stopped (SIGSTOP/SIGCONT) for part of a window. The disturbed attempt must be
 * invalid with the right rule, run again, and counted in the summary; the CSV keeps whole rows.
 * The machine may be loaded by others: only the disturbed attempt's verdict is asserted. */
#include "tests/testutil.h"
#include "lib/csvread.h"
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* The writer's and the reader's CPUs: the first two this process may use (CPUs 0 and 1 need not be,
 * under taskset or a container's cpuset). */
static int cpu_w = -1, cpu_r = -1;

/* Start c2cbench in the background, stdout to out_path; returns its pid. */
static pid_t start(const char *csv, const char *out_path)
{
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	char list[48];
	snprintf(list, sizeof(list), "cpus:%d,%d", cpu_w, cpu_r);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		execl(bin, bin, "run", "pending-bit", "--layout", "shared", "--placement", list,
		      "--duration", "0.4", "--warmup", "0.05", "--reps", "3", "--max-attempts", "3",
		      "--out", csv, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* The checks both cases share: row `k` is invalid by `rule` on the reader, rerun as the next row,
 * every row whole, the summary's count of invalid attempts at least one. */
static void check(const char *csv, const char *out, int k, const char *rule)
{
	struct table t;
	char *o = slurp(out);
	assert_non_null(o);
	csv_load(&t, csv); /* every row whole: the reader refuses a short row or a cut last line */
	int rows = (int)t.nrows;
	assert_true(k <
		    rows); /* the disturbed attempt (row k, 1 = the first) and the one after it */
	const char *v = csv_cell(&t, k - 1, "valid");
	assert_string_equal(v, "no");
	v = csv_cell(&t, k - 1, "invalid_reason");
	if (!strstr(v, rule))
		fail_msg("disturbed attempt's reason '%s' lacks '%s'", v, rule);
	const char *a = csv_cell(&t, k - 1, "attempt"), *b = csv_cell(&t, k, "attempt");
	assert_string_equal(csv_cell(&t, k - 1, "rep"),
			    csv_cell(&t, k, "rep")); /* the same repetition, run again */
	assert_int_equal(atoi(b), atoi(a) + 1);
	const char *h = strstr(o, " attempt(s) invalid");
	assert_non_null(h);
	while (h > o && h[-1] != ';')
		h--;
	int inv = 0, all = 0;
	assert_int_equal(sscanf(h, " %d of %d", &inv, &all), 2);
	assert_true(inv >= 1);
	assert_int_equal(all, rows);
	table_free(&t);
	free(o);
}

static volatile int busy_stop;

static void *busy(void *arg)
{
	cpu_set_t set;
	(void)arg;
	CPU_ZERO(&set);
	CPU_SET(cpu_r, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (!__atomic_load_n(&busy_stop, __ATOMIC_RELAXED))
		;
	return NULL;
}

static int have_two_cpus(void)
{
	if (two_usable_cpus(&cpu_w, &cpu_r)) {
		print_message("skipped: needs two CPUs this process may use\n");
		return 0;
	}
	return 1;
}

static void busy_reader_cpu(void **s)
{
	(void)s;
	char csv[300], out[300];
	if (!have_two_cpus())
		skip();
	snprintf(csv, sizeof(csv), "%s/busy.csv", test_dir);
	snprintf(out, sizeof(out), "%s/busy.out", test_dir);
	pid_t pid = start(csv, out);
	assert_int_equal(wait_csv_rows(csv, 1, pid, 60), 0);
	pthread_t
	    th; /* the next attempt starts now: probe, 50 ms warm-up, then its 400 ms window; the
		 * busy thread stays until that attempt's row is written (a slow machine or an
		 * emulated guest may take far longer than 400 ms), then the retry runs clean */
	busy_stop = 0;
	assert_int_equal(pthread_create(&th, NULL, busy, NULL), 0);
	int written = wait_csv_rows(csv, 2, pid, 60);
	__atomic_store_n(&busy_stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	assert_int_equal(written, 0);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	/* 4: the loaded machine left a configuration no valid repetition */
	assert_true(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 4));
	check(csv, out, 2, "oncpu: reader0");
}

static void stopped_run(void **s)
{
	(void)s;
	char csv[300], out[300];
	if (!have_two_cpus())
		skip();
	snprintf(csv, sizeof(csv), "%s/stop.csv", test_dir);
	snprintf(out, sizeof(out), "%s/stop.out", test_dir);
	pid_t pid = start(csv, out);
	assert_int_equal(wait_csv_rows(csv, 1, pid, 60), 0);
	/* Stopped 200 ms of every 300 until the next attempt's row is written: its 400 ms window
	 * holds at least 100 ms stopped wherever it falls (a slow machine or an emulated guest may
	 * take seconds to reach it), then the retry runs clean. */
	int written = -1;
	for (int i = 0; i < 200 && written; i++) {
		kill(pid, SIGSTOP);
		nap_ms(200);
		kill(pid, SIGCONT);
		written = wait_csv_rows(csv, 2, pid, 0.1); /* the 100 ms it runs */
	}
	assert_int_equal(written, 0);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	/* 4: the loaded machine left a configuration no valid repetition */
	assert_true(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 4));
	check(csv, out, 2, "oncpu: reader0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(busy_reader_cpu),
		cmocka_unit_test(stopped_run),
	};
	return cmocka_run_group_tests(tests, test_dir_setup, test_dir_teardown);
}

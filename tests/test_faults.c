/* Faults from outside: file-size and address-space limits, a reader that goes away, a FIFO nobody
 * reads, a file of the user's where run would put a temporary, out of memory. */
#include "tests/testutil.h"
#include "harness/threads.h"
#include "lib/util.h"
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_ASAN                                                                                 \
	1 /* ASan and TSan reserve terabytes of address space and refuse to return NULL */
#else
#define UNDER_ASAN 0
#endif

static char path[512], meta[512], errf[512];

static int setup(void **s)
{
	test_dir_setup(s);
	snprintf(path, sizeof(path), "%s/run.csv", test_dir);
	snprintf(meta, sizeof(meta), "%s/run.meta", test_dir);
	snprintf(errf, sizeof(errf), "%s/stderr.txt", test_dir);
	return 0;
}

/* Run c2cbench with args under one resource limit (res < 0: none), stderr to errf; the wait status.
 */
static int run_limited(int res, rlim_t lim, const char *const *args)
{
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	const char *argv[40] = { bin };
	int n = 1, st;
	for (int i = 0; args[i] && n < 39; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int e = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644),
		    null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		dup2(e, 2);
		if (res >= 0) {
			struct rlimit rl = { lim, lim };
			setrlimit(res, &rl);
		}
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFEXITED(st) &&
	    WEXITSTATUS(st) == 2) { /* a usage error is never what these tests expect: show it */
		char *e = slurp(errf);
		print_message("stderr: %s\n", e ? e : "");
		free(e);
	}
	return st;
}

/* Lines of s that are errors (warnings about the machine may come first). */
static int error_lines(const char *s)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, "c2cbench: error: ")); p++)
		n++;
	return n;
}

/* The run's set gone, side files too (never overwritten: the next run would be refused). */
static void clean(void)
{
	char side[520];
	unlink(path);
	unlink(meta);
	snprintf(side, sizeof(side), "%.*s.columns", (int)strlen(meta) - 5, meta);
	unlink(side);
	snprintf(side, sizeof(side), "%.*s.bench", (int)strlen(meta) - 5, meta);
	unlink(side);
}

/* Every line of the CSV ends with a newline and has the header's width (quotes honoured). */
static int whole_rows(const char *file)
{
	char *t = slurp(file);
	assert_non_null(t);
	size_t len = strlen(t);
	assert_true(len > 0);
	assert_int_equal(t[len - 1], '\n');
	int width = -1, rows = -1;
	for (char *line = t; *line;) {
		int w = 1, q = 0;
		char *nl = strchr(line, '\n');
		for (char *p = line; p < nl; p++)
			q ^= *p == '"', w += *p == ',' && !q;
		if (width < 0)
			width = w;
		assert_int_equal(w, width);
		rows++;
		line = nl + 1;
	}
	free(t);
	return rows;
}

/* ulimit -f: the row that does not fit is cut back, the run stops as on SIGTERM (SIGXFSZ, exit
 * 153). */
static void file_size_limit(void **s)
{
	(void)s;
	clean();
	const char *args[] = {"run",   "pending-bit", "--max-attempts", "1",        "--reps",
			      "20",    "--duration",  "0.02",           "--warmup", "0.01",
			      "--out", path,          "--quiet",        NULL};
	int st =
	    run_limited(RLIMIT_FSIZE, 8192, args); /* a few rows of either architecture's width */
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 128 + SIGXFSZ);
	int rows = whole_rows(path);
	assert_true(rows >= 1 && rows < 60);
	char *m = slurp(meta), want[64];
	assert_non_null(m);
	assert_non_null(strstr(m, "\nstatus = interrupted\n"));
	assert_non_null(strstr(m, "\nreason = SIGXFSZ\n"));
	snprintf(want, sizeof(want), "\nrows = %d\n", rows);
	assert_non_null(strstr(m, want));
	free(m);
	char *e = slurp(errf);
	assert_non_null(strstr(e, "interrupted by SIGXFSZ"));
	free(e);
	clean();
}

/* ulimit -v: a thread that cannot be created is one line and exit 1, no hang, no files left. */
static void address_space_limit(void **s)
{
	(void)s;
	if (UNDER_ASAN)
		skip();
	clean();
	const char *args[] = { "run",	     "pending-bit", "--max-attempts",
			       "1",	     "--reps",	    "1",
			       "--duration", "0.02",	    "--warmup",
			       "0.01",	     LENIENT,	    "--out",
			       path,	     "--quiet",	    NULL };
	int st = run_limited(RLIMIT_AS, 20000 * 1024, args);
	char *e = slurp(errf);
	assert_true(WIFEXITED(st));
	/* 0, or 4 (ran, nothing valid): this build fits in the limit, nothing to show here */
	if (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == 4) {
		free(e);
		clean();
		skip();
	}
	assert_int_equal(WEXITSTATUS(st), 1);
	assert_int_equal(error_lines(e), 1);
	assert_true(strstr(e, "cannot create thread") || strstr(e, "out of memory"));
	assert_false(file_exists(path));
	assert_false(file_exists(meta));
	free(e);
}

/* Out of memory is one line and exit 1, not an abort's core dump. */
static void out_of_memory_is_one_line(void **s)
{
	(void)s;
	if (UNDER_ASAN)
		skip();
	int fd[2], st;
	assert_int_equal(pipe(fd), 0);
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], 2);
		xcalloc((size_t)1 << 46, 16); /* 1 PiB */
		_exit(0);
	}
	close(fd[1]);
	char buf[256] = "";
	ssize_t got = read(fd[0], buf, sizeof(buf) - 1);
	close(fd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	assert_true(got > 0);
	assert_non_null(strstr(buf, "c2cbench: error: out of memory"));
	assert_int_equal(count_lines(buf), 1);
}

/* A preset piped into head: the reader goes, SIGPIPE stops it, metadata says interrupted (not
 * planned). */
static void preset_into_head(void **s)
{
	(void)s;
	char ini[600], res[600], cmd[2400];
	snprintf(ini, sizeof(ini), "%s/two.ini", test_dir);
	snprintf(res, sizeof(res), "%s/res", test_dir);
	FILE *f = fopen(ini, "w");
	fputs("[a]\nbench = pending-bit\nduration = 0.02\nwarmup = 0.01\nreps = 3\n[b]\nbench = "
	      "pending-bit\nduration = 0.02\nwarmup = 0.01\nreps = 3\n",
	      f);
	fclose(f);
	mkdir(res, 0755);
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	snprintf(cmd, sizeof(cmd),
		 "'%s' preset '%s' --results '%s' 2>'%s' | head -1 >/dev/null; exit "
		 "${PIPESTATUS[0]}",
		 bin, ini, res, errf);
	char *argv[] = { "bash", "-c", cmd, NULL };
	int st;
	pid_t pid = fork();
	if (pid == 0) {
		execv("/bin/bash", argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_int_equal(WEXITSTATUS(st), 128 + SIGPIPE);
	char list[1200];
	snprintf(list, sizeof(list), "%s/metadata.txt", res);
	/* the run directory is the one entry under res */
	char find[1400];
	snprintf(find, sizeof(find), "ls -d '%s'/*/ | head -1", res);
	FILE *p = popen(find, "r");
	char dir[800] = "";
	assert_non_null(fgets(dir, sizeof(dir), p));
	pclose(p);
	dir[strcspn(dir, "\n")] = 0;
	snprintf(list, sizeof(list), "%smetadata.txt", dir);
	char *m = slurp(list), *e = slurp(errf);
	assert_non_null(m);
	assert_non_null(strstr(m, "\nstate = interrupted\n"));
	assert_null(strstr(m, "state = planned"));
	assert_non_null(strstr(e, "interrupted by SIGPIPE"));
	assert_non_null(strstr(e, "--resume"));
	free(m);
	free(e);
}

/* A NAME.meta.tmp of the user's stays as it was: run writes its temporaries under names of its own.
 */
static void users_tmp_file_untouched(void **s)
{
	(void)s;
	char tmp[600];
	clean();
	snprintf(tmp, sizeof(tmp), "%s.tmp", meta);
	FILE *f = fopen(tmp, "w");
	fputs("mine\n", f);
	fclose(f);
	const char *args[] = {"run",      "pending-bit", "--max-attempts", "1",        "--reps",
			      "1",        "--duration",  "0.02",           "--warmup", "0.01",
			      "--layout", "shared",      LENIENT,          "--out",    path,
			      "--quiet",  NULL};
	int st = run_limited(-1, 0, args);
	assert_true(RAN(WEXITSTATUS(st)));
	char *t = slurp(tmp), *m = slurp(meta);
	assert_string_equal(t, "mine\n");
	assert_non_null(strstr(m, "status = complete"));
	free(t);
	free(m);
	unlink(tmp);
	char ls[700];
	snprintf(ls, sizeof(ls), "ls -a '%s' | grep -c 'run.meta.'", test_dir);
	FILE *p = popen(ls, "r");
	char n[16] = "";
	assert_non_null(fgets(n, sizeof(n), p));
	pclose(p);
	assert_string_equal(n, "0\n"); /* no temporary of ours left either */
	clean();
}

/* --out FIFO with no reader: the run says it waits, and Ctrl-C ends the wait (130), nothing
 * created. */
static void fifo_without_reader(void **s)
{
	(void)s;
	char fifo[600];
	snprintf(fifo, sizeof(fifo), "%s/fifo", test_dir);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	const char *bin = getenv("C2C_BIN") ? getenv("C2C_BIN") : "./c2cbench";
	pid_t pid = fork();
	if (pid == 0) {
		int e = open(errf, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(e, 2);
		execl(bin, bin, "run", "pending-bit", "--max-attempts", "1", "--reps", "1",
		      "--duration", "0.02", "--out", fifo, "--quiet", (char *)NULL);
		_exit(127);
	}
	char *e = NULL;
	for (int i = 0; i < 200 && !(e && strstr(e, "no reader"));
	     i++) { /* up to 10 s on a loaded machine */
		free(e);
		struct timespec ts = { 0, 50000000 };
		nanosleep(&ts, NULL);
		e = slurp(errf);
	}
	assert_non_null(e);
	assert_non_null(strstr(e, "is a FIFO with no reader yet: waiting"));
	free(e);
	kill(pid, SIGINT);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 130);
	unlink(fifo);
}

static void *waiter(void *g)
{
	return (void *)(long)gate_wait(g);
}

/* The start gate: opens when all arrive (0, reusable), and calling it off releases a waiter with -1
 * (a pthread barrier cannot be called off: the threads waited forever when one could not start). */
static void start_gate(void **s)
{
	(void)s;
	struct gate g;
	pthread_t t[2];
	void *rc[2];
	gate_init(&g, 3);
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 2; i++)
			assert_int_equal(pthread_create(&t[i], NULL, waiter, &g), 0);
		assert_int_equal(gate_wait(&g), 0);
		for (int i = 0; i < 2; i++) {
			pthread_join(t[i], &rc[i]);
			assert_int_equal((long)rc[i], 0);
		}
	}
	assert_int_equal(pthread_create(&t[0], NULL, waiter, &g),
			 0); /* one of three: the others never come */
	gate_off(&g);
	pthread_join(t[0], &rc[0]);
	assert_int_equal((long)rc[0], -1);
	assert_int_equal(gate_wait(&g), -1); /* and any later arrival is turned away at once */
	gate_destroy(&g);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(start_gate),
		cmocka_unit_test(file_size_limit),
		cmocka_unit_test(address_space_limit),
		cmocka_unit_test(out_of_memory_is_one_line),
		cmocka_unit_test(preset_into_head),
		cmocka_unit_test(users_tmp_file_untouched),
		cmocka_unit_test(fifo_without_reader),
	};
	return cmocka_run_group_tests(t, setup, test_dir_teardown);
}

/* --perf-c2c where it cannot run: the run goes on, every row says why (perf missing; or, on a
 * machine without a PMU such as the 2-vCPU VM here, perf's own reason), and no report file is left
 * behind. With a fake perf on PATH: a perf that hangs is killed with its process group after
 * C2C_PERF_TIMEOUT, its raw escapes are escaped, a user's file at a report's name is never touched,
 * and a report that works lands beside the CSV with none of perf's own files left. */
#include "tests/testutil.h"
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void run_c2c_rows(struct cmd_result *r, const char *out)
{
	run_c2c(r, "run", "pending-bit", "--duration", "0.05", "--warmup", "0.01", "--reps", "1",
		"--layout", "shared,padded", "--perf-c2c", LENIENT, "--out", out, "--quiet", NULL);
}

static void perf_c2c_says_why(void **s)
{
	struct cmd_result *r = malloc(sizeof(*r));
	char out[512], rep[600];
	(void)s;
	snprintf(out, sizeof(out), "%s/nopath.csv", test_dir);
	const char *path = getenv("PATH");
	char *saved = path ? strdup(path) : NULL;
	setenv("PATH", "/nonexistent", 1); /* no perf to start */
	run_c2c_rows(r, out);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	if (!RAN(r->status))
		fail_msg("run failed: %s", r->err);
	char *csv = slurp(out);
	assert_non_null(strstr(csv, "perf_c2c_report"));
	assert_non_null(strstr(csv, "perf_c2c_report: perf cannot be started: no perf in PATH"));
	free(csv);
	snprintf(rep, sizeof(rep), "%s.perf-c2c-1.txt", out);
	assert_false(file_exists(rep));
	if (access("/usr/bin/perf", X_OK) == 0 &&
	    !file_exists("/sys/bus/event_source/devices/cpu")) {
		snprintf(out, sizeof(out), "%s/nopmu.csv",
			 test_dir); /* perf is there, the PMU is not */
		run_c2c_rows(r, out);
		/* 4: a loaded machine measured nothing; the column is checked */
		if (!RAN(r->status))
			fail_msg("status %d: %s", r->status, r->err);
		csv = slurp(out);
		assert_non_null(strstr(csv, "perf_c2c_report: perf c2c record failed: "));
		free(csv);
		snprintf(rep, sizeof(rep), "%s.perf-c2c-1.txt", out);
		assert_false(file_exists(rep));
	}
	free(r);
}

/* A fake perf first on PATH, run by the shell: FAKE_PERF_MODE picks what it does. record: writes
 * its pid to FAKE_PERF_PIDS and waits for SIGINT (or, "hang", ignores it), or fails at once with
 * raw escapes on stderr ("esc"); report: prints a line ("ok") or never ends ("hang-report"). */
static char *fake_perf(void)
{
	static char dir[600];
	char p[700], path[4600];
	char *old = strdup(getenv("PATH"));
	snprintf(dir, sizeof(dir), "%s/fakeperf", test_dir);
	mkdir(dir, 0755);
	snprintf(p, sizeof(p), "%s/perf", dir);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\n"
	      "case \"$2\" in\n"
	      "record)\n"
	      "  if [ \"$FAKE_PERF_MODE\" = esc ]; then printf 'failed: "
	      "\\033[31mred\\033]0;title\\007\\n' >&2; exit 1; fi\n"
	      "  echo $$ >> \"$FAKE_PERF_PIDS\"\n"
	      "  if [ \"$FAKE_PERF_MODE\" = hang ]; then trap '' INT TERM; else trap 'exit 0' INT; "
	      "fi\n"
	      "  while :; do sleep 0.05; done ;;\n"
	      "report)\n"
	      "  if [ \"$FAKE_PERF_MODE\" = hang-report ]; then echo $$ >> \"$FAKE_PERF_PIDS\"; "
	      "trap '' INT TERM;"
	      " while :; do sleep 0.05; done; fi\n"
	      "  echo 'fake perf c2c report' ;;\n"
	      "esac\n",
	      f);
	fclose(f);
	chmod(p, 0755);
	snprintf(path, sizeof(path), "%s:%s", dir, old);
	setenv("PATH", path, 1);
	return old;
}

/* Every pid the fake recorded has ended (the process group was killed, nothing left orphaned). */
static void fake_pids_gone(const char *pids)
{
	char *t = slurp(pids);
	assert_non_null(t);
	for (char *q = t; *q;) {
		int pid = atoi(q), gone = 0;
		for (int i = 0; i < 200 && !gone; i++) { /* init reaps the killed shell */
			gone = kill(pid, 0) && errno == ESRCH;
			if (!gone)
				usleep(10000);
		}
		if (!gone)
			fail_msg("fake perf %d still runs", pid);
		q += strcspn(q, "\n");
		q += *q == '\n';
	}
	free(t);
}

/* Nothing of perf's own is left beside the CSV (its private directory is removed). */
static void no_perf_dir_left(const char *name)
{
	char prefix[200];
	snprintf(prefix, sizeof(prefix), ".%s.perf-c2c-", name);
	DIR *d = opendir(test_dir);
	assert_non_null(d);
	for (struct dirent *e; (e = readdir(d));)
		if (!strncmp(e->d_name, prefix, strlen(prefix)))
			fail_msg("perf's directory %s left in %s", e->d_name, test_dir);
	closedir(d);
}

static void with_fake(struct cmd_result *r, const char *mode, const char *name, char *out, size_t n,
		      char *pids, size_t pn)
{
	snprintf(out, n, "%s/%s.csv", test_dir, name);
	snprintf(pids, pn, "%s/%s.pids", test_dir, name);
	setenv("FAKE_PERF_MODE", mode, 1);
	setenv("FAKE_PERF_PIDS", pids, 1);
	setenv("C2C_PERF_TIMEOUT", "1", 1);
	char *old = fake_perf();
	run_c2c_rows(r, out);
	setenv("PATH", old, 1);
	free(old);
	unsetenv("C2C_PERF_TIMEOUT");
}

/* A perf that ignores SIGINT, and a report that never ends: each killed with its process group
 * after C2C_PERF_TIMEOUT, the run goes on, the row says so, no report and no perf file is left. */
static void perf_hangs(void **s)
{
	(void)s;
	struct cmd_result *r = calloc(1, sizeof(*r));
	char out[600], pids[600], rep[700];
	with_fake(r, "hang", "hang", out, sizeof(out), pids, sizeof(pids));
	if (r->status && r->status != 4) /* 4: a loaded machine left a configuration no valid row */
		fail_msg("run failed: %s", r->err);
	char *csv = slurp(out);
	assert_non_null(strstr(
		csv,
		"perf c2c record did not stop within 1 s of SIGINT (C2C_PERF_TIMEOUT): killed"));
	free(csv);
	fake_pids_gone(pids);
	snprintf(rep, sizeof(rep), "%s.perf-c2c-1.txt", out);
	assert_false(file_exists(rep));
	no_perf_dir_left("hang.csv");
	with_fake(r, "hang-report", "hangrep", out, sizeof(out), pids, sizeof(pids));
	if (r->status && r->status != 4) /* 4: a loaded machine left a configuration no valid row */
		fail_msg("run failed: %s", r->err);
	csv = slurp(out);
	assert_non_null(strstr(
		csv, "perf c2c report did not finish within 1 s (C2C_PERF_TIMEOUT): killed"));
	free(csv);
	fake_pids_gone(pids);
	snprintf(rep, sizeof(rep), "%s.perf-c2c-1.txt", out);
	assert_false(file_exists(rep));
	no_perf_dir_left("hangrep.csv");
	free(r);
}

/* perf's stderr with raw escapes (colour, a terminal title): in the row escaped, never raw. */
static void perf_escapes_escaped(void **s)
{
	(void)s;
	struct cmd_result *r = calloc(1, sizeof(*r));
	char out[600], pids[600];
	with_fake(r, "esc", "esc", out, sizeof(out), pids, sizeof(pids));
	if (r->status && r->status != 4) /* 4: a loaded machine left a configuration no valid row */
		fail_msg("run failed: %s", r->err);
	char *csv = slurp(out);
	assert_non_null(strstr(csv, "perf c2c record failed: \\x1b[31mred\\x1b]0;title\\x07"));
	assert_null(strchr(csv, '\033'));
	assert_null(strstr(r->err, "\033"));
	free(csv);
	no_perf_dir_left("esc.csv");
	free(r);
}

/* A report that works lands beside the CSV; a file of the user's at a report's name, or a link
 * there, is never opened, overwritten or removed: that row says so. */
static void user_files_kept(void **s)
{
	(void)s;
	struct cmd_result *r = calloc(1, sizeof(*r));
	char out[600], pids[600], rep[700], target[700], link[700];
	snprintf(rep, sizeof(rep), "%s/own.csv.perf-c2c-1.txt", test_dir);
	FILE *f = fopen(rep, "w");
	assert_non_null(f);
	fputs("the user's\n", f);
	fclose(f);
	snprintf(target, sizeof(target), "%s/target", test_dir);
	snprintf(link, sizeof(link), "%s/own.csv.perf-c2c-2.txt", test_dir);
	f = fopen(target, "w");
	fputs("target\n", f);
	fclose(f);
	assert_int_equal(symlink(target, link), 0);
	with_fake(r, "ok", "own", out, sizeof(out), pids, sizeof(pids));
	if (r->status && r->status != 4) /* 4: a loaded machine left a configuration no valid row */
		fail_msg("run failed: %s", r->err);
	char *csv = slurp(out), *kept = slurp(rep), *tg = slurp(target);
	assert_non_null(
		strstr(csv, "own.csv.perf-c2c-1.txt already exists (a file is never overwritten)"));
	assert_non_null(
		strstr(csv, "own.csv.perf-c2c-2.txt already exists (a file is never overwritten)"));
	assert_string_equal(kept, "the user's\n");
	assert_string_equal(tg, "target\n");
	struct stat st;
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	free(csv);
	free(kept);
	free(tg);
	unlink(rep);
	unlink(link);
	/* nothing in the way: the report is there, headed by the row's line, and perf's files are
	 * gone */
	unlink(out); /* the first run's set: its side files are never overwritten either */
	const char *sides[] = { ".meta", ".columns", ".bench" };
	for (size_t i = 0; i < sizeof(sides) / sizeof(sides[0]); i++) {
		snprintf(rep, sizeof(rep), "%.*s%s", (int)(strlen(out) - 4), out, sides[i]);
		unlink(rep);
	}
	with_fake(r, "ok", "own", out, sizeof(out), pids, sizeof(pids));
	if (r->status && r->status != 4) /* 4: a loaded machine left a configuration no valid row */
		fail_msg("run failed: %s", r->err);
	snprintf(rep, sizeof(rep), "%s.perf-c2c-1.txt", out);
	char *t = slurp(rep);
	assert_non_null(t);
	assert_non_null(strstr(t, "# c2cbench --perf-c2c: the row's contended line(s):"));
	assert_non_null(strstr(t, "fake perf c2c report"));
	free(t);
	no_perf_dir_left("own.csv");
	free(r);
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(perf_c2c_says_why),
		cmocka_unit_test(perf_hangs),
		cmocka_unit_test(perf_escapes_escaped),
		cmocka_unit_test(user_files_kept),
	};
	return cmocka_run_group_tests(t, test_dir_setup, test_dir_teardown);
}

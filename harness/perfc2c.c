#include "harness/perfc2c.h"
#include "harness/perfc2c_table.h"
#include "lib/infile.h"
#include "lib/util.h"
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The seconds perf c2c report may take, and perf c2c record to stop after SIGINT, before its
 * process group is killed (C2C_PERF_TIMEOUT, default 120; checked at start, perfc2c_env_check). */
static double perf_timeout(void)
{
	const char *e = getenv("C2C_PERF_TIMEOUT");
	long s;
	return e && *e && !parse_long_in(e, 1, 3600, &s) ? (double)s : 120;
}

int perfc2c_env_check(char *err)
{
	const char *e = getenv("C2C_PERF_TIMEOUT");
	long s;
	if (e && parse_long_in(e, 1, 3600, &s))
		return err_set(
			err,
			"C2C_PERF_TIMEOUT '%s' is not accepted; accepted: whole seconds from 1 to "
			"3600 (default 120)",
			e);
	return 0;
}

/* perf's path on PATH (resolved before fork: the child only makes async-signal-safe calls). */
static int perf_path(char *out, size_t n)
{
	const char *path = getenv("PATH");
	char *dirs = xstrdup(path ? path : ""), *save = NULL;
	int found = 0;
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		snprintf(out, n, "%s/perf", *d ? d : ".");
		found = access(out, X_OK) == 0;
	}
	free(dirs);
	return found ? 0 : -1;
}

/* Run perf with argv in a process group of its own (killed whole on a timeout), killed too if this
 * process dies; stdout to out_fd (-1: /dev/null), stderr to err_path (created, never followed).
 * Returns the pid or -1 with why. */
static pid_t spawn_perf(const char *const *argv, int out_fd, const char *err_path, char *why,
			size_t n)
{
	char exe[PATH_MAX];
	if (perf_path(exe, sizeof(exe))) {
		snprintf(why, n, "perf cannot be started: no perf in PATH");
		return -1;
	}
	pid_t parent = getpid(), pid = fork();
	if (pid < 0) {
		snprintf(why, n, "perf cannot be started: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(126);
		int nul = open("/dev/null", O_RDWR),
		    e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
		if (nul < 0 || e < 0 || dup2(nul, 0) < 0 ||
		    dup2(out_fd >= 0 ? out_fd : nul, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		execv(exe, (char *const *)argv);
		_exit(127);
	}
	setpgid(pid, pid); /* as the child does: no window where a kill of the group misses it */
	return pid;
}

/* Wait for pid at most s seconds; then kill its process group. 0: it exited (status in *st);
 * -1: it was killed. */
static int wait_bounded(pid_t pid, double s, int *st)
{
	uint64_t end = now_ns() + (uint64_t)(s * 1e9);
	for (;;) {
		pid_t w = waitpid(pid, st, WNOHANG);
		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return 0;
		if (now_ns() >= end) {
			kill(-pid, SIGKILL);
			while (waitpid(pid, st, 0) < 0 && errno == EINTR)
				;
			return -1;
		}
		sleep_ns(10 * 1000 * 1000);
	}
}

/* The first line perf wrote to stderr, escaped (perf's own bytes: no raw escape reaches a
 * terminal or the CSV), as the reason it failed. */
static void first_err_line(const char *path, const char *what, char *why, size_t n)
{
	char line[240] = "", esc[240];
	FILE *f = fopen_regular(path);
	while (f && fgets(line, sizeof(line), f) && strspn(line, " \t\r\n") == strlen(line))
		;
	if (f)
		fclose(f);
	line[strcspn(line, "\r\n")] = 0;
	const char *msg = strncmp(line, "failed: ", 8) ? line : line + 8;
	text_escape(msg, esc, sizeof(esc));
	snprintf(why, n, "%s failed: %s", what, esc[0] ? esc : "no message");
}

/* The report this process created last: a retried attempt of the same row may replace it, and
 * nothing else. */
static struct {
	char path[1200];
	dev_t dev;
	ino_t ino;
} ours;

void perfc2c_start(struct perfc2c *p, const char *csv, long n)
{
	char pid[32];
	const char *slash = strrchr(csv, '/');
	int dl = slash ? (int)(slash - csv + 1) : 0;
	struct stat st;
	memset(p, 0, sizeof(*p));
	snprintf(p->report, sizeof(p->report), "%s.perf-c2c-%ld.txt", csv, n);
	if (!lstat(p->report, &st) &&
	    !(!strcmp(ours.path, p->report) && st.st_dev == ours.dev && st.st_ino == ours.ino)) {
		snprintf(p->why, sizeof(p->why),
			 "%.200s already exists (a file is never overwritten)", p->report);
		return;
	}
	/* perf's own files go into a fresh directory of ours (mkdtemp, 0700): no name of the user's
	 * is ever opened, renamed (perf keeps an old perf.data as .old) or removed */
	snprintf(p->dir, sizeof(p->dir), "%.*s.%.900s.perf-c2c-XXXXXX", dl, csv, csv + dl);
	if (!mkdtemp(p->dir)) {
		snprintf(p->why, sizeof(p->why),
			 "cannot create a directory for perf's files beside %.200s: %s", csv,
			 strerror(errno));
		p->dir[0] = 0;
		return;
	}
	snprintf(p->data, sizeof(p->data), "%s/perf.data", p->dir);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	const char *argv[] = { "perf", "c2c", "record", "-o", p->data, "-p", pid, NULL };
	char err[1300];
	snprintf(err, sizeof(err), "%s/perf.err", p->dir);
	pid_t k = spawn_perf(argv, -1, err, p->why, sizeof(p->why));
	if (k < 0)
		return;
	p->pid = k;
	/* give perf time to attach; one that fails (no PMU, no memory events, no rights) has exited
	 * by then */
	struct timespec ts = { 0, 300 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	int ws;
	if (waitpid(k, &ws, WNOHANG) == k) {
		p->pid = 0;
		/* exec failed in the child (qemu-user reports it so) */
		if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
			snprintf(p->why, sizeof(p->why), "perf cannot be started: no perf in PATH");
		else
			first_err_line(err, "perf c2c record", p->why, sizeof(p->why));
	}
}

/* The contended line the row records: pingpong's line_addr, else meta_addr (the read-mostly line
 * the readers miss on, pending-bit and vmalloc), else work_addr; NULL when the bench records none.
 */
static const char *line_col(const struct row *r)
{
	static const char *const cols[] = { "line_addr", "meta_addr", "work_addr" };
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++) {
		const char *v = row_get(r, cols[i]);
		if (v && strcmp(v, "NA"))
			return cols[i];
	}
	return NULL;
}

/* All four perf_c2c_hitm columns NA with one reason. */
static void hitm_na(struct row *r, const char *why)
{
	static const char *const cols[] = {"perf_c2c_line", "perf_c2c_hitm_total",
					   "perf_c2c_hitm_local", "perf_c2c_hitm_remote"};
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		row_na(r, cols[i], why);
}

void perfc2c_na(struct row *r, const char *why)
{
	row_na(r, "perf_c2c_report", why);
	hitm_na(r, why);
}

void perfc2c_hitm_to_row(const char *report, struct row *r)
{
	const char *col = line_col(r);
	char why[300], *text;
	struct c2c_hitm h;
	if (!col) {
		hitm_na(
		    r,
		    "the row records no contended line address (line_addr, meta_addr, work_addr)");
		return;
	}
	unsigned long long addr = strtoull(row_get(r, col), NULL, 16);
	if (!(text = file_text(report,
			       16u << 20))) { /* the line table comes first, before the Pareto */
		snprintf(why, sizeof(why), "cannot read %.200s", report);
		hitm_na(r, why);
		return;
	}
	long line =
	    sysconf(_SC_LEVEL1_DCACHE_LINESIZE); /* perf recorded on this machine: its line size */
	int rc = c2c_table_hitm(text, addr, line > 0 ? (unsigned long long)line : 64, &h, why,
				sizeof(why));
	free(text);
	if (rc == 1)
		snprintf(why, sizeof(why),
			 "the line of %s 0x%llx is not in perf's Shared Data Cache Line Table (no "
			 "HITM sample, or under perf's display limit)",
			 col, addr);
	if (rc) {
		hitm_na(r, why);
		return;
	}
	row_set(r, "perf_c2c_line", "%s=0x%llx", col, h.line);
	row_set(r, "perf_c2c_hitm_total", "%lld", h.total);
	row_set(r, "perf_c2c_hitm_local", "%lld", h.local);
	row_set(r, "perf_c2c_hitm_remote", "%lld", h.remote);
}

/* Remove perf's directory of ours and what perf left in it (perf.data, perf.err, perf.data.old). */
static void remove_dir(struct perfc2c *p)
{
	if (!p->dir[0])
		return;
	DIR *d = opendir(p->dir);
	for (struct dirent *e; d && (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(p->dir);
	p->dir[0] = 0;
}

/* The report, created whole: the header naming the row's line(s), then perf c2c report's stdout. */
static void write_report(struct perfc2c *p, struct row *r, const char *err)
{
	double t = perf_timeout();
	struct stat st;
	if (!strcmp(ours.path, p->report))
		unlink(p->report); /* the earlier attempt's, checked ours in perfc2c_start */
	int fd = open(p->report, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0) {
		snprintf(p->why, sizeof(p->why),
			 "cannot create %.200s: %s (a file is never overwritten)", p->report,
			 strerror(errno));
		return;
	}
	p->made_report = 1;
	if (!fstat(fd, &st)) {
		snprintf(ours.path, sizeof(ours.path), "%s", p->report);
		ours.dev = st.st_dev;
		ours.ino = st.st_ino;
	}
	int bad = dprintf(fd, "# c2cbench --perf-c2c: the row's contended line(s):") < 0;
	static const char *const cols[] = { "work_addr", "meta_addr", "line_addr" };
	for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
		if (row_get(r, cols[i]))
			bad |= dprintf(fd, " %s=%s", cols[i], row_get(r, cols[i])) < 0;
	bad |= dprintf(fd, "\n") < 0;
	const char *argv[] = { "perf", "c2c", "report", "-i", p->data, "--stdio", NULL };
	int ws = 0;
	pid_t k = bad ? -1 : spawn_perf(argv, fd, err, p->why, sizeof(p->why));
	if (bad)
		snprintf(p->why, sizeof(p->why), "cannot write %.200s: %s", p->report,
			 strerror(errno));
	else if (k > 0 && wait_bounded(k, t, &ws))
		snprintf(p->why, sizeof(p->why),
			 "perf c2c report did not finish within %g s (C2C_PERF_TIMEOUT): killed",
			 t);
	else if (k > 0 && (!WIFEXITED(ws) || WEXITSTATUS(ws)))
		first_err_line(err, "perf c2c report", p->why, sizeof(p->why));
	if (close(fd) && !p->why[0])
		snprintf(p->why, sizeof(p->why), "cannot write %.200s: %s", p->report,
			 strerror(errno));
}

void perfc2c_stop(struct perfc2c *p, struct row *r)
{
	char err[1300];
	double t = perf_timeout();
	snprintf(err, sizeof(err), "%s/perf.err", p->dir);
	if (p->pid > 0) {
		int st = 0;
		kill(p->pid, SIGINT);
		if (wait_bounded(p->pid, t, &st))
			snprintf(p->why, sizeof(p->why),
				 "perf c2c record did not stop within %g s of SIGINT "
				 "(C2C_PERF_TIMEOUT): killed",
				 t);
		else if (!WIFEXITED(st) || WEXITSTATUS(st))
			first_err_line(err, "perf c2c record", p->why, sizeof(p->why));
		p->pid = 0;
	}
	if (!p->why[0])
		write_report(p, r, err);
	remove_dir(p); /* the report is what is kept; perf.data of a long run is large */
	if (p->why[0]) {
		if (p->made_report)
			unlink(p->report);
		perfc2c_na(r, p->why);
	} else {
		const char *base = strrchr(p->report, '/');
		row_set(r, "perf_c2c_report", "%s", base ? base + 1 : p->report);
		perfc2c_hitm_to_row(p->report, r);
	}
}

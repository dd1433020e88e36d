#include "harness/perfc2c.h"
#include "harness/perfc2c_table.h"
#include "harness/util.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Run perf with argv, stdout to out_path (NULL: /dev/null), stderr to err_path; returns the pid or -1. */
static pid_t spawn_perf(const char *const *argv, const char *out_path, const char *err_path, char *why, size_t n)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int rc = posix_spawnp(&pid, "perf", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc) {
		snprintf(why, n, "perf cannot be started: %s", rc == ENOENT ? "no perf in PATH" : strerror(rc));
		return -1;
	}
	return pid;
}

/* The first line perf wrote to stderr, as the reason it failed. */
static void first_err_line(const char *path, const char *what, char *why, size_t n)
{
	char line[240] = "";
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f) && strspn(line, " \t\r\n") == strlen(line))
		;
	if (f)
		fclose(f);
	line[strcspn(line, "\r\n")] = 0;
	const char *msg = strncmp(line, "failed: ", 8) ? line : line + 8;
	snprintf(why, n, "%s failed: %s", what, msg[0] ? msg : "no message");
}

void perfc2c_start(struct perfc2c *p, const char *csv, long n)
{
	char pid[32], err[1300];
	memset(p, 0, sizeof(*p));
	snprintf(p->data, sizeof(p->data), "%s.perf-c2c-%ld.data", csv, n);
	snprintf(p->report, sizeof(p->report), "%s.perf-c2c-%ld.txt", csv, n);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	snprintf(err, sizeof(err), "%s.err", p->data);
	const char *argv[] = { "perf", "c2c", "record", "-o", p->data, "-p", pid, NULL };
	pid_t k = spawn_perf(argv, NULL, err, p->why, sizeof(p->why));
	if (k < 0)
		return;
	p->pid = k;
	/* give perf time to attach; one that fails (no PMU, no memory events, no rights) has exited by then */
	struct timespec ts = { 0, 300 * 1000 * 1000 };
	nanosleep(&ts, NULL);
	int st;
	if (waitpid(k, &st, WNOHANG) == k) {
		p->pid = 0;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 127) /* exec failed in the child (qemu-user reports it so) */
			snprintf(p->why, sizeof(p->why), "perf cannot be started: no perf in PATH");
		else
			first_err_line(err, "perf c2c record", p->why, sizeof(p->why));
	}
}

/* The contended line the row records: pingpong's line_addr, else meta_addr (the read-mostly line the
 * readers miss on, pending-bit and vmalloc), else work_addr; NULL when the bench records none. */
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
	static const char *const cols[] = { "perf_c2c_line", "perf_c2c_hitm_total", "perf_c2c_hitm_local", "perf_c2c_hitm_remote" };
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
		hitm_na(r, "the row records no contended line address (line_addr, meta_addr, work_addr)");
		return;
	}
	unsigned long long addr = strtoull(row_get(r, col), NULL, 16);
	if (!(text = file_text(report, 16u << 20))) { /* the line table comes first, before the Pareto */
		snprintf(why, sizeof(why), "cannot read %.200s", report);
		hitm_na(r, why);
		return;
	}
	long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE); /* perf recorded on this machine: its line size */
	int rc = c2c_table_hitm(text, addr, line > 0 ? (unsigned long long)line : 64, &h, why, sizeof(why));
	free(text);
	if (rc == 1)
		snprintf(why, sizeof(why), "the line of %s 0x%llx is not in perf's Shared Data Cache Line Table (no HITM sample, or under perf's display limit)",
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

void perfc2c_stop(struct perfc2c *p, struct row *r)
{
	char err[1300];
	snprintf(err, sizeof(err), "%s.err", p->data);
	if (p->pid > 0) {
		int st = 0;
		kill(p->pid, SIGINT);
		waitpid(p->pid, &st, 0);
		p->pid = 0;
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			first_err_line(err, "perf c2c record", p->why, sizeof(p->why));
	}
	if (!p->why[0]) { /* the header: the line the row records, then perf's own report */
		FILE *f = fopen(p->report, "w");
		if (f) {
			fprintf(f, "# c2cbench --perf-c2c: the row's contended line(s):");
			static const char *const cols[] = { "work_addr", "meta_addr", "line_addr" };
			for (size_t i = 0; i < ARRAY_SIZE(cols); i++)
				if (row_get(r, cols[i]))
					fprintf(f, " %s=%s", cols[i], row_get(r, cols[i]));
			fprintf(f, "\n");
			fclose(f);
		}
		const char *argv[] = { "perf", "c2c", "report", "-i", p->data, "--stdio", NULL };
		int st = 0;
		pid_t k = f ? spawn_perf(argv, p->report, err, p->why, sizeof(p->why)) : -1;
		if (!f)
			snprintf(p->why, sizeof(p->why), "cannot write %.200s: %s", p->report, strerror(errno));
		else if (k > 0 && (waitpid(k, &st, 0) != k || !WIFEXITED(st) || WEXITSTATUS(st)))
			first_err_line(err, "perf c2c report", p->why, sizeof(p->why));
	}
	unlink(err);
	unlink(p->data); /* the report is what is kept; perf.data of a long run is large */
	if (p->why[0]) {
		unlink(p->report);
		perfc2c_na(r, p->why);
	} else {
		const char *base = strrchr(p->report, '/');
		row_set(r, "perf_c2c_report", "%s", base ? base + 1 : p->report);
		perfc2c_hitm_to_row(p->report, r);
	}
}

#include "runner/preset_child.h"
#include "harness/signals.h"
#include "lib/util.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* This binary; C2C_SELF_EXEC names another program that runs it (the arm64 test run: a qemu-aarch64
 * wrapper, where the kernel has no binfmt entry to run an aarch64 binary by itself). */
const char *self_exe(void)
{
	static char exe[PATH_MAX];
	const char *via = getenv("C2C_SELF_EXEC");
	if (via && *via)
		return via;
	ssize_t l = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[l > 0 ? l : 0] = 0;
	return exe;
}

/* Start `c2cbench run BENCH args... extra...` with stdout and stderr on pipes. */
static pid_t spawn(const struct preset_run *r, const char *const *extra, int *fo, int *fe)
{
	const char *argv[PRESET_ARGS_MAX + 16];
	int n = 0, po[2], pe[2];
	argv[n++] = "c2cbench";
	argv[n++] = "run";
	argv[n++] = r->bench;
	for (int i = 0; i < r->nargs; i++)
		argv[n++] = r->argv[i];
	for (int i = 0; extra[i]; i++)
		argv[n++] = extra[i];
	argv[n] = NULL;
	if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC))
		die(1, "cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t parent = getpid(), pid = fork();
	if (pid < 0)
		die(1, "cannot fork: %s", strerror(errno));
	if (pid == 0) {
		/* Signals reach the run through this process only (it forwards them), exactly once,
		 * even from a terminal; and the run stops (SIGTERM) if this process dies. */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(128 + SIGTERM);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		execv(self_exe(), (char *const *)argv);
		fprintf(stderr, "c2cbench: error: cannot execute %s: %s\n", self_exe(),
			strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	*fo = po[0];
	*fe = pe[0];
	return pid;
}

static int wait_status(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* The one reader of a child's two pipes: until both close, each chunk goes to io->sink. */
static void pump(int fo, int fe, const struct child_io *io)
{
	struct pollfd p[2] = { { fo, POLLIN, 0 }, { fe, POLLIN, 0 } };
	int open_fds = 2;
	while (open_fds) {
		if (io->tick)
			io->tick(io->arg);
		int k = poll(p, 2, io->tick ? io->tick_ms : -1);
		if (k < 0 && errno != EINTR)
			break;
		for (int j = 0; j < 2 && k > 0; j++) {
			if (p[j].fd < 0 || !p[j].revents)
				continue;
			char buf[4096];
			ssize_t got = read(p[j].fd, buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(p[j].fd);
				p[j].fd = -1;
				open_fds--;
				continue;
			}
			io->sink(io->arg, j, buf, (size_t)got);
		}
	}
}

int child_run(const struct preset_run *r, const char *const *extra, int forward_signals,
	      const struct child_io *io)
{
	int fo, fe;
	pid_t pid = spawn(r, extra, &fo, &fe);
	if (forward_signals)
		signals_forward(pid);
	pump(fo, fe, io);
	int st = wait_status(pid);
	if (forward_signals)
		signals_forward(0);
	return st;
}

struct captured {
	char *buf[2];
	size_t k[2];
};

/* Keep the start of each stream; the rest is dropped (a dry run says what matters first). */
static void keep(void *arg, int stream, const char *buf, size_t n)
{
	struct captured *c = arg;
	size_t room = CAPTURE_MAX - 1 - c->k[stream], take = n < room ? n : room;
	memcpy(c->buf[stream] + c->k[stream], buf, take);
	c->k[stream] += take;
}

int child_capture(const struct preset_run *r, const char *const *extra, char *out, char *err)
{
	struct captured c = { { out, err }, { 0, 0 } };
	struct child_io io = { keep, NULL, 0, &c };
	int st = child_run(r, extra, 0, &io);
	out[c.k[0]] = 0;
	err[c.k[1]] = 0;
	return st;
}

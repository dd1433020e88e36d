/* Running Slurm's client tools: argv only (no shell), each in its own process group with a time
 * limit, stdout and stderr captured apart for one-line messages. A tool that hangs, or a c2cbench
 * stopped by SIGINT/SIGTERM/SIGHUP, has its whole process group killed: nothing is left behind. */
#include "runner/slurm.h"
#include "lib/parse.h"
#include "lib/util.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop_sig;
static long timeout_s = FLEET_TIMEOUT_DEFAULT;

static void on_stop(int sig)
{
	stop_sig = sig;
}

void fleet_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop; /* no SA_RESTART: a blocked poll or sleep returns at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int fleet_stopped(void)
{
	return stop_sig;
}

int fleet_timeout_init(char *err)
{
	const char *v = getenv("C2C_SLURM_TIMEOUT");
	if (v && parse_long_in(v, 1, 3600, &timeout_s))
		return err_set(err,
			       "C2C_SLURM_TIMEOUT '%s' is not accepted; accepted: whole seconds "
			       "from 1 to 3600 (default %d)",
			       v, FLEET_TIMEOUT_DEFAULT);
	return 0;
}

long fleet_timeout(void)
{
	return timeout_s;
}

/* Append what fd holds now to buf (cut at n - 1, the rest drained): 1 when it read something,
 * -1 when nothing is there yet, 0 at end of file. */
static int drain(int fd, char *buf, size_t n, size_t *k)
{
	char chunk[4096];
	ssize_t r = read(fd, chunk, sizeof(chunk));
	if (r < 0)
		return errno == EINTR || errno == EAGAIN ? -1 : 0;
	for (ssize_t i = 0; i < r && *k + 1 < n; i++)
		buf[(*k)++] = chunk[i];
	buf[*k] = 0;
	return r > 0;
}

static pid_t start(char *const argv[], int out, int err)
{
	pid_t pid = fork();
	if (pid == 0) {
		setpgid(0,
			0); /* its own group: the terminal's ^C reaches c2cbench, which kills it */
		dup2(out, 1);
		dup2(err, 2);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid > 0)
		setpgid(pid, pid); /* both sides set it: no window where a kill misses the group */
	return pid;
}

int fleet_exec(char *const argv[], char *out, size_t n, char *err, size_t en, int flags)
{
	int po[2], pe[2];
	size_t ko = 0, ke = 0;
	if (n)
		out[0] = 0;
	if (en)
		err[0] = 0;
	if (stop_sig && !(flags & FLEET_EVEN_IF_STOPPED))
		return FLEET_INTERRUPTED;
	if (pipe2(po, O_CLOEXEC))
		return 127;
	if (pipe2(pe, O_CLOEXEC)) {
		close(po[0]);
		close(po[1]);
		return 127;
	}
	pid_t pid = start(argv, po[1], pe[1]);
	close(po[1]);
	close(pe[1]);
	if (pid < 0) {
		close(po[0]);
		close(pe[0]);
		return 127;
	}
	fcntl(po[0], F_SETFL, O_NONBLOCK);
	fcntl(pe[0], F_SETFL, O_NONBLOCK);
	uint64_t deadline = now_ns() + (uint64_t)timeout_s * 1000000000ull;
	int st = 0, rc = 0, exited = 0, open_o = 1, open_e = 1;
	while (!exited) {
		struct pollfd p[2] = { { open_o ? po[0] : -1, POLLIN, 0 },
				       { open_e ? pe[0] : -1, POLLIN, 0 } };
		poll(p, 2, 50);
		if (open_o && p[0].revents)
			open_o = drain(po[0], out, n, &ko) != 0;
		if (open_e && p[1].revents)
			open_e = drain(pe[0], err, en, &ke) != 0;
		pid_t w = waitpid(pid, &st, WNOHANG);
		if (w == pid)
			exited = 1;
		else if ((stop_sig && !(flags & FLEET_EVEN_IF_STOPPED)) || now_ns() > deadline) {
			rc = stop_sig && !(flags & FLEET_EVEN_IF_STOPPED) ? FLEET_INTERRUPTED
									  : FLEET_TIMED_OUT;
			kill(-pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			exited = 1;
		}
	}
	kill(-pid, SIGKILL); /* whatever it left running in its group goes with it */
	while (open_o && drain(po[0], out, n, &ko) > 0) /* what is there now: a grandchild that */
		; /* left the group may hold the pipe */
	while (open_e && drain(pe[0], err, en, &ke) > 0)
		;
	close(po[0]);
	close(pe[0]);
	if (rc)
		return rc;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void fleet_exec_why(int rc, const char *out, const char *err, char *why, size_t n)
{
	const char *text = err && err[strspn(err, " \t\r\n")] ? err : out ? out : "";
	text += strspn(text, " \t\r\n");
	int len = (int)strcspn(text, "\r\n");
	if (len > 300)
		len = 300;
	if (rc == FLEET_TIMED_OUT)
		snprintf(why, n, "no answer in %ld s (C2C_SLURM_TIMEOUT), killed", timeout_s);
	else if (rc == FLEET_INTERRUPTED)
		snprintf(why, n, "c2cbench was interrupted (signal %d)", (int)stop_sig);
	else if (rc == 127 && !len)
		snprintf(why, n, "could not be started");
	else if (rc > 128 && rc < 128 + 65)
		snprintf(why, n, "killed by signal %d%s%.*s", rc - 128, len ? ": " : "", len, text);
	else if (len)
		snprintf(why, n, "%.*s", len, text);
	else
		snprintf(why, n, "exit %d and no message", rc);
}

int fleet_have(const char *prog)
{
	const char *path = getenv("PATH");
	char dir[4096];
	if (!path || !*path)
		path = "/usr/bin:/bin";
	while (*path) { /* the same search execvp makes, so "missing" is told before anything is
			   submitted */
		size_t len = strcspn(path, ":");
		snprintf(dir, sizeof(dir), "%.*s/%s", (int)len, len ? path : ".", prog);
		struct stat st;
		if (!stat(dir, &st) && S_ISREG(st.st_mode) && !access(dir, X_OK))
			return 1;
		path += len + (path[len] == ':');
	}
	return 0;
}

/* Running Slurm's client tools: argv only (no shell), output captured for one-line messages. */
#include "runner/slurm.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int fleet_exec(char *const argv[], char *out, size_t n)
{
	int fd[2];
	if (n)
		out[0] = 0;
	if (pipe2(fd, O_CLOEXEC))
		return 127;
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return 127;
	}
	if (pid == 0) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	size_t k = 0;
	char buf[4096];
	ssize_t r;
	while ((r = read(fd[0], buf, sizeof(buf))) > 0 || (r < 0 && errno == EINTR)) {
		for (ssize_t i = 0; i < r && k + 1 < n; i++) /* keep what fits, drain the rest */
			out[k++] = buf[i];
	}
	if (n)
		out[k] = 0;
	close(fd[0]);
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
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

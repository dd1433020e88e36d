#include "analysis/gnuplot.h"
#include "lib/util.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int gnuplot_find(char *err)
{
	const char *path = getenv("PATH");
	char *dirs = xstrdup(path ? path : ""), *save = NULL;
	int found = 0;
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char f[PATH_MAX];
		snprintf(f, sizeof(f), "%s/gnuplot", *d ? d : ".");
		found = access(f, X_OK) == 0;
	}
	free(dirs);
	if (!found)
		return err_set(
		    err,
		    "report draws its plots with gnuplot, and no gnuplot was found on PATH "
		    "(%.200s); install it (Debian: apt-get install gnuplot-nox) or add it to PATH",
		    path ? path : "unset");
	return 0;
}

int gnuplot_run(const char *dir, const char *script, char *err)
{
	char log[PATH_MAX];
	snprintf(log, sizeof(log), "%s/gnuplot.log", dir);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return err_set(err, "cannot fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || chdir(dir))
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		char line[300] = "";
		FILE *f = fopen(log, "r");
		if (f) {
			while (fgets(line, sizeof(line), f) && (line[0] == '\n' || line[0] == ' '))
				;
			fclose(f);
		}
		line[strcspn(line, "\n")] = 0;
		return err_set(err, "gnuplot failed (%s %d): %s; see %s",
			       WIFEXITED(st) ? "exit" : "signal",
			       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
			       line[0] ? line : "no message", log);
	}
	return 0;
}

#include "signals.h"
#include "util.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal;
static volatile pid_t forward_to; /* a child run of `c2cbench preset`, or 0 */

/* Rows are written by single write() calls, so exiting here can never leave half a row. */
static void on_signal(int sig)
{
	pid_t child = forward_to;
	if (child > 0) /* `kill PID` reaches only this process: the child run must stop the same way */
		kill(child, sig);
	if (stop_signal)
		_exit(128 + sig);
	stop_signal = sig;
	static const char msg[] = "\nc2cbench: interrupted: finishing the rows already measured (again to quit now)\n";
	ssize_t w = write(2, msg, sizeof(msg) - 1);
	(void)w;
}

void signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

void signals_forward(pid_t pid)
{
	forward_to = pid;
	if (pid > 0 && stop_signal) /* the signal came before the child was known */
		kill(pid, stop_signal);
}

int signals_pending(void)
{
	return stop_signal;
}

int sleep_or_stop(uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	while (!stop_signal) {
		uint64_t now = now_ns();
		if (now >= end)
			return 0;
		uint64_t left = end - now;
		sleep_ns(left < 20000000 ? left : 20000000); /* wake at least every 20 ms to notice a signal */
	}
	return 1;
}

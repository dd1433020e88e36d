#include "harness/signals.h"
#include "harness/progress.h"
#include "lib/util.h"
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Lock-free atomics, not just volatile: the kernel may run the handler on any thread, a measuring
 * thread included, so two handlers (two signals) can touch these at once. */
static int stop_signal;
static pid_t forward_to; /* a child run of `c2cbench preset`, or 0 */

/* Rows are written by single write() calls, so exiting here can never leave half a row. */
static void on_signal(int sig)
{
	pid_t child = __atomic_load_n(&forward_to, __ATOMIC_SEQ_CST);
	if (child >
	    0) /* `kill PID` reaches only this process: the child run must stop the same way */
		kill(child, sig);
	int first = 0;
	if (!__atomic_compare_exchange_n(&stop_signal, &first, sig, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST)) {
		if (sig == SIGPIPE || sig == SIGXFSZ)
			return; /* every further write raises these again: only a person's second
				   signal quits now */
		_exit(128 + sig);
	}
	static const char msg[] =
	    "\nc2cbench: interrupted: finishing the rows already measured (again to quit now)\n";
	ssize_t w = write(2, msg, sizeof(msg) - 1);
	(void)w;
}

void signals_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* A closed terminal (HUP), a reader gone (PIPE: `| head`) and a file-size limit (XFSZ: the
	 * write then fails with EFBIG and is cut back) stop the run like SIGTERM: whole rows,
	 * marked interrupted. */
	const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void signals_forward(pid_t pid)
{
	__atomic_store_n(&forward_to, pid, __ATOMIC_SEQ_CST);
	if (pid > 0 && signals_pending()) /* the signal came before the child was known */
		kill(pid, signals_pending());
}

int signals_pending(void)
{
	return __atomic_load_n(&stop_signal, __ATOMIC_SEQ_CST);
}

int sleep_or_stop(uint64_t ns)
{
	uint64_t end = now_ns() + ns;
	while (!signals_pending()) {
		uint64_t now = now_ns();
		if (now >= end)
			return 0;
		uint64_t left = end - now;
		sleep_ns(left < 20000000
			     ? left
			     : 20000000); /* wake at least every 20 ms to notice a signal */
		progress_tick(); /* the controlling thread's live line, about once a second; nothing
				    elsewhere */
	}
	return 1;
}

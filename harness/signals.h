/* SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGXFSZ: stop measuring, keep every whole row already written,
 * leave no partial row. */
#ifndef C2C_SIGNALS_H
#define C2C_SIGNALS_H
#include <stdint.h>
#include <sys/types.h>

/* The first of these signals asks the run to stop; a second INT, TERM or HUP exits at once (status
 * 128+first signal); PIPE and XFSZ repeat on every write and never quit at once. */
void signals_install(void);
/* Pass these signals on to this child (0: to none); one already received is passed at once. */
void signals_forward(pid_t pid);
/* The signal that asked to stop, or 0. */
int signals_pending(void);
/* Sleep ns, returning early (1) when a stop was asked for; meanwhile this thread's progress line
 * (progress_ticker) is redrawn about once a second. */
int sleep_or_stop(uint64_t ns);
#endif

/* SIGINT/SIGTERM: stop measuring, keep every whole row already written, leave no partial row. */
#ifndef C2C_SIGNALS_H
#define C2C_SIGNALS_H
#include <stdint.h>
#include <sys/types.h>

/* First SIGINT/SIGTERM asks the run to stop; a second one exits at once (status 128+signal). */
void signals_install(void);
/* Pass SIGINT/SIGTERM on to this child (0: to none); one already received is passed at once. */
void signals_forward(pid_t pid);
/* The signal that asked to stop, or 0. */
int signals_pending(void);
/* Sleep ns, returning early (1) when a stop was asked for. */
int sleep_or_stop(uint64_t ns);
#endif
